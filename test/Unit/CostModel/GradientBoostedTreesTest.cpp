//===- GradientBoostedTreesTest.cpp - The tree baseline -------------------===//

#include "tuner/CostModel/GradientBoostedTrees.h"
#include "tuner/CostModel/Features.h"
#include "tuner/CostModel/Training.h"

#include "TestPrograms.h"

#include "llvm/Support/Base64.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/xxhash.h"

#include "gtest/gtest.h"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <set>

using namespace tuner;
using namespace tuner::test;

namespace {

/// Like syntheticDataset, but every program's speedup grows with each of its
/// tile sizes (log speedup = 0.4 * sum of log2(tile + 1)): a monotone
/// function of the tile_factor features that any useful model ranks.
Dataset monotoneDataset(unsigned programs, unsigned samples, uint64_t seed) {
  Dataset dataset = syntheticDataset(programs, samples, seed);
  std::map<std::string, size_t> index = dataset.programIndex();
  for (SampleRecord &sample : dataset.samples) {
    const Space &space = dataset.programs[index[sample.programId]].space;
    double logSpeedup = 0;
    for (size_t i = 0; i < space.size(); ++i)
      if (space[i].role == ParamRole::Tile)
        logSpeedup +=
            0.4 * std::log2(double(sample.config[i].getInteger()) + 1);
    sample.speedup = std::exp(logSpeedup);
    sample.medianSeconds = 1e-3 / sample.speedup;
  }
  return dataset;
}

TreeTrainingOptions smallOptions(TreeObjective objective) {
  TreeTrainingOptions options;
  options.objective = objective;
  options.rounds = 60;
  options.patience = 60;
  options.learningRate = 0.3;
  options.maxDepth = 4;
  options.subsample = 1;
  options.columnSample = 1;
  options.seed = 3;
  return options;
}

std::string text(const llvm::json::Value &json) {
  std::string result;
  llvm::raw_string_ostream(result) << json;
  return result;
}

TEST(FlatFeaturesTest, LayoutNamesEveryEntryOnce) {
  const std::vector<std::string> &names = flatFeatureNames();
  ASSERT_EQ(names.size(), size_t(flat::kNumFlatFeatures));
  EXPECT_EQ(std::set<std::string>(names.begin(), names.end()).size(),
            names.size());
  EXPECT_EQ(names[flat::kSumOffset], "sum." + featureList()[0].name);
  EXPECT_EQ(names[flat::kMaxOffset + 1], "max." + featureList()[1].name);
  EXPECT_EQ(names[flat::kDifferenceOffset + features::kNumFeatures - 1],
            "diff." + featureList().back().name);
  EXPECT_EQ(names[flat::kComputations], "computations");
  EXPECT_EQ(names[flat::kLoops], "loops");
  EXPECT_EQ(names[flat::kLoopDifference], "diff.loops");
  EXPECT_EQ(flatLayoutHash().size(), 16u);
  EXPECT_NE(flatLayoutHash(), featureLayoutHash());
}

TEST(FlatFeaturesTest, PoolsComputationsAndDiffersFromTheReference) {
  ProgramTree tree = fillMatmul(64, 32, 16);
  Space space = spaceOf(tree);
  llvm::Expected<FeatureExtractor> extractor = FeatureExtractor::create(tree);
  ASSERT_TRUE(bool(extractor)) << llvm::toString(extractor.takeError());
  llvm::Expected<ProgramFeatures> reference =
      extractor->extract(space, space.defaultConfig());
  ASSERT_TRUE(bool(reference)) << llvm::toString(reference.takeError());
  std::mt19937_64 rng(4);
  std::vector<Config> tilings = randomTilings(space, 1, rng);
  ASSERT_EQ(tilings.size(), 1u);
  llvm::Expected<ProgramFeatures> tiled = extractor->extract(space, tilings[0]);
  ASSERT_TRUE(bool(tiled)) << llvm::toString(tiled.takeError());
  ASSERT_EQ(tiled->tree.numComputations, 2u);

  std::vector<float> flatTiled = flattenFeatures(*tiled, *reference);
  std::vector<float> flatReference = flattenFeatures(*reference, *reference);
  ASSERT_EQ(flatTiled.size(), size_t(flat::kNumFlatFeatures));
  bool changed = false;
  for (unsigned f = 0; f < features::kNumFeatures; ++f) {
    float a = transformFeature(f, tiled->at(0, f));
    float b = transformFeature(f, tiled->at(1, f));
    EXPECT_FLOAT_EQ(flatTiled[flat::kSumOffset + f], a + b) << f;
    EXPECT_FLOAT_EQ(flatTiled[flat::kMaxOffset + f], std::max(a, b)) << f;
    float referenceSum = transformFeature(f, reference->at(0, f)) +
                         transformFeature(f, reference->at(1, f));
    EXPECT_FLOAT_EQ(flatTiled[flat::kDifferenceOffset + f],
                    a + b - referenceSum)
        << f;
    // The untransformed schedule differs from itself in nothing.
    EXPECT_EQ(flatReference[flat::kDifferenceOffset + f], 0.0f) << f;
    changed |= flatTiled[flat::kDifferenceOffset + f] != 0;
  }
  EXPECT_TRUE(changed) << "tiling changed no feature";
  EXPECT_EQ(flatTiled[flat::kComputations], 2.0f);
  EXPECT_EQ(flatTiled[flat::kLoops], float(tiled->tree.nodes.size() - 1));
  EXPECT_EQ(flatTiled[flat::kLoopDifference],
            float(tiled->tree.nodes.size()) -
                float(reference->tree.nodes.size()));
  EXPECT_EQ(flatReference[flat::kLoopDifference], 0.0f);
}

TEST(TreeOptionsTest, RejectsBadValues) {
  auto message = [](auto edit) {
    TreeTrainingOptions options;
    edit(options);
    llvm::Error err = options.check();
    return err ? llvm::toString(std::move(err)) : std::string();
  };
  EXPECT_EQ(message([](TreeTrainingOptions &) {}), "");
  EXPECT_EQ(message([](TreeTrainingOptions &o) { o.rounds = 0; }),
            "the number of boosting rounds must be positive");
  EXPECT_EQ(message([](TreeTrainingOptions &o) { o.maxDepth = 0; }),
            "the tree depth must be in [1, 64], got 0");
  EXPECT_EQ(message([](TreeTrainingOptions &o) { o.learningRate = 0; }),
            "the learning rate (eta) must be in (0, 1], got 0.00");
  EXPECT_EQ(message([](TreeTrainingOptions &o) { o.subsample = 1.5; }),
            "the row subsample must be in (0, 1], got 1.50");
  EXPECT_EQ(message([](TreeTrainingOptions &o) { o.columnSample = 0; }),
            "the column sample must be in (0, 1], got 0.00");
  EXPECT_EQ(parseTreeObjective("pairwise"), TreeObjective::PairwiseRank);
  EXPECT_EQ(parseTreeObjective("squared"), TreeObjective::SquaredLogError);
  EXPECT_FALSE(parseTreeObjective("lambdamart").has_value());
}

class TreeTrainingTest : public ::testing::TestWithParam<TreeObjective> {};

TEST_P(TreeTrainingTest, RanksAMonotoneFeatureOnHeldOutPrograms) {
  Dataset dataset = monotoneDataset(12, 24, 7);
  std::vector<TreeRoundReport> reports;
  llvm::Expected<CostModel> model = trainGradientBoostedTrees(
      dataset, "monotone", smallOptions(GetParam()),
      [&](const TreeRoundReport &r) { reports.push_back(r); });
  ASSERT_TRUE(bool(model)) << llvm::toString(model.takeError());
  ASSERT_FALSE(reports.empty());
  EXPECT_EQ(reports.front().round, 1u);
  const TreeTrainingSummary *summary = treeTrainingSummary(*model);
  ASSERT_NE(summary, nullptr);
  EXPECT_GE(summary->bestRound, 1u);
  EXPECT_LE(summary->bestRound, summary->roundsRun);
  EXPECT_EQ(summary->metric,
            GetParam() == TreeObjective::PairwiseRank ? "spearman" : "rmse");
  EXPECT_EQ(model->ensembleSize(), 0u);

  // The same split as the network's for the seed.
  std::vector<std::string> ids;
  for (const ProgramRecord &program : dataset.programs)
    ids.push_back(program.id);
  llvm::Expected<ProgramSplit> split = splitPrograms(ids, 3);
  ASSERT_TRUE(bool(split));
  EXPECT_EQ(model->getDataset().testPrograms, split->test);
  EXPECT_EQ(model->getDataset().trainPrograms, split->train);

  // Held-out programs: ordered by their tile sizes.
  llvm::Expected<Evaluation> evaluation =
      evaluateCostModel(*model, dataset, split->test);
  ASSERT_TRUE(bool(evaluation)) << llvm::toString(evaluation.takeError());
  EXPECT_GT(evaluation->ranking.meanSpearman, 0.8);
  EXPECT_GT(evaluation->ranking.top3, 0.95);

  // The untransformed schedule predicts exactly 1, through forProgram as
  // the search calls it; the program's fastest measured schedule predicts
  // more than its slowest.
  const ProgramRecord &program = dataset.programs.front();
  llvm::Expected<CostModel::ProgramPredictor> predictor =
      model->forProgram(program.tree, program.space);
  ASSERT_TRUE(bool(predictor)) << llvm::toString(predictor.takeError());
  const SampleRecord *slowest = nullptr, *fastest = nullptr;
  for (const SampleRecord &sample : dataset.samples) {
    if (sample.programId != program.id)
      continue;
    if (!slowest || sample.speedup < slowest->speedup)
      slowest = &sample;
    if (!fastest || sample.speedup > fastest->speedup)
      fastest = &sample;
  }
  ASSERT_TRUE(slowest && fastest && slowest->speedup < fastest->speedup);
  llvm::Expected<std::vector<double>> predictions = predictor->predict(
      {program.space.defaultConfig(), slowest->config, fastest->config});
  ASSERT_TRUE(bool(predictions)) << llvm::toString(predictions.takeError());
  EXPECT_EQ((*predictions)[0], 1.0);
  EXPECT_LT((*predictions)[1], (*predictions)[2]);
  // The predictor, which extracts a batch at a time, predicts what the
  // model predicts of the extracted schedules, over several batches.
  std::vector<Config> configs;
  for (const SampleRecord &sample : dataset.samples)
    if (sample.programId == program.id)
      configs.push_back(sample.config);
  while (configs.size() < 1100)
    configs.push_back(configs[configs.size() % 7]);
  FeatureExtractor extractor =
      cantFail(FeatureExtractor::create(program.tree));
  std::vector<ProgramFeatures> schedules;
  for (const Config &config : configs)
    schedules.push_back(cantFail(extractor.extract(program.space, config)));
  llvm::Expected<std::vector<double>> fromConfigs = predictor->predict(configs);
  ASSERT_TRUE(bool(fromConfigs)) << llvm::toString(fromConfigs.takeError());
  EXPECT_TRUE(*fromConfigs ==
              model->predict(cantFail(extractor.extract(
                                 program.space, program.space.defaultConfig())),
                             schedules));

  // Deterministic for a seed; with the squared error whatever XGBoost's
  // thread count (rank:pairwise samples its pairs per thread).
  TreeTrainingOptions threaded = smallOptions(GetParam());
  if (GetParam() == TreeObjective::SquaredLogError)
    threaded.threads = 2;
  llvm::Expected<CostModel> again = trainGradientBoostedTrees(
      dataset, "monotone", threaded, [](const TreeRoundReport &) {});
  ASSERT_TRUE(bool(again)) << llvm::toString(again.takeError());
  llvm::json::Value a = model->toJSON(), b = again->toJSON();
  EXPECT_TRUE(text(*a.getAsObject()->get("booster")) ==
              text(*b.getAsObject()->get("booster")));
}

INSTANTIATE_TEST_SUITE_P(Objectives, TreeTrainingTest,
                         ::testing::Values(TreeObjective::SquaredLogError,
                                           TreeObjective::PairwiseRank),
                         [](const auto &info) {
                           return treeObjectiveName(info.param).str();
                         });

class TreeModelFileTest : public ::testing::Test {
protected:
  static void SetUpTestSuite() {
    dataset = new Dataset(monotoneDataset(6, 12, 2));
    TreeTrainingOptions options = smallOptions(TreeObjective::SquaredLogError);
    options.rounds = 8;
    llvm::Expected<CostModel> trained = trainGradientBoostedTrees(
        *dataset, "monotone", options, [](const TreeRoundReport &) {});
    ASSERT_TRUE(bool(trained)) << llvm::toString(trained.takeError());
    model = new CostModel(*trained);
  }
  static void TearDownTestSuite() {
    delete model;
    delete dataset;
  }
  void SetUp() override {
    ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("gbt-test", directory));
  }
  void TearDown() override { llvm::sys::fs::remove_directories(directory); }

