//===- Harness.cpp - What the child-process harness is told to run --------===//

#include "tuner/Measure/Harness.h"

#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cmath>
#include <cassert>
#include <cstring>

using namespace tuner;
using llvm::json::Array;
using llvm::json::Object;

namespace {
struct ElementKindInfo {
  ElementKind type;
  const char *name;
  unsigned bytes;
  bool isFloat;
};
} // namespace

static constexpr ElementKindInfo kElementKinds[] = {
    {ElementKind::I1, "i1", 1, false},
    {ElementKind::I8, "i8", 1, false},
    {ElementKind::I16, "i16", 2, false},
    {ElementKind::I32, "i32", 4, false},
    {ElementKind::I64, "i64", 8, false},
    {ElementKind::Index, "index", 8, false},
    {ElementKind::F16, "f16", 2, true},
    {ElementKind::BF16, "bf16", 2, true},
    {ElementKind::F32, "f32", 4, true},
    {ElementKind::F64, "f64", 8, true},
};

static const ElementKindInfo &info(ElementKind type) {
  for (const ElementKindInfo &entry : kElementKinds)
    if (entry.type == type)
      return entry;
  llvm_unreachable("every ElementKind has an entry");
}

llvm::StringRef tuner::elementKindName(ElementKind type) {
  return info(type).name;
}

std::optional<ElementKind> tuner::parseElementKind(llvm::StringRef name) {
  for (const ElementKindInfo &entry : kElementKinds)
    if (name == entry.name)
      return entry.type;
  return std::nullopt;
}

unsigned tuner::elementKindBytes(ElementKind type) { return info(type).bytes; }
bool tuner::isFloatKind(ElementKind type) { return info(type).isFloat; }

int64_t BufferSpec::numElements() const {
  int64_t count = 1;
  for (int64_t size : shape)
    count *= size;
  return count;
}

uint64_t BufferSpec::alignment() const {
  uint64_t bytes = elementKindBytes(type);
  for (int64_t size : llvm::ArrayRef(shape).take_back(vectorRank))
    bytes *= uint64_t(std::max<int64_t>(size, 1));
  return vectorRank ? std::max<uint64_t>(64, llvm::PowerOf2Ceil(bytes)) : 64;
}

std::string BufferSpec::typeString() const {
  if (scalar)
    return elementKindName(type).str();
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "memref<";
  for (int64_t size : llvm::ArrayRef(shape).drop_back(vectorRank))
    os << size << "x";
  if (vectorRank) {
    os << "vector<";
    for (int64_t size : llvm::ArrayRef(shape).take_back(vectorRank))
      os << size << "x";
    os << elementKindName(type) << ">>";
  } else {
    os << elementKindName(type) << ">";
  }
  return text;
}

double tuner::defaultScalarValue(ElementKind type) {
  if (isFloatKind(type))
    return 1.5;
  return type == ElementKind::I1 ? 1 : 3;
}

uint64_t HarnessSpec::comparedBytes() const {
  uint64_t total = 0;
  for (const BufferSpec &buffer : buffers)
    if (buffer.compared)
      total += buffer.byteSize();
  return total;
}

llvm::json::Value HarnessSpec::toJSON() const {
  Array bufferArray;
  for (const BufferSpec &buffer : buffers) {
    Array shapeArray;
    for (int64_t size : buffer.shape)
      shapeArray.push_back(size);
    Object entry{{"type", elementKindName(buffer.type)},
                 {"shape", std::move(shapeArray)},
                 {"result", buffer.isResult},
                 {"compared", buffer.compared}};
    if (buffer.vectorRank)
      entry["vector_rank"] = int64_t(buffer.vectorRank);
    if (buffer.scalar)
      entry["scalar"] = true;
    if (buffer.value)
      entry["value"] = *buffer.value;
    bufferArray.push_back(std::move(entry));
  }
  // Seeds are 64-bit; JSON integers are signed, so the bits travel as int64.
  return Object{{"function", function},
                {"seed", int64_t(seed)},
                {"buffers", std::move(bufferArray)}};
}

