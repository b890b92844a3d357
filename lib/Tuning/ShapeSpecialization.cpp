//===- ShapeSpecialization.cpp - Tune dynamic shapes at given sizes -------===//

#include "tuner/Tuning/ShapeSpecialization.h"
#include "tuner/Analysis/AffineDependences.h"
#include "tuner/Analysis/ProgramAnalysis.h"
#include "tuner/Schedule/ApplySchedule.h"
#include "tuner/Target/Target.h"

#include "mlir/Dialect/Affine/Analysis/AffineAnalysis.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Affine/LoopUtils.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"

using namespace mlir;
using namespace tuner;

//===----------------------------------------------------------------------===//
// The option
//===----------------------------------------------------------------------===//

static std::string joinSizes(llvm::ArrayRef<int64_t> sizes) {
  std::string text;
  for (auto [i, size] : llvm::enumerate(sizes))
    text +=
        (i ? "x" : "") +
        (ShapedType::isDynamic(size) ? std::string("?") : std::to_string(size));
  return text;
}

std::string ShapeSet::str() const {
  std::string text;
  for (const auto &[index, sizes] : arguments)
    text += (text.empty() ? "" : ",") + ("arg" + std::to_string(index)) + "=" +
            joinSizes(sizes);
  return text;
}

/// "arg<N>" -> N.
static llvm::Expected<unsigned> parseArgumentName(llvm::StringRef name,
                                                  llvm::StringRef where) {
  unsigned index;
  llvm::StringRef digits = name;
  if (!digits.consume_front("arg") || digits.empty() ||
      digits.getAsInteger(10, index))
    return llvm::createStringError(
        where + ": '" + name +
        "' does not name an argument (write arg<N>, N counting the "
        "function's arguments from 0)");
  return index;
}

static llvm::Error addArgument(ShapeSet &set, unsigned index,
                               std::vector<int64_t> sizes,
                               llvm::StringRef where) {
  if (sizes.empty())
    return llvm::createStringError(where + ": arg" + llvm::Twine(index) +
                                   " has no sizes");
  for (int64_t size : sizes)
    if (size < 1)
      return llvm::createStringError(where + ": arg" + llvm::Twine(index) +
                                     " has size " + llvm::Twine(size) +
                                     "; sizes must be positive");
  if (!set.arguments.emplace(index, std::move(sizes)).second)
    return llvm::createStringError(where + ": arg" + llvm::Twine(index) +
                                   " is given twice");
  return llvm::Error::success();
}

static llvm::Expected<ShapeSet> parseInline(llvm::StringRef text) {
  ShapeSet set;
  llvm::SmallVector<llvm::StringRef> entries;
  text.split(entries, ',');
  for (llvm::StringRef entry : entries) {
    entry = entry.trim();
    std::string where = "shapes entry '" + entry.str() + "'";
    auto [name, value] = entry.split('=');
    if (value.empty() || !entry.contains('='))
      return llvm::createStringError(
          where + ": expected arg<N>=<size>x<size>... (e.g. arg0=64x48)");
    llvm::Expected<unsigned> index = parseArgumentName(name.trim(), where);
    if (!index)
      return index.takeError();
    llvm::SmallVector<llvm::StringRef> dims;
    value.trim().split(dims, 'x');
    std::vector<int64_t> sizes;
    for (llvm::StringRef dim : dims) {
      int64_t size;
      if (dim.trim().getAsInteger(10, size))
        return llvm::createStringError(
            where + ": '" + dim +
            "' is not a size (every dimension needs a number: the tuner "
            "measures at static sizes)");
      sizes.push_back(size);
    }
    if (llvm::Error error = addArgument(set, *index, std::move(sizes), where))
      return std::move(error);
  }
  return set;
}

