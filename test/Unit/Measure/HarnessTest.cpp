//===- HarnessTest.cpp - Spec JSON, random inputs, statistics, statuses ---===//

#include "tuner/Measure/Harness.h"
#include "tuner/Support/Measurement.h"

#include "gtest/gtest.h"

#include <cmath>

using namespace tuner;

namespace {

HarnessSpec makeSpec() {
  HarnessSpec spec;
  spec.function = "matmul";
  spec.seed = 0xfedcba9876543210ULL; // Does not fit in int64: sign bits.
  spec.buffers.push_back({ElementKind::F32, {16, 8}, false, false});
  spec.buffers.push_back({ElementKind::I8, {}, false, true});
  spec.buffers.push_back({ElementKind::BF16, {2, 0, 3}, true, true});
  return spec;
}

TEST(HarnessSpec, JSONRoundTrip) {
  HarnessSpec spec = makeSpec();
  std::string text;
  llvm::raw_string_ostream(text) << spec.toJSON();
  llvm::Expected<llvm::json::Value> json = llvm::json::parse(text);
  ASSERT_TRUE(bool(json)) << llvm::toString(json.takeError());
  llvm::Expected<HarnessSpec> parsed = HarnessSpec::fromJSON(*json);
  ASSERT_TRUE(bool(parsed)) << llvm::toString(parsed.takeError());
  EXPECT_EQ(parsed->function, "matmul");
  EXPECT_EQ(parsed->seed, spec.seed);
  ASSERT_EQ(parsed->buffers.size(), 3u);
  for (size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(parsed->buffers[i].type, spec.buffers[i].type);
    EXPECT_EQ(parsed->buffers[i].shape, spec.buffers[i].shape);
    EXPECT_EQ(parsed->buffers[i].isResult, spec.buffers[i].isResult);
    EXPECT_EQ(parsed->buffers[i].compared, spec.buffers[i].compared);
  }
  // Only compared buffers go to the outputs file: 1 byte (rank-0 i8) + 0.
  EXPECT_EQ(parsed->comparedBytes(), 1u);
  EXPECT_EQ(spec.buffers[0].byteSize(), 16u * 8u * 4u);
  EXPECT_EQ(spec.buffers[0].typeString(), "memref<16x8xf32>");
  EXPECT_EQ(spec.buffers[1].typeString(), "memref<i8>");
}

std::string fromJSONError(llvm::StringRef text) {
  llvm::Expected<llvm::json::Value> json = llvm::json::parse(text);
  if (!json)
    return "bad test JSON: " + llvm::toString(json.takeError());
  llvm::Expected<HarnessSpec> spec = HarnessSpec::fromJSON(*json);
  if (spec)
    return "";
  return llvm::toString(spec.takeError());
}

TEST(HarnessSpec, FromJSONErrorsNameTheField) {
  EXPECT_NE(fromJSONError(R"({"seed": 1, "buffers": []})").find("'function'"),
            std::string::npos);
  EXPECT_NE(fromJSONError(R"({"function": "f", "seed": 1, "buffers": [
               {"type": "f8", "shape": [2], "result": false,
                "compared": true}]})")
                .find("buffer 0: unsupported element type 'f8'"),
            std::string::npos);
  EXPECT_NE(fromJSONError(R"({"function": "f", "seed": 1, "buffers": [
               {"type": "f32", "shape": [2], "result": false,
                "compared": true},
               {"type": "f32", "shape": [-1], "result": false,
                "compared": true}]})")
                .find("buffer 1: 'shape'"),
            std::string::npos);
  EXPECT_NE(fromJSONError(R"({"function": "f", "seed": 1, "buffers": [
               {"type": "i32", "shape": [2]}]})")
                .find("'result' or 'compared'"),
            std::string::npos);
  EXPECT_EQ(fromJSONError(R"({"function": "f", "seed": 1, "buffers": []})"),
            "");
}