llvm::Expected<HarnessSpec>
HarnessSpec::fromJSON(const llvm::json::Value &json) {
  const Object *object = json.getAsObject();
  if (!object)
    return llvm::createStringError("harness spec: expected an object");
  HarnessSpec spec;
  std::optional<llvm::StringRef> function = object->getString("function");
  if (!function || function->empty())
    return llvm::createStringError(
        "harness spec: missing or empty string field 'function'");
  spec.function = function->str();
  std::optional<int64_t> seed = object->getInteger("seed");
  if (!seed)
    return llvm::createStringError(
        "harness spec: missing or non-integer field 'seed'");
  spec.seed = uint64_t(*seed);
  const Array *buffers = object->getArray("buffers");
  if (!buffers)
    return llvm::createStringError(
        "harness spec: missing array field 'buffers'");
  if (buffers->size() > kMaxHarnessBuffers)
    return llvm::createStringError(
        "harness spec: " + llvm::Twine(buffers->size()) +
        " buffers, the harness passes at most " +
        llvm::Twine(kMaxHarnessBuffers));
  for (auto [index, value] : llvm::enumerate(*buffers)) {
    auto fail = [&, index = index](const llvm::Twine &what) {
      return llvm::createStringError("harness spec: buffer " +
                                     llvm::Twine(index) + ": " + what);
    };
    const Object *entry = value.getAsObject();
    if (!entry)
      return fail("expected an object");
    BufferSpec buffer;
    std::optional<llvm::StringRef> type = entry->getString("type");
    if (!type)
      return fail("missing or non-string field 'type'");
    std::optional<ElementKind> parsed = parseElementKind(*type);
    if (!parsed)
      return fail("unsupported element type '" + *type + "'");
    buffer.type = *parsed;
    const Array *shape = entry->getArray("shape");
    if (!shape)
      return fail("missing array field 'shape'");
    // Keeps byte sizes far from overflow: 2^40 elements is beyond any memory.
    constexpr int64_t kMaxElements = int64_t(1) << 40;
    int64_t count = 1;
    for (const llvm::json::Value &size : *shape) {
      std::optional<int64_t> extent = size.getAsInteger();
      if (!extent || *extent < 0)
        return fail("'shape' must hold non-negative integers");
      buffer.shape.push_back(*extent);
      count = *extent == 0 ? 0 : std::min(count * *extent, kMaxElements + 1);
    }
    if (count > kMaxElements)
      return fail("too many elements");
    std::optional<bool> isResult = entry->getBoolean("result");
    std::optional<bool> compared = entry->getBoolean("compared");
    if (!isResult || !compared)
      return fail("missing or non-boolean field 'result' or 'compared'");
    buffer.isResult = *isResult;
    buffer.compared = *compared;
    if (const llvm::json::Value *vectorRank = entry->get("vector_rank")) {
      std::optional<int64_t> rank = vectorRank->getAsInteger();
      if (!rank || *rank < 0 || size_t(*rank) > buffer.shape.size())
        return fail("'vector_rank' must be an integer in [0, rank of "
                    "'shape']");
      buffer.vectorRank = unsigned(*rank);
    }
    if (const llvm::json::Value *scalar = entry->get("scalar")) {
      std::optional<bool> flag = scalar->getAsBoolean();
      if (!flag)
        return fail("'scalar' must be a boolean");
      if (*flag && (!buffer.shape.empty() || buffer.vectorRank))
        return fail("a scalar has an empty 'shape' and no 'vector_rank'");
      buffer.scalar = *flag;
    }
    if (const llvm::json::Value *fill = entry->get("value")) {
      std::optional<double> number = fill->getAsNumber();
      if (!number)
        return fail("'value' must be a number");
      buffer.value = *number;
    }
    spec.buffers.push_back(std::move(buffer));
  }
  return spec;
}