static llvm::Expected<ShapeSet> parseJSONSet(const llvm::json::Value &value,
                                             llvm::StringRef where) {
  const llvm::json::Object *object = value.getAsObject();
  if (!object)
    return llvm::createStringError(
        where + ": expected an object such as {\"arg0\": [64, 48]}");
  ShapeSet set;
  for (const auto &[key, sizesValue] : *object) {
    std::string at = (where + ", \"" + key.str() + "\"").str();
    llvm::Expected<unsigned> index = parseArgumentName(key, at);
    if (!index)
      return index.takeError();
    const llvm::json::Array *array = sizesValue.getAsArray();
    if (!array)
      return llvm::createStringError(
          at + ": expected a list of sizes, e.g. [64, 48]");
    std::vector<int64_t> sizes;
    for (const llvm::json::Value &size : *array) {
      std::optional<int64_t> integer = size.getAsInteger();
      if (!integer)
        return llvm::createStringError(at + ": sizes must be integers");
      sizes.push_back(*integer);
    }
    if (llvm::Error error = addArgument(set, *index, std::move(sizes), at))
      return std::move(error);
  }
  return set;
}

llvm::Expected<std::vector<ShapeSet>>
tuner::parseShapeSets(llvm::StringRef text) {
  text = text.trim();
  if (text.empty())
    return llvm::createStringError("shapes: no sizes given");
  if (!text.consume_front("@")) {
    llvm::Expected<ShapeSet> set = parseInline(text);
    if (!set)
      return set.takeError();
    return std::vector<ShapeSet>{std::move(*set)};
  }
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buffer =
      llvm::MemoryBuffer::getFile(text);
  if (!buffer)
    return llvm::createStringError("cannot read the shapes file '" + text +
                                   "': " + buffer.getError().message());
  llvm::Expected<llvm::json::Value> json =
      llvm::json::parse((*buffer)->getBuffer());
  if (!json)
    return llvm::createStringError(
        "the shapes file '" + text +
        "' is not JSON: " + llvm::toString(json.takeError()));
  const llvm::json::Array *sets = json->getAsArray();
  if (const llvm::json::Object *object = json->getAsObject())
    sets = object->getArray("shapes");
  if (!sets || sets->empty())
    return llvm::createStringError(
        "the shapes file '" + text +
        "' must hold a non-empty list of shape sets (or an object whose "
        "\"shapes\" is one), each like {\"arg0\": [64, 48]}");
  std::vector<ShapeSet> result;
  for (auto [i, value] : llvm::enumerate(*sets)) {
    llvm::Expected<ShapeSet> set = parseJSONSet(
        value, "shapes file '" + text.str() + "', set #" + std::to_string(i));
    if (!set)
      return set.takeError();
    result.push_back(std::move(*set));
  }
  return result;
}

//===----------------------------------------------------------------------===//
// Checks
//===----------------------------------------------------------------------===//

static bool isDynamicShaped(Type type) {
  auto shaped = dyn_cast<ShapedType>(type);
  return shaped && shaped.hasRank() && !shaped.hasStaticShape();
}

bool tuner::hasDynamicShapes(func::FuncOp func) {
  FunctionType type = func.getFunctionType();
  return llvm::any_of(type.getInputs(), isDynamicShaped) ||
         llvm::any_of(type.getResults(), isDynamicShaped);
}

/// The argument of `func` that `value` is, through casts.
static std::optional<unsigned> argumentOf(func::FuncOp func, Value value) {
  while (Operation *def = value.getDefiningOp()) {
    if (!isa<tensor::CastOp, memref::CastOp>(def))
      return std::nullopt;
    value = def->getOperand(0);
  }
  auto argument = dyn_cast<BlockArgument>(value);
  if (!argument || argument.getOwner() != &func.getBody().front())
    return std::nullopt;
  return argument.getArgNumber();
}

/// "64x?" with every dynamic size written as its placeholder.
static std::string exampleSizes(ShapedType type) {
  std::string text;
  for (auto [i, size] : llvm::enumerate(type.getShape()))
    text += (i ? "x" : "") + (ShapedType::isDynamic(size)
                                  ? "<d" + std::to_string(i) + ">"
                                  : std::to_string(size));
  return text;
}