TEST(ElementKind, NamesAndSizes) {
  for (ElementKind kind :
       {ElementKind::I1, ElementKind::I8, ElementKind::I16, ElementKind::I32,
        ElementKind::I64, ElementKind::Index, ElementKind::F16,
        ElementKind::BF16, ElementKind::F32, ElementKind::F64})
    EXPECT_EQ(parseElementKind(elementKindName(kind)), kind);
  EXPECT_FALSE(parseElementKind("f128"));
  EXPECT_EQ(elementKindBytes(ElementKind::I1), 1u);
  EXPECT_EQ(elementKindBytes(ElementKind::Index), 8u);
  EXPECT_EQ(elementKindBytes(ElementKind::BF16), 2u);
  EXPECT_TRUE(isFloatKind(ElementKind::F16));
  EXPECT_FALSE(isFloatKind(ElementKind::I64));
}

std::vector<uint8_t> fill(const BufferSpec &buffer, uint64_t seed,
                          unsigned index) {
  std::vector<uint8_t> data(buffer.byteSize());
  fillRandom(buffer, seed, index, data);
  return data;
}

TEST(FillRandom, DeterministicAndDistinctPerBufferAndSeed) {
  BufferSpec buffer{ElementKind::F32, {64}, false, true};
  EXPECT_EQ(fill(buffer, 7, 0), fill(buffer, 7, 0));
  EXPECT_NE(fill(buffer, 7, 0), fill(buffer, 7, 1));
  EXPECT_NE(fill(buffer, 7, 0), fill(buffer, 8, 0));
}

TEST(FillRandom, ValuesInRange) {
  struct Case {
    ElementKind kind;
    double low, high;
  } cases[] = {{ElementKind::F32, -1, 1},   {ElementKind::F64, -1, 1},
               {ElementKind::F16, -1, 1},   {ElementKind::BF16, -1, 1},
               {ElementKind::I1, 0, 2},     {ElementKind::I8, -8, 8},
               {ElementKind::I32, -64, 64}, {ElementKind::Index, -64, 64}};
  for (const Case &c : cases) {
    BufferSpec buffer{c.kind, {4, 64}, false, true};
    std::vector<uint8_t> data = fill(buffer, 3, 2);
    bool sawNegative = false, sawPositive = false;
    for (int64_t i = 0; i < buffer.numElements(); ++i) {
      double value = readElement(c.kind, data.data(), i);
      EXPECT_GE(value, c.low) << elementKindName(c.kind).str();
      EXPECT_LT(value, c.high) << elementKindName(c.kind).str();
      sawNegative |= value < 0;
      sawPositive |= value > 0;
      if (c.kind == ElementKind::F16 || c.kind == ElementKind::BF16)
        EXPECT_EQ(value * 256, std::floor(value * 256))
            << "f16/bf16 inputs are multiples of 1/256";
    }
    EXPECT_TRUE(sawPositive) << elementKindName(c.kind).str();
    if (c.low < 0)
      EXPECT_TRUE(sawNegative) << elementKindName(c.kind).str();
  }
}

TEST(SummarizeTimes, MinMedianMax) {
  TimingSummary odd = summarizeTimes({3.0, 1.0, 2.0, 5.0, 4.0});
  EXPECT_EQ(odd.minSeconds, 1.0);
  EXPECT_EQ(odd.medianSeconds, 3.0);
  EXPECT_EQ(odd.maxSeconds, 5.0);
  EXPECT_EQ(odd.repetitions, 5u);
  TimingSummary even = summarizeTimes({4.0, 1.0, 3.0, 10.0});
  EXPECT_EQ(even.medianSeconds, 3.5);
  EXPECT_EQ(even.maxSeconds, 10.0);
  TimingSummary empty = summarizeTimes({});
  EXPECT_EQ(empty.repetitions, 0u);
  EXPECT_EQ(empty.medianSeconds, 0.0);
}

} // namespace

