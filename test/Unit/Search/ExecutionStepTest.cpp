//===- ExecutionStepTest.cpp - Measuring the model's best schedules -------===//

#include "tuner/Search/ExecutionStep.h"

#include "gtest/gtest.h"

#include <cmath>

using namespace tuner;

namespace {

/// A config of three parameters: two tile sizes and a flag.
Config config(int64_t tile0, int64_t tile1, bool flag) {
  return Config({ParamValue::integer(tile0), ParamValue::integer(tile1),
                 ParamValue::boolean(flag)});
}

Observation measured(const Config &c, double speedup, bool ok = true) {
  Observation o;
  o.config = c;
  o.value = speedup;
  o.status = ok ? Status::Ok : Status::WrongResult;
  return o;
}

TEST(ExecutionStep, DistanceCountsDifferingParameters) {
  EXPECT_EQ(ExecutionStep::distance(config(32, 8, true), config(32, 8, true)),
            0);
  // Tile sizes a factor of 2 apart are a quarter of a parameter apart; 16
  // and more, a whole one; a structural flag counts fully.
  EXPECT_DOUBLE_EQ(
      ExecutionStep::distance(config(64, 8, true), config(32, 8, true)), 0.25);
  EXPECT_DOUBLE_EQ(
      ExecutionStep::distance(config(64, 8, true), config(8, 8, true)), 0.75);
  EXPECT_DOUBLE_EQ(
      ExecutionStep::distance(config(256, 8, true), config(8, 8, true)), 1);
  EXPECT_DOUBLE_EQ(
      ExecutionStep::distance(config(64, 8, true), config(32, 8, false)), 1.25);
  Config permuted({ParamValue::permutation({1, 0})});
  Config identity({ParamValue::permutation({0, 1})});
  EXPECT_DOUBLE_EQ(ExecutionStep::distance(permuted, identity), 1);
}

TEST(ExecutionStep, ProposesTheModelsBestFirstUpToK) {
  ExecutionStep step(3, ModelCorrection::Errors, /*diverse=*/false, nullptr);
  step.setCandidates({{config(8, 8, false), 2.0},
                      {config(16, 8, false), 5.0},
                      {config(16, 8, false), 4.0}, // the same schedule again
                      {config(32, 8, false), 0.0}, // the model failed on it
                      {config(64, 8, false), 3.0},
                      {config(64, 64, true), 1.5}});
  std::vector<Config> first = step.propose(2);
  ASSERT_EQ(first.size(), 2u);
  EXPECT_EQ(first[0], config(16, 8, false));
  EXPECT_EQ(first[1], config(64, 8, false));
  // Measured as predicted: nothing to correct, the model's order stands.
  step.observe({measured(first[0], 5.0), measured(first[1], 3.0)});
  std::vector<Config> second = step.propose(2);
  ASSERT_EQ(second.size(), 1u) << "k = 3";
  EXPECT_EQ(second[0], config(8, 8, false));
  EXPECT_TRUE(step.propose(2).empty());
}

TEST(ExecutionStep, SeedsComeFirstBesideTheTopK) {
  ExecutionStep step(2, ModelCorrection::None, /*diverse=*/false, nullptr);
  // The second seed repeats the first; the third is a model candidate too.
  step.setSeeds({config(64, 32, true), config(64, 32, true),
                 config(16, 8, false)});
  step.setCandidates({{config(8, 8, false), 2.0},
                      {config(16, 8, false), 5.0},
                      {config(64, 8, false), 3.0}});
  std::vector<Config> first = step.propose(1);
  ASSERT_EQ(first.size(), 1u);
  EXPECT_EQ(first[0], config(64, 32, true));
  // The last seed, then the model's best that is no seed.
  std::vector<Config> second = step.propose(2);
  ASSERT_EQ(second.size(), 2u);
  EXPECT_EQ(second[0], config(16, 8, false));
  EXPECT_EQ(second[1], config(64, 8, false));
  // The seeds do not count in k = 2: one more model pick, then nothing.
  std::vector<Config> third = step.propose(4);
  ASSERT_EQ(third.size(), 1u);
  EXPECT_EQ(third[0], config(8, 8, false));
  EXPECT_TRUE(step.propose(4).empty());
}

TEST(ExecutionStep, DiversityMeasuresDifferentGuesses) {
  // The model's best four are one schedule with four tile sizes (flag set);
  // the first schedule without the flag is its fifth.
  std::vector<std::pair<Config, double>> predicted = {
      {config(64, 64, true), 8.0}, {config(32, 64, true), 7.9},
      {config(64, 32, true), 7.8}, {config(32, 32, true), 7.7},
      {config(64, 64, false), 4.0}, {config(8, 8, true), 3.0},
      {config(16, 8, false), 2.0}};
  ExecutionStep plain(3, ModelCorrection::None, /*diverse=*/false, nullptr);
  plain.setCandidates(predicted);
  std::vector<Config> top = plain.propose(3);
  ASSERT_EQ(top.size(), 3u);
  EXPECT_EQ(top[2], config(64, 32, true));

  ExecutionStep diverse(3, ModelCorrection::None, /*diverse=*/true, nullptr);
  diverse.setCandidates(predicted);
  std::vector<Config> first = diverse.propose(2);
  ASSERT_EQ(first.size(), 2u);
  EXPECT_EQ(first[0], config(64, 64, true));
  // (32, 64) is 0.25 away, (64, 32) and (32, 32) under 1: the next guess
  // is the schedule without the flag.
  EXPECT_EQ(first[1], config(64, 64, false));
  // Far from both: (8, 8, true) is 1.5 from the first and 2.5 from the
  // second, before (16, 8, false), 2.25 and 1.25.
  std::vector<Config> second = diverse.propose(2);
  ASSERT_EQ(second.size(), 1u) << "k = 3";
  EXPECT_EQ(second[0], config(8, 8, true));
  EXPECT_TRUE(diverse.propose(2).empty());

  // When too few schedules are far apart, the best of the rest fill k.
  ExecutionStep filled(4, ModelCorrection::None, /*diverse=*/true, nullptr);
  filled.setCandidates({{config(64, 64, true), 8.0},
                        {config(32, 64, true), 7.9},
                        {config(64, 32, true), 7.8},
                        {config(64, 64, false), 4.0},
                        {config(32, 32, true), 1.0}});
  std::vector<Config> all = filled.propose(4);
  ASSERT_EQ(all.size(), 4u);
  EXPECT_EQ(all[0], config(64, 64, true));
  EXPECT_EQ(all[1], config(32, 64, true));
  EXPECT_EQ(all[2], config(64, 32, true));
  EXPECT_EQ(all[3], config(64, 64, false));
}

TEST(ExecutionStep, AMeasuredMistakeDemotesSimilarSchedules) {
  // The model loves a family of schedules (flag set, tiles near 64x64); the
  // first measurement shows it is 8x too optimistic about them.
  std::vector<std::pair<Config, double>> predicted = {
      {config(64, 64, true), 8.0},  {config(32, 64, true), 7.9},
      {config(64, 32, true), 7.8},  {config(32, 32, true), 7.7},
      {config(8, 8, false), 3.0},   {config(16, 8, false), 2.5}};
  auto run = [&](bool correct) {
    ExecutionStep step(
        3, correct ? ModelCorrection::Errors : ModelCorrection::None,
        /*diverse=*/false, nullptr);
    step.setCandidates(predicted);
    // Before any measurement: the model's predictions, the prior's doubt.
    EXPECT_DOUBLE_EQ(step.correctedPrediction(config(32, 64, true)), 7.9);
    if (correct)
      EXPECT_DOUBLE_EQ(step.uncertainty(config(32, 64, true)),
                       std::sqrt(ExecutionStep::kErrorVariance));
    std::vector<Config> first = step.propose(1);
    EXPECT_EQ(first.front(), config(64, 64, true));
    step.observe({measured(first.front(), 1.0)});
    if (correct) {
      // One measurement: the posterior mean at d is
      // k(d) / (variance + noise) * log(1 / 8), k(d) = variance e^(-d / l).
      auto expected = [](double d) {
        double k = ExecutionStep::kErrorVariance *
                   std::exp(-d / ExecutionStep::kCorrelationLength);
        return std::exp(k / (ExecutionStep::kErrorVariance +
                             ExecutionStep::kNoiseVariance) *
                        std::log(1.0 / 8));
      };
      // Its neighbour, a tile size apart (d = 1/4), inherits most of the
      // error; one 2.5 parameters away (tiles 8x apart, the flag), little.
      double near = step.correctedPrediction(config(32, 64, true)) / 7.9;
      double far = step.correctedPrediction(config(8, 8, false)) / 3.0;
      EXPECT_NEAR(near, expected(0.25), 1e-12);
      EXPECT_NEAR(far, expected(2.5), 1e-12);
      EXPECT_LT(near, 0.25);
      EXPECT_GT(far, 0.7);
      EXPECT_LT(step.uncertainty(config(32, 64, true)),
                step.uncertainty(config(8, 8, false)));
    }
    return step.propose(1).front();
  };
  // Without correction the family's next member is measured; with it, the
  // best schedule of another family.
  EXPECT_EQ(run(false), config(32, 64, true));
  EXPECT_EQ(run(true), config(8, 8, false));
}

TEST(ExecutionStep, UnderestimatesPromoteAndFailuresDemote) {
  std::vector<std::pair<Config, double>> predicted = {
      {config(64, 64, true), 4.0},
      {config(8, 8, false), 3.0},
      {config(8, 16, false), 2.0},
      {config(64, 64, false), 2.5}};
  ExecutionStep step(4, ModelCorrection::Errors, /*diverse=*/false, nullptr);
  step.setCandidates(predicted);
  std::vector<Config> first = step.propose(2);
  ASSERT_EQ(first.size(), 2u);
  // (8, 8) measures 4x faster than predicted, (64, 64, flag) fails to
  // compile: (8, 16), a neighbour of the first, overtakes (64, 64).
  step.observe({measured(first[0], 0, /*ok=*/false), measured(first[1], 12.0)});
  EXPECT_GT(step.correctedPrediction(config(8, 16, false)), 2.0);
  EXPECT_LT(step.correctedPrediction(config(64, 64, false)), 2.5);
  std::vector<Config> second = step.propose(2);
  ASSERT_EQ(second.size(), 2u);
  EXPECT_EQ(second[0], config(8, 16, false));
  EXPECT_EQ(second[1], config(64, 64, false));
}

} // namespace

