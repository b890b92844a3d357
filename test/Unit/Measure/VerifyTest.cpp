//===- VerifyTest.cpp - Output comparison and tolerances ------------------===//

#include "tuner/Measure/Verify.h"

#include "gtest/gtest.h"

#include <cmath>
#include <cstring>
#include <limits>

using namespace tuner;

namespace {

TEST(Tolerance, PerTypeAndGrowingWithReductionLength) {
  EXPECT_EQ(Tolerance::forType(ElementKind::I32, 1000).absolute, 0.0);
  EXPECT_EQ(Tolerance::forType(ElementKind::I32, 1000).relative, 0.0);
  Tolerance f32 = Tolerance::forType(ElementKind::F32, 1);
  Tolerance f32Long = Tolerance::forType(ElementKind::F32, 256);
  Tolerance f64 = Tolerance::forType(ElementKind::F64, 256);
  EXPECT_DOUBLE_EQ(f32.relative, 1e-5);
  EXPECT_DOUBLE_EQ(f32Long.relative, 16 * 1e-5);
  EXPECT_DOUBLE_EQ(f64.relative, 16 * 1e-10);
  EXPECT_GT(Tolerance::forType(ElementKind::F16, 1).relative, f32.relative);
  EXPECT_GT(Tolerance::forType(ElementKind::BF16, 1).relative,
            Tolerance::forType(ElementKind::F16, 1).relative);
  // Non-positive lengths count as 1.
  EXPECT_DOUBLE_EQ(Tolerance::forType(ElementKind::F32, 0).relative, 1e-5);
}

TEST(Tolerance, Accepts) {
  Tolerance tolerance{1e-6, 1e-4};
  EXPECT_TRUE(tolerance.accepts(100.0, 100.0 + 0.5e-2));
  EXPECT_FALSE(tolerance.accepts(100.0, 100.0 + 2e-2));
  EXPECT_TRUE(tolerance.accepts(0.0, 0.5e-6));
  EXPECT_FALSE(tolerance.accepts(0.0, 2e-6));
  double nan = std::numeric_limits<double>::quiet_NaN();
  double inf = std::numeric_limits<double>::infinity();
  EXPECT_TRUE(tolerance.accepts(nan, nan));
  EXPECT_FALSE(tolerance.accepts(nan, 1.0));
  EXPECT_FALSE(tolerance.accepts(1.0, nan));
  EXPECT_TRUE(tolerance.accepts(inf, inf));
  EXPECT_FALSE(tolerance.accepts(inf, -inf));
  EXPECT_FALSE(tolerance.accepts(inf, 1e300));
  EXPECT_FALSE(Tolerance().accepts(1.0, std::nextafter(1.0, 2.0)));
}

/// Two compared buffers (f32 2x3 result, i16 4 argument) around an ignored
/// tensor argument.
HarnessSpec makeSpec() {
  HarnessSpec spec;
  spec.function = "f";
  spec.buffers.push_back({ElementKind::F64, {5}, false, false});
  spec.buffers.push_back({ElementKind::I16, {4}, false, true});
  spec.buffers.push_back({ElementKind::F32, {2, 3}, true, true});
  return spec;
}

struct Outputs {
  int16_t ints[4] = {1, -2, 3, -4};
  float floats[6] = {0.5f, -1.25f, 3.0f, 100.0f, -7.5f, 0.0f};
  std::string bytes() const {
    std::string text(sizeof(ints) + sizeof(floats), '\0');
    std::memcpy(text.data(), ints, sizeof(ints));
    std::memcpy(text.data() + sizeof(ints), floats, sizeof(floats));
    return text;
  }
};

TEST(CompareOutputs, EqualAndWithinTolerance) {
  HarnessSpec spec = makeSpec();
  Outputs expected, actual;
  EXPECT_EQ(compareOutputs(spec, expected.bytes(), actual.bytes(), 1),
            std::nullopt);
  // 100 * 1e-5 * 4 (sqrt of 16) = 4e-3 relative room at 100.
  actual.floats[3] = 100.00390625f; // 100 + 1/256, exact.
  EXPECT_EQ(compareOutputs(spec, expected.bytes(), actual.bytes(), 16),
            std::nullopt);
  std::optional<std::string> tight =
      compareOutputs(spec, expected.bytes(), actual.bytes(), 1);
  ASSERT_TRUE(tight.has_value());
  EXPECT_NE(tight->find("result #0 (memref<2x3xf32>) differs at [1, 0]"),
            std::string::npos)
      << *tight;
  EXPECT_NE(tight->find("expected 100, got 100.003906"), std::string::npos)
      << *tight;
}

TEST(CompareOutputs, AbsoluteRoomScalesWithTheBuffersLargestValue) {
  // An element whose terms cancelled to zero keeps their rounding error: the
  // absolute room is 1e-5 * 4 (sqrt of 16) times the largest magnitude of
  // the buffer (100), 4e-3.
  HarnessSpec spec = makeSpec();
  Outputs expected, actual;
  actual.floats[5] = 0.003f;
  EXPECT_EQ(compareOutputs(spec, expected.bytes(), actual.bytes(), 16),
            std::nullopt);
  // Not room for an error of the size of the values themselves.
  actual.floats[5] = 0.0f;
  actual.floats[0] = 0.6f;
  std::optional<std::string> mismatch =
      compareOutputs(spec, expected.bytes(), actual.bytes(), 16);
  ASSERT_TRUE(mismatch.has_value());
  EXPECT_NE(mismatch->find("differs at [0, 0]: expected 0.5, got 0.600000024 "
                           "(tolerance 4.00e-03 + 4.00e-05*|expected|)"),
            std::string::npos)
      << *mismatch;
}

TEST(CompareOutputs, IntegersExactlyAndFirstDifference) {
  HarnessSpec spec = makeSpec();
  Outputs expected, actual;
  actual.ints[2] = 4;
  actual.floats[0] = 9.0f; // Later buffer: the first difference wins.
  std::optional<std::string> mismatch =
      compareOutputs(spec, expected.bytes(), actual.bytes(), 1 << 20);
  ASSERT_TRUE(mismatch.has_value());
  EXPECT_EQ(*mismatch,
            "argument #1 (memref<4xi16>) differs at [2]: expected 3, got 4");
}

TEST(CompareOutputs, NaNMustMatch) {
  HarnessSpec spec = makeSpec();
  Outputs expected, actual;
  expected.floats[5] = std::numeric_limits<float>::quiet_NaN();
  actual.floats[5] = std::numeric_limits<float>::quiet_NaN();
  EXPECT_EQ(compareOutputs(spec, expected.bytes(), actual.bytes(), 1),
            std::nullopt);
  actual.floats[5] = 0.0f;
  std::optional<std::string> mismatch =
      compareOutputs(spec, expected.bytes(), actual.bytes(), 1);
  ASSERT_TRUE(mismatch.has_value());
  EXPECT_NE(mismatch->find("differs at [1, 2]: expected nan, got 0"),
            std::string::npos)
      << *mismatch;
}

TEST(CompareOutputs, SizeMismatch) {
  HarnessSpec spec = makeSpec();
  Outputs expected;
  std::string truncated = expected.bytes().substr(4);
  std::optional<std::string> mismatch =
      compareOutputs(spec, expected.bytes(), truncated, 1);
  ASSERT_TRUE(mismatch.has_value());
  EXPECT_NE(mismatch->find("outputs have 28 bytes, the baseline's 32"),
            std::string::npos)
      << *mismatch;
}

} // namespace
