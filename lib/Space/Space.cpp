//===- Space.cpp - Typed, constrained search spaces -----------------------===//
//
// Parameter domains, values, configs, spaces and their JSON forms.
//
//===----------------------------------------------------------------------===//

#include "tuner/Space/Space.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/xxhash.h"

#include <algorithm>
#include <set>
#include <cassert>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

using namespace tuner;
using llvm::Error;
using llvm::Expected;
using llvm::StringRef;
namespace json = llvm::json;

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

static Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

/// The shortest decimal form of `v` that reads back exactly, with a '.' or an
/// exponent so that it never reads as an integer.
static std::string formatReal(double v) {
  if (std::isnan(v))
    return "nan";
  if (std::isinf(v))
    return v < 0 ? "-inf" : "inf";
  char buffer[40];
  for (int precision = 1; precision <= 17; ++precision) {
    std::snprintf(buffer, sizeof(buffer), "%.*g", precision, v);
    if (std::strtod(buffer, nullptr) == v)
      break;
  }
  std::string text(buffer);
  if (text.find_first_of(".eE") == std::string::npos)
    text += ".0";
  return text;
}

/// n! for n <= 20 (the largest that fits in 64 bits).
static uint64_t factorial(int64_t n) {
  assert(n >= 0 && n <= 20 && "factorial out of range");
  uint64_t result = 1;
  for (int64_t i = 2; i <= n; ++i)
    result *= uint64_t(i);
  return result;
}

static constexpr int64_t kMaxFullPermutationSize = 20;

static bool isPermutationOf(const ParamValue::Permutation &p, int64_t size) {
  if (int64_t(p.size()) != size)
    return false;
  std::vector<bool> seen(size, false);
  for (int64_t element : p) {
    if (element < 0 || element >= size || seen[element])
      return false;
    seen[element] = true;
  }
  return true;
}

static std::string joinValues(const std::vector<ParamValue> &values,
                              size_t limit = 16) {
  std::string text = "[";
  for (size_t i = 0; i < values.size() && i < limit; ++i) {
    if (i)
      text += ", ";
    text += values[i].str();
  }
  if (values.size() > limit)
    text += llvm::formatv(", ... ({0} values)", values.size()).str();
  return text + "]";
}

/// Integer bounds of an integer parameter (validated by addParameter).
static int64_t lowerInt(const Parameter &p) { return int64_t(p.lower); }
static int64_t upperInt(const Parameter &p) { return int64_t(p.upper); }

/// Integer bounds are stored as doubles: they must be integers that a double
/// holds exactly.
static constexpr double kMaxIntegerBound = 0x1p53;

static bool isExactInteger(double v) {
  return std::isfinite(v) && std::trunc(v) == v && v >= -kMaxIntegerBound &&
         v <= kMaxIntegerBound;
}

/// Byte sink for structural hashes.
namespace {
class HashBuilder {
public:
  void addByte(uint8_t b) { bytes.push_back(b); }
  void addU64(uint64_t v) {
    for (int i = 0; i < 8; ++i)
      bytes.push_back(uint8_t(v >> (8 * i)));
  }
  void add(const ParamValue &value) {
    if (value.isInteger()) {
      addByte(0);
      addU64(uint64_t(value.getInteger()));
    } else if (value.isReal()) {
      addByte(1);
      double d = value.getReal();
      if (d == 0)
        d = 0; // -0.0 == 0.0, so they must hash alike.
      uint64_t bits;
      std::memcpy(&bits, &d, sizeof(bits));
      addU64(bits);
    } else if (value.isBoolean()) {
      addByte(2);
      addByte(value.getBoolean());
    } else if (value.isString()) {
      addByte(3);
      addU64(value.getString().size());
      bytes.append(value.getString().begin(), value.getString().end());
    } else {
      addByte(4);
      addU64(value.getPermutation().size());
      for (int64_t e : value.getPermutation())
        addU64(uint64_t(e));
    }
  }
  uint64_t finish() const { return llvm::xxh3_64bits(bytes); }

private:
  llvm::SmallVector<uint8_t, 64> bytes;
};
} // namespace

//===----------------------------------------------------------------------===//
// ParamKind
//===----------------------------------------------------------------------===//

StringRef tuner::stringifyParamKind(ParamKind kind) {
  switch (kind) {
  case ParamKind::Ordinal:
    return "ordinal";
  case ParamKind::Integer:
    return "integer";
  case ParamKind::Real:
    return "real";
  case ParamKind::Categorical:
    return "categorical";
  case ParamKind::Boolean:
    return "boolean";
  case ParamKind::Permutation:
    return "permutation";
  }
  llvm_unreachable("unknown ParamKind");
}

std::optional<ParamKind> tuner::parseParamKind(StringRef text) {
  for (ParamKind kind :
       {ParamKind::Ordinal, ParamKind::Integer, ParamKind::Real,
        ParamKind::Categorical, ParamKind::Boolean, ParamKind::Permutation})
    if (text == stringifyParamKind(kind))
      return kind;
  return std::nullopt;
}

//===----------------------------------------------------------------------===//
// ParamRole
//===----------------------------------------------------------------------===//

/// Every role JSON spells, in declaration order.
static constexpr ParamRole kSpelledRoles[] = {
    ParamRole::Tile,     ParamRole::RegisterTile, ParamRole::Order,
    ParamRole::Unroll,   ParamRole::Vectorize,    ParamRole::Parallel,
    ParamRole::Fuse,     ParamRole::Knob,         ParamRole::Alternatives,
    ParamRole::Lowering, ParamRole::Distribute,   ParamRole::Skew,
    ParamRole::Convolution, ParamRole::Partial, ParamRole::GpuBlockTile,
    ParamRole::GpuThreadTile, ParamRole::GpuReductionTile,
    ParamRole::GpuPromote, ParamRole::GpuVectorWidth};