namespace {

TEST(ExecutionStep, StrataShareTheMeasurements) {
  // The flag is a parameter the model cannot see: its four best predictions
  // are all unflagged, yet with strata the first measurements try each
  // stratum's best, and the next go to the stratum that measured best.
  auto candidates = [] {
    return std::vector<std::pair<Config, double>>{
        {config(8, 8, false), 9.0},  {config(16, 8, false), 8.0},
        {config(32, 8, false), 7.0}, {config(64, 8, false), 6.0},
        {config(8, 8, true), 2.0},   {config(16, 8, true), 3.0}};
  };
  ExecutionStep plain(4, ModelCorrection::None, false, nullptr);
  plain.setCandidates(candidates());
  std::vector<Config> unstratified = plain.propose(4);
  for (const Config &c : unstratified)
    EXPECT_FALSE(c[2].getBoolean());

  ExecutionStep step(5, ModelCorrection::None, false, nullptr);
  step.setStrata([](const Config &c) { return uint64_t(c[2].getBoolean()); });
  step.setCandidates(candidates());
  std::vector<Config> first = step.propose(3);
  ASSERT_EQ(first.size(), 3u);
  EXPECT_EQ(first[0], config(8, 8, false));
  EXPECT_EQ(first[1], config(16, 8, true));
  EXPECT_EQ(first[2], config(16, 8, false));
  // The flagged schedule measured far better than the model thought.
  step.observe({measured(first[0], 1.0), measured(first[1], 5.0),
                measured(first[2], 1.1)});
  std::vector<Config> second = step.propose(2);
  ASSERT_EQ(second.size(), 2u);
  EXPECT_EQ(second[0], config(8, 8, true));
  EXPECT_EQ(second[1], config(32, 8, false));
}

} // namespace