LogicalResult tuner::checkShapeSet(func::FuncOp func, const ShapeSet &shapes) {
  FunctionType type = func.getFunctionType();
  std::string name = "@" + func.getSymName().str();
  bool ok = true;
  for (const auto &[index, sizes] : shapes.arguments)
    if (index >= type.getNumInputs()) {
      emitError(func.getLoc())
          << "shapes=: arg" << index << " is given, but " << name << " has "
          << type.getNumInputs() << " arguments";
      ok = false;
    }
  Block &entry = func.getBody().front();
  for (auto [index, input] : llvm::enumerate(type.getInputs())) {
    Location loc = entry.getArgument(index).getLoc();
    auto shaped = dyn_cast<ShapedType>(input);
    auto given = shapes.arguments.find(index);
    if (given == shapes.arguments.end()) {
      if (isDynamicShaped(input)) {
        emitError(loc) << "argument #" << index << " of " << name
                       << " has dynamic type " << input
                       << ": give the sizes to tune for with the shapes "
                          "option, e.g. shapes=arg"
                       << index << "=" << exampleSizes(shaped);
        ok = false;
      }
      continue;
    }
    if (!shaped || !shaped.hasRank() ||
        !isa<RankedTensorType, MemRefType>(shaped)) {
      emitError(loc) << "shapes=: arg" << index << " is given, but argument #"
                     << index << " of " << name << " has type " << input
                     << ", not a ranked tensor or memref";
      ok = false;
      continue;
    }
    const std::vector<int64_t> &sizes = given->second;
    if (int64_t(sizes.size()) != shaped.getRank()) {
      emitError(loc) << "shapes=: arg" << index << "=" << joinSizes(sizes)
                     << " has " << sizes.size() << " dimensions, but argument #"
                     << index << " of " << name << " has type " << input
                     << " (rank " << shaped.getRank() << ")";
      ok = false;
      continue;
    }
    for (auto [dim, size] : llvm::enumerate(shaped.getShape()))
      if (!ShapedType::isDynamic(size) && size != sizes[dim]) {
        emitError(loc) << "shapes=: arg" << index << "=" << joinSizes(sizes)
                       << " gives dimension " << dim << " the size "
                       << sizes[dim] << ", but argument #" << index << " of "
                       << name << " has type " << input << ", where it is "
                       << size;
        ok = false;
      }
  }
  if (!ok)
    return failure();

  // The sizes must agree where an op ties them: every operand dimension
  // indexed by the same loop of a linalg op has that loop's extent.
  WalkResult walk = func.walk([&](linalg::LinalgOp op) {
    struct Source {
      int64_t size;
      std::string what;
    };
    std::map<unsigned, Source> loops;
    for (OpOperand &operand : op->getOpOperands()) {
      auto shaped = dyn_cast<ShapedType>(operand.get().getType());
      if (!shaped || !shaped.hasRank())
        continue;
      std::optional<unsigned> argument = argumentOf(func, operand.get());
      const std::vector<int64_t> *given = nullptr;
      if (argument) {
        auto found = shapes.arguments.find(*argument);
        if (found != shapes.arguments.end() &&
            int64_t(found->second.size()) == shaped.getRank())
          given = &found->second;
      }
      AffineMap map = op.getMatchingIndexingMap(&operand);
      for (auto [dim, expr] : llvm::enumerate(map.getResults())) {
        auto loop = dyn_cast<AffineDimExpr>(expr);
        if (!loop || int64_t(dim) >= shaped.getRank())
          continue;
        int64_t size = given ? (*given)[dim] : shaped.getDimSize(dim);
        if (ShapedType::isDynamic(size))
          continue;
        std::string what =
            argument ? llvm::formatv("argument #{0} (arg{0}) dimension {1}",
                                     *argument, dim)
                           .str()
                     : llvm::formatv("operand #{0} dimension {1}",
                                     operand.getOperandNumber(), dim)
                           .str();
        auto [it, inserted] =
            loops.emplace(loop.getPosition(), Source{size, what});
        if (!inserted && it->second.size != size) {
          emitError(op->getLoc())
              << "shapes=" << shapes.str() << " disagrees with "
              << op->getName() << ": its loop d" << loop.getPosition() << " is "
              << it->second.size << " by " << it->second.what << " but " << size
              << " by " << what;
          return WalkResult::interrupt();
        }
      }
    }
    return WalkResult::advance();
  });
  return failure(walk.wasInterrupted());
}