  std::string path(llvm::StringRef name) const {
    llvm::SmallString<128> p(directory);
    llvm::sys::path::append(p, name);
    return std::string(p);
  }

  /// Writes the model's JSON, edited by `edit`, and loads it: the error
  /// message, or "" when it loads.
  std::string loadEdited(llvm::function_ref<void(llvm::json::Object &)> edit) {
    llvm::json::Value json = model->toJSON();
    edit(*json.getAsObject());
    std::string file = path("edited.json");
    {
      std::error_code ec;
      llvm::raw_fd_ostream os(file, ec);
      EXPECT_FALSE(ec);
      os << json;
    }
    llvm::Expected<CostModel> loaded = CostModel::load(file);
    if (loaded)
      return "";
    std::string message = llvm::toString(loaded.takeError());
    EXPECT_EQ(message.rfind(file + ": ", 0), 0u) << message;
    return message.substr(file.size() + 2);
  }

  static Dataset *dataset;
  static CostModel *model;
  llvm::SmallString<128> directory;
};
Dataset *TreeModelFileTest::dataset = nullptr;
CostModel *TreeModelFileTest::model = nullptr;

TEST_F(TreeModelFileTest, RoundTripsThroughTheCostModelEntryPoint) {
  std::string file = path("trees.json");
  ASSERT_FALSE(bool(model->save(file)));
  llvm::Expected<CostModel> loaded = CostModel::load(file);
  ASSERT_TRUE(bool(loaded)) << llvm::toString(loaded.takeError());
  EXPECT_EQ(text(loaded->toJSON()), text(model->toJSON()));
  const TreeTrainingSummary *summary = treeTrainingSummary(*loaded);
  ASSERT_NE(summary, nullptr);
  EXPECT_EQ(summary->bestRound, treeTrainingSummary(*model)->bestRound);
  EXPECT_EQ(loaded->getDataset().testPrograms,
            model->getDataset().testPrograms);
  EXPECT_EQ(loaded->getTraining().seed, 3u);
  for (const ProgramRecord &program : dataset->programs) {
    std::vector<Config> configs = sampledConfigs(*dataset, program.id);
    llvm::Expected<std::vector<double>> before =
        model->predict(program.tree, program.space, configs);
    llvm::Expected<std::vector<double>> after =
        loaded->predict(program.tree, program.space, configs);
    ASSERT_TRUE(before && after);
    EXPECT_EQ(*before, *after);
  }
}

