//===- KnobSpace.cpp - Spaces as transform.tune.knob ops ------------------===//

#include "tuner/Space/KnobSpace.h"

#include "mlir/Dialect/Transform/IR/TransformDialect.h"
#include "mlir/Dialect/Transform/IR/TransformOps.h"
#include "mlir/Dialect/Transform/IR/TransformTypes.h"
#include "mlir/Dialect/Transform/TuneExtension/TuneExtension.h"
#include "mlir/Dialect/Transform/TuneExtension/TuneExtensionOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Verifier.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

#include <cmath>

using namespace mlir;
using namespace tuner;
namespace tune = mlir::transform::tune;

static constexpr llvm::StringLiteral kConstraintsAttr = "tuner.constraints";

void tuner::registerKnobDialects(DialectRegistry &registry) {
  registry.insert<transform::TransformDialect>();
  transform::registerTuneExtension(registry);
}

namespace {

/// A knob's options as typed values plus the attributes they came from.
struct KnobOptions {
  Parameter parameter;
  /// options[i] is the attribute for parameter.valueAt(i) ... in the
  /// parameter's canonical order.
  std::vector<std::pair<ParamValue, Attribute>> attributes;
};

/// Whether sorted distinct `values` form a geometric progression: at least
/// three positive numbers, each the previous one times the same ratio (exact
/// for integers, within a relative 1e-6 for reals).
bool isGeometric(const std::vector<ParamValue> &values) {
  if (values.size() < 3 || values.front().asNumber() <= 0)
    return false;
  if (values.front().isInteger()) {
    // v[i] / v[i-1] == v[1] / v[0], without rounding.
    __int128 first = values[0].getInteger(), second = values[1].getInteger();
    for (size_t i = 2; i < values.size(); ++i)
      if (__int128(values[i].getInteger()) * first !=
          __int128(values[i - 1].getInteger()) * second)
        return false;
    return true;
  }
  double ratio = values[1].getReal() / values[0].getReal();
  for (size_t i = 2; i < values.size(); ++i)
    if (std::abs(values[i].getReal() / values[i - 1].getReal() - ratio) >
        1e-6 * ratio)
      return false;
  return true;
}

std::optional<ParamValue::Permutation> asPermutation(Attribute attr) {
  SmallVector<int64_t> elements;
  if (auto dense = dyn_cast<DenseI64ArrayAttr>(attr)) {
    elements.assign(dense.asArrayRef().begin(), dense.asArrayRef().end());
  } else if (auto array = dyn_cast<ArrayAttr>(attr)) {
    for (Attribute element : array) {
      auto integer = dyn_cast<IntegerAttr>(element);
      if (!integer)
        return std::nullopt;
      elements.push_back(integer.getInt());
    }
  } else {
    return std::nullopt;
  }
  SmallVector<int64_t> sorted(elements);
  llvm::sort(sorted);
  for (auto [i, v] : llvm::enumerate(sorted))
    if (v != int64_t(i))
      return std::nullopt;
  return ParamValue::Permutation(elements.begin(), elements.end());
}

/// Interprets the options of a knob; emits a diagnostic at `op` and fails on
/// options the space cannot express.
FailureOr<KnobOptions> interpretOptions(Operation *op, StringRef name,
                                        Attribute options) {
  auto array = dyn_cast<ArrayAttr>(options);
  if (!array || array.empty()) {
    op->emitError() << "knob '" << name
                    << "': options must be a non-empty array attribute";
    return failure();
  }
  KnobOptions result;
  Attribute first = array[0];
  auto fail = [&](Attribute bad) {
    op->emitError() << "knob '" << name << "': option " << bad
                    << " is not of the kind of the first option " << first
                    << " (all options must be integers, floats, booleans, "
                       "strings, or permutations)";
    return failure();
  };
  std::vector<ParamValue> values;
  if (isa<BoolAttr>(first)) {
    for (Attribute a : array) {
      auto b = dyn_cast<BoolAttr>(a);
      if (!b)
        return fail(a);
      result.attributes.push_back({ParamValue::boolean(b.getValue()), a});
    }
    bool hasFalse = false, hasTrue = false;
    for (auto &entry : result.attributes)
      (entry.first.getBoolean() ? hasTrue : hasFalse) = true;
    if (!hasFalse || !hasTrue || result.attributes.size() != 2) {
      op->emitError() << "knob '" << name
                      << "': boolean options must be exactly [false, true]";
      return failure();
    }
    result.parameter = Parameter::boolean(name.str());
  } else if (isa<IntegerAttr>(first) && !isa<BoolAttr>(first)) {
    for (Attribute a : array) {
      auto i = dyn_cast<IntegerAttr>(a);
      if (!i || isa<BoolAttr>(a))
        return fail(a);
      result.attributes.push_back({ParamValue::integer(i.getInt()), a});
      values.push_back(ParamValue::integer(i.getInt()));
    }
  } else if (isa<FloatAttr>(first)) {
    for (Attribute a : array) {
      auto f = dyn_cast<FloatAttr>(a);
      if (!f)
        return fail(a);
      result.attributes.push_back(
          {ParamValue::real(f.getValueAsDouble()), a});
      values.push_back(ParamValue::real(f.getValueAsDouble()));
    }
  } else if (isa<StringAttr>(first)) {
    std::vector<std::string> choices;
    for (Attribute a : array) {
      auto s = dyn_cast<StringAttr>(a);
      if (!s)
        return fail(a);
      result.attributes.push_back({ParamValue::string(s.str()), a});
      choices.push_back(s.str());
    }
    result.parameter = Parameter::categorical(name.str(), choices);
  } else if (asPermutation(first)) {
    std::vector<ParamValue::Permutation> allowed;
    for (Attribute a : array) {
      std::optional<ParamValue::Permutation> p = asPermutation(a);
      if (!p || p->size() != asPermutation(first)->size())
        return fail(a);
      result.attributes.push_back({ParamValue::permutation(*p), a});
      allowed.push_back(*p);
    }
    result.parameter =
        Parameter::permutation(name.str(), allowed.front().size(), allowed);
  } else {
    return fail(first);
  }
  if (!values.empty()) {
    llvm::sort(values);
    if (std::adjacent_find(values.begin(), values.end()) != values.end()) {
      op->emitError() << "knob '" << name << "': options repeat a value";
      return failure();
    }
    result.parameter =
        Parameter::ordinal(name.str(), values, isGeometric(values));
  }
  result.parameter.role = ParamRole::Knob;
  return result;
}

} // namespace

