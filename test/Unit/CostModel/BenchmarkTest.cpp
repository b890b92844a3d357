//===- BenchmarkTest.cpp - Prediction throughput (disabled by default) ----===//
//
// Run with
//   CostModelTests --gtest_also_run_disabled_tests --gtest_filter='*Benchmark*'
// It prints predictions per second of the default network (one core) for
// 4096 candidate schedules of a 256^3 fill + matmul, with and without
// feature extraction. Not a timed test: it only reports.
//
// The DISABLED_OnePass tests score the same 4096 candidates once, for
// instruction counts that do not depend on the machine's load, e.g.
//   valgrind --tool=callgrind \
//     --toggle-collect='tuner::CostModel::forProgram*' \
//     --toggle-collect='tuner::CostModel::ProgramPredictor::predict*' \
//     CostModelTests --gtest_also_run_disabled_tests \
//     --gtest_filter='*OnePassEndToEnd4'
// (one network: ...EndToEnd1; the network alone, features extracted before:
// --toggle-collect='tuner::CostModel::predict(tuner::ProgramFeatures*' and
// ...OnePassNetwork4).
//
// The DISABLED_ShippedModel test scores them with the shipped model
// (models/cpu-default.model.json) as the search does, from configs, and
// again with the configs' plans taken from a PlanCache (the search plans
// every candidate once for its schedule hash before the model sees it).
// Pin it to one core: taskset -c 0 CostModelTests
// --gtest_also_run_disabled_tests --gtest_filter='*ShippedModel'.
//
//===----------------------------------------------------------------------===//

#include "CostModelImpl.h"

#include "TestPrograms.h"

#include "gtest/gtest.h"

#include <chrono>
#include <ctime>

using namespace tuner;
using namespace tuner::test;