TEST_F(TreeModelFileTest, RefusesCorruptAndMismatchedFiles) {
  EXPECT_EQ(loadEdited([](llvm::json::Object &) {}), "");
  EXPECT_EQ(loadEdited([](llvm::json::Object &o) { o["version"] = 7; }),
            "tree model file version 7 is not supported (this build reads "
            "version 1)");
  std::string layout = loadEdited([](llvm::json::Object &o) {
    (*o.getObject("features"))["flat_layout"] = "0123456789abcdef";
  });
  EXPECT_NE(layout.find("flattened as 0123456789abcdef"), std::string::npos)
      << layout;
  EXPECT_NE(layout.find("retrain the model"), std::string::npos) << layout;
  EXPECT_EQ(loadEdited([](llvm::json::Object &o) { o.erase("features"); }),
            "the model file does not describe its feature layout "
            "(features.layout, features.count, features.flat_layout, "
            "features.flat_count)");
  EXPECT_EQ(loadEdited([](llvm::json::Object &o) { o.erase("booster"); }),
            "missing field 'booster'");
  std::string base64 = loadEdited([](llvm::json::Object &o) {
    (*o.getObject("booster"))["data"] = "not base64!";
  });
  EXPECT_EQ(base64.rfind("booster: its data is not base64", 0), 0u) << base64;
  // Bytes XGBoost did not write (with their checksum) are refused before
  // XGBoost sees them (BoosterCheckTest.cpp crafts the damage that crashed
  // it).
  auto setData = [](llvm::json::Object &booster, llvm::StringRef bytes) {
    booster["data"] = llvm::encodeBase64(bytes);
    booster["checksum"] =
        llvm::formatv("{0:x-16}", llvm::xxh3_64bits(bytes)).str();
  };
  std::string garbage = loadEdited([&](llvm::json::Object &o) {
    setData(*o.getObject("booster"), "{\"learner\": 42}");
  });
  EXPECT_EQ(garbage, "booster: UBJSON at byte 2: the key length has type "
                     "'\"', not an integer");
  std::string truncated = loadEdited([&](llvm::json::Object &o) {
    llvm::json::Object &booster = *o.getObject("booster");
    std::vector<char> bytes;
    ASSERT_FALSE(bool(llvm::decodeBase64(*booster.getString("data"), bytes)));
    bytes.resize(bytes.size() / 2);
    setData(booster, llvm::StringRef(bytes.data(), bytes.size()));
  });
  EXPECT_EQ(truncated.rfind("booster: UBJSON at byte ", 0), 0u) << truncated;
  // Found by fuzz/ModelFileFuzzer.cpp (fuzz/corpus/model-file/
  // crash-booster-length): XGBoost trusts the lengths inside its UBJSON, and
  // a damaged one made it allocate 28 TB. Bytes that do not match their
  // checksum never reach XGBoost.
  std::string damaged = loadEdited([](llvm::json::Object &o) {
    llvm::json::Object &booster = *o.getObject("booster");
    std::vector<char> bytes;
    ASSERT_FALSE(bool(llvm::decodeBase64(*booster.getString("data"), bytes)));
    bytes[bytes.size() / 2] ^= 0x40;
    booster["data"] = llvm::encodeBase64(bytes);
  });
  EXPECT_EQ(damaged, "booster: its data does not match its checksum (the file "
                     "was changed or damaged: restore or retrain it)");
  EXPECT_EQ(loadEdited([](llvm::json::Object &o) {
              o.getObject("booster")->erase("checksum");
            }),
            "booster: expected an object with string fields 'encoding', "
            "'checksum' and 'data' (a file written before checksums: retrain "
            "it)");
  EXPECT_EQ(loadEdited([](llvm::json::Object &o) {
              (*o.getObject("booster"))["encoding"] = "json";
            }),
            "booster: unknown encoding 'json' (expected 'ubj')");
  EXPECT_EQ(loadEdited([](llvm::json::Object &o) {
              (*o.getObject("training"))["objective"] = "lambdamart";
            }),
            "training.objective: unknown objective 'lambdamart' (expected "
            "'squared' or 'pairwise')");
  std::string rounds = loadEdited([](llvm::json::Object &o) {
    llvm::json::Object &training = *o.getObject("training");
    training["best_round"] = *training.getInteger("best_round") + 1;
  });
  EXPECT_NE(rounds.find("but the training summary kept"), std::string::npos)
      << rounds;
}