StringRef tuner::stringifyParamRole(ParamRole role) {
  switch (role) {
  case ParamRole::None:
    return "none";
  case ParamRole::Tile:
    return "tile";
  case ParamRole::RegisterTile:
    return "rtile";
  case ParamRole::Order:
    return "order";
  case ParamRole::Unroll:
    return "unroll";
  case ParamRole::Vectorize:
    return "vectorize";
  case ParamRole::Parallel:
    return "parallel";
  case ParamRole::Fuse:
    return "fuse";
  case ParamRole::Knob:
    return "knob";
  case ParamRole::Alternatives:
    return "alternatives";
  case ParamRole::Lowering:
    return "lowering";
  case ParamRole::Distribute:
    return "distribute";
  case ParamRole::Skew:
    return "skew";
  case ParamRole::Convolution:
    return "conv";
  case ParamRole::Partial:
    return "partial";
  case ParamRole::GpuBlockTile:
    return "block";
  case ParamRole::GpuThreadTile:
    return "thread";
  case ParamRole::GpuReductionTile:
    return "reduce";
  case ParamRole::GpuPromote:
    return "promote";
  case ParamRole::GpuVectorWidth:
    return "vector";
  }
  llvm_unreachable("unknown ParamRole");
}

std::optional<ParamRole> tuner::parseParamRole(StringRef text) {
  for (ParamRole role : kSpelledRoles)
    if (text == stringifyParamRole(role))
      return role;
  return std::nullopt;
}

/// The attribute keys that hold a parameter's typed role and target.
static constexpr StringRef kRoleKeys[] = {"role", "nest", "loop", "producer",
                                          "consumer"};

//===----------------------------------------------------------------------===//
// ParamValue
//===----------------------------------------------------------------------===//

double ParamValue::asNumber() const {
  if (isInteger())
    return double(getInteger());
  if (isReal())
    return getReal();
  assert(isBoolean() && "asNumber on a string or a permutation");
  return getBoolean() ? 1.0 : 0.0;
}

std::string ParamValue::str() const {
  if (isInteger())
    return std::to_string(getInteger());
  if (isReal())
    return formatReal(getReal());
  if (isBoolean())
    return getBoolean() ? "true" : "false";
  if (isString())
    return llvm::formatv("{0}", json::Value(getString())).str();
  std::string text = "[";
  llvm::raw_string_ostream os(text);
  llvm::interleave(getPermutation(), os, ", ");
  os << "]";
  return text;
}

json::Value ParamValue::toJSON() const {
  if (isInteger())
    return getInteger();
  if (isReal())
    return getReal();
  if (isBoolean())
    return getBoolean();
  if (isString())
    return getString();
  json::Array array;
  for (int64_t e : getPermutation())
    array.push_back(e);
  return array;
}

uint64_t ParamValue::hash() const {
  HashBuilder builder;
  builder.add(*this);
  return builder.finish();
}

//===----------------------------------------------------------------------===//
// Parameter
//===----------------------------------------------------------------------===//

Parameter Parameter::ordinal(std::string name, std::vector<ParamValue> values,
                             bool logScale) {
  Parameter p;
  p.name = std::move(name);
  p.kind = ParamKind::Ordinal;
  p.values = std::move(values);
  p.logScale = logScale;
  return p;
}

Parameter Parameter::integer(std::string name, int64_t lower, int64_t upper,
                             bool logScale) {
  Parameter p;
  p.name = std::move(name);
  p.kind = ParamKind::Integer;
  p.lower = double(lower);
  p.upper = double(upper);
  p.logScale = logScale;
  return p;
}

Parameter Parameter::real(std::string name, double lower, double upper,
                          bool logScale) {
  Parameter p;
  p.name = std::move(name);
  p.kind = ParamKind::Real;
  p.lower = lower;
  p.upper = upper;
  p.logScale = logScale;
  return p;
}

Parameter Parameter::categorical(std::string name,
                                 std::vector<std::string> choices) {
  Parameter p;
  p.name = std::move(name);
  p.kind = ParamKind::Categorical;
  for (std::string &choice : choices)
    p.values.push_back(ParamValue::string(std::move(choice)));
  return p;
}

Parameter Parameter::boolean(std::string name) {
  Parameter p;
  p.name = std::move(name);
  p.kind = ParamKind::Boolean;
  return p;
}

Parameter Parameter::permutation(std::string name, int64_t size,
                                 std::vector<ParamValue::Permutation> allowed) {
  Parameter p;
  p.name = std::move(name);
  p.kind = ParamKind::Permutation;
  p.permutationSize = size;
  p.allowedPermutations = std::move(allowed);
  return p;
}

bool Parameter::isRealOrdinal() const {
  return kind == ParamKind::Ordinal && !values.empty() && values[0].isReal();
}

bool Parameter::contains(const ParamValue &value) const {
  switch (kind) {
  case ParamKind::Ordinal:
  case ParamKind::Categorical:
    return indexOf(value).has_value();
  case ParamKind::Integer:
    return value.isInteger() && value.getInteger() >= lowerInt(*this) &&
           value.getInteger() <= upperInt(*this);
  case ParamKind::Real:
    return value.isReal() && value.getReal() >= lower &&
           value.getReal() <= upper;
  case ParamKind::Boolean:
    return value.isBoolean();
  case ParamKind::Permutation:
    return indexOf(value).has_value();
  }
  llvm_unreachable("unknown ParamKind");
}

/// "an integer", "a string", ...: the type a value of `p` must have.
static StringRef describeType(const Parameter &p) {
  switch (p.kind) {
  case ParamKind::Ordinal:
    return p.isRealOrdinal() ? "a real number" : "an integer";
  case ParamKind::Integer:
    return "an integer";
  case ParamKind::Real:
    return "a real number";
  case ParamKind::Categorical:
    return "a string";
  case ParamKind::Boolean:
    return "a boolean";
  case ParamKind::Permutation:
    return "a permutation (an array of integers)";
  }
  llvm_unreachable("unknown ParamKind");
}