namespace {

/// Twelve candidates (tile sizes 1..2048 on the first parameter, two flags)
/// with true speedups spread over two orders of magnitude.
std::vector<std::pair<Config, double>> truths() {
  std::vector<std::pair<Config, double>> result;
  for (int i = 0; i < 12; ++i)
    result.push_back({config(int64_t(1) << i, 8, i % 2 == 0),
                      std::exp(0.4 * i - 2.0)});
  return result;
}

/// The step after measuring its first batch of four, with the model's
/// predictions f(true speedup).
ExecutionStep afterOneBatch(ModelCorrection correction,
                            llvm::function_ref<double(double)> model,
                            ScheduleRepresentation represent = nullptr) {
  ExecutionStep step(8, correction, /*diverse=*/false, nullptr);
  step.setRepresentation(std::move(represent));
  std::vector<std::pair<Config, double>> predicted;
  for (auto [c, speedup] : truths())
    predicted.push_back({c, model(speedup)});
  step.setCandidates(predicted);
  std::vector<Config> first = step.propose(4);
  std::vector<Observation> observations;
  for (const Config &c : first)
    for (auto [d, speedup] : truths())
      if (c == d)
        observations.push_back(measured(c, speedup));
  step.observe(observations);
  return step;
}

/// The largest |log corrected / log true| over the candidates not measured.
double worstLogError(const ExecutionStep &step) {
  double worst = 0;
  std::vector<std::pair<Config, double>> all = truths();
  for (size_t i = 0; i < 8; ++i) // the first four (the best) are measured
    worst = std::max(worst, std::abs(std::log(step.correctedPrediction(
                                         all[i].first)) -
                                     std::log(all[i].second)));
  return worst;
}

TEST(ExecutionStep, AdaptationCorrectsAConstantFactorAfterOneBatch) {
  // The model is 3x too optimistic about every schedule of this function.
  auto optimistic = [](double speedup) { return 3 * speedup; };
  ExecutionStep adapted =
      afterOneBatch(ModelCorrection::Adapt, optimistic);
  // Within the labels' own noise (8 %, README) everywhere.
  EXPECT_LT(worstLogError(adapted), 0.08);
  // The errors' process corrects schedules near the measured ones only:
  // the smallest tile sizes, far from the measured largest, keep most of
  // the error.
  ExecutionStep nearOnly = afterOneBatch(ModelCorrection::Errors, optimistic);
  EXPECT_GT(worstLogError(nearOnly), 0.4);
  // Before any measurement the adapted model is the model.
  ExecutionStep fresh(8, ModelCorrection::Adapt, false, nullptr);
  fresh.setCandidates({{config(1, 8, true), 3.0}, {config(2, 8, false), 6.0}});
  EXPECT_DOUBLE_EQ(fresh.correctedPrediction(config(1, 8, true)), 3.0);
}

TEST(ExecutionStep, AdaptationRefitsTheLastLayer) {
  // The model sees two things of a schedule (its representation): the
  // first it weighs right, the second, the flag, it ignores, though the
  // flag doubles a schedule's speed. Its predictions are right for
  // unflagged schedules and half of the truth for flagged ones; the
  // measured batch has both kinds.
  std::vector<std::pair<Config, double>> all = truths();
  auto flagged = [](const Config &c) { return c[2].getBoolean(); };
  auto model = [&](double speedup) {
    for (auto [c, s] : all)
      if (s == speedup)
        return flagged(c) ? speedup / 2 : speedup;
    return speedup;
  };
  ScheduleRepresentation represent = [&](llvm::ArrayRef<Config> configs) {
    std::vector<std::vector<float>> result;
    for (const Config &c : configs)
      result.push_back({float(std::log2(double(c[0].getInteger())) / 4),
                        flagged(c) ? 1.0f : -1.0f});
    return llvm::Expected<std::vector<std::vector<float>>>(result);
  };
  ExecutionStep adapted = afterOneBatch(ModelCorrection::Adapt, model, represent);
  ASSERT_TRUE(adapted.hasRepresentations());
  // Without the representation the adaptation can only split the
  // difference (an offset and a scale do not know the flag).
  ExecutionStep blind = afterOneBatch(ModelCorrection::Adapt, model);
  EXPECT_FALSE(blind.hasRepresentations());
  EXPECT_LT(worstLogError(adapted), 0.2);
  EXPECT_GT(worstLogError(blind), 0.3);
  // The flagged schedules move up: the best flagged one not measured now
  // ranks above the unflagged one the model put before it.
  EXPECT_GT(adapted.correctedPrediction(all[6].first),
            adapted.correctedPrediction(all[5].first));
  EXPECT_LT(model(all[6].second), model(all[5].second));
}

TEST(ExecutionStep, AdaptationWithoutRepresentationsSaysWhy) {
  ExecutionStep step(4, ModelCorrection::Adapt, false, nullptr);
  step.setRepresentation([](llvm::ArrayRef<Config>)
                             -> llvm::Expected<std::vector<std::vector<float>>> {
    return llvm::createStringError("the model cannot plan config 3");
  });
  step.setCandidates({{config(1, 8, true), 3.0}, {config(2, 8, false), 6.0}});
  EXPECT_FALSE(step.hasRepresentations());
  EXPECT_EQ(step.representationError(), "the model cannot plan config 3");
  // It still adapts the offset: one measurement 2x below the model.
  step.observe({measured(step.propose(1).front(), 3.0)});
  EXPECT_LT(step.correctedPrediction(config(1, 8, true)), 2.5);
}

} // namespace