/// Run with
///   CostModelTests --gtest_also_run_disabled_tests \
///     --gtest_filter='*TreeBenchmark*'
/// It prints predictions per second on one core of trees (depth 6, fitted
/// to the monotone dataset for a fixed number of rounds) for the 4096
/// candidates of BenchmarkTest.cpp's fill + matmul, with feature extraction
/// (the filter also runs BenchmarkTest.cpp's networks, for comparison). Not
/// a timed test: it only reports.
TEST(TreeBenchmark, DISABLED_PredictionsPerSecond) {
  ProgramTree tree = fillMatmul(256, 256, 256);
  Space space = spaceOf(tree);
  std::mt19937_64 rng(1);
  std::vector<Config> configs;
  while (configs.size() < 4096) {
    Config config = space.defaultConfig();
    for (size_t i = 0; i < space.size(); ++i)
      config[i] = space[i].valueAt(rng() % *space[i].domainSize());
    if (llvm::Error err = space.check(config))
      llvm::consumeError(std::move(err));
    else
      configs.push_back(config);
  }
  auto time = [&](const CostModel &model) {
    double best = 1e9;
    for (int round = 0; round < 4; ++round) {
      auto start = std::chrono::steady_clock::now();
      llvm::Expected<CostModel::ProgramPredictor> predictor =
          model.forProgram(tree, space);
      EXPECT_TRUE(bool(predictor));
      llvm::Expected<std::vector<double>> all = predictor->predict(configs);
      EXPECT_TRUE(bool(all));
      if (round > 0) // The first is a warm-up.
        best = std::min(best, std::chrono::duration<double>(
                                  std::chrono::steady_clock::now() - start)
                                  .count());
    }
    return double(configs.size()) / best;
  };
  Dataset dataset = monotoneDataset(12, 24, 7);
  for (unsigned rounds : {20u, 100u, 400u}) {
    TreeTrainingOptions options = smallOptions(TreeObjective::SquaredLogError);
    options.rounds = rounds;
    options.patience = rounds;
    options.maxDepth = 6;
    options.learningRate = 0.01;
    llvm::Expected<CostModel> model = trainGradientBoostedTrees(
        dataset, "monotone", options, [](const TreeRoundReport &) {});
    ASSERT_TRUE(bool(model)) << llvm::toString(model.takeError());
    std::printf("trees (%u rounds kept of %u): %.0f predictions/s with feature "
                "extraction\n",
                treeTrainingSummary(*model)->bestRound, rounds, time(*model));
  }
}

} // namespace