namespace {
TEST(CalibrateCalls, GrowsUntilARoundLastsTheMinimum) {
  std::vector<uint64_t> rounds;
  // 1 ms per call: 50 ms need at least 50 calls.
  uint64_t calls = tuner::calibrateCalls(
      [&](uint64_t n) {
        rounds.push_back(n);
        return double(n) * 1e-3;
      },
      0.05);
  EXPECT_GE(double(calls) * 1e-3, 0.05);
  EXPECT_EQ(calls, rounds.back());
  for (size_t i = 1; i < rounds.size(); ++i)
    EXPECT_GT(rounds[i], rounds[i - 1]);
  // A call too fast for the clock (0 s) grows 16-fold per round; one long
  // enough at once is timed once.
  std::vector<uint64_t> zero;
  tuner::calibrateCalls(
      [&](uint64_t n) {
        zero.push_back(n);
        return n >= 256 ? 1.0 : 0.0;
      },
      0.5);
  EXPECT_EQ(zero, (std::vector<uint64_t>{1, 16, 256}));
  EXPECT_EQ(tuner::calibrateCalls([](uint64_t) { return 2.0; }, 0.5), 1u);
}
} // namespace

namespace {
TEST(IsBetterTiming, UndisturbedLeastMedianElseLeastDisturbed) {
  const double max = 0.5;
  // Both undisturbed: the lower median, whatever the loads.
  EXPECT_TRUE(tuner::isBetterTiming(1.0, 0.4, 1.2, 0.0, max));
  EXPECT_FALSE(tuner::isBetterTiming(1.2, 0.0, 1.0, 0.4, max));
  EXPECT_FALSE(tuner::isBetterTiming(1.0, 0.0, 1.0, 0.0, max));
  // An undisturbed timing beats a disturbed one, even a faster one.
  EXPECT_TRUE(tuner::isBetterTiming(2.0, 0.1, 1.0, 0.9, max));
  EXPECT_FALSE(tuner::isBetterTiming(1.0, 0.9, 2.0, 0.1, max));
  // Both disturbed: the less disturbed, whatever the medians.
  EXPECT_TRUE(tuner::isBetterTiming(2.0, 0.6, 1.0, 0.9, max));
  EXPECT_FALSE(tuner::isBetterTiming(1.0, 0.9, 2.0, 0.6, max));
  // An unknown load (negative) counts as undisturbed; the limit itself too.
  EXPECT_TRUE(tuner::isBetterTiming(1.0, -1.0, 1.1, -1.0, max));
  EXPECT_TRUE(tuner::isBetterTiming(3.0, 0.5, 1.0, 0.51, max));
}

TEST(PairedSpeedup, GeometricMeanOfUndisturbedPairsElseOfAll) {
  const double max = 0.5;
  using P = tuner::PairedTiming;
  // No pair, or only pairs without a time: no speedup.
  EXPECT_EQ(tuner::pairedSpeedup({}, max), 0.0);
  EXPECT_EQ(tuner::pairedSpeedup({P{0.0, 0.0, 1.0, 0.0}}, max), 0.0);
  // One pair: the baseline's time over the candidate's.
  EXPECT_DOUBLE_EQ(tuner::pairedSpeedup({P{3.0, 0.0, 1.5, 0.0}}, max), 2.0);
  // A process 1.5x slower for both (a slow spell) gives the same ratio: the
  // geometric mean of 2 and 2 is 2, where the least times (2.0 / 1.0 from
  // different processes) would not pair them.
  EXPECT_DOUBLE_EQ(
      tuner::pairedSpeedup({P{2.0, 0.0, 1.0, 0.0}, P{3.0, 0.0, 1.5, 0.0}},
                           max),
      2.0);
  // Ratios 2 and 8: the geometric mean 4 (the arithmetic one would be 5).
  EXPECT_DOUBLE_EQ(
      tuner::pairedSpeedup({P{2.0, 0.0, 1.0, 0.0}, P{8.0, 0.0, 1.0, 0.0}},
                           max),
      4.0);
  // A pair with either timing disturbed is left out while an undisturbed
  // pair exists; unknown loads (negative) and the limit itself count as
  // undisturbed.
  EXPECT_DOUBLE_EQ(
      tuner::pairedSpeedup({P{2.0, -1.0, 1.0, 0.5}, P{9.0, 0.9, 1.0, 0.0},
                            P{9.0, 0.0, 1.0, 0.7}},
                           max),
      2.0);
  // All disturbed: all of them count.
  EXPECT_DOUBLE_EQ(
      tuner::pairedSpeedup({P{2.0, 0.9, 1.0, 0.0}, P{8.0, 0.0, 1.0, 0.6}},
                           max),
      4.0);
}
} // namespace
