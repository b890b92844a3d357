//===- TrainingTest.cpp - Training on a small synthetic dataset -----------===//

#include "tuner/CostModel/Training.h"

#include "TestPrograms.h"

#include "gtest/gtest.h"

#include <cmath>
#include <cstring>
#include <set>

using namespace tuner;
using namespace tuner::test;

namespace {

TrainingOptions tinyOptions() {
  TrainingOptions options;
  options.shape.computationLayers = {12};
  options.shape.embedding = 8;
  options.shape.mergeLayers = {8};
  options.shape.regressionLayers = {8};
  options.shape.dropout = 0.05;
  options.epochs = 25;
  options.batchSize = 8;
  options.learningRate = 1e-2;
  options.patience = 25;
  options.seed = 5;
  return options;
}

TEST(TrainingTest, SplitIsByProgramAndDeterministic) {
  std::vector<std::string> ids;
  for (int i = 0; i < 10; ++i)
    ids.push_back("p" + std::to_string(i));
  llvm::Expected<ProgramSplit> a = splitPrograms(ids, 1);
  ASSERT_TRUE(bool(a)) << llvm::toString(a.takeError());
  EXPECT_EQ(a->train.size(), 6u);
  EXPECT_EQ(a->validation.size(), 2u);
  EXPECT_EQ(a->test.size(), 2u);
  std::vector<std::string> all = a->train;
  all.insert(all.end(), a->validation.begin(), a->validation.end());
  all.insert(all.end(), a->test.begin(), a->test.end());
  llvm::sort(all);
  EXPECT_EQ(all, ids);
  // Same seed, same split, whatever the input order.
  std::vector<std::string> reversed(ids.rbegin(), ids.rend());
  llvm::Expected<ProgramSplit> b = splitPrograms(reversed, 1);
  ASSERT_TRUE(bool(b));
  EXPECT_EQ(a->test, b->test);
  EXPECT_EQ(a->validation, b->validation);
  // Three programs: one each.
  llvm::Expected<ProgramSplit> three = splitPrograms({"x", "y", "z"}, 4);
  ASSERT_TRUE(bool(three));
  EXPECT_EQ(three->train.size(), 1u);
  EXPECT_EQ(three->test.size(), 1u);
  llvm::Expected<ProgramSplit> two = splitPrograms({"x", "y"}, 4);
  ASSERT_FALSE(bool(two));
  EXPECT_EQ(llvm::toString(two.takeError()),
            "2 program(s) with measured speedups; training needs at least 3, "
            "as programs are split into training, validation and test sets");
}

TEST(TrainingTest, LearnsAndIsDeterministic) {
  Dataset dataset = syntheticDataset(6, 24, 3);
  // Failures are kept out of training.
  SampleRecord failed = dataset.samples.front();
  failed.status = Status::Timeout;
  failed.speedup = 0;
  dataset.samples.push_back(failed);
  // So are timings disturbed by another busy process.
  SampleRecord disturbed = dataset.samples.front();
  disturbed.foreignLoad = 1.5;
  dataset.samples.push_back(disturbed);

  std::vector<EpochReport> reports;
  llvm::Expected<CostModel> model =
      trainCostModel(dataset, "synthetic", tinyOptions(),
                     [&](const EpochReport &r) { reports.push_back(r); });
  ASSERT_TRUE(bool(model)) << llvm::toString(model.takeError());
  ASSERT_EQ(reports.size(), 25u);
  EXPECT_EQ(reports.front().epoch, 1u);
  // The model learns: training error falls well below where it starts.
  EXPECT_LT(reports.back().trainLoss, 0.7 * reports.front().trainLoss);
  const TrainingSummary &training = model->getTraining();
  ASSERT_EQ(training.members.size(), 1u);
  const MemberSummary &network = training.members.front();
  EXPECT_EQ(network.seed, tinyOptions().seed);
  EXPECT_EQ(network.epochsRun, 25u);
  EXPECT_GE(network.bestEpoch, 1u);
  EXPECT_DOUBLE_EQ(network.validationMAPE,
                   reports[network.bestEpoch - 1].validationMAPE);
  EXPECT_NEAR(training.validationMAPE, network.validationMAPE, 1e-5);
  EXPECT_TRUE(reports[network.bestEpoch - 1].best);
  EXPECT_EQ(model->getTarget(), "test-cpu");
  const DatasetSummary &summary = model->getDataset();
  EXPECT_EQ(summary.programs, 6u);
  EXPECT_EQ(summary.skippedSamples, 2u);
  EXPECT_EQ(summary.trainPrograms.size() + summary.validationPrograms.size() +
                summary.testPrograms.size(),
            6u);
  // The one-cycle schedule ends far below its peak.
  EXPECT_LT(reports.back().learningRate, 1e-4);

  // Same seed, same model.
  std::vector<EpochReport> again;
  llvm::Expected<CostModel> second =
      trainCostModel(dataset, "synthetic", tinyOptions(),
                     [&](const EpochReport &r) { again.push_back(r); });
  ASSERT_TRUE(bool(second));
  for (size_t i = 0; i < reports.size(); ++i)
    EXPECT_EQ(reports[i].validationMAPE, again[i].validationMAPE) << i;
  EXPECT_EQ(*model->toJSON().getAsObject()->get("members"),
            *second->toJSON().getAsObject()->get("members"));

  // The evaluation of the test programs matches what training reported.
  llvm::Expected<Evaluation> evaluation =
      evaluateCostModel(*model, dataset, summary.testPrograms);
  ASSERT_TRUE(bool(evaluation)) << llvm::toString(evaluation.takeError());
  EXPECT_NEAR(evaluation->overall.mape, training.testMAPE, 1e-6);
  EXPECT_EQ(evaluation->perProgram.size(), summary.testPrograms.size());
}

TEST(TrainingTest, EnsembleAveragesItsNetworks) {
  Dataset dataset = syntheticDataset(6, 24, 3);
  TrainingOptions options = tinyOptions();
  options.epochs = 6;
  llvm::Expected<CostModel> single =
      trainCostModel(dataset, "synthetic", options, [](const EpochReport &) {});
  ASSERT_TRUE(bool(single)) << llvm::toString(single.takeError());

  options.ensemble = 2;
  options.jobs = 2;
  std::vector<EpochReport> reports;
  llvm::Expected<CostModel> ensemble =
      trainCostModel(dataset, "synthetic", options,
                     [&](const EpochReport &r) { reports.push_back(r); });
  ASSERT_TRUE(bool(ensemble)) << llvm::toString(ensemble.takeError());
  ASSERT_EQ(ensemble->ensembleSize(), 2u);
  EXPECT_EQ(llvm::count_if(reports, [](const EpochReport &r) {
              return r.member == 1;
            }),
            6);
  const TrainingSummary &training = ensemble->getTraining();
  ASSERT_EQ(training.members.size(), 2u);
  EXPECT_EQ(training.members[0].seed, options.seed);
  EXPECT_NE(training.members[1].seed, options.seed);
  // The same test programs; the ensemble trains on all the others, each
  // network stopping early on its own fold of them (5 programs in 4 folds).
  const DatasetSummary &split = ensemble->getDataset();
  EXPECT_EQ(split.testPrograms, single->getDataset().testPrograms);
  std::set<std::string> heldIn(single->getDataset().trainPrograms.begin(),
                               single->getDataset().trainPrograms.end());
  heldIn.insert(single->getDataset().validationPrograms.begin(),
                single->getDataset().validationPrograms.end());
  EXPECT_EQ(std::set<std::string>(split.trainPrograms.begin(),
                                  split.trainPrograms.end()),
            heldIn);
  std::set<std::string> folds;
  for (const MemberSummary &member : training.members) {
    EXPECT_FALSE(member.validationPrograms.empty());
    for (const std::string &id : member.validationPrograms) {
      EXPECT_TRUE(heldIn.count(id)) << id;
      EXPECT_TRUE(folds.insert(id).second) << id << " is in two folds";
    }
  }
  EXPECT_EQ(std::vector<std::string>(folds.begin(), folds.end()),
            split.validationPrograms);

  llvm::json::Value json = ensemble->toJSON();
  const llvm::json::Array &members = *json.getAsObject()->getArray("members");
  ASSERT_EQ(members.size(), 2u);
  // The threads do not change the result.
  options.jobs = 1;
  llvm::Expected<CostModel> serial =
      trainCostModel(dataset, "synthetic", options, [](const EpochReport &) {});
  ASSERT_TRUE(bool(serial));
  EXPECT_EQ(*serial->toJSON().getAsObject()->get("members"),
            *json.getAsObject()->get("members"));

  // Each network alone, cut out of the file.
  auto networkAlone = [&](size_t m) {
    llvm::json::Value alone = ensemble->toJSON();
    llvm::json::Object &object = *alone.getAsObject();
    object["members"] = llvm::json::Array{members[m]};
    llvm::json::Object &training = *object.getObject("training");
    training["members"] = llvm::json::Array{(*training.getArray("members"))[m]};
    return CostModel::fromJSON(alone, "network " + std::to_string(m));
  };
  llvm::Expected<CostModel> firstModel = networkAlone(0);
  ASSERT_TRUE(bool(firstModel)) << llvm::toString(firstModel.takeError());
  llvm::Expected<CostModel> secondModel = networkAlone(1);
  ASSERT_TRUE(bool(secondModel)) << llvm::toString(secondModel.takeError());

  // The ensemble predicts the geometric mean of its networks' speedups.
  const ProgramRecord &program = dataset.programs[0];
  std::vector<Config> configs = sampledConfigs(dataset, program.id);
  auto predict = [&](const CostModel &model) {
    llvm::Expected<std::vector<double>> p =
        model.predict(program.tree, program.space, configs);
    EXPECT_TRUE(bool(p));
    return p ? *p : std::vector<double>();
  };
  std::vector<double> both = predict(*ensemble), first = predict(*firstModel),
                      alone = predict(*secondModel);
  ASSERT_EQ(both.size(), configs.size());
  bool differ = false;
  for (size_t i = 0; i < configs.size(); ++i) {
    EXPECT_NEAR(both[i], std::sqrt(first[i] * alone[i]), 1e-5 * both[i]) << i;
    differ |= std::abs(first[i] - alone[i]) > 1e-4 * first[i];
  }
  EXPECT_TRUE(differ) << "the two networks predict alike";

  // Too few programs for the folds: 4 programs, 1 for testing, 3 left for
  // 4 folds.
  Dataset small = syntheticDataset(4, 6, 3);
  llvm::Expected<CostModel> tooSmall =
      trainCostModel(small, "small", options, [](const EpochReport &) {});
  ASSERT_FALSE(bool(tooSmall));
  EXPECT_EQ(llvm::toString(tooSmall.takeError()),
            "an ensemble of 2 networks deals the 3 training and validation "
            "programs into 4 folds and needs at least one program per fold");
}

TEST(TrainingTest, DisturbedBaselinesLeaveTheirProgramsOut) {
  Dataset dataset = syntheticDataset(4, 6, 3);
  dataset.programs.front().baselineForeignLoad = 0.9;
  unsigned skipped = 0;
  llvm::Expected<std::vector<LabeledSchedule>> labeled =
      featurizeDataset(dataset, nullptr, skipped);
  ASSERT_TRUE(bool(labeled)) << llvm::toString(labeled.takeError());
  EXPECT_EQ(labeled->size(), 3u * 6);
  EXPECT_EQ(skipped, 6u);
  for (const LabeledSchedule &schedule : *labeled)
    EXPECT_NE(schedule.program, dataset.programs.front().id);
}

TEST(TrainingTest, AppendMergesDatasetsWithDistinctPrograms) {
  Dataset dataset = syntheticDataset(2, 3, 1);
  Dataset other = syntheticDataset(3, 4, 2);
  for (ProgramRecord &program : other.programs)
    program.id = "other-" + program.id;
  for (SampleRecord &sample : other.samples)
    sample.programId = "other-" + sample.programId;
  other.warnings.push_back("a warning");
  ASSERT_FALSE(bool(dataset.append(other, "other")));
  EXPECT_EQ(dataset.programs.size(), 5u);
  EXPECT_EQ(dataset.samples.size(), 2u * 3 + 3u * 4);
  EXPECT_EQ(dataset.programs.back().id, "other-p2");
  EXPECT_EQ(dataset.warnings, std::vector<std::string>{"a warning"});
  // A program id read twice is an error, and nothing is appended.
  llvm::Error twice = dataset.append(syntheticDataset(1, 2, 3), "again");
  ASSERT_TRUE(bool(twice));
  EXPECT_EQ(llvm::toString(std::move(twice)),
            "program 'p0' of again was already read from another input");
  EXPECT_EQ(dataset.programs.size(), 5u);
  EXPECT_EQ(dataset.samples.size(), 2u * 3 + 3u * 4);
}

TEST(TrainingTest, TrainFractionKeepsTheTestPrograms) {
  Dataset dataset = syntheticDataset(20, 4, 9);
  TrainingOptions options = tinyOptions();
  options.epochs = 2;
  auto noReport = [](const EpochReport &) {};
  llvm::Expected<CostModel> whole =
      trainCostModel(dataset, "d", options, noReport);
  ASSERT_TRUE(bool(whole)) << llvm::toString(whole.takeError());
  options.trainFraction = 0.5;
  llvm::Expected<CostModel> half =
      trainCostModel(dataset, "d", options, noReport);
  ASSERT_TRUE(bool(half)) << llvm::toString(half.takeError());
  const DatasetSummary &w = whole->getDataset(), &h = half->getDataset();
  // 20 programs: 12 train, 4 validation, 4 test; half of the first two.
  EXPECT_EQ(w.trainPrograms.size(), 12u);
  EXPECT_EQ(h.trainPrograms.size(), 6u);
  EXPECT_EQ(h.validationPrograms.size(), 2u);
  EXPECT_EQ(h.testPrograms, w.testPrograms);
  for (const std::string &id : h.trainPrograms)
    EXPECT_TRUE(llvm::is_contained(w.trainPrograms, id)) << id;
  for (const std::string &id : h.validationPrograms)
    EXPECT_TRUE(llvm::is_contained(w.validationPrograms, id)) << id;
  EXPECT_EQ(half->getTraining().trainFraction, 0.5);
  EXPECT_EQ(whole->getTraining().trainFraction, 1.0);

  // Recorded in the model file and read back.
  std::string text;
  llvm::raw_string_ostream(text) << half->getTraining().toJSON();
  EXPECT_NE(text.find("\"train_fraction\":0.5"), std::string::npos) << text;
  llvm::Expected<llvm::json::Value> json = llvm::json::parse(text);
  ASSERT_TRUE(bool(json));
  llvm::Expected<TrainingSummary> read = TrainingSummary::fromJSON(*json, 4);
  ASSERT_TRUE(bool(read)) << llvm::toString(read.takeError());
  EXPECT_EQ(read->trainFraction, 0.5);
  std::string bad = text;
  bad.replace(bad.find("\"train_fraction\":0.5"),
              std::strlen("\"train_fraction\":0.5"), "\"train_fraction\":2");
  json = llvm::json::parse(bad);
  ASSERT_TRUE(bool(json));
  read = TrainingSummary::fromJSON(*json, 4);
  ASSERT_FALSE(bool(read));
  EXPECT_EQ(llvm::toString(read.takeError()),
            "training.train_fraction: expected a number in (0, 1]");

  // A tiny fraction still keeps one program of each.
  options.trainFraction = 0.01;
  llvm::Expected<CostModel> tiny =
      trainCostModel(dataset, "d", options, noReport);
  ASSERT_TRUE(bool(tiny)) << llvm::toString(tiny.takeError());
  EXPECT_EQ(tiny->getDataset().trainPrograms.size(), 1u);
  EXPECT_EQ(tiny->getDataset().validationPrograms.size(), 1u);

  for (double bad : {0.0, -0.5, 1.5, std::nan("")}) {
    options.trainFraction = bad;
    llvm::Expected<CostModel> model =
        trainCostModel(dataset, "d", options, noReport);
    ASSERT_FALSE(bool(model)) << bad;
    EXPECT_NE(llvm::toString(model.takeError())
                  .find("the train fraction must be in (0, 1]"),
              std::string::npos);
  }
}

TEST(TrainingTest, EarlyStoppingAndBadOptions) {
  Dataset dataset = syntheticDataset(4, 8, 9);
  TrainingOptions options = tinyOptions();
  options.epochs = 40;
  options.patience = 3;
  // Steps far below float resolution: the validation MAPE never improves
  // after the first epoch, so training stops `patience` epochs later.
  options.learningRate = 1e-12;
  std::vector<EpochReport> reports;
  llvm::Expected<CostModel> model =
      trainCostModel(dataset, "d", options,
                     [&](const EpochReport &r) { reports.push_back(r); });
  ASSERT_TRUE(bool(model)) << llvm::toString(model.takeError());
  EXPECT_EQ(reports.size(), 4u);
  EXPECT_EQ(model->getTraining().members.front().epochsRun, 4u);
  EXPECT_EQ(model->getTraining().members.front().bestEpoch, 1u);
  EXPECT_EQ(model->getTraining().maxEpochs, 40u);

  options = tinyOptions();
  options.ensemble = 0;
  model = trainCostModel(dataset, "d", options, [](const EpochReport &) {});
  ASSERT_FALSE(bool(model));
  EXPECT_EQ(llvm::toString(model.takeError()),
            "the ensemble needs at least one network");

  options = tinyOptions();
  options.batchSize = 0;
  model = trainCostModel(dataset, "d", options, [](const EpochReport &) {});
  ASSERT_FALSE(bool(model));
  EXPECT_EQ(llvm::toString(model.takeError()),
            "the batch size must be positive");

  Dataset mixed = syntheticDataset(4, 4, 9);
  mixed.programs[1].target = "other-cpu";
  model = trainCostModel(mixed, "d", tinyOptions(), [](const EpochReport &) {});
  ASSERT_FALSE(bool(model));
  EXPECT_NE(llvm::toString(model.takeError())
                .find("mixes measurements of 2 "
                      "machines"),
            std::string::npos);
}

} // namespace
