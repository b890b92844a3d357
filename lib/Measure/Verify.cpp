//===- Verify.cpp - Compare a candidate's outputs with the baseline's -----===//

#include "tuner/Measure/Verify.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cmath>

using namespace tuner;

Tolerance Tolerance::forType(ElementKind type, int64_t reductionLength) {
  double base = 0;
  switch (type) {
  case ElementKind::F64:
    base = 1e-10;
    break;
  case ElementKind::F32:
    base = 1e-5;
    break;
  case ElementKind::F16:
    base = 4e-3;
    break;
  case ElementKind::BF16:
    base = 3e-2;
    break;
  default:
    return Tolerance();
  }
  double scale = std::sqrt(double(std::max<int64_t>(reductionLength, 1)));
  return Tolerance{base * scale, base * scale};
}

bool Tolerance::accepts(double expected, double actual) const {
  if (std::isnan(expected) || std::isnan(actual))
    return std::isnan(expected) && std::isnan(actual);
  if (std::isinf(expected) || std::isinf(actual))
    return expected == actual;
  return std::fabs(actual - expected) <=
         absolute + relative * std::fabs(expected);
}

/// "[i, j, k]" for the flat row-major `index` into `shape`.
static std::string formatPosition(llvm::ArrayRef<int64_t> shape,
                                  int64_t index) {
  llvm::SmallVector<int64_t, 4> position(shape.size());
  for (size_t dim = shape.size(); dim-- > 0;) {
    position[dim] = shape[dim] ? index % shape[dim] : 0;
    index = shape[dim] ? index / shape[dim] : 0;
  }
  std::string text = "[";
  llvm::raw_string_ostream os(text);
  llvm::interleaveComma(position, os);
  os << "]";
  return text;
}

/// "result #0" / "argument #2", counted separately as in the source.
static std::string describeBuffer(const HarnessSpec &spec, size_t bufferIndex) {
  unsigned ordinal = 0;
  for (size_t i = 0; i < bufferIndex; ++i)
    if (spec.buffers[i].isResult == spec.buffers[bufferIndex].isResult)
      ++ordinal;
  const BufferSpec &buffer = spec.buffers[bufferIndex];
  return (llvm::Twine(buffer.isResult ? "result #" : "argument #") +
          llvm::Twine(ordinal) + " (" + buffer.typeString() + ")")
      .str();
}

std::optional<std::string> tuner::compareOutputs(const HarnessSpec &spec,
                                                 llvm::StringRef expected,
                                                 llvm::StringRef actual,
                                                 int64_t reductionLength) {
  uint64_t size = spec.comparedBytes();
  if (expected.size() != size || actual.size() != size)
    return ("outputs have " + llvm::Twine(actual.size()) +
            " bytes, the baseline's " + llvm::Twine(expected.size()) +
            ", the spec says " + llvm::Twine(size))
        .str();
  const uint8_t *expectedBytes =
      reinterpret_cast<const uint8_t *>(expected.data());
  const uint8_t *actualBytes = reinterpret_cast<const uint8_t *>(actual.data());
  uint64_t offset = 0;
  for (size_t bufferIndex = 0; bufferIndex < spec.buffers.size();
       ++bufferIndex) {
    const BufferSpec &buffer = spec.buffers[bufferIndex];
    if (!buffer.compared)
      continue;
    const uint8_t *want = expectedBytes + offset;
    const uint8_t *got = actualBytes + offset;
    offset += buffer.byteSize();
    bool isFloat = isFloatKind(buffer.type);
    Tolerance tolerance = Tolerance::forType(buffer.type, reductionLength);
    if (isFloat) {
      // Reassociated sums err in proportion to their terms, not to their
      // result: where terms cancel, an element near zero carries the
      // rounding error of its large partial sums. The buffer's largest
      // magnitude stands for those.
      double largest = 0;
      for (int64_t i = 0, e = buffer.numElements(); i < e; ++i) {
        double a = readElement(buffer.type, want, i);
        if (std::isfinite(a))
          largest = std::max(largest, std::fabs(a));
      }
      tolerance.absolute *= std::max(1.0, largest);
    }
    for (int64_t i = 0, e = buffer.numElements(); i < e; ++i) {
      std::string wantText, gotText;
      llvm::raw_string_ostream wantOs(wantText), gotOs(gotText);
      if (isFloat) {
        double a = readElement(buffer.type, want, i);
        double b = readElement(buffer.type, got, i);
        if (tolerance.accepts(a, b))
          continue;
        wantOs << llvm::format("%.9g", a);
        gotOs << llvm::format("%.9g", b);
      } else {
        int64_t a = readInteger(buffer.type, want, i);
        int64_t b = readInteger(buffer.type, got, i);
        if (a == b)
          continue;
        wantOs << a;
        gotOs << b;
      }
      std::string message = describeBuffer(spec, bufferIndex) + " differs at " +
                            formatPosition(buffer.shape, i) + ": expected " +
                            wantText + ", got " + gotText;
      if (isFloat) {
        llvm::raw_string_ostream os(message);
        os << llvm::format(" (tolerance %.2e + %.2e*|expected|)",
                           tolerance.absolute, tolerance.relative);
      }
      return message;
    }
  }
  return std::nullopt;
}