static bool hasType(const Parameter &p, const ParamValue &value) {
  switch (p.kind) {
  case ParamKind::Ordinal:
    return p.isRealOrdinal() ? value.isReal() : value.isInteger();
  case ParamKind::Integer:
    return value.isInteger();
  case ParamKind::Real:
    return value.isReal();
  case ParamKind::Categorical:
    return value.isString();
  case ParamKind::Boolean:
    return value.isBoolean();
  case ParamKind::Permutation:
    return value.isPermutation();
  }
  llvm_unreachable("unknown ParamKind");
}

/// Checks `value` against `p`; `what` names the value in the message
/// ("value", "default value").
static Error checkValueOf(const Parameter &p, const ParamValue &value,
                          StringRef what) {
  if (!hasType(p, value))
    return makeError(llvm::formatv("parameter '{0}': {1} {2} is not {3}",
                                   p.name, what, value.str(), describeType(p)));
  if (p.contains(value))
    return Error::success();
  return makeError(llvm::formatv("parameter '{0}': {1} {2} is not {3}", p.name,
                                 what, value.str(), p.describeDomain()));
}

std::string Parameter::describeDomain() const {
  switch (kind) {
  case ParamKind::Ordinal:
  case ParamKind::Categorical:
    return "one of " + joinValues(values);
  case ParamKind::Integer:
    return llvm::formatv("in [{0}, {1}]", lowerInt(*this), upperInt(*this));
  case ParamKind::Real:
    return llvm::formatv("in [{0}, {1}]", formatReal(lower), formatReal(upper));
  case ParamKind::Boolean:
    return "false or true";
  case ParamKind::Permutation: {
    if (allowedPermutations.empty())
      return llvm::formatv("a permutation of 0..{0}", permutationSize - 1);
    std::vector<ParamValue> allowed;
    for (const ParamValue::Permutation &perm : allowedPermutations)
      allowed.push_back(ParamValue::permutation(perm));
    return "one of the allowed permutations " + joinValues(allowed);
  }
  }
  llvm_unreachable("unknown ParamKind");
}

bool Parameter::containsDomain(const Parameter &other) const {
  if (kind != other.kind)
    return false;
  switch (kind) {
  case ParamKind::Ordinal:
    return isRealOrdinal() == other.isRealOrdinal() &&
           llvm::all_of(other.values,
                        [&](const ParamValue &v) { return contains(v); });
  case ParamKind::Categorical:
    return llvm::all_of(other.values,
                        [&](const ParamValue &v) { return contains(v); });
  case ParamKind::Integer:
  case ParamKind::Real:
    return lower <= other.lower && other.upper <= upper;
  case ParamKind::Boolean:
    return true;
  case ParamKind::Permutation:
    if (permutationSize != other.permutationSize)
      return false;
    if (other.allowedPermutations.empty())
      return allowedPermutations.empty();
    return llvm::all_of(other.allowedPermutations,
                        [&](const ParamValue::Permutation &perm) {
                          return contains(ParamValue::permutation(perm));
                        });
  }
  return false;
}

llvm::Expected<Space> tuner::narrowSpace(const Space &space,
                                         const Space &narrowed) {
  for (const Parameter &parameter : narrowed.getParameters())
    if (!space.indexOf(parameter.name))
      return llvm::createStringError(
          "parameter '" + parameter.name + "' is not in the space");
  Space result;
  for (const Parameter &original : space.getParameters()) {
    std::optional<size_t> index = narrowed.indexOf(original.name);
    if (!index)
      return llvm::createStringError("parameter '" + original.name +
                                     "' is missing (a narrowed space keeps "
                                     "every parameter; give it one value to "
                                     "fix it)");
    Parameter parameter = narrowed[*index];
    if (!original.containsDomain(parameter))
      return llvm::createStringError(
          "parameter '" + original.name + "': " + parameter.describeDomain() +
          " is not inside its domain, " + original.describeDomain());
    parameter.role = original.role;
    parameter.nest = original.nest;
    parameter.loop = original.loop;
    parameter.producer = original.producer;
    parameter.consumer = original.consumer;
    if (parameter.defaultValue && !parameter.contains(*parameter.defaultValue))
      parameter.defaultValue.reset();
    if (!parameter.defaultValue && original.defaultValue &&
        parameter.contains(*original.defaultValue))
      parameter.defaultValue = original.defaultValue;
    if (llvm::Error err = result.addParameter(std::move(parameter)))
      return std::move(err);
  }
  std::set<std::string> added;
  for (const Space *from : {&space, &narrowed})
    for (const Constraint &constraint : from->getConstraints())
      if (added.insert(constraint.getText()).second)
        if (llvm::Error err = result.addConstraint(constraint.getText()))
          return std::move(err);
  result.attributes = space.attributes;
  return result;
}

bool Parameter::sameDomain(const Parameter &other) const {
  if (kind != other.kind)
    return false;
  switch (kind) {
  case ParamKind::Ordinal:
    // Both sorted (validated by Space::addParameter).
    return values == other.values;
  case ParamKind::Categorical: {
    std::vector<ParamValue> mine(values), theirs(other.values);
    llvm::sort(mine);
    llvm::sort(theirs);
    return mine == theirs;
  }
  case ParamKind::Integer:
  case ParamKind::Real:
    return lower == other.lower && upper == other.upper;
  case ParamKind::Boolean:
    return true;
  case ParamKind::Permutation: {
    if (permutationSize != other.permutationSize ||
        domainSize() != other.domainSize())
      return false;
    // Equal sizes: the domains are equal if one's listed permutations all
    // belong to the other (both unlisted: all n! of them).
    const Parameter &listed = allowedPermutations.empty() ? other : *this;
    const Parameter &checked = &listed == this ? other : *this;
    return llvm::all_of(
        listed.allowedPermutations, [&](const ParamValue::Permutation &perm) {
          return checked.contains(ParamValue::permutation(perm));
        });
  }
  }
  llvm_unreachable("unknown ParamKind");
}

Error Parameter::checkValue(const ParamValue &value) const {
  return checkValueOf(*this, value, "value");
}

