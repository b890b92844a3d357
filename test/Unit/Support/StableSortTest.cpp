//===- StableSortTest.cpp - stableSort orders as std::stable_sort ---------===//

#include "tuner/Support/StableSort.h"

#include "gtest/gtest.h"

#include <memory>
#include <random>
#include <string>
#include <utility>

using namespace tuner;

namespace {

TEST(StableSortTest, TiesKeepTheirOrder) {
  std::vector<std::pair<int, std::string>> values = {
      {2, "a"}, {1, "b"}, {2, "c"}, {0, "d"}, {1, "e"}, {2, "f"}};
  stableSort(values, [](const auto &x, const auto &y) {
    return x.first > y.first;
  });
  std::string order;
  for (const auto &value : values)
    order += value.second;
  EXPECT_EQ(order, "acfbed");
}

TEST(StableSortTest, AgreesWithSortedPositionsOnRandomKeys) {
  std::mt19937 random(7);
  for (int round = 0; round < 50; ++round) {
    std::vector<std::pair<int, int>> values;
    int size = int(random() % 40);
    for (int i = 0; i < size; ++i)
      values.push_back({int(random() % 5), i});
    stableSort(values, [](const auto &x, const auto &y) {
      return x.first < y.first;
    });
    for (size_t i = 1; i < values.size(); ++i) {
      ASSERT_LE(values[i - 1].first, values[i].first);
      if (values[i - 1].first == values[i].first)
        ASSERT_LT(values[i - 1].second, values[i].second);
    }
  }
}

TEST(StableSortTest, MovesOnlyTypes) {
  std::vector<std::unique_ptr<int>> values;
  for (int v : {3, 1, 2})
    values.push_back(std::make_unique<int>(v));
  stableSort(values, [](const auto &x, const auto &y) { return *x < *y; });
  EXPECT_EQ(*values[0], 1);
  EXPECT_EQ(*values[1], 2);
  EXPECT_EQ(*values[2], 3);
}

} // namespace