/// SplitMix64: small, fast, and the same sequence on every machine.
static uint64_t nextRandom(uint64_t &state) {
  uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

template <typename T> static void store(uint8_t *data, int64_t index, T value) {
  std::memcpy(data + index * int64_t(sizeof(T)), &value, sizeof(T));
}

template <typename T> static T load(const uint8_t *data, int64_t index) {
  T value;
  std::memcpy(&value, data + index * int64_t(sizeof(T)), sizeof(T));
  return value;
}

/// Stores `value` as element `index` of `type` (integers truncated toward
/// zero, floats rounded to nearest).
static void storeElement(ElementKind type, uint8_t *data, int64_t index,
                         double value) {
  switch (type) {
  case ElementKind::I1:
    store<uint8_t>(data, index, value != 0);
    return;
  case ElementKind::I8:
    store<int8_t>(data, index, int8_t(value));
    return;
  case ElementKind::I16:
    store<int16_t>(data, index, int16_t(value));
    return;
  case ElementKind::I32:
    store<int32_t>(data, index, int32_t(value));
    return;
  case ElementKind::I64:
  case ElementKind::Index:
    store<int64_t>(data, index, int64_t(value));
    return;
  case ElementKind::F16:
  case ElementKind::BF16: {
    llvm::APFloat converted(value);
    bool lostInfo;
    converted.convert(type == ElementKind::F16 ? llvm::APFloat::IEEEhalf()
                                               : llvm::APFloat::BFloat(),
                      llvm::APFloat::rmNearestTiesToEven, &lostInfo);
    store<uint16_t>(data, index,
                    uint16_t(converted.bitcastToAPInt().getZExtValue()));
    return;
  }
  case ElementKind::F32:
    store<float>(data, index, float(value));
    return;
  case ElementKind::F64:
    store<double>(data, index, value);
    return;
  }
  llvm_unreachable("unknown element type");
}

void tuner::fillRandom(const BufferSpec &buffer, uint64_t seed,
                       unsigned bufferIndex,
                       llvm::MutableArrayRef<uint8_t> data) {
  assert(data.size() >= buffer.byteSize() && "buffer too small");
  uint64_t state = seed ^ (0xd1b54a32d192ed03ULL * (uint64_t(bufferIndex) + 1));
  nextRandom(state);
  uint8_t *bytes = data.data();
  int64_t count = buffer.numElements();
  // Uniform in [-1, 1) from the top 53 bits.
  auto unit = [&] { return double(nextRandom(state) >> 11) * 0x1.0p-52 - 1.0; };
  // Uniform in [low, low + range).
  auto integer = [&](int64_t low, uint64_t range) {
    return low + int64_t(nextRandom(state) % range);
  };
  if (buffer.value) {
    for (int64_t i = 0; i < count; ++i)
      storeElement(buffer.type, bytes, i, *buffer.value);
    return;
  }
  for (int64_t i = 0; i < count; ++i) {
    switch (buffer.type) {
    case ElementKind::I1:
      store<uint8_t>(bytes, i, uint8_t(nextRandom(state) & 1));
      break;
    case ElementKind::I8:
      store<int8_t>(bytes, i, int8_t(integer(-8, 16)));
      break;
    case ElementKind::I16:
      store<int16_t>(bytes, i, int16_t(integer(-64, 128)));
      break;
    case ElementKind::I32:
      store<int32_t>(bytes, i, int32_t(integer(-64, 128)));
      break;
    case ElementKind::I64:
    case ElementKind::Index:
      store<int64_t>(bytes, i, integer(-64, 128));
      break;
    case ElementKind::F16: {
      llvm::APFloat value(double(integer(-256, 512)) / 256.0);
      bool lostInfo;
      value.convert(llvm::APFloat::IEEEhalf(),
                    llvm::APFloat::rmNearestTiesToEven, &lostInfo);
      store<uint16_t>(bytes, i,
                      uint16_t(value.bitcastToAPInt().getZExtValue()));
      break;
    }
    case ElementKind::BF16: {
      // k/256 with |k| <= 256 has at most 8 significant bits: the upper half
      // of the float is exact.
      float value = float(integer(-256, 512)) / 256.0f;
      uint32_t bits;
      std::memcpy(&bits, &value, sizeof(bits));
      store<uint16_t>(bytes, i, uint16_t(bits >> 16));
      break;
    }
    case ElementKind::F32:
      store<float>(bytes, i, float(unit()));
      break;
    case ElementKind::F64:
      store<double>(bytes, i, unit());
      break;
    }
  }
}

int64_t tuner::readInteger(ElementKind type, const uint8_t *data,
                           int64_t index) {
  switch (type) {
  case ElementKind::I1:
  case ElementKind::I8:
    return load<int8_t>(data, index);
  case ElementKind::I16:
  case ElementKind::F16:
  case ElementKind::BF16:
    return load<int16_t>(data, index);
  case ElementKind::I32:
  case ElementKind::F32:
    return load<int32_t>(data, index);
  case ElementKind::I64:
  case ElementKind::Index:
  case ElementKind::F64:
    return load<int64_t>(data, index);
  }
  llvm_unreachable("unknown element type");
}

double tuner::readElement(ElementKind type, const uint8_t *data,
                          int64_t index) {
  switch (type) {
  case ElementKind::F16:
    return llvm::APFloat(llvm::APFloat::IEEEhalf(),
                         llvm::APInt(16, load<uint16_t>(data, index)))
        .convertToDouble();
  case ElementKind::BF16: {
    uint32_t bits = uint32_t(load<uint16_t>(data, index)) << 16;
    float value;
    std::memcpy(&value, &bits, sizeof(value));
    return value;
  }
  case ElementKind::F32:
    return load<float>(data, index);
  case ElementKind::F64:
    return load<double>(data, index);
  default:
    return double(readInteger(type, data, index));
  }
}

TimingSummary tuner::summarizeTimes(llvm::ArrayRef<double> perCallSeconds) {
  TimingSummary summary;
  if (perCallSeconds.empty())
    return summary;
  std::vector<double> sorted(perCallSeconds.begin(), perCallSeconds.end());
  llvm::sort(sorted);
  size_t count = sorted.size();
  summary.minSeconds = sorted.front();
  summary.maxSeconds = sorted.back();
  summary.medianSeconds = count % 2
                              ? sorted[count / 2]
                              : (sorted[count / 2 - 1] + sorted[count / 2]) / 2;
  summary.repetitions = unsigned(count);
  return summary;
}

bool tuner::isBetterTiming(double medianSeconds, double foreignLoad,
                           double keptMedianSeconds, double keptForeignLoad,
                           double maxForeignLoad) {
  bool disturbed = foreignLoad > maxForeignLoad;
  bool keptDisturbed = keptForeignLoad > maxForeignLoad;
  if (disturbed != keptDisturbed)
    return !disturbed;
  if (disturbed)
    return foreignLoad < keptForeignLoad;
  return medianSeconds < keptMedianSeconds;
}

double tuner::pairedSpeedup(llvm::ArrayRef<PairedTiming> pairs,
                            double maxForeignLoad) {
  for (bool allowDisturbed : {false, true}) {
    double logSum = 0;
    unsigned count = 0;
    for (const PairedTiming &pair : pairs) {
      if (!(pair.baselineSeconds > 0) || !(pair.candidateSeconds > 0))
        continue;
      bool disturbed = pair.baselineForeignLoad > maxForeignLoad ||
                       pair.candidateForeignLoad > maxForeignLoad;
      if (disturbed && !allowDisturbed)
        continue;
      logSum += std::log(pair.baselineSeconds / pair.candidateSeconds);
      ++count;
    }
    if (count > 0)
      return std::exp(logSum / count);
  }
  return 0;
}

uint64_t tuner::calibrateCalls(llvm::function_ref<double(uint64_t)> timeCalls,
                               double minSeconds) {
  uint64_t calls = 1;
  while (true) {
    double seconds = timeCalls(calls);
    if (seconds >= minSeconds)
      return calls;
    uint64_t estimate =
        seconds > 0 ? uint64_t(std::ceil(calls * 1.2 * minSeconds / seconds))
                    : calls * 16;
    calls = std::max(calls * 2, std::min(estimate, calls * 1000));
  }
}