/// Converts `json` to a value of `p`'s type; `what` names the value in the
/// message ("value", "default value").
static Expected<ParamValue>
convertJSON(const Parameter &p, const json::Value &json, StringRef what) {
  auto typeError = [&]() {
    return makeError(llvm::formatv("parameter '{0}': {1} {2} is not {3}",
                                   p.name, what, json, describeType(p)));
  };
  switch (p.kind) {
  case ParamKind::Ordinal:
    if (p.isRealOrdinal()) {
      if (std::optional<double> d = json.getAsNumber())
        return ParamValue::real(*d);
      return typeError();
    }
    [[fallthrough]];
  case ParamKind::Integer:
    if (std::optional<int64_t> i = json.getAsInteger())
      return ParamValue::integer(*i);
    return typeError();
  case ParamKind::Real:
    if (std::optional<double> d = json.getAsNumber())
      return ParamValue::real(*d);
    return typeError();
  case ParamKind::Categorical:
    if (std::optional<StringRef> s = json.getAsString())
      return ParamValue::string(s->str());
    return typeError();
  case ParamKind::Boolean:
    if (std::optional<bool> b = json.getAsBoolean())
      return ParamValue::boolean(*b);
    return typeError();
  case ParamKind::Permutation: {
    const json::Array *array = json.getAsArray();
    if (!array)
      return typeError();
    ParamValue::Permutation permutation;
    for (const json::Value &element : *array) {
      std::optional<int64_t> i = element.getAsInteger();
      if (!i)
        return typeError();
      permutation.push_back(*i);
    }
    return ParamValue::permutation(std::move(permutation));
  }
  }
  llvm_unreachable("unknown ParamKind");
}

Expected<ParamValue> Parameter::valueFromJSON(const json::Value &json) const {
  return convertJSON(*this, json, "value");
}

std::optional<uint64_t> Parameter::domainSize() const {
  switch (kind) {
  case ParamKind::Ordinal:
  case ParamKind::Categorical:
    return values.size();
  case ParamKind::Integer:
    return uint64_t(upperInt(*this)) - uint64_t(lowerInt(*this)) + 1;
  case ParamKind::Real:
    return std::nullopt;
  case ParamKind::Boolean:
    return 2;
  case ParamKind::Permutation:
    if (!allowedPermutations.empty())
      return allowedPermutations.size();
    return factorial(permutationSize);
  }
  llvm_unreachable("unknown ParamKind");
}

ParamValue Parameter::valueAt(uint64_t index) const {
  assert(kind != ParamKind::Real && "valueAt on a real parameter");
  assert(index < *domainSize() && "valueAt index out of range");
  switch (kind) {
  case ParamKind::Ordinal:
  case ParamKind::Categorical:
    return values[index];
  case ParamKind::Integer:
    return ParamValue::integer(int64_t(uint64_t(lowerInt(*this)) + index));
  case ParamKind::Real:
    return ParamValue::real(lower);
  case ParamKind::Boolean:
    return ParamValue::boolean(index != 0);
  case ParamKind::Permutation: {
    if (!allowedPermutations.empty())
      return ParamValue::permutation(allowedPermutations[index]);
    // Decode the Lehmer code of `index` (lexicographic order).
    std::vector<int64_t> remaining;
    for (int64_t i = 0; i < permutationSize; ++i)
      remaining.push_back(i);
    ParamValue::Permutation permutation;
    for (int64_t i = 0; i < permutationSize; ++i) {
      uint64_t weight = factorial(permutationSize - 1 - i);
      uint64_t digit = index / weight;
      index %= weight;
      permutation.push_back(remaining[digit]);
      remaining.erase(remaining.begin() + digit);
    }
    return ParamValue::permutation(std::move(permutation));
  }
  }
  llvm_unreachable("unknown ParamKind");
}

std::optional<uint64_t> Parameter::indexOf(const ParamValue &value) const {
  switch (kind) {
  case ParamKind::Ordinal: {
    if (!hasType(*this, value))
      return std::nullopt;
    auto it = std::lower_bound(values.begin(), values.end(), value);
    if (it == values.end() || *it != value)
      return std::nullopt;
    return uint64_t(it - values.begin());
  }
  case ParamKind::Categorical: {
    auto it = llvm::find(values, value);
    if (it == values.end())
      return std::nullopt;
    return uint64_t(it - values.begin());
  }
  case ParamKind::Integer:
    if (!contains(value))
      return std::nullopt;
    return uint64_t(value.getInteger()) - uint64_t(lowerInt(*this));
  case ParamKind::Real:
    return std::nullopt;
  case ParamKind::Boolean:
    if (!value.isBoolean())
      return std::nullopt;
    return value.getBoolean() ? 1 : 0;
  case ParamKind::Permutation: {
    if (!value.isPermutation())
      return std::nullopt;
    const ParamValue::Permutation &p = value.getPermutation();
    if (!allowedPermutations.empty()) {
      auto it = llvm::find(allowedPermutations, p);
      if (it == allowedPermutations.end())
        return std::nullopt;
      return uint64_t(it - allowedPermutations.begin());
    }
    if (!isPermutationOf(p, permutationSize))
      return std::nullopt;
    // Lehmer code: for each position, how many later elements are smaller.
    uint64_t index = 0;
    for (int64_t i = 0; i < permutationSize; ++i) {
      uint64_t smaller = 0;
      for (int64_t j = i + 1; j < permutationSize; ++j)
        smaller += p[j] < p[i];
      index += smaller * factorial(permutationSize - 1 - i);
    }
    return index;
  }
  }
  llvm_unreachable("unknown ParamKind");
}

ParamValue Parameter::fallbackValue() const {
  if (defaultValue)
    return *defaultValue;
  if (kind == ParamKind::Real)
    return ParamValue::real(lower);
  return valueAt(0);
}

//===----------------------------------------------------------------------===//
// Config
//===----------------------------------------------------------------------===//

