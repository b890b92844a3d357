//===- MetricsTest.cpp - MAPE, Pearson, Spearman --------------------------===//

#include "tuner/CostModel/Metrics.h"

#include "gtest/gtest.h"

#include <cmath>

using namespace tuner;

namespace {

TEST(MetricsTest, MeanAbsolutePercentageError) {
  EXPECT_DOUBLE_EQ(meanAbsolutePercentageError({1, 2, 4}, {1.5, 1, 4}),
                   (0.5 + 0.5 + 0) / 3);
  EXPECT_TRUE(std::isnan(meanAbsolutePercentageError({}, {})));
}

TEST(MetricsTest, MeanAbsoluteLogError) {
  // A speedup predicted 2x too high and one 2x too low cost the same.
  EXPECT_DOUBLE_EQ(meanAbsoluteLogError({1, 2, 4}, {2, 1, 4}),
                   2 * std::log(2.0) / 3);
  EXPECT_TRUE(std::isnan(meanAbsoluteLogError({}, {})));
}

TEST(MetricsTest, Pearson) {
  EXPECT_NEAR(pearsonCorrelation({1, 2, 3, 4}, {2, 4, 6, 8}), 1, 1e-12);
  EXPECT_NEAR(pearsonCorrelation({1, 2, 3, 4}, {8, 6, 4, 2}), -1, 1e-12);
  // numpy.corrcoef([1, 2, 3, 4, 5], [2, 1, 4, 3, 7])[0, 1]
  EXPECT_NEAR(pearsonCorrelation({1, 2, 3, 4, 5}, {2, 1, 4, 3, 7}),
              0.8241633836921342, 1e-12);
  // Undefined for a constant side or a single pair.
  EXPECT_TRUE(std::isnan(pearsonCorrelation({1, 2, 3}, {5, 5, 5})));
  EXPECT_TRUE(std::isnan(pearsonCorrelation({1}, {1})));
}

TEST(MetricsTest, SpearmanWithTies) {
  std::vector<double> r = ranks({10, 20, 10, 30, 20, 20});
  EXPECT_EQ(r, (std::vector<double>{1.5, 4, 1.5, 6, 4, 4}));
  // A monotone but nonlinear relation has rank correlation 1.
  EXPECT_NEAR(spearmanCorrelation({1, 2, 3, 4}, {1, 10, 100, 1000}), 1, 1e-12);
  // Ranks [1, 2.5, 2.5, 4, 5] and [1, 4, 2.5, 2.5, 5]; numpy.corrcoef of
  // them gives 0.7631578947368421.
  EXPECT_NEAR(spearmanCorrelation({1, 2, 2, 3, 4}, {1, 3, 2, 2, 5}),
              0.7631578947368421, 1e-12);
}

TEST(MetricsTest, OverallAndPerProgram) {
  Evaluation e = Evaluation::of(
      {{"b", 1, 1}, {"a", 1, 2}, {"a", 2, 3}, {"b", 2, 2}, {"a", 4, 4}});
  EXPECT_EQ(e.overall.count, 5u);
  EXPECT_DOUBLE_EQ(e.overall.mape, (0 + 1 + 0.5 + 0 + 0) / 5);
  ASSERT_EQ(e.perProgram.size(), 2u);
  EXPECT_EQ(e.perProgram[0].first, "a");
  EXPECT_EQ(e.perProgram[0].second.count, 3u);
  EXPECT_DOUBLE_EQ(e.perProgram[0].second.mape, 1.5 / 3);
  EXPECT_DOUBLE_EQ(e.perProgram[0].second.spearman, 1);
  EXPECT_EQ(e.perProgram[1].first, "b");
  EXPECT_DOUBLE_EQ(e.perProgram[1].second.mape, 0);
  // Ranking: both programs' predictions order their schedules as measured.
  EXPECT_EQ(e.ranking.programs, 2u);
  EXPECT_DOUBLE_EQ(e.ranking.meanSpearman, 1);
  EXPECT_DOUBLE_EQ(e.ranking.top1, 1);
  EXPECT_DOUBLE_EQ(e.ranking.top3, 1);
  EXPECT_DOUBLE_EQ(e.ranking.top5, 1);

  llvm::json::Value json = e.toJSON(/*withRows=*/true);
  const llvm::json::Object *object = json.getAsObject();
  ASSERT_TRUE(object);
  EXPECT_EQ(object->getArray("rows")->size(), 5u);
  EXPECT_EQ(object->getObject("programs")->getObject("b")->getInteger("count"),
            2);
  EXPECT_EQ(object->getObject("ranking")->getInteger("programs"), 2);
  // A single-sample program has no correlation: null, not NaN.
  Evaluation single = Evaluation::of({{"x", 1, 2}});
  llvm::json::Value singleJSON = single.toJSON(false);
  EXPECT_TRUE(singleJSON.getAsObject()
                  ->getObject("overall")
                  ->get("pearson")
                  ->getAsNull());
  EXPECT_FALSE(singleJSON.getAsObject()->get("rows"));
}

TEST(MetricsTest, RankingWithinPrograms) {
  // p: the model's favourite (predicted 9) measures 1 of a best 4; its top
  // three (9, 8, 7) hold measured 1, 2 and 4. q: the favourite is the best.
  // r: one schedule, not ranked.
  Evaluation e = Evaluation::of({{"p", 1, 9},
                                 {"p", 2, 8},
                                 {"p", 4, 7},
                                 {"p", 3, 1},
                                 {"q", 2, 5},
                                 {"q", 1, 1},
                                 {"r", 1, 1}});
  EXPECT_EQ(e.ranking.programs, 2u);
  EXPECT_DOUBLE_EQ(e.ranking.top1, (1.0 / 4 + 1) / 2);
  EXPECT_DOUBLE_EQ(e.ranking.top3, 1);
  // p: ranks of measured [1, 2, 4, 3], of predicted [4, 3, 2, 1]: -0.8.
  EXPECT_NEAR(e.ranking.meanSpearman, (-0.8 + 1) / 2, 1e-12);
}

TEST(MetricsTest, TopFiveNeedsTheFirstFive) {
  // s: seven schedules; the best (measured 10) is the model's fifth choice,
  // the second best (5) its fourth, the model's first three measure 1, 2, 3.
  // t: the best is the model's sixth choice: top-5 reaches 4 of 8.
  Evaluation e = Evaluation::of({{"s", 1, 70},
                                 {"s", 2, 60},
                                 {"s", 3, 50},
                                 {"s", 5, 40},
                                 {"s", 10, 30},
                                 {"s", 1, 20},
                                 {"s", 1, 10},
                                 {"t", 1, 9},
                                 {"t", 2, 8},
                                 {"t", 1, 7},
                                 {"t", 4, 6},
                                 {"t", 1, 5},
                                 {"t", 8, 4}});
  EXPECT_EQ(e.ranking.programs, 2u);
  EXPECT_DOUBLE_EQ(e.ranking.top1, (1.0 / 10 + 1.0 / 8) / 2);
  EXPECT_DOUBLE_EQ(e.ranking.top3, (3.0 / 10 + 2.0 / 8) / 2);
  EXPECT_DOUBLE_EQ(e.ranking.top5, (1 + 4.0 / 8) / 2);
  // Every figure is in the JSON.
  llvm::json::Value json = e.toJSON(false);
  const llvm::json::Object *ranking =
      json.getAsObject()->getObject("ranking");
  ASSERT_TRUE(ranking);
  EXPECT_EQ(ranking->getNumber("top5"), e.ranking.top5);
  EXPECT_EQ(ranking->getNumber("top3"), e.ranking.top3);
  EXPECT_EQ(ranking->getNumber("top1"), e.ranking.top1);
}

} // namespace