FailureOr<Space>
tuner::spaceFromKnobs(Operation *script,
                      llvm::ArrayRef<std::string> extraConstraints) {
  // Parameters in order of declaration. Several knobs of one name share a
  // parameter only if they declare the same options (or region count) and no
  // two of them select different values.
  std::vector<Parameter> parameters;
  llvm::StringMap<std::pair<size_t, Attribute>> declared;
  std::vector<std::string> constraints;
  // Registers the parameter `name` declared by `op` with `signature`; fails
  // (with an error at `op`) on a conflicting earlier declaration.
  // `makeParameter` is called for the first declaration only.
  auto declare = [&](Operation *op, StringRef what, StringRef name,
                     Attribute signature, StringRef difference,
                     llvm::function_ref<FailureOr<Parameter>()> makeParameter)
      -> FailureOr<Parameter *> {
    auto [it, inserted] =
        declared.try_emplace(name, parameters.size(), signature);
    if (!inserted) {
      if (it->second.second != signature) {
        op->emitError() << what << " '" << name << "' "
                        << (what == "knob" ? "is" : "are")
                        << " declared twice with " << difference;
        return failure();
      }
      return &parameters[it->second.first];
    }
    FailureOr<Parameter> parameter = makeParameter();
    if (failed(parameter))
      return failure();
    parameters.push_back(std::move(*parameter));
    return &parameters.back();
  };
  // Makes `value` (selected by `op`) the default of `parameter`; fails if an
  // earlier declaration selected another value.
  auto setDefault = [&](Operation *op, StringRef what, Parameter &parameter,
                        ParamValue value) -> LogicalResult {
    if (parameter.defaultValue && *parameter.defaultValue != value) {
      op->emitError() << what << " '" << parameter.name << "' "
                      << (what == "knob" ? "is" : "are")
                      << " declared twice with different selected values ("
                      << parameter.defaultValue->str() << " and " << value.str()
                      << ")";
      return failure();
    }
    parameter.defaultValue = std::move(value);
    return success();
  };

  WalkResult walk = script->walk([&](Operation *op) -> WalkResult {
    if (auto list = op->getAttrOfType<ArrayAttr>(kConstraintsAttr)) {
      for (Attribute entry : list) {
        auto text = dyn_cast<StringAttr>(entry);
        if (!text) {
          op->emitError() << "'" << kConstraintsAttr
                          << "' must be an array of strings";
          return WalkResult::interrupt();
        }
        constraints.push_back(text.str());
      }
    }
    if (auto knob = dyn_cast<tune::KnobOp>(op)) {
      // The script may not be verified yet: a knob without a name is left
      // to the verifier.
      if (!knob.getNameAttr())
        return WalkResult::advance();
      StringRef name = knob.getName();
      std::optional<KnobOptions> options;
      FailureOr<Parameter *> parameter =
          declare(knob, "knob", name, knob.getOptions(), "different options",
                  [&]() -> FailureOr<Parameter> {
                    FailureOr<KnobOptions> interpreted =
                        interpretOptions(knob, name, knob.getOptions());
                    if (failed(interpreted))
                      return failure();
                    options = std::move(*interpreted);
                    return options->parameter;
                  });
      if (failed(parameter))
        return WalkResult::interrupt();
      Attribute selected = knob.getSelectedAttr();
      if (!selected)
        return WalkResult::advance();
      if (!options) {
        // A later declaration: its options equal the first one's.
        FailureOr<KnobOptions> interpreted =
            interpretOptions(knob, name, knob.getOptions());
        if (failed(interpreted))
          return WalkResult::interrupt();
        options = std::move(*interpreted);
      }
      // Like the op's verifier, compare attributes (types included).
      auto entry = llvm::find_if(options->attributes, [&](const auto &pair) {
        return pair.second == selected;
      });
      if (entry == options->attributes.end()) {
        knob.emitError() << "knob '" << name << "': selected value " << selected
                         << " is not one of its options " << knob.getOptions();
        return WalkResult::interrupt();
      }
      if (failed(setDefault(knob, "knob", **parameter, entry->first)))
        return WalkResult::interrupt();
    } else if (auto alternatives = dyn_cast<tune::AlternativesOp>(op)) {
      if (!alternatives.getNameAttr())
        return WalkResult::advance();
      StringRef name = alternatives.getName();
      int64_t regions = alternatives->getNumRegions();
      Attribute signature =
          IntegerAttr::get(IntegerType::get(op->getContext(), 64), regions);
      FailureOr<Parameter *> parameter =
          declare(alternatives, "alternatives", name, signature,
                  "different region counts", [&]() -> FailureOr<Parameter> {
                    Parameter result =
                        Parameter::integer(name.str(), 0, regions - 1);
                    result.role = ParamRole::Alternatives;
                    result.description = "index of the selected region";
                    return result;
                  });
      if (failed(parameter))
        return WalkResult::interrupt();
      // A region selected by a param is chosen at run time: no default.
      std::optional<llvm::APInt> selected =
          alternatives.getSelectedRegionAttr();
      if (!selected)
        return WalkResult::advance();
      if (selected->getBitWidth() > 64 || selected->isNegative() ||
          selected->getSExtValue() >= regions) {
        alternatives.emitError()
            << "alternatives '" << name << "': selected region "
            << llvm::toString(*selected, 10, /*Signed=*/true)
            << " is not one of its " << regions << " regions (0 to "
            << regions - 1 << ")";
        return WalkResult::interrupt();
      }
      if (failed(setDefault(alternatives, "alternatives", **parameter,
                            ParamValue::integer(selected->getSExtValue()))))
        return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  if (walk.wasInterrupted())
    return failure();
  // The knobs read, the rest of the script must be valid too.
  if (failed(mlir::verify(script)))
    return failure();
  if (parameters.empty()) {
    script->emitError() << "the script has no transform.tune.knob or "
                           "transform.tune.alternatives op: nothing to tune";
    return failure();
  }
  Space space;
  for (Parameter &parameter : parameters)
    if (llvm::Error err = space.addParameter(std::move(parameter))) {
      script->emitError() << llvm::toString(std::move(err));
      return failure();
    }
  constraints.insert(constraints.end(), extraConstraints.begin(),
                     extraConstraints.end());
  for (const std::string &constraint : constraints)
    if (llvm::Error err = space.addConstraint(constraint)) {
      script->emitError() << llvm::toString(std::move(err));
      return failure();
    }
  space.attributes["source"] = "transform.tune.knob";
  return space;
}

llvm::Error tuner::checkMatchesKnobs(const Space &space, const Space &knobs) {
  for (const Parameter &knob : knobs.getParameters()) {
    std::optional<size_t> index = space.indexOf(knob.name);
    if (!index)
      return llvm::createStringError("knob '" + knob.name +
                                     "' is not a parameter of the space");
    const Parameter &parameter = space[*index];
    if (parameter.kind != knob.kind)
      return llvm::createStringError(
          "parameter '" + knob.name + "' is " +
          stringifyParamKind(parameter.kind) + " in the space but " +
          stringifyParamKind(knob.kind) + " in the knobs");
    if (!parameter.sameDomain(knob))
      return llvm::createStringError(
          "parameter '" + knob.name + "' is " + parameter.describeDomain() +
          " in the space but " + knob.describeDomain() + " in the knobs");
  }
  for (const Parameter &parameter : space.getParameters())
    if (!knobs.indexOf(parameter.name))
      return llvm::createStringError("parameter '" + parameter.name +
                                     "' of the space is not a knob");
  return llvm::Error::success();
}

llvm::Error tuner::selectKnobs(Operation *script, const Space &space,
                               const Config &config) {
  if (llvm::Error err = space.check(config))
    return err;
  llvm::Error result = llvm::Error::success();
  script->walk([&](Operation *op) -> WalkResult {
    if (auto knob = dyn_cast<tune::KnobOp>(op)) {
      std::optional<size_t> index = space.indexOf(knob.getName());
      if (!index) {
        result = llvm::createStringError("knob '" + knob.getName().str() +
                                         "' is not a parameter of the space");
        return WalkResult::interrupt();
      }
      FailureOr<KnobOptions> options =
          interpretOptions(knob, knob.getName(), knob.getOptions());
      if (failed(options)) {
        result = llvm::createStringError("knob '" + knob.getName().str() +
                                         "' has unsupported options");
        return WalkResult::interrupt();
      }
      for (auto &[value, attr] : options->attributes)
        if (value == config[*index]) {
          knob.setSelectedAttr(attr);
          return WalkResult::advance();
        }
      result = llvm::createStringError(
          "knob '" + knob.getName().str() + "': value " + config[*index].str() +
          " is not one of its options");
      return WalkResult::interrupt();
    }
    if (auto alternatives = dyn_cast<tune::AlternativesOp>(op)) {
      std::optional<size_t> index = space.indexOf(alternatives.getName());
      if (!index) {
        result = llvm::createStringError(
            "alternatives '" + alternatives.getName().str() +
            "' are not a parameter of the space");
        return WalkResult::interrupt();
      }
      Builder builder(op->getContext());
      alternatives.setSelectedRegionAttrAttr(
          builder.getIndexAttr(config[*index].getInteger()));
    }
    return WalkResult::advance();
  });
  return result;
}

llvm::Expected<OwningOpRef<ModuleOp>>
tuner::spaceToKnobs(const Space &space, MLIRContext *context) {
  DialectRegistry registry;
  registerKnobDialects(registry);
  context->appendDialectRegistry(registry);
  context->loadDialect<transform::TransformDialect>();

  OpBuilder builder(context);
  Location loc = builder.getUnknownLoc();
  OwningOpRef<ModuleOp> module = ModuleOp::create(loc);
  module->getOperation()->setAttr(
      transform::TransformDialect::kWithNamedSequenceAttrName,
      builder.getUnitAttr());
  builder.setInsertionPointToEnd(module->getBody());
  auto sequence = transform::NamedSequenceOp::create(
      builder, loc, "__tuner_space", TypeAttr::get(builder.getFunctionType({}, {})),
      /*sym_visibility=*/StringAttr(), /*arg_attrs=*/ArrayAttr(),
      /*res_attrs=*/ArrayAttr());
  Block *body = builder.createBlock(&sequence.getBody());
  builder.setInsertionPointToEnd(body);

  Type anyParam = transform::AnyParamType::get(context);
  for (const Parameter &parameter : space.getParameters()) {
    std::optional<uint64_t> size = parameter.domainSize();
    if (!size)
      return llvm::createStringError(
          "parameter '" + parameter.name +
          "' is real-valued: a knob needs a finite list of options");
    if (*size > 100000)
      return llvm::createStringError(
          "parameter '" + parameter.name + "' has " + llvm::Twine(*size) +
          " values: too many to list as knob options");
    SmallVector<Attribute> options;
    Type resultType = anyParam;
    for (uint64_t i = 0; i < *size; ++i) {
      ParamValue value = parameter.valueAt(i);
      if (value.isBoolean()) {
        options.push_back(builder.getBoolAttr(value.getBoolean()));
        resultType = transform::ParamType::get(context, builder.getI1Type());
      } else if (value.isInteger()) {
        options.push_back(builder.getI64IntegerAttr(value.getInteger()));
        resultType = transform::ParamType::get(context, builder.getI64Type());
      } else if (value.isReal()) {
        options.push_back(builder.getF64FloatAttr(value.getReal()));
      } else if (value.isString()) {
        options.push_back(builder.getStringAttr(value.getString()));
      } else {
        options.push_back(builder.getDenseI64ArrayAttr(value.getPermutation()));
      }
    }
    tune::KnobOp::create(builder, loc, resultType,
                         builder.getStringAttr(parameter.name),
                         builder.getArrayAttr(options),
                         /*selected=*/Attribute());
  }
  transform::YieldOp::create(builder, loc);

  SmallVector<Attribute> constraints;
  for (const Constraint &constraint : space.getConstraints())
    constraints.push_back(builder.getStringAttr(constraint.getText()));
  if (!constraints.empty())
    sequence->setAttr(kConstraintsAttr, builder.getArrayAttr(constraints));
  return std::move(module);
}

llvm::Expected<std::vector<std::string>>
tuner::readConstraintsFile(llvm::StringRef path) {
  llvm::Expected<llvm::json::Value> json = readJSONFile(path);
  if (!json)
    return json.takeError();
  const llvm::json::Array *list = json->getAsArray();
  if (!list)
    if (const llvm::json::Object *object = json->getAsObject())
      list = object->getArray("constraints");
  if (!list)
    return llvm::createStringError(
        "'" + path +
        "': expected a list of constraints or an object with a "
        "\"constraints\" list");
  std::vector<std::string> result;
  for (auto [i, entry] : llvm::enumerate(*list)) {
    std::optional<llvm::StringRef> text = entry.getAsString();
    if (!text)
      return llvm::createStringError("'" + path + "': constraint #" +
                                     llvm::Twine(i) + " is not a string");
    result.push_back(text->str());
  }
  return result;
}