std::string Space::fingerprint() const {
  llvm::json::Value json = toJSON();
  json.getAsObject()->erase("attributes");
  std::string text;
  llvm::raw_string_ostream(text) << json;
  return llvm::formatv("{0:x-16}", llvm::xxh3_64bits(text)).str();
}

uint64_t Config::hash() const {
  HashBuilder builder;
  builder.addU64(values.size());
  for (const ParamValue &value : values)
    builder.add(value);
  return builder.finish();
}

json::Value Config::toJSON(const Space &space) const {
  assert(values.size() == space.size() && "config does not match the space");
  json::Object object;
  for (size_t i = 0; i < values.size(); ++i)
    object[space[i].name] = values[i].toJSON();
  return object;
}

Expected<Config> Config::fromJSON(const Space &space, const json::Value &json,
                                  bool allowMissing) {
  const json::Object *object = json.getAsObject();
  if (!object)
    return makeError(llvm::formatv(
        "config: expected an object {{\"parameter\": value, ...}, got {0}",
        json));
  std::vector<std::string> unknown;
  for (const auto &entry : *object)
    if (!space.indexOf(entry.first))
      unknown.push_back(entry.first.str());
  if (!unknown.empty()) {
    llvm::sort(unknown);
    return makeError(llvm::formatv("config: unknown parameter '{0}'",
                                   llvm::join(unknown, "', '")));
  }
  std::vector<ParamValue> values;
  for (const Parameter &parameter : space.getParameters()) {
    const json::Value *entry = object->get(parameter.name);
    if (!entry) {
      if (allowMissing && parameter.defaultValue) {
        values.push_back(*parameter.defaultValue);
        continue;
      }
      return makeError(
          llvm::formatv("config: parameter '{0}' is missing{1}", parameter.name,
                        allowMissing ? " (and has no default)" : ""));
    }
    Expected<ParamValue> value = parameter.valueFromJSON(*entry);
    if (!value)
      return value.takeError();
    if (Error error = parameter.checkValue(*value))
      return std::move(error);
    values.push_back(std::move(*value));
  }
  return Config(std::move(values));
}

//===----------------------------------------------------------------------===//
// Space
//===----------------------------------------------------------------------===//

static bool isValidName(StringRef name) {
  if (name.empty() || name == "true" || name == "false")
    return false;
  if (!llvm::isAlpha(name[0]) && name[0] != '_')
    return false;
  return llvm::all_of(
      name, [](char c) { return llvm::isAlnum(c) || c == '_' || c == '.'; });
}

/// Checks the domain of `p`; the message does not name the parameter.
static Error validateDomain(const Parameter &p) {
  auto fail = [](const llvm::Twine &message) { return makeError(message); };
  bool canLog = p.kind == ParamKind::Ordinal || p.kind == ParamKind::Integer ||
                p.kind == ParamKind::Real;
  if (p.logScale && !canLog)
    return fail("log scale applies only to ordinal, integer and real "
                "parameters");
  switch (p.kind) {
  case ParamKind::Ordinal: {
    if (p.values.empty())
      return fail("an ordinal parameter needs at least one value");
    bool real = p.values[0].isReal();
    for (const ParamValue &v : p.values)
      if (!(real ? v.isReal() : v.isInteger()))
        return fail(llvm::formatv("ordinal values must be all integers or all "
                                  "reals, got {0}",
                                  joinValues(p.values)));
    for (size_t i = 0; i < p.values.size(); ++i) {
      if (real && !std::isfinite(p.values[i].getReal()))
        return fail(llvm::formatv("ordinal value {0} is not finite",
                                  p.values[i].str()));
      if (p.logScale && p.values[i].asNumber() <= 0)
        return fail(llvm::formatv("log scale needs positive values, got {0}",
                                  p.values[i].str()));
      if (i && !(p.values[i - 1] < p.values[i]))
        return fail(llvm::formatv(
            "ordinal values must be sorted and distinct ({0} follows {1})",
            p.values[i].str(), p.values[i - 1].str()));
    }
    return Error::success();
  }
  case ParamKind::Integer:
    if (!isExactInteger(p.lower) || !isExactInteger(p.upper))
      return fail(llvm::formatv("integer bounds must be integers in [-2^53, "
                                "2^53], got [{0}, {1}]",
                                formatReal(p.lower), formatReal(p.upper)));
    if (p.lower > p.upper)
      return fail(llvm::formatv("lower bound {0} is above upper bound {1}",
                                lowerInt(p), upperInt(p)));
    if (p.logScale && p.lower <= 0)
      return fail(llvm::formatv("log scale needs a positive lower bound, got "
                                "{0}",
                                lowerInt(p)));
    return Error::success();
  case ParamKind::Real:
    if (!std::isfinite(p.lower) || !std::isfinite(p.upper))
      return fail("real bounds must be finite");
    if (p.lower > p.upper)
      return fail(llvm::formatv("lower bound {0} is above upper bound {1}",
                                formatReal(p.lower), formatReal(p.upper)));
    if (p.logScale && p.lower <= 0)
      return fail(llvm::formatv("log scale needs a positive lower bound, got "
                                "{0}",
                                formatReal(p.lower)));
    return Error::success();
  case ParamKind::Categorical: {
    if (p.values.empty())
      return fail("a categorical parameter needs at least one choice");
    for (size_t i = 0; i < p.values.size(); ++i) {
      if (!p.values[i].isString())
        return fail(llvm::formatv("categorical choice {0} is not a string",
                                  p.values[i].str()));
      for (size_t j = 0; j < i; ++j)
        if (p.values[j] == p.values[i])
          return fail(llvm::formatv("categorical choice {0} appears twice",
                                    p.values[i].str()));
    }
    return Error::success();
  }
  case ParamKind::Boolean:
    return Error::success();
  case ParamKind::Permutation: {
    if (p.permutationSize < 1)
      return fail(llvm::formatv("permutation size must be at least 1, got {0}",
                                p.permutationSize));
    if (p.allowedPermutations.empty()) {
      if (p.permutationSize > kMaxFullPermutationSize)
        return fail(llvm::formatv(
            "permutation size {0} is above {1}; list the allowed permutations",
            p.permutationSize, kMaxFullPermutationSize));
      return Error::success();
    }
    for (size_t i = 0; i < p.allowedPermutations.size(); ++i) {
      const ParamValue::Permutation &perm = p.allowedPermutations[i];
      if (!isPermutationOf(perm, p.permutationSize))
        return fail(llvm::formatv(
            "allowed permutation {0} is not a permutation of 0..{1}",
            ParamValue::permutation(perm).str(), p.permutationSize - 1));
      for (size_t j = 0; j < i; ++j)
        if (p.allowedPermutations[j] == perm)
          return fail(llvm::formatv("allowed permutation {0} appears twice",
                                    ParamValue::permutation(perm).str()));
    }
    return Error::success();
  }
  }
  llvm_unreachable("unknown ParamKind");
}