//===----------------------------------------------------------------------===//
// Specialization
//===----------------------------------------------------------------------===//

/// The static type of an argument of type `type` at `sizes`.
static Type staticTypeOf(Type type, llvm::ArrayRef<int64_t> sizes) {
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    return RankedTensorType::get(sizes, tensor.getElementType(),
                                 tensor.getEncoding());
  auto memref = cast<MemRefType>(type);
  return MemRefType::get(sizes, memref.getElementType(),
                         MemRefLayoutAttrInterface(), memref.getMemorySpace());
}

static Value castTo(OpBuilder &builder, Location loc, Value value, Type type) {
  if (value.getType() == type)
    return value;
  if (isa<RankedTensorType>(type))
    return tensor::CastOp::create(builder, loc, type, value);
  return memref::CastOp::create(builder, loc, type, value);
}

static bool castCompatible(Type from, Type to) {
  if (isa<RankedTensorType>(from))
    return tensor::CastOp::areCastCompatible(TypeRange{from}, TypeRange{to});
  return memref::CastOp::areCastCompatible(TypeRange{from}, TypeRange{to});
}

FailureOr<OwningOpRef<ModuleOp>>
tuner::specializeFunction(func::FuncOp func, const ShapeSet &shapes) {
  if (failed(checkShapeSet(func, shapes)))
    return failure();
  MLIRContext *context = func.getContext();
  OwningOpRef<ModuleOp> module = ModuleOp::create(func.getLoc());
  auto clone = cast<func::FuncOp>(func->clone());
  module->push_back(clone);
  Block &entry = clone.getBody().front();
  OpBuilder builder = OpBuilder::atBlockBegin(&entry);
  SmallVector<Type> inputs(clone.getFunctionType().getInputs());
  for (const auto &[index, sizes] : shapes.arguments) {
    BlockArgument argument = entry.getArgument(index);
    Type original = argument.getType();
    Type specialized = staticTypeOf(original, sizes);
    if (specialized == original)
      continue;
    if (!castCompatible(specialized, original)) {
      emitError(argument.getLoc())
          << "shapes=: argument #" << index << " of @" << func.getSymName()
          << " has type " << original << ", which a " << specialized
          << " cannot be cast to";
      return failure();
    }
    argument.setType(specialized);
    Value cast = castTo(builder, argument.getLoc(), argument, original);
    argument.replaceAllUsesExcept(cast, cast.getDefiningOp());
    inputs[index] = specialized;
  }
  clone.setFunctionType(
      FunctionType::get(context, inputs, clone.getFunctionType().getResults()));

  // Canonicalization folds the casts into the ops (linalg ops take static
  // operands, `tensor.dim`/`memref.dim` of a static value fold to constants,
  // `tensor.empty` with constant sizes becomes static), which carries the
  // sizes through the function.
  RewritePatternSet patterns(context);
  for (Dialect *dialect : context->getLoadedDialects())
    dialect->getCanonicalizationPatterns(patterns);
  for (RegisteredOperationName op : context->getRegisteredOperations())
    op.getCanonicalizationPatterns(patterns, context);
  GreedyRewriteConfig config;
  config.setRegionSimplificationLevel(GreedySimplifyRegionLevel::Disabled);
  (void)applyPatternsGreedily(module->getOperation(), std::move(patterns),
                              config);

  // Results that are casts of static values return those values.
  SmallVector<Type> results(clone.getFunctionType().getResults());
  clone.walk([&](func::ReturnOp ret) {
    for (OpOperand &operand : ret->getOpOperands()) {
      Operation *def = operand.get().getDefiningOp();
      if (!isa_and_nonnull<tensor::CastOp, memref::CastOp>(def))
        continue;
      auto source = dyn_cast<ShapedType>(def->getOperand(0).getType());
      if (!source || !source.hasStaticShape())
        continue;
      operand.set(def->getOperand(0));
      results[operand.getOperandNumber()] = source;
    }
  });
  clone.setFunctionType(FunctionType::get(context, inputs, results));

  if (failed(verify(*module))) {
    emitError(func.getLoc())
        << "shapes=" << shapes.str() << ": @" << func.getSymName()
        << " does not verify once specialized at these sizes";
    return failure();
  }
  // Affine bounds must have become constants (or functions of enclosing
  // loops): a bound that still depends on another value (an index
  // argument, a size read from memory) is not given by the sizes.
  WalkResult unboundLoop = clone.walk([&](affine::AffineForOp loop) {
    for (Value operand :
         loop->getOperands().take_front(loop.getNumControlOperands())) {
      if (affine::isAffineInductionVar(operand))
        continue;
      InFlightDiagnostic diag = emitError(loop.getLoc());
      diag << "shapes=" << shapes.str()
           << ": the bounds of this affine.for do not follow from the "
              "arguments' sizes: they depend on ";
      if (auto argument = dyn_cast<BlockArgument>(operand);
          argument && argument.getOwner() == &entry)
        diag << "argument #" << argument.getArgNumber() << " of @"
             << func.getSymName() << " (" << argument.getType() << ")";
      else if (Operation *def = operand.getDefiningOp())
        diag << "a value computed by '" << def->getName() << "'";
      else
        diag << "a value of type " << operand.getType();
      diag << " (affine nests are tuned when their bounds are constants or "
              "affine in dimensions of arguments given in shapes=)";
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  if (unboundLoop.wasInterrupted())
    return failure();
  WalkResult stillDynamic = clone.walk([&](linalg::LinalgOp op) {
    for (OpOperand &operand : op->getOpOperands())
      if (isDynamicShaped(operand.get().getType())) {
        // Point at the op in the user's function, not at the clone.
        emitError(op->getLoc())
            << "shapes=" << shapes.str() << ": operand #"
            << operand.getOperandNumber() << " of " << op->getName()
            << " still has the dynamic type " << operand.get().getType()
            << " at these sizes (its size does not follow from the "
               "arguments' sizes)";
        return WalkResult::interrupt();
      }
    return WalkResult::advance();
  });
  if (stillDynamic.wasInterrupted())
    return failure();
  return std::move(module);
}

std::string tuner::shapeWrapperName(llvm::StringRef name) {
  return ("__tuner_at_shapes_" + name).str();
}

FailureOr<OwningOpRef<ModuleOp>>
tuner::buildShapeWrapperModule(ModuleOp module, func::FuncOp specialized) {
  OwningOpRef<ModuleOp> copy = module.clone();
  auto callee = copy->lookupSymbol<func::FuncOp>(specialized.getSymName());
  std::string wrapperName = shapeWrapperName(specialized.getSymName());
  if (!callee || copy->lookupSymbol(wrapperName)) {
    emitError(specialized.getLoc())
        << "cannot build the measurement wrapper of @"
        << specialized.getSymName();
    return failure();
  }
  MLIRContext *context = module.getContext();
  // Kept out of line, so that the dynamic code is timed rather than a copy
  // that LLVM specializes at the sizes of the call.
  callee->setAttr(
      "passthrough",
      ArrayAttr::get(context, {StringAttr::get(context, "noinline")}));
  OpBuilder builder = OpBuilder::atBlockEnd(copy->getBody());
  Location loc = callee.getLoc();
  FunctionType type = specialized.getFunctionType();
  auto wrapper = func::FuncOp::create(builder, loc, wrapperName, type);
  Block *body = wrapper.addEntryBlock();
  builder.setInsertionPointToStart(body);
  SmallVector<Value> arguments;
  for (auto [argument, original] :
       llvm::zip(body->getArguments(), callee.getFunctionType().getInputs()))
    arguments.push_back(castTo(builder, loc, argument, original));
  auto call = func::CallOp::create(builder, loc, callee, arguments);
  SmallVector<Value> results;
  for (auto [result, wanted] : llvm::zip(call.getResults(), type.getResults()))
    results.push_back(castTo(builder, loc, result, wanted));
  func::ReturnOp::create(builder, loc, results);
  return std::move(copy);
}

//===----------------------------------------------------------------------===//
// What the passes analyze
//===----------------------------------------------------------------------===//

func::FuncOp SpecializedFunction::analyzed(size_t set) const {
  if (modules.empty())
    return original;
  return cast<func::FuncOp>(modules[set].get().getBody()->front());
}

void tuner::registerShapeDialects(DialectRegistry &registry) {
  registry.insert<arith::ArithDialect, memref::MemRefDialect,
                  tensor::TensorDialect>();
}

std::string tuner::shapesAttribute(llvm::ArrayRef<ShapeSet> sets) {
  std::string text;
  for (const ShapeSet &set : sets)
    text += (text.empty() ? "" : ";") + set.str();
  return text;
}

FailureOr<SpecializedFunction>
tuner::specializeForTuning(func::FuncOp func, llvm::StringRef shapesOption) {
  SpecializedFunction result;
  result.original = func;
  if (!shapesOption.trim().empty()) {
    llvm::Expected<std::vector<ShapeSet>> sets = parseShapeSets(shapesOption);
    if (!sets) {
      emitError(func.getLoc())
          << "invalid 'shapes' option: " << llvm::toString(sets.takeError());
      return failure();
    }
    result.shapes = std::move(*sets);
  }
  if (!hasDynamicShapes(func)) {
    // Static: nothing to specialize; the sizes given must still agree.
    for (const ShapeSet &set : result.shapes)
      if (failed(checkShapeSet(func, set)))
        return failure();
    result.shapes.clear();
    return std::move(result);
  }
  if (result.shapes.empty()) {
    // Reports each argument whose sizes are missing.
    if (failed(checkShapeSet(func, ShapeSet())))
      return failure();
    result.shapes.push_back(ShapeSet());
  }
  for (const ShapeSet &set : result.shapes) {
    FailureOr<OwningOpRef<ModuleOp>> specialized =
        specializeFunction(func, set);
    if (failed(specialized))
      return failure();
    result.modules.push_back(std::move(*specialized));
  }
  return std::move(result);
}

SpaceOptions tuner::dynamicSpaceOptions(SpaceOptions options) {
  options.convolution = false;
  options.skew = false;
  return options;
}

LogicalResult tuner::checkDynamicNests(func::FuncOp original,
                                       func::FuncOp specialized) {
  // Schedules find nests by counting linalg ops and outermost affine.for
  // ops in walk order: the specialization must keep them, and the loops of
  // each affine nest.
  auto count = [](func::FuncOp func) {
    std::tuple<unsigned, unsigned, unsigned> counts{0, 0, 0};
    func.walk([&](Operation *op) {
      if (isa<linalg::LinalgOp>(op))
        ++std::get<0>(counts);
      else if (isa<affine::AffineForOp>(op) &&
               !op->getParentOfType<affine::AffineForOp>())
        ++std::get<1>(counts);
      if (isa<affine::AffineForOp>(op))
        ++std::get<2>(counts);
    });
    return counts;
  };
  if (count(original) != count(specialized))
    return emitError(original.getLoc())
           << "specialized at the sizes given, @" << original.getSymName()
           << " has other linalg ops or affine loops than it has (an op "
              "folded away at these sizes): its schedule would not fit it";
  return success();
}

void tuner::restrictToEverySize(ProgramTree &tree, func::FuncOp original) {
  for (LoopNest &nest : tree.nests) {
    if (nest.source != NestSource::Affine || nest.rootLoopId < 0)
      continue;
    auto root =
        dyn_cast_or_null<affine::AffineForOp>(findNestOp(original, nest));
    std::vector<int> band = tree.bandOf(nest.id);
    SmallVector<affine::AffineForOp> loops;
    if (root)
      affine::getPerfectlyNestedLoops(loops, root);
    if (!root || loops.size() < band.size()) {
      // Not the same nest (checkDynamicNests rules this out): keep only
      // what needs no dependence fact.
      nest.legalOrders.resize(std::min<size_t>(nest.legalOrders.size(), 1));
      nest.fullyPermutable = false;
      for (int loopId : band)
        tree.loops[loopId].isParallel = false;
      nest.outerLoopParallel = false;
      continue;
    }
    loops.resize(band.size());
    // The dependences of the dynamic nest, its bounds symbolic: what holds
    // for them holds at every size.
    BandOrderLegality legality(loops);
    llvm::erase_if(nest.legalOrders, [&](const std::vector<int64_t> &order) {
      return !legality.isLegal(order);
    });
    nest.fullyPermutable = nest.fullyPermutable && legality.isFullyPermutable();
    for (auto [loopId, loop] : llvm::zip_equal(band, loops))
      tree.loops[loopId].isParallel =
          tree.loops[loopId].isParallel && affine::isLoopParallel(loop);
    nest.outerLoopParallel = tree.loops[nest.rootLoopId].isParallel;
  }
}

FailureOr<ProgramTree>
tuner::buildAnalyzedTree(const SpecializedFunction &function) {
  FailureOr<ProgramTree> tree = buildProgramTree(function.analyzed());
  if (failed(tree) || !function.isDynamic())
    return tree;
  if (failed(checkDynamicNests(function.original, function.analyzed())))
    return failure();
  restrictToEverySize(*tree, function.original);
  return tree;
}

//===----------------------------------------------------------------------===//
// Measurement at other sizes
//===----------------------------------------------------------------------===//

MeasureOptions tuner::measureOptionsAt(const SpecializedFunction &function,
                                       size_t set, MeasureOptions options) {
  if (options.reductionLength <= 0)
    options.reductionLength = estimateReductionLength(function.analyzed(set));
  return options;
}

llvm::Expected<Measurement>
tuner::measureScriptAt(ModuleOp module, const SpecializedFunction &function,
                       size_t set, llvm::StringRef script,
                       MeasureOptions options) {
  std::string shapes = function.shapes[set].str();
  FailureOr<OwningOpRef<ModuleOp>> wrapped =
      buildShapeWrapperModule(module, function.analyzed(set));
  if (failed(wrapped))
    return llvm::createStringError("cannot build the wrapper at shapes " +
                                   shapes);
  llvm::Expected<std::unique_ptr<Measurer>> measurer = Measurer::create(
      **wrapped, shapeWrapperName(function.analyzed(set).getSymName()),
      Target::host(), measureOptionsAt(function, set, std::move(options)));
  if (!measurer)
    return llvm::createStringError(
        "cannot measure the untransformed function at shapes " + shapes + ": " +
        llvm::toString(measurer.takeError()));
  std::string message;
  ScopedDiagnosticHandler capture(module.getContext(), [&](Diagnostic &d) {
    if (d.getSeverity() == DiagnosticSeverity::Error)
      message += (message.empty() ? "" : "; ") + d.str();
    return success();
  });
  FailureOr<OwningOpRef<ModuleOp>> candidate =
      applyTransformScriptToCopy(**wrapped, script);
  if (failed(candidate)) {
    Measurement failed;
    failed.status = Status::ApplyFailed;
    failed.message = message;
    return failed;
  }
  return (*measurer)->measure(**candidate);
}