namespace {

/// Random configs of `space` (every parameter drawn from its domain), kept
/// when they satisfy the constraints.
std::vector<Config> randomConfigs(const Space &space, unsigned count,
                                  uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<Config> configs;
  while (configs.size() < count) {
    Config config = space.defaultConfig();
    for (size_t i = 0; i < space.size(); ++i)
      config[i] = space[i].valueAt(rng() % *space[i].domainSize());
    if (llvm::Error err = space.check(config))
      llvm::consumeError(std::move(err));
    else
      configs.push_back(config);
  }
  return configs;
}

double seconds(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
      .count();
}

/// Seconds of CPU time this thread has run: on the shared, busy machine
/// the wall clock also counts the time other processes held the core.
double threadSeconds() {
  timespec now;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
  return double(now.tv_sec) + 1e-9 * double(now.tv_nsec);
}

/// `networks` randomly initialized networks of the default shape, prepared
/// for inference.
CostModel randomModel(unsigned networks) {
  auto impl = std::make_shared<CostModel::Impl>(NetworkShape(), networks);
  for (auto [i, network] : llvm::enumerate(impl->networks)) {
    network.initialize(i + 1);
    network.prepareInference();
  }
  return CostModel(impl);
}

TEST(CostModelBenchmark, DISABLED_PredictionsPerSecond) {
  ProgramTree tree = fillMatmul(256, 256, 256);
  Space space = spaceOf(tree);
  std::vector<Config> configs = randomConfigs(space, 4096, 1);
  llvm::Expected<FeatureExtractor> extractor = FeatureExtractor::create(tree);
  ASSERT_TRUE(bool(extractor));
  std::vector<ProgramFeatures> features;
  for (const Config &config : configs)
    features.push_back(cantFail(extractor->extract(space, config)));
  std::set<uint64_t> shapes;
  for (const ProgramFeatures &f : features)
    shapes.insert(f.tree.hash());
  ProgramFeatures reference =
      cantFail(extractor->extract(space, space.defaultConfig()));

  // One network, and an ensemble of four (the shipped model's size).
  for (unsigned networks : {1u, 4u}) {
    CostModel model = randomModel(networks);
    // Warm up, then time the best of three.
    model.predict(reference, features);
    double network = 1e9, endToEnd = 1e9;
    for (int round = 0; round < 3; ++round) {
      auto start = std::chrono::steady_clock::now();
      std::vector<double> predictions = model.predict(reference, features);
      network = std::min(network, seconds(start));
      start = std::chrono::steady_clock::now();
      llvm::Expected<CostModel::ProgramPredictor> predictor =
          model.forProgram(tree, space);
      ASSERT_TRUE(bool(predictor));
      llvm::Expected<std::vector<double>> all = predictor->predict(configs);
      ASSERT_TRUE(bool(all));
      endToEnd = std::min(endToEnd, seconds(start));
    }
    std::printf("%zu candidates in %zu tree shapes, %u network(s) of %zu "
                "parameters\n",
                configs.size(), shapes.size(), networks,
                Network<float>(NetworkShape()).parameterCount());
    std::printf("  network only:            %.0f predictions/s\n",
                configs.size() / network);
    std::printf("  with feature extraction: %.0f predictions/s\n",
                configs.size() / endToEnd);
  }
}

/// Scores the benchmark's candidates once with `networks` networks: from
/// configs (features extracted), or from extracted features.
void onePass(unsigned networks, bool endToEnd) {
  ProgramTree tree = fillMatmul(256, 256, 256);
  Space space = spaceOf(tree);
  std::vector<Config> configs = randomConfigs(space, 4096, 1);
  CostModel model = randomModel(networks);
  double sum = 0;
  if (endToEnd) {
    llvm::Expected<CostModel::ProgramPredictor> predictor =
        model.forProgram(tree, space);
    ASSERT_TRUE(bool(predictor));
    llvm::Expected<std::vector<double>> all = predictor->predict(configs);
    ASSERT_TRUE(bool(all));
    for (double p : *all)
      sum += p;
  } else {
    FeatureExtractor extractor = cantFail(FeatureExtractor::create(tree));
    std::vector<ProgramFeatures> features;
    for (const Config &config : configs)
      features.push_back(cantFail(extractor.extract(space, config)));
    ProgramFeatures reference =
        cantFail(extractor.extract(space, space.defaultConfig()));
    for (double p : model.predict(reference, features))
      sum += p;
  }
  std::printf("mean prediction %.6g\n", sum / double(configs.size()));
}

/// The shipped model (models/cpu-default.model.json: an ensemble of four
/// networks) as the search uses it: a predictor for the program, then
/// configs -> plans -> features -> batch -> ensemble -> predictions, on
/// the 4096 candidates of the fill + matmul above. `rounds` timed rounds;
/// prints the fastest and the median.
void shippedModel(unsigned rounds) {
  llvm::Expected<CostModel> model = CostModel::load(TUNER_SHIPPED_MODEL);
  ASSERT_TRUE(bool(model)) << llvm::toString(model.takeError());
  ProgramTree tree = fillMatmul(256, 256, 256);
  Space space = spaceOf(tree);
  std::vector<Config> configs = randomConfigs(space, 4096, 1);
  std::vector<double> times, cpuTimes;
  double sum = 0;
  for (unsigned round = 0; round < rounds; ++round) {
    auto start = std::chrono::steady_clock::now();
    double cpuStart = threadSeconds();
    llvm::Expected<CostModel::ProgramPredictor> predictor =
        model->forProgram(tree, space);
    ASSERT_TRUE(bool(predictor));
    llvm::Expected<std::vector<double>> all = predictor->predict(configs);
    ASSERT_TRUE(bool(all));
    times.push_back(seconds(start));
    cpuTimes.push_back(threadSeconds() - cpuStart);
    sum = 0;
    for (double p : *all)
      sum += p;
  }
  // The search plans each config once, for its schedule hash, before the
  // model scores it (ProgramSearch: a PlanCache that the predictor uses).
  PlanCache plans(tree, space);
  for (const Config &config : configs)
    ASSERT_TRUE(bool(plans.get(config)));
  std::vector<double> cachedTimes, cachedCpuTimes;
  for (unsigned round = 0; round < rounds; ++round) {
    auto start = std::chrono::steady_clock::now();
    double cpuStart = threadSeconds();
    llvm::Expected<CostModel::ProgramPredictor> predictor =
        model->forProgram(tree, space);
    ASSERT_TRUE(bool(predictor));
    predictor->usePlans(plans);
    llvm::Expected<std::vector<double>> all = predictor->predict(configs);
    ASSERT_TRUE(bool(all));
    cachedTimes.push_back(seconds(start));
    cachedCpuTimes.push_back(threadSeconds() - cpuStart);
  }
  for (std::vector<double> *t : {&times, &cpuTimes, &cachedTimes,
                                 &cachedCpuTimes})
    llvm::sort(*t);
  std::printf("shipped model (%zu networks), %zu candidates, with feature "
              "extraction: %.0f predictions/s fastest, %.0f median of %u "
              "(mean prediction %.6g); plans cached (the search's path): "
              "%.0f fastest, %.0f median\n",
              model->ensembleSize(), configs.size(),
              configs.size() / times.front(),
              configs.size() / times[times.size() / 2], rounds,
              sum / double(configs.size()),
              configs.size() / cachedTimes.front(),
              configs.size() / cachedTimes[cachedTimes.size() / 2]);
  // The same per second of this thread's CPU time (what one core does
  // while it runs this, whatever else the machine runs).
  std::printf("per CPU second: %.0f fastest, %.0f median; plans cached: "
              "%.0f fastest, %.0f median\n",
              configs.size() / cpuTimes.front(),
              configs.size() / cpuTimes[cpuTimes.size() / 2],
              configs.size() / cachedCpuTimes.front(),
              configs.size() / cachedCpuTimes[cachedCpuTimes.size() / 2]);
}

TEST(CostModelBenchmark, DISABLED_ShippedModel) { shippedModel(9); }
/// Many rounds, for profiles in which drawing the configs is negligible.
TEST(CostModelBenchmark, DISABLED_ShippedModelProfile) { shippedModel(40); }
/// One round each way, for instruction counts (see the header).
TEST(CostModelBenchmark, DISABLED_ShippedModelOnce) { shippedModel(1); }

TEST(CostModelBenchmark, DISABLED_OnePassEndToEnd1) { onePass(1, true); }
TEST(CostModelBenchmark, DISABLED_OnePassEndToEnd4) { onePass(4, true); }
TEST(CostModelBenchmark, DISABLED_OnePassNetwork1) { onePass(1, false); }
TEST(CostModelBenchmark, DISABLED_OnePassNetwork4) { onePass(4, false); }

} // namespace