Error Space::addParameter(Parameter parameter) {
  if (!isValidName(parameter.name))
    return makeError(llvm::formatv(
        "invalid parameter name '{0}': it must start with a letter or '_', "
        "hold only letters, digits, '_' and '.', and not be true or false",
        parameter.name));
  if (parameterIndex.count(parameter.name))
    return makeError(
        llvm::formatv("duplicate parameter '{0}'", parameter.name));
  if (Error error = validateDomain(parameter))
    return makeError(llvm::formatv("parameter '{0}': {1}", parameter.name,
                                   llvm::toString(std::move(error))));
  if (parameter.defaultValue)
    if (Error error =
            checkValueOf(parameter, *parameter.defaultValue, "default value"))
      return error;
  for (StringRef key : kRoleKeys)
    if (parameter.attributes.count(key.str()))
      return makeError(llvm::formatv(
          "parameter '{0}': attribute '{1}' is reserved for the typed role "
          "and target (Parameter::role, nest, loop, producer, consumer)",
          parameter.name, key));
  if (parameter.loop < -1)
    return makeError(llvm::formatv(
        "parameter '{0}': loop {1} is neither a band position (>= 0) nor "
        "unset (-1)",
        parameter.name, parameter.loop));
  parameterIndex[parameter.name] = parameters.size();
  parameters.push_back(std::move(parameter));
  return Error::success();
}

Error Space::addConstraint(StringRef expression) {
  Expected<Constraint> constraint = Constraint::parse(expression, *this);
  if (!constraint)
    return constraint.takeError();
  constraints.push_back(std::move(*constraint));
  return Error::success();
}

std::optional<size_t> Space::indexOf(StringRef name) const {
  auto it = parameterIndex.find(name);
  if (it == parameterIndex.end())
    return std::nullopt;
  return it->second;
}

Error Space::check(const Config &config) const {
  if (config.size() != parameters.size())
    return makeError(
        llvm::formatv("config has {0} values but the space has {1} parameters",
                      config.size(), parameters.size()));
  for (size_t i = 0; i < parameters.size(); ++i)
    if (Error error = parameters[i].checkValue(config[i]))
      return error;
  for (const Constraint &constraint : constraints) {
    if (constraint.evaluate(config))
      continue;
    std::string values;
    for (size_t i : constraint.getParameters()) {
      if (!values.empty())
        values += ", ";
      values += parameters[i].name + " = " + config[i].str();
    }
    return makeError(llvm::formatv("constraint '{0}' is violated{1}{2}",
                                   constraint.getText(),
                                   values.empty() ? "" : " with ", values));
  }
  return Error::success();
}

Config Space::defaultConfig() const {
  std::vector<ParamValue> values;
  for (const Parameter &parameter : parameters)
    values.push_back(parameter.fallbackValue());
  return Config(std::move(values));
}

//===----------------------------------------------------------------------===//
// Space JSON
//===----------------------------------------------------------------------===//

static json::Object
attributesToJSON(const std::map<std::string, std::string> &attributes) {
  json::Object object;
  for (const auto &[key, value] : attributes)
    object[key] = value;
  return object;
}

static json::Value parameterToJSON(const Parameter &p) {
  json::Object object{{"name", p.name}, {"kind", stringifyParamKind(p.kind)}};
  auto valuesToJSON = [&]() {
    json::Array array;
    for (const ParamValue &value : p.values)
      array.push_back(value.toJSON());
    return array;
  };
  switch (p.kind) {
  case ParamKind::Ordinal:
    object["values"] = valuesToJSON();
    if (p.isRealOrdinal())
      object["real"] = true;
    break;
  case ParamKind::Integer:
    object["lower"] = lowerInt(p);
    object["upper"] = upperInt(p);
    break;
  case ParamKind::Real:
    object["lower"] = p.lower;
    object["upper"] = p.upper;
    break;
  case ParamKind::Categorical:
    object["values"] = valuesToJSON();
    break;
  case ParamKind::Boolean:
    break;
  case ParamKind::Permutation:
    object["size"] = p.permutationSize;
    if (!p.allowedPermutations.empty()) {
      json::Array allowed;
      for (const ParamValue::Permutation &perm : p.allowedPermutations)
        allowed.push_back(ParamValue::permutation(perm).toJSON());
      object["allowed"] = std::move(allowed);
    }
    break;
  }
  if (p.logScale)
    object["log"] = true;
  if (p.defaultValue)
    object["default"] = p.defaultValue->toJSON();
  if (!p.description.empty())
    object["description"] = p.description;
  // The typed role and target share "attributes" with the free-form ones.
  json::Object attributes = attributesToJSON(p.attributes);
  if (p.role != ParamRole::None)
    attributes["role"] = stringifyParamRole(p.role);
  if (!p.nest.empty())
    attributes["nest"] = p.nest;
  if (p.loop >= 0)
    attributes["loop"] = std::to_string(p.loop);
  if (!p.producer.empty())
    attributes["producer"] = p.producer;
  if (!p.consumer.empty())
    attributes["consumer"] = p.consumer;
  if (!attributes.empty())
    object["attributes"] = std::move(attributes);
  return object;
}

