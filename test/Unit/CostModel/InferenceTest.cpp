//===- InferenceTest.cpp - The batched inference path agrees with forward -===//
//
// Network::inferLogits (computation vectors as differences from a reference
// schedule, every distinct subtree once, no products with zero operands)
// must predict what the training's forward pass predicts, one schedule at a
// time, up to float rounding: on a tree with every kind of node, and through
// CostModel::predict on programs with fusion, several computations and
// several tree shapes. The shipped model's predictions through the
// predictor (what the search calls) agree with the training's forward pass
// on real programs of the held-out set.
//
//===----------------------------------------------------------------------===//

#include "CostModelImpl.h"

#include "TestPrograms.h"

#include "tuner/CostModel/Dataset.h"
#include "tuner/Schedule/SchedulePlan.h"

#include "llvm/Support/MemoryBuffer.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

using namespace tuner;
using namespace tuner::test;

namespace {

using Matrix = Network<float>::Matrix;

/// Relative agreement of predictions (speedups near 1 and far from it).
constexpr double kTolerance = 1e-5;

/// A normalization that moves and scales every feature.
Network<float>::InputNormalization someNormalization() {
  Network<float>::InputNormalization n;
  for (unsigned f = 0; f < features::kNumFeatures; ++f) {
    n.mean.push_back(0.01f * float(f % 7));
    n.scale.push_back(0.5f + 0.1f * float(f % 5));
  }
  return n;
}

/// `count` networks of the default shape, normalized and prepared.
std::shared_ptr<CostModel::Impl> preparedNetworks(unsigned count) {
  auto impl = std::make_shared<CostModel::Impl>(NetworkShape(), count);
  for (auto [i, network] : llvm::enumerate(impl->networks)) {
    network.initialize(100 + i);
    network.setInputNormalization(someNormalization());
    network.prepareInference();
  }
  return impl;
}

/// The training's forward pass, one schedule at a time: the logit of
/// `features` by `network`.
float straightLogit(const Network<float> &network,
                    const ProgramFeatures &features) {
  return network.forwardLogits(features.tree,
                               Network<float>::packInputs({&features}), 1)(0, 0);
}

/// A tree with every kind of node: loops with computations only, loops
/// with child loops only, loops with both, several computations in one
/// loop, and a body with both.
FeatureTree mixedTree() {
  FeatureTree tree;
  tree.numComputations = 5;
  auto node = [&](int loopId, std::vector<int> loops, std::vector<int> comps) {
    FeatureTree::Node n;
    n.loopId = loopId;
    n.loops = std::move(loops);
    n.computations = std::move(comps);
    tree.nodes.push_back(n);
  };
  node(3, {}, {3});      // 0: D
  node(1, {}, {1});      // 1: B
  node(0, {1}, {0, 2});  // 2: A, comps 0 and 2 around loop B
  node(2, {0}, {});      // 3: C, only loop D
  node(-1, {2, 3}, {4}); // 4: the body
  return tree;
}

TEST(InferenceTest, DistinctSubtreesAgreeWithForward) {
  FeatureTree tree = mixedTree();
  const std::vector<FeatureInfo> &list = featureList();
  std::mt19937_64 rng(5);
  auto randomValue = [&](unsigned index) {
    if (list[index].kind == FeatureKind::Boolean)
      return float(rng() % 2);
    return float(int64_t(rng() % 2001) - 1000) / 8.0f;
  };
  // A reference with a few nonzero entries per computation, as the layout
  // makes them.
  ProgramFeatures reference;
  reference.tree = tree;
  reference.values.assign(tree.numComputations * features::kNumFeatures, 0);
  for (size_t i = 0; i < reference.values.size(); ++i)
    if (rng() % 11 == 0)
      reference.values[i] = randomValue(unsigned(i % features::kNumFeatures));
  // Three variants of every computation vector (entries changed, zeroed and
  // made nonzero), drawn per schedule: equal vectors and equal subtrees
  // repeat across the batch.
  std::vector<std::vector<std::vector<float>>> variants(tree.numComputations);
  for (unsigned c = 0; c < tree.numComputations; ++c)
    for (unsigned v = 0; v < 3; ++v) {
      std::vector<float> column(
          reference.values.begin() + c * features::kNumFeatures,
          reference.values.begin() + (c + 1) * features::kNumFeatures);
      for (unsigned k = 0; k < 12 * v; ++k) {
        unsigned index = unsigned(rng() % features::kNumFeatures);
        column[index] = k % 4 == 0 ? 0.0f : randomValue(index);
      }
      variants[c].push_back(column);
    }
  const unsigned batchSize = 40;
  std::vector<ProgramFeatures> schedules(batchSize);
  std::vector<const ProgramFeatures *> batch;
  for (ProgramFeatures &schedule : schedules) {
    schedule.tree = tree;
    for (unsigned c = 0; c < tree.numComputations; ++c) {
      const std::vector<float> &column = variants[c][rng() % 3];
      schedule.values.insert(schedule.values.end(), column.begin(),
                             column.end());
    }
    batch.push_back(&schedule);
  }

  InferenceBatch distinct(reference, batch);
  EXPECT_EQ(distinct.size(), batchSize);
  // Subtrees do repeat (so that sharing them is tested), and the body's are
  // at most the schedules.
  EXPECT_LE(distinct.columnComputation.size(), 3u * tree.numComputations);
  EXPECT_LT(distinct.nodes[1].count, batchSize);
  EXPECT_LE(distinct.nodes.back().count, batchSize);

  std::shared_ptr<CostModel::Impl> impl = preparedNetworks(2);
  Network<float>::Workspace workspace;
  for (const Network<float> &network : impl->networks) {
    Matrix logits = network.inferLogits(
        distinct, network.referencePreActivations(reference), workspace);
    ASSERT_EQ(logits.cols(), Eigen::Index(batchSize));
    float referenceLogit = straightLogit(network, reference);
    for (unsigned b = 0; b < batchSize; ++b) {
      double expected =
          std::exp(double(straightLogit(network, schedules[b])) -
                   referenceLogit);
      double actual = std::exp(double(logits(0, b)) - referenceLogit);
      EXPECT_NEAR(actual, expected, kTolerance * expected) << "schedule " << b;
    }
  }
}

/// fill, matmul, then relu(C + bias) into another buffer: three nests, two
/// fusable producer edges.
ProgramTree matmulBiasRelu(int64_t m, int64_t n, int64_t k) {
  TreeBuilder b("mmrelu");
  int a = b.buffer({m, k}), bb = b.buffer({k, n}), c = b.buffer({m, n}),
      bias = b.buffer({n}), out = b.buffer({m, n});
  int fill = b.nest("fill", {m, n}, {false, false}, c,
                    {TreeBuilder::access(c, {0, 1}, 2, true)}, OpCounts());
  OpCounts mac;
  mac.add = 1;
  mac.mul = 1;
  int mm = b.nest("matmul", {m, n, k}, {false, false, true}, c,
                  {TreeBuilder::access(a, {0, 2}, 3),
                   TreeBuilder::access(bb, {2, 1}, 3),
                   TreeBuilder::access(c, {0, 1}, 3),
                   TreeBuilder::access(c, {0, 1}, 3, true)},
                  mac);
  OpCounts ew;
  ew.add = 1;
  ew.other = 1;
  int relu = b.nest("relu", {m, n}, {false, false}, out,
                    {TreeBuilder::access(c, {0, 1}, 2),
                     TreeBuilder::access(bias, {1}, 2),
                     TreeBuilder::access(out, {0, 1}, 2, true)},
                    ew);
  b.edge(fill, mm, c, /*intoInit=*/true);
  b.edge(mm, relu, c, /*intoInit=*/false);
  return b.tree;
}

/// Random configs of `space` (every parameter drawn), kept when valid.
std::vector<Config> randomConfigs(const Space &space, unsigned count,
                                  uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<Config> configs;
  for (unsigned attempt = 0; configs.size() < count && attempt < 100 * count;
       ++attempt) {
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

/// What a model file may hold of networks: one, or an ensemble (two; four
/// as shipped).
class InferenceModelKind : public testing::TestWithParam<unsigned> {};

TEST_P(InferenceModelKind, PredictionsAgreeWithForwardOnPrograms) {
  std::shared_ptr<CostModel::Impl> impl = preparedNetworks(GetParam());
  CostModel model(impl);
  double maxRelative = 0;
  struct Case {
    const char *name;
    ProgramTree tree;
    size_t minShapes;
  };
  std::vector<Case> cases;
  cases.push_back({"fill + matmul", fillMatmul(64, 32, 48), 2});
  cases.push_back({"fill + matmul + relu", matmulBiasRelu(32, 64, 16), 2});
  cases.push_back({"elementwise", elementwise(128, 96), 1});
  for (Case &c : cases) {
    SCOPED_TRACE(c.name);
    Space space = spaceOf(c.tree);
    std::vector<Config> configs = randomConfigs(space, 700, 3);
    ASSERT_GE(configs.size(), 300u);
    // Repeated configs: equal schedules in one batch.
    configs.insert(configs.end(), configs.begin(), configs.begin() + 50);
    FeatureExtractor extractor = cantFail(FeatureExtractor::create(c.tree));
    ProgramFeatures reference =
        cantFail(extractor.extract(space, space.defaultConfig()));
    std::vector<ProgramFeatures> schedules;
    std::set<uint64_t> shapes;
    for (const Config &config : configs) {
      schedules.push_back(cantFail(extractor.extract(space, config)));
      shapes.insert(schedules.back().tree.hash());
    }
    EXPECT_GE(shapes.size(), c.minShapes);

    // Batched (more than one batch per tree shape), by the predictor and
    // from extracted features.
    std::vector<double> batched = model.predict(reference, schedules);
    llvm::Expected<std::vector<double>> fromConfigs =
        model.predict(c.tree, space, configs);
    ASSERT_TRUE(bool(fromConfigs)) << llvm::toString(fromConfigs.takeError());
    ASSERT_EQ(batched.size(), configs.size());
    // The predictor extracts one batch at a time into reused buffers (the
    // cases run one after another: programs of 2, 3 and 1 computations),
    // with plans of its own or a cache's, and forms the same batches:
    // exactly the same predictions.
    PlanCache plans(c.tree, space);
    llvm::Expected<CostModel::ProgramPredictor> cachedPredictor =
        model.forProgram(c.tree, space);
    ASSERT_TRUE(bool(cachedPredictor));
    cachedPredictor->usePlans(plans);
    for (int call = 0; call < 2; ++call) {
      llvm::Expected<std::vector<double>> cached =
          cachedPredictor->predict(configs);
      ASSERT_TRUE(bool(cached)) << llvm::toString(cached.takeError());
      EXPECT_TRUE(*cached == batched) << "call " << call;
    }
    EXPECT_TRUE(*fromConfigs == batched);
    for (size_t i = 0; i < configs.size(); ++i) {
      double logSum = 0;
      for (const Network<float> &network : impl->networks)
        logSum += std::log(double(
            Network<float>::relativeSpeedups(
                Matrix::Constant(1, 1, straightLogit(network, schedules[i])),
                straightLogit(network, reference))(0, 0)));
      double expected = std::exp(logSum / double(impl->networks.size()));
      EXPECT_NEAR(batched[i], expected, kTolerance * expected) << "config " << i;
      EXPECT_NEAR((*fromConfigs)[i], expected, kTolerance * expected)
          << "config " << i;
      maxRelative =
          std::max({maxRelative, std::fabs(batched[i] / expected - 1),
                    std::fabs((*fromConfigs)[i] / expected - 1)});
    }
  }
  std::printf("%u network(s): largest relative difference from the "
              "training's forward pass %.3g\n",
              GetParam(), maxRelative);
}

INSTANTIATE_TEST_SUITE_P(Networks, InferenceModelKind,
                         testing::Values(1u, 2u, 4u));

/// inferLogits' buffers start at an AVX-512 vector's alignment (64 bytes,
/// more than malloc's 16), before and after they grow, in every slot
/// (Eigen's loops over their columns then need no scalar prologue).
TEST(InferenceTest, WorkspaceBuffersAreAligned) {
  Network<float>::Workspace workspace;
  constexpr uintptr_t alignment = 64;
  static_assert(Network<float>::Workspace::kAlignment == alignment);
  for (Eigen::Index cols : {1, 3, 100, 2000})
    for (size_t slot : {0u, 1u, 5u, 12u}) {
      Network<float>::MatrixMap m = workspace.get(slot, 160, cols);
      EXPECT_EQ(reinterpret_cast<uintptr_t>(m.data()) % alignment, 0u)
          << "slot " << slot << ", " << cols << " columns";
      EXPECT_EQ(m.rows(), 160);
      EXPECT_EQ(m.cols(), cols);
    }
}

/// The programs of test/Unit/CostModel/Inputs/heldout-programs.jsonl (five
/// programs of data/2026-11-24-znver4-2c/heldout-s3031.tar.xz: linalg and
/// affine, fusion, reductions, a stencil, a convolution).
std::vector<ProgramRecord> heldoutPrograms() {
  std::vector<ProgramRecord> programs;
  auto buffer = llvm::MemoryBuffer::getFile(TUNER_TEST_INPUTS
                                            "/heldout-programs.jsonl");
  EXPECT_TRUE(bool(buffer)) << buffer.getError().message();
  if (!buffer)
    return programs;
  llvm::SmallVector<llvm::StringRef> lines;
  (*buffer)->getBuffer().split(lines, '\n', -1, /*KeepEmpty=*/false);
  for (llvm::StringRef line : lines) {
    llvm::Expected<llvm::json::Value> json = llvm::json::parse(line);
    EXPECT_TRUE(bool(json)) << llvm::toString(json.takeError());
    if (!json)
      continue;
    llvm::Expected<ProgramRecord> program = programFromJSON(*json);
    EXPECT_TRUE(bool(program)) << llvm::toString(program.takeError());
    if (program)
      programs.push_back(std::move(*program));
  }
  return programs;
}

/// The fast path (ProgramPredictor: plans, features, InferenceBatch, the
/// networks' inferLogits) against the straightforward one (each config
/// planned and extracted alone, each network's training forward pass on
/// the standardized dense vectors of one schedule, unprepared), with the
/// shipped model on real programs and configs drawn from their spaces.
TEST(InferenceTest, ShippedModelAgreesWithForwardOnRealPrograms) {
  llvm::Expected<CostModel> model = CostModel::load(TUNER_SHIPPED_MODEL);
  ASSERT_TRUE(bool(model)) << llvm::toString(model.takeError());
  const CostModel::Impl &impl = model->getImpl();
  ASSERT_GE(impl.networks.size(), 1u);
  // Copies without the inference preparation: forwardLogits then takes the
  // training's path (standardization, every entry of the vectors).
  std::vector<Network<float>> straight;
  for (const Network<float> &network : impl.networks) {
    ASSERT_TRUE(network.isPreparedForInference());
    straight.push_back(network);
    straight.back().setInputNormalization(network.getInputNormalization());
    ASSERT_FALSE(straight.back().isPreparedForInference());
  }
  std::vector<ProgramRecord> programs = heldoutPrograms();
  ASSERT_EQ(programs.size(), 5u);
  size_t compared = 0;
  double maxRelative = 0;
  for (const ProgramRecord &program : programs) {
    SCOPED_TRACE(program.id);
    FeatureExtractor extractor =
        cantFail(FeatureExtractor::create(program.tree));
    // Configs in the space that can be planned (e.g. not an im2col tiling
    // that cuts its copy across a loop).
    std::vector<Config> configs;
    for (Config &config : randomConfigs(program.space, 200, 11)) {
      llvm::Expected<ProgramFeatures> f =
          extractor.extract(program.space, config);
      if (!f)
        llvm::consumeError(f.takeError());
      else
        configs.push_back(std::move(config));
    }
    ASSERT_GE(configs.size(), 50u);
    // Repeated configs, and the untransformed schedule itself.
    configs.insert(configs.end(), configs.begin(), configs.begin() + 20);
    configs.push_back(program.space.defaultConfig());
    llvm::Expected<CostModel::ProgramPredictor> predictor =
        model->forProgram(program.tree, program.space);
    ASSERT_TRUE(bool(predictor)) << llvm::toString(predictor.takeError());
    llvm::Expected<std::vector<double>> fast = predictor->predict(configs);
    ASSERT_TRUE(bool(fast)) << llvm::toString(fast.takeError());
    ASSERT_EQ(fast->size(), configs.size());

    ProgramFeatures reference = cantFail(
        extractor.extract(program.space, program.space.defaultConfig()));
    for (size_t i = 0; i < configs.size(); ++i) {
      ProgramFeatures schedule =
          cantFail(extractor.extract(program.space, configs[i]));
      double logSum = 0;
      for (const Network<float> &network : straight)
        logSum += std::log(double(
            Network<float>::relativeSpeedups(
                Matrix::Constant(1, 1, straightLogit(network, schedule)),
                straightLogit(network, reference))(0, 0)));
      double expected = std::exp(logSum / double(straight.size()));
      EXPECT_NEAR((*fast)[i], expected, kTolerance * expected)
          << "config " << i;
      maxRelative = std::max(maxRelative, std::fabs((*fast)[i] / expected - 1));
      ++compared;
    }
    EXPECT_NEAR(fast->back(), 1.0, kTolerance);
  }
  EXPECT_GE(compared, 500u);
  std::printf("shipped model, %zu configs: largest relative difference from "
              "the training's forward pass %.3g\n",
              compared, maxRelative);
}

} // namespace
