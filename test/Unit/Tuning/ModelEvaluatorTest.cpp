//===- ModelEvaluatorTest.cpp - The cost model as an Evaluator ------------===//

#include "tuner/Tuning/ModelEvaluator.h"

#include "../CostModel/TestPrograms.h"

#include "gtest/gtest.h"

using namespace tuner;
using namespace tuner::test;

namespace {

TEST(ModelEvaluator, AConfigItCannotScoreFailsAloneAndIsCounted) {
  llvm::Expected<CostModel> model =
      trainCostModel(syntheticDataset(4, 4, 9), "d", tinyTrainingOptions(),
                     [](const EpochReport &) {});
  ASSERT_TRUE(bool(model)) << llvm::toString(model.takeError());

  ProgramTree tree = fillMatmul(64, 64, 32);
  Space space = spaceOf(tree);
  llvm::Expected<CostModel::ProgramPredictor> predictor =
      model->forProgram(tree, space);
  ASSERT_TRUE(bool(predictor)) << llvm::toString(predictor.takeError());
  ModelEvaluator evaluator(std::move(*predictor));

  std::mt19937_64 rng(3);
  std::vector<Config> good = randomTilings(space, 2, rng);
  ASSERT_EQ(good.size(), 2u);
  Config truncated = space.defaultConfig();
  truncated.getValues().pop_back(); // Not a config of this space.
  std::vector<Observation> scored =
      evaluator.evaluate({good[0], truncated, good[1]});
  ASSERT_EQ(scored.size(), 3u);
  EXPECT_TRUE(scored[0].ok());
  EXPECT_GT(scored[0].value, 0);
  EXPECT_FALSE(scored[1].ok());
  EXPECT_EQ(scored[1].status, Status::ModelError);
  EXPECT_TRUE(scored[2].ok());
  EXPECT_EQ(evaluator.predictions(), 2u);
  EXPECT_EQ(evaluator.failures(), 1u);
  EXPECT_FALSE(evaluator.getLastError().empty());

  // Scored without the bad one, the good configs get the same predictions
  // (up to float rounding, which depends on the batch size).
  std::vector<Observation> alone = evaluator.evaluate(good);
  EXPECT_NEAR(alone[0].value, scored[0].value, 1e-5 * scored[0].value);
  EXPECT_NEAR(alone[1].value, scored[2].value, 1e-5 * scored[2].value);
  EXPECT_EQ(evaluator.predictions(), 4u);

  // A batch of the bad config alone.
  std::vector<Observation> bad = evaluator.evaluate({truncated});
  EXPECT_FALSE(bad[0].ok());
  EXPECT_EQ(evaluator.failures(), 2u);
}

} // namespace
