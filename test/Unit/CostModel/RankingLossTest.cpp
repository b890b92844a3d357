//===- RankingLossTest.cpp - RankNet, LambdaRank and ListNet losses -------===//

#include "RankingLoss.h"

#include "tuner/CostModel/Training.h"

#include "TestPrograms.h"

#include "gtest/gtest.h"

#include <cmath>
#include <cstdio>

using namespace tuner;
using namespace tuner::test;

namespace {

using MatrixD = Network<double>::Matrix;

MatrixD row(std::initializer_list<double> values) {
  MatrixD m(1, values.size());
  Eigen::Index i = 0;
  for (double v : values)
    m(0, i++) = v;
  return m;
}

/// Checks `grad` of `loss` at `predictions` against central differences.
void expectGradientMatchesFiniteDifferences(
    llvm::function_ref<double(const MatrixD &, MatrixD *)> loss,
    const MatrixD &predictions) {
  MatrixD grad;
  loss(predictions, &grad);
  ASSERT_EQ(grad.cols(), predictions.cols());
  for (Eigen::Index i = 0; i < predictions.cols(); ++i) {
    const double h = 1e-6 * predictions(0, i);
    MatrixD up = predictions, down = predictions;
    up(0, i) += h;
    down(0, i) -= h;
    double numeric = (loss(up, nullptr) - loss(down, nullptr)) / (2 * h);
    EXPECT_NEAR(grad(0, i), numeric, 1e-7 + 1e-6 * std::fabs(numeric))
        << "prediction " << i;
  }
}

TEST(RankingLossTest, RankNetValue) {
  // One program: measured 2 and 0.5 (and the untransformed schedule, 1);
  // predicted 1.5 and 3. Pairs: (2 over 0.5) d = log(1.5 / 3),
  // (2 over untransformed) d = log 1.5, (untransformed over 0.5) d = -log 3.
  MatrixD p = row({1.5, 3}), y = row({2, 0.5});
  double expected = (std::log1p(3 / 1.5) + std::log1p(1 / 1.5) +
                     std::log1p(3.0)) /
                    3;
  EXPECT_NEAR(rankNetLoss<double>(p, y, {0, 0}, 0.08, nullptr), expected,
              1e-12);
  // In two programs, the pair across them does not count; each is compared
  // with its own untransformed schedule only.
  double apart = (std::log1p(1 / 1.5) + std::log1p(3.0)) / 2;
  EXPECT_NEAR(rankNetLoss<double>(p, y, {0, 1}, 0.08, nullptr), apart, 1e-12);
}

TEST(RankingLossTest, RankNetLeavesOutPairsWithinTheNoise) {
  // 1.05 and 1.0 measured: within 8 % of each other and of the
  // untransformed schedule's 1: no pair counts, whatever the predictions.
  MatrixD p = row({0.2, 5}), y = row({1.05, 1.0}), grad;
  EXPECT_EQ(rankNetLoss<double>(p, y, {0, 0}, 0.08, &grad), 0);
  EXPECT_EQ(grad, MatrixD::Zero(1, 2));
  // Without the margin they count, and the wrong order costs.
  EXPECT_GT(rankNetLoss<double>(p, y, {0, 0}, 0, &grad), std::log(2.0));
  // The faster schedule's prediction should rise, the slower one's fall.
  EXPECT_LT(grad(0, 0), 0);
  EXPECT_GT(grad(0, 1), 0);
  // 1.5 against 1.05, 1.0 and the untransformed 1: three pairs count, at
  // log 2 each for equal predictions; those among 1.05, 1.0 and 1 do not.
  MatrixD three = row({1, 1, 1}), y3 = row({1.5, 1.05, 1.0});
  EXPECT_NEAR(rankNetLoss<double>(three, y3, {0, 0, 0}, 0.08, nullptr),
              std::log(2.0), 1e-12);
}

TEST(RankingLossTest, RankNetIgnoresTheScaleButNotTheOrder) {
  // Only ratios of predictions matter: scaling every prediction of a
  // program by the same factor changes only the pairs with the
  // untransformed schedule (whose prediction is 1).
  MatrixD y = row({4, 2, 0.25, 0.1});
  MatrixD right = row({8, 4, 0.5, 0.2}), wrong = row({0.2, 0.5, 4, 8});
  double good = rankNetLoss<double>(right, y, {0, 0, 0, 0}, 0.08, nullptr);
  double bad = rankNetLoss<double>(wrong, y, {0, 0, 0, 0}, 0.08, nullptr);
  EXPECT_LT(good, 0.3);
  EXPECT_GT(bad, 1.5);
}

TEST(RankingLossTest, RankNetGradient) {
  MatrixD y = row({2.0, 0.5, 1.3, 0.9, 3.0, 1.02, 0.7});
  std::vector<unsigned> groups = {0, 0, 0, 1, 1, 1, 2};
  for (double margin : {0.0, 0.08}) {
    MatrixD p = row({1.7, 0.8, 2.5, 0.3, 1.1, 0.95, 1.4});
    expectGradientMatchesFiniteDifferences(
        [&](const MatrixD &predictions, MatrixD *grad) {
          return rankNetLoss<double>(predictions, y, groups, margin, grad);
        },
        p);
  }
}

TEST(RankingLossTest, LambdaRankValue) {
  // One program: measured 2 and 0.5 (and the untransformed schedule, 1);
  // predicted 1.5 and 3. The model's order: 0.5-schedule (s = log 3),
  // 2-schedule (log 1.5), untransformed (0); gains 1, 0.25 and 0.5 (shares
  // of the best, 2); discounts 1, 1/log2 3, 1/2 at ranks 0, 1, 2.
  MatrixD p = row({1.5, 3}), y = row({2, 0.5});
  double d0 = 1, d1 = 1 / std::log2(3.0), d2 = 0.5;
  double ideal = 1 * d0 + 0.5 * d1 + 0.25 * d2;
  // Pairs (faster first): 2 over 0.5 at ranks 1 and 0; 2 over
  // untransformed at 1 and 2; untransformed over 0.5 at 2 and 0.
  double w1 = 0.75 * (d0 - d1) / ideal, w2 = 0.5 * (d1 - d2) / ideal,
         w3 = 0.25 * (d0 - d2) / ideal;
  double l1 = std::log1p(3 / 1.5), l2 = std::log1p(1 / 1.5),
         l3 = std::log1p(3.0);
  double expected = (w1 * l1 + w2 * l2 + w3 * l3) / (w1 + w2 + w3);
  EXPECT_NEAR(lambdaRankLoss<double>(p, y, {0, 0}, 0.08, nullptr), expected,
              1e-12);
  // The weights favour the pair at the top: swapping the first two of the
  // model's order changes the NDCG most.
  EXPECT_GT(w1, w2);
  // With the two apart, each group has one counted pair: the loss is the
  // mean of its cross-entropies, whatever the weights.
  EXPECT_NEAR(lambdaRankLoss<double>(p, y, {0, 1}, 0.08, nullptr),
              (std::log1p(1 / 1.5) + std::log1p(3.0)) / 2, 1e-12);
  // Pairs within the margin do not count: measured 1.05, 1 (untransformed)
  // and 0.96 are each less than a factor 1.1 apart, so no pair counts.
  MatrixD close = row({2, 1.9}), yClose = row({1.05, 1.0 / 1.04});
  EXPECT_EQ(lambdaRankLoss<double>(close, yClose, {0, 0}, 0.1, nullptr), 0);
  MatrixD grad;
  lambdaRankLoss<double>(close, yClose, {0, 0}, 0.1, &grad);
  EXPECT_EQ(grad.norm(), 0);
}

TEST(RankingLossTest, LambdaRankWeighsTheTop) {
  // One program (and its untransformed schedule): the same swap of two
  // schedules a factor of 2 apart, either at the top of the model's order
  // (4 and 2) or at its bottom (0.25 and 0.125, below the untransformed 1).
  // The swap at the top costs more NDCG, and so more loss.
  MatrixD y = row({4, 2, 0.25, 0.125});
  MatrixD topSwapped = row({2, 4, 0.25, 0.125});
  MatrixD bottomSwapped = row({4, 2, 0.125, 0.25});
  double top = lambdaRankLoss<double>(topSwapped, y, {0, 0, 0, 0}, 0.08,
                                      nullptr);
  double bottom = lambdaRankLoss<double>(bottomSwapped, y, {0, 0, 0, 0}, 0.08,
                                         nullptr);
  EXPECT_GT(top, bottom);
  // RankNet counts the two swaps alike.
  EXPECT_NEAR(rankNetLoss<double>(topSwapped, y, {0, 0, 0, 0}, 0.08, nullptr),
              rankNetLoss<double>(bottomSwapped, y, {0, 0, 0, 0}, 0.08,
                                  nullptr),
              1e-12);
}

TEST(RankingLossTest, LambdaRankGradient) {
  // Predictions apart from each other, so that a finite difference does
  // not change the order (the weights are those of the order).
  MatrixD y = row({2.0, 0.5, 1.3, 0.9, 3.0, 1.02, 0.7, 1.8});
  std::vector<unsigned> groups = {0, 0, 0, 1, 1, 1, 2, 2};
  for (double margin : {0.0, 0.08}) {
    MatrixD p = row({1.7, 0.8, 2.5, 0.3, 1.1, 0.95, 1.4, 0.6});
    expectGradientMatchesFiniteDifferences(
        [&](const MatrixD &predictions, MatrixD *grad) {
          return lambdaRankLoss<double>(predictions, y, groups, margin, grad);
        },
        p);
  }
}

TEST(RankingLossTest, ListNetValueAndGradient) {
  // Predictions equal to the measured speedups: the distributions agree.
  MatrixD y = row({2.0, 0.5, 1.3, 0.9, 3.0});
  std::vector<unsigned> groups = {0, 0, 0, 1, 1};
  MatrixD grad;
  EXPECT_NEAR(listNetLoss<double>(y, y, groups, &grad), 0, 1e-12);
  EXPECT_NEAR(grad.norm(), 0, 1e-12);
  // Scaling all of a program's predictions moves them against its
  // untransformed schedule's, pinned at 1: the distributions differ.
  EXPECT_GT(listNetLoss<double>(2 * y, y, groups, nullptr), 0.01);
  // One program of 2 and 0.5 (with the untransformed 1), predicted 0.5 and
  // 2: KL of (2, 0.5, 1) / 3.5 from (0.5, 2, 1) / 3.5.
  MatrixD swapped = row({0.5, 2}), y2 = row({2, 0.5});
  double kl = 2 / 3.5 * std::log(4.0) + 0.5 / 3.5 * std::log(0.25);
  EXPECT_NEAR(listNetLoss<double>(swapped, y2, {7, 7}, nullptr), kl, 1e-12);
  MatrixD p = row({1.7, 0.8, 2.5, 0.3, 1.1});
  expectGradientMatchesFiniteDifferences(
      [&](const MatrixD &predictions, MatrixD *g) {
        return listNetLoss<double>(predictions, y, groups, g);
      },
      p);
}

TEST(RankingLossTest, CombinedLossGradient) {
  // Away from p = y, where the log error is smooth.
  MatrixD y = row({2.0, 0.5, 1.3, 0.9, 3.0, 1.6});
  MatrixD p = row({1.7, 0.8, 2.5, 0.3, 1.1, 1.2});
  std::vector<unsigned> groups = {0, 0, 0, 1, 1, 1};
  for (TrainingLoss kind :
       {TrainingLoss::LogRankNet, TrainingLoss::LogListNet,
        TrainingLoss::RankNet, TrainingLoss::ListNet, TrainingLoss::LogError,
        TrainingLoss::LambdaRank, TrainingLoss::LogLambdaRank}) {
    expectGradientMatchesFiniteDifferences(
        [&](const MatrixD &predictions, MatrixD *grad) {
          return combinedLoss<double>(kind, 0.7, 0.08, predictions, y, groups,
                                      grad);
        },
        p);
  }
  // The combination is the log error plus the weighted ranking loss.
  double log = logErrorLoss<double>(p, y, nullptr);
  double rank = rankNetLoss<double>(p, y, groups, 0.08, nullptr);
  EXPECT_NEAR(combinedLoss<double>(TrainingLoss::LogRankNet, 0.7, 0.08, p, y,
                                   groups, nullptr),
              log + 0.7 * rank, 1e-12);
  // Alone, the ranking loss has weight 1.
  EXPECT_NEAR(combinedLoss<double>(TrainingLoss::RankNet, 0.7, 0.08, p, y,
                                   groups, nullptr),
              rank, 1e-12);
  double lambda = lambdaRankLoss<double>(p, y, groups, 0.08, nullptr);
  EXPECT_NEAR(combinedLoss<double>(TrainingLoss::LogLambdaRank, 0.7, 0.08, p,
                                   y, groups, nullptr),
              log + 0.7 * lambda, 1e-12);
  EXPECT_NEAR(combinedLoss<double>(TrainingLoss::LambdaRank, 0.7, 0.08, p, y,
                                   groups, nullptr),
              lambda, 1e-12);
}

TEST(RankingLossTest, LossNames) {
  for (TrainingLoss loss :
       {TrainingLoss::MAPE, TrainingLoss::LogError, TrainingLoss::RankNet,
        TrainingLoss::ListNet, TrainingLoss::LogRankNet,
        TrainingLoss::LogListNet, TrainingLoss::LambdaRank,
        TrainingLoss::LogLambdaRank})
    EXPECT_EQ(parseTrainingLoss(trainingLossName(loss)), loss);
  EXPECT_EQ(trainingLossName(TrainingLoss::LogRankNet), "log+ranknet");
  EXPECT_EQ(trainingLossName(TrainingLoss::LogLambdaRank), "log+lambdarank");
  EXPECT_FALSE(parseTrainingLoss("lambdamart"));
  EXPECT_EQ(pointwiseTerm(TrainingLoss::LogLambdaRank), TrainingLoss::LogError);
  EXPECT_EQ(rankingTerm(TrainingLoss::LambdaRank), TrainingLoss::LambdaRank);
  EXPECT_TRUE(hasRankMargin(TrainingLoss::LogRankNet));
  EXPECT_TRUE(hasRankMargin(TrainingLoss::LambdaRank));
  EXPECT_FALSE(hasRankMargin(TrainingLoss::LogListNet));
  EXPECT_FALSE(hasRankMargin(TrainingLoss::LogError));
  EXPECT_EQ(pointwiseTerm(TrainingLoss::RankNet), std::nullopt);
  EXPECT_EQ(pointwiseTerm(TrainingLoss::LogListNet), TrainingLoss::LogError);
  EXPECT_EQ(rankingTerm(TrainingLoss::LogError), std::nullopt);
  EXPECT_EQ(rankingTerm(TrainingLoss::LogRankNet), TrainingLoss::RankNet);
}

/// Trains on a synthetic dataset whose speedups follow the tile sizes and
/// returns how well the model ranks each program's schedules (all programs).
RankingMetrics rankingAfterTraining(TrainingLoss loss, unsigned epochs,
                                    double rankWeight = 1) {
  Dataset dataset = syntheticDataset(6, 24, 3);
  TrainingOptions options;
  options.shape.computationLayers = {12};
  options.shape.embedding = 8;
  options.shape.mergeLayers = {8};
  options.shape.regressionLayers = {8};
  options.shape.dropout = 0.05;
  options.epochs = epochs;
  options.batchSize = 8;
  options.learningRate = 1e-2;
  options.patience = epochs;
  options.seed = 5;
  options.loss = loss;
  options.rankWeight = rankWeight;
  llvm::Expected<CostModel> model =
      trainCostModel(dataset, "synthetic", options, [](const EpochReport &) {});
  EXPECT_TRUE(bool(model)) << llvm::toString(model.takeError());
  if (!model)
    return {};
  EXPECT_EQ(model->getTraining().loss, loss);
  llvm::Expected<Evaluation> evaluation =
      evaluateCostModel(*model, dataset, {});
  EXPECT_TRUE(bool(evaluation)) << llvm::toString(evaluation.takeError());
  return evaluation ? evaluation->ranking : RankingMetrics{};
}

TEST(RankingLossTest, TrainingWithARankingLossOrdersSchedules) {
  // On this dataset, with this tiny network, the log error alone learns
  // little of the order of each program's schedules; a ranking loss learns
  // it, alone or beside the log error with enough weight.
  RankingMetrics log = rankingAfterTraining(TrainingLoss::LogError, 30);
  EXPECT_EQ(log.programs, 6u);
  EXPECT_LT(log.meanSpearman, 0.4);
  for (auto [loss, weight] :
       {std::pair{TrainingLoss::RankNet, 1.0}, {TrainingLoss::ListNet, 1.0},
        {TrainingLoss::LogRankNet, 10.0}, {TrainingLoss::LambdaRank, 1.0},
        {TrainingLoss::LogLambdaRank, 10.0}}) {
    RankingMetrics trained = rankingAfterTraining(loss, 30, weight);
    EXPECT_EQ(trained.programs, 6u);
    // LambdaRank weighs the top of each order most and learns its bottom
    // less; it must still learn far more of the order than the log error,
    // and its first choice as well as the others'.
    bool lambda = rankingTerm(loss) == TrainingLoss::LambdaRank;
    EXPECT_GT(trained.meanSpearman, lambda ? 0.65 : 0.75)
        << trainingLossName(loss).str();
    EXPECT_GT(trained.meanSpearman, log.meanSpearman + (lambda ? 0.25 : 0.35))
        << trainingLossName(loss).str();
    EXPECT_GT(trained.top1, 0.9) << trainingLossName(loss).str();
    std::printf("%s: within-program Spearman %.3f, top1 %.3f (log %.3f)\n",
                trainingLossName(loss).str().c_str(), trained.meanSpearman,
                trained.top1, log.meanSpearman);
  }
}

} // namespace
