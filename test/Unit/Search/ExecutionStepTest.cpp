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
  ExecutionStep step(3, /*correct=*/true, /*diverse=*/false, nullptr);
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

TEST(ExecutionStep, DiversityMeasuresDifferentGuesses) {
  // The model's best four are one schedule with four tile sizes (flag set);
  // the first schedule without the flag is its fifth.
  std::vector<std::pair<Config, double>> predicted = {
      {config(64, 64, true), 8.0}, {config(32, 64, true), 7.9},
      {config(64, 32, true), 7.8}, {config(32, 32, true), 7.7},
      {config(64, 64, false), 4.0}, {config(8, 8, true), 3.0},
      {config(16, 8, false), 2.0}};
  ExecutionStep plain(3, /*correct=*/false, /*diverse=*/false, nullptr);
  plain.setCandidates(predicted);
  std::vector<Config> top = plain.propose(3);
  ASSERT_EQ(top.size(), 3u);
  EXPECT_EQ(top[2], config(64, 32, true));

  ExecutionStep diverse(3, /*correct=*/false, /*diverse=*/true, nullptr);
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
  ExecutionStep filled(4, /*correct=*/false, /*diverse=*/true, nullptr);
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
    ExecutionStep step(3, correct, /*diverse=*/false, nullptr);
    step.setCandidates(predicted);
    // Before any measurement: the model's predictions, the prior's doubt.
    EXPECT_DOUBLE_EQ(step.correctedPrediction(config(32, 64, true)), 7.9);
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
  ExecutionStep step(4, /*correct=*/true, /*diverse=*/false, nullptr);
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
  ExecutionStep plain(4, false, false, nullptr);
  plain.setCandidates(candidates());
  std::vector<Config> unstratified = plain.propose(4);
  for (const Config &c : unstratified)
    EXPECT_FALSE(c[2].getBoolean());

  ExecutionStep step(5, false, false, nullptr);
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
