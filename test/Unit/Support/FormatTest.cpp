//===- FormatTest.cpp - Numbers and times as messages show them -----------===//

#include "tuner/Support/Format.h"

#include "gtest/gtest.h"

using namespace tuner;

namespace {

TEST(Format, ShortNumbers) {
  EXPECT_EQ(shortNumber(3), "3");
  EXPECT_EQ(shortNumber(0.5), "0.5");
  EXPECT_EQ(shortNumber(1e20), "1e+20");
}

TEST(Format, SecondsInTheirUnit) {
  EXPECT_EQ(formatSeconds(2.5), "2.500 s");
  EXPECT_EQ(formatSeconds(0.0127714), "12.771 ms");
  EXPECT_EQ(formatSeconds(163.926e-6), "163.926 us");
  EXPECT_EQ(formatSeconds(0.0127714, 2), "12.77 ms");
  EXPECT_EQ(formatSeconds(1e-3), "1.000 ms");
}

} // namespace