json::Value Space::toJSON() const {
  json::Array params;
  for (const Parameter &p : parameters)
    params.push_back(parameterToJSON(p));
  json::Array constraintTexts;
  for (const Constraint &c : constraints)
    constraintTexts.push_back(c.getText());
  json::Object object{{"version", 1},
                      {"parameters", std::move(params)},
                      {"constraints", std::move(constraintTexts)}};
  if (!attributes.empty())
    object["attributes"] = attributesToJSON(attributes);
  return object;
}

/// Rejects fields of `object` outside `known`; `where` prefixes the message.
static Error checkFields(const json::Object &object,
                         llvm::ArrayRef<StringRef> known,
                         const llvm::Twine &where) {
  std::vector<std::string> unknown;
  for (const auto &entry : object)
    if (!llvm::is_contained(known, StringRef(entry.first)))
      unknown.push_back(entry.first.str());
  if (unknown.empty())
    return Error::success();
  llvm::sort(unknown);
  return makeError(where + ": unknown field '" + unknown.front() +
                   "' (known: " + llvm::join(known, ", ") + ")");
}

static Expected<std::map<std::string, std::string>>
attributesFromJSON(const json::Value &json, const llvm::Twine &where) {
  const json::Object *object = json.getAsObject();
  if (!object)
    return makeError(where + ": field 'attributes' must be an object of "
                             "strings");
  std::map<std::string, std::string> attributes;
  for (const auto &entry : *object) {
    std::optional<StringRef> value = entry.second.getAsString();
    if (!value)
      return makeError(where + ": attribute '" + StringRef(entry.first) +
                       "' must be a string");
    attributes[entry.first.str()] = value->str();
  }
  return attributes;
}

/// Moves the role and target keys of `attributes` into the typed fields of
/// `p`, checking them; `where` prefixes the message.
static Error roleFromAttributes(Parameter &p,
                                std::map<std::string, std::string> &attributes,
                                const llvm::Twine &where) {
  auto take = [&](StringRef key) -> std::optional<std::string> {
    auto it = attributes.find(key.str());
    if (it == attributes.end())
      return std::nullopt;
    std::string value = std::move(it->second);
    attributes.erase(it);
    return value;
  };
  if (std::optional<std::string> role = take("role")) {
    std::optional<ParamRole> parsed = parseParamRole(*role);
    if (!parsed) {
      std::vector<StringRef> known;
      for (ParamRole r : kSpelledRoles)
        known.push_back(stringifyParamRole(r));
      return makeError(where + ": unknown role '" + *role +
                       "' (known: " + llvm::join(known, ", ") + ")");
    }
    p.role = *parsed;
  }
  for (auto [key, field] :
       {std::pair<StringRef, std::string *>{"nest", &p.nest},
        {"producer", &p.producer},
        {"consumer", &p.consumer}}) {
    std::optional<std::string> name = take(key);
    if (!name)
      continue;
    if (name->empty())
      return makeError(where + ": attribute '" + key +
                       "' must name a loop nest, not be empty");
    *field = std::move(*name);
  }
  if (std::optional<std::string> loop = take("loop")) {
    // Canonical decimal only, so that the loop is written back as read.
    uint64_t position = 0;
    if (StringRef(*loop).getAsInteger(10, position) ||
        position > uint64_t(INT64_MAX) || std::to_string(position) != *loop)
      return makeError(where +
                       ": attribute 'loop' must be a non-negative "
                       "integer (a band position), not '" +
                       *loop + "'");
    p.loop = int64_t(position);
  }
  return Error::success();
}

static Expected<Parameter> parameterFromJSON(const json::Value &json,
                                             size_t position) {
  std::string where = llvm::formatv("parameters[{0}]", position).str();
  const json::Object *object = json.getAsObject();
  if (!object)
    return makeError(where + ": expected an object");
  Parameter p;
  std::optional<StringRef> name = object->getString("name");
  if (!name)
    return makeError(where + ": field 'name' is missing or not a string");
  p.name = name->str();
  where = "parameter '" + p.name + "'";
  std::optional<StringRef> kindText = object->getString("kind");
  if (!kindText)
    return makeError(where + ": field 'kind' is missing or not a string");
  std::optional<ParamKind> kind = parseParamKind(*kindText);
  if (!kind)
    return makeError(where + ": unknown kind '" + *kindText +
                     "' (known: ordinal, integer, real, categorical, boolean, "
                     "permutation)");
  p.kind = *kind;

  llvm::SmallVector<StringRef, 12> known = {"name", "kind", "default",
                                            "description", "attributes"};
  switch (p.kind) {
  case ParamKind::Ordinal:
    known.append({"values", "real", "log"});
    break;
  case ParamKind::Integer:
  case ParamKind::Real:
    known.append({"lower", "upper", "log"});
    break;
  case ParamKind::Categorical:
    known.push_back("values");
    break;
  case ParamKind::Boolean:
    break;
  case ParamKind::Permutation:
    known.append({"size", "allowed"});
    break;
  }
  if (Error error = checkFields(*object, known, where))
    return std::move(error);

  auto fieldError = [&](StringRef field, StringRef expected) {
    return makeError(where + ": field '" + field + "' must be " + expected);
  };
  if (const json::Value *log = object->get("log")) {
    std::optional<bool> b = log->getAsBoolean();
    if (!b)
      return fieldError("log", "a boolean");
    p.logScale = *b;
  }
  if (const json::Value *description = object->get("description")) {
    std::optional<StringRef> s = description->getAsString();
    if (!s)
      return fieldError("description", "a string");
    p.description = s->str();
  }
  if (const json::Value *attributes = object->get("attributes")) {
    auto map = attributesFromJSON(*attributes, where);
    if (!map)
      return map.takeError();
    if (Error error = roleFromAttributes(p, *map, where))
      return std::move(error);
    p.attributes = std::move(*map);
  }

  switch (p.kind) {
  case ParamKind::Ordinal: {
    const json::Array *values = object->getArray("values");
    if (!values)
      return fieldError("values", "an array of numbers");
    bool real = false;
    if (const json::Value *flag = object->get("real")) {
      std::optional<bool> b = flag->getAsBoolean();
      if (!b)
        return fieldError("real", "a boolean");
      real = *b;
    }
    for (const json::Value &value : *values) {
      if (!value.getAsNumber())
        return makeError(llvm::formatv(
            "{0}: field 'values' must be an array of numbers, got {1}", where,
            value));
      real |= !value.getAsInteger();
    }
    for (const json::Value &value : *values)
      p.values.push_back(real ? ParamValue::real(*value.getAsNumber())
                              : ParamValue::integer(*value.getAsInteger()));
    break;
  }
  case ParamKind::Integer:
  case ParamKind::Real: {
    for (StringRef field : {"lower", "upper"}) {
      const json::Value *bound = object->get(field);
      bool isInteger = p.kind == ParamKind::Integer;
      std::optional<double> value;
      if (bound) {
        if (isInteger) {
          if (std::optional<int64_t> i = bound->getAsInteger())
            value = double(*i);
        } else {
          value = bound->getAsNumber();
        }
      }
      if (!value)
        return fieldError(field, isInteger ? "an integer" : "a number");
      (field == "lower" ? p.lower : p.upper) = *value;
    }
    break;
  }
  case ParamKind::Categorical: {
    const json::Array *values = object->getArray("values");
    if (!values)
      return fieldError("values", "an array of strings");
    for (const json::Value &value : *values) {
      std::optional<StringRef> s = value.getAsString();
      if (!s)
        return makeError(llvm::formatv(
            "{0}: field 'values' must be an array of strings, got {1}", where,
            value));
      p.values.push_back(ParamValue::string(s->str()));
    }
    break;
  }
  case ParamKind::Boolean:
    break;
  case ParamKind::Permutation: {
    std::optional<int64_t> size = object->getInteger("size");
    if (!size)
      return fieldError("size", "an integer");
    p.permutationSize = *size;
    if (const json::Value *allowed = object->get("allowed")) {
      const json::Array *array = allowed->getAsArray();
      if (!array)
        return fieldError("allowed", "an array of permutations");
      for (const json::Value &entry : *array) {
        Expected<ParamValue> perm = p.valueFromJSON(entry);
        if (!perm) {
          llvm::consumeError(perm.takeError());
          return makeError(llvm::formatv(
              "{0}: field 'allowed' must be an array of arrays of integers, "
              "got {1}",
              where, entry));
        }
        p.allowedPermutations.push_back(perm->getPermutation());
      }
    }
    break;
  }
  }

  if (const json::Value *value = object->get("default")) {
    Expected<ParamValue> defaultValue = convertJSON(p, *value, "default value");
    if (!defaultValue)
      return defaultValue.takeError();
    p.defaultValue = std::move(*defaultValue);
  }
  return p;
}

Expected<Space> Space::fromJSON(const json::Value &json) {
  const json::Object *object = json.getAsObject();
  if (!object)
    return makeError("space: expected a JSON object");
  if (Error error = checkFields(
          *object, {"version", "attributes", "parameters", "constraints"},
          "space"))
    return std::move(error);
  const json::Value *version = object->get("version");
  if (!version)
    return makeError("space: field 'version' is missing");
  if (version->getAsInteger() != std::optional<int64_t>(1))
    return makeError(llvm::formatv(
        "space: unsupported version {0} (this build reads version 1)",
        *version));

  Space space;
  if (const json::Value *attributes = object->get("attributes")) {
    auto map = attributesFromJSON(*attributes, "space");
    if (!map)
      return map.takeError();
    space.attributes = std::move(*map);
  }
  const json::Array *params = object->getArray("parameters");
  if (!params)
    return makeError("space: field 'parameters' is missing or not an array");
  for (size_t i = 0; i < params->size(); ++i) {
    Expected<Parameter> parameter = parameterFromJSON((*params)[i], i);
    if (!parameter)
      return parameter.takeError();
    if (Error error = space.addParameter(std::move(*parameter)))
      return std::move(error);
  }
  if (const json::Value *constraints = object->get("constraints")) {
    const json::Array *array = constraints->getAsArray();
    if (!array)
      return makeError("space: field 'constraints' must be an array of "
                       "strings");
    for (size_t i = 0; i < array->size(); ++i) {
      std::optional<StringRef> text = (*array)[i].getAsString();
      if (!text)
        return makeError(
            llvm::formatv("space: constraints[{0}] must be a string, got {1}",
                          i, (*array)[i]));
      if (Error error = space.addConstraint(*text))
        return std::move(error);
    }
  }
  return space;
}

Expected<Space> Space::readFile(StringRef path) {
  Expected<json::Value> json = readJSONFile(path);
  if (!json)
    return json.takeError();
  Expected<Space> space = fromJSON(*json);
  if (!space)
    return makeError(path + ": " + llvm::toString(space.takeError()));
  return space;
}

Error Space::writeFile(StringRef path) const {
  return writeJSONFile(path, toJSON());
}

Expected<json::Value> tuner::readJSONFile(StringRef path) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buffer =
      llvm::MemoryBuffer::getFile(path, /*IsText=*/true);
  if (!buffer)
    return makeError("cannot read '" + path +
                     "': " + buffer.getError().message());
  Expected<json::Value> json = json::parse((*buffer)->getBuffer());
  if (!json)
    return makeError(path + ": invalid JSON " +
                     llvm::toString(json.takeError()));
  return json;
}

Error tuner::writeJSONFile(StringRef path, const json::Value &value) {
  Error error = llvm::writeToOutput(path, [&](llvm::raw_ostream &os) {
    os << llvm::formatv("{0:2}", value) << "\n";
    return Error::success();
  });
  if (error)
    return makeError("cannot write '" + path +
                     "': " + llvm::toString(std::move(error)));
  return Error::success();
}
