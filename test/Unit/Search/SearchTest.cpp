//===- SearchTest.cpp - Strategies over a space ---------------------------===//

#include "tuner/Search/DecisionTree.h"
#include "tuner/Search/Strategies.h"
#include "tuner/Space/SpaceBuilder.h"

#include "gtest/gtest.h"

#include <functional>
#include <set>

using namespace tuner;

namespace {

/// The space of a 64x64x32 matmul nest for a fixed AVX-512 target.
Space matmulSpace() {
  ProgramTree tree;
  tree.functionName = "mm";
  LoopNest nest;
  nest.name = "matmul_0";
  nest.rootLoopId = 0;
  const std::pair<int64_t, bool> loops[] = {{64, false}, {64, false}, {32, true}};
  for (int i = 0; i < 3; ++i) {
    Loop loop;
    loop.id = i;
    loop.name = "matmul_0.d" + std::to_string(i);
    loop.extent = loops[i].first;
    loop.isReduction = loops[i].second;
    loop.parentId = i - 1;
    loop.depth = i;
    if (i > 0)
      tree.loops[i - 1].children.push_back({true, i});
    tree.loops.push_back(loop);
  }
  tree.rootLoopIds = {0};
  Computation comp;
  comp.name = "matmul_0";
  comp.elementType = ElementType::F32;
  comp.loopIds = {0, 1, 2};
  tree.loops[2].children.push_back({false, 0});
  tree.computations.push_back(comp);
  nest.computationIds = {0};
  tree.nests.push_back(nest);
  Target target;
  target.vectorBits = 512;
  target.numVectorRegisters = 32;
  target.cores = 2;
  // The space these tests were written for: tile sizes that divide the
  // extents, no contraction lowering or distribution choice.
  SpaceOptions options;
  options.partialTiles = false;
  options.contractionLowering = false;
  options.distribution = false;
  llvm::Expected<Space> space = buildSpace(tree, target, options);
  EXPECT_TRUE(bool(space));
  return std::move(*space);
}

int64_t get(const Space &space, const Config &config, const char *name) {
  const ParamValue &v = config[*space.indexOf(name)];
  return v.isBoolean() ? v.getBoolean() : v.getInteger();
}

/// A made-up "true speedup": best with 16x16 tiles, a 4x16 register tile,
/// vectorized and parallel.
double trueSpeedup(const Space &space, const Config &c) {
  double s = 1;
  if (get(space, c, "matmul_0.tile.l0") == 16)
    s += 2;
  if (get(space, c, "matmul_0.tile.l1") == 16)
    s += 2;
  if (get(space, c, "matmul_0.rtile.l0") == 4)
    s += 1;
  if (get(space, c, "matmul_0.rtile.l1") == 16)
    s += 1;
  if (get(space, c, "matmul_0.vectorize"))
    s *= 3;
  if (get(space, c, "matmul_0.parallel"))
    s *= 1.5;
  return s;
}

/// Scores configs with a function; counts calls and configs.
class FunctionEvaluator : public Evaluator {
public:
  explicit FunctionEvaluator(std::function<double(const Config &)> f)
      : f(std::move(f)) {}
  std::vector<Observation> evaluate(llvm::ArrayRef<Config> configs) override {
    ++batches;
    std::vector<Observation> result;
    for (const Config &config : configs) {
      EXPECT_TRUE(seen.insert(config.hash()).second)
          << "a config was evaluated twice";
      Observation o;
      o.config = config;
      o.value = f(config);
      if (o.value <= 0)
        o.status = Status::WrongResult;
      result.push_back(o);
    }
    evaluated += configs.size();
    return result;
  }
  std::function<double(const Config &)> f;
  size_t batches = 0, evaluated = 0;
  std::set<uint64_t> seen;
};

TEST(DecisionTree, LevelsFollowTheTiramisuOrder) {
  Space space = matmulSpace();
  llvm::Expected<DecisionTree> tree = DecisionTree::build(space);
  ASSERT_TRUE(bool(tree)) << llvm::toString(tree.takeError());
  std::vector<std::string> names;
  for (size_t i = 0; i < tree->depth(); ++i)
    names.push_back(tree->getDecision(i).name);
  EXPECT_EQ(names, (std::vector<std::string>{
                       "matmul_0.order", "matmul_0 tiling",
                       "matmul_0 register tiling", "matmul_0.unroll",
                       "matmul_0 vectorization and parallelization"}));
  // Cache tiles of at least 8, and "not tiled": {8, 16, 32, 64} for the
  // 64-loops, {8, 16, 32} for the 32-loop.
  const Decision &tiling = tree->getDecision(1);
  EXPECT_EQ(tiling.choices.size(), 4u * 4u * 3u);
  // Register tiles of at most 16, and "none".
  EXPECT_EQ(tree->getDecision(2).choices.size(), 6u * 6u * 6u);
  // Every child is feasible and differs from its parent only in its level.
  Config root = tree->root();
  std::vector<Config> kids = tree->children(root, 1);
  ASSERT_FALSE(kids.empty());
  for (const Config &kid : kids) {
    EXPECT_FALSE(bool(space.check(kid)));
    EXPECT_EQ(get(space, kid, "matmul_0.unroll"), 1);
  }
}

/// Every leaf of `tree` (configs decided at every level).
std::vector<Config> leaves(const DecisionTree &tree) {
  std::vector<Config> level = {tree.root()};
  for (size_t l = 0; l < tree.depth(); ++l) {
    std::vector<Config> next;
    for (const Config &node : level)
      for (Config &kid : tree.children(node, l))
        next.push_back(std::move(kid));
    // A level whose choices are all infeasible keeps its parent.
    if (!next.empty())
      level = std::move(next);
  }
  return level;
}

TEST(DecisionTree, ConvolutionsAndFusionsAreDecidedWhenTheyAreFeasible) {
  // conv_0 (a convolution with a conv parameter) fused into relu_1 or not;
  // a rewritten convolution is vectorized, by relu_1 when fused; a direct
  // one is not vectorized (its tiles are no 1-D convolutions); relu_1 takes
  // the fusion only in parallel (into its scf.forall).
  Space space;
  auto add = [&](Parameter parameter, ParamRole role, const char *nest) {
    parameter.role = role;
    parameter.nest = nest;
    llvm::Error error = space.addParameter(std::move(parameter));
    EXPECT_FALSE(bool(error)) << llvm::toString(std::move(error));
  };
  add(Parameter::categorical("conv_0.conv", {"direct", "im2col", "decompose"}),
      ParamRole::Convolution, "conv_0");
  add(Parameter::boolean("conv_0.vectorize"), ParamRole::Vectorize, "conv_0");
  add(Parameter::boolean("relu_1.vectorize"), ParamRole::Vectorize, "relu_1");
  add(Parameter::boolean("relu_1.parallel"), ParamRole::Parallel, "relu_1");
  Parameter fuse = Parameter::boolean("fuse.conv_0.relu_1");
  fuse.role = ParamRole::Fuse;
  fuse.producer = "conv_0";
  fuse.consumer = "relu_1";
  ASSERT_FALSE(bool(space.addParameter(std::move(fuse))));
  for (const char *constraint :
       {"!conv_0.vectorize || conv_0.conv != \"direct\"",
        "conv_0.vectorize || conv_0.conv == \"direct\" || fuse.conv_0.relu_1",
        "!fuse.conv_0.relu_1 || conv_0.conv == \"direct\" || "
        "(conv_0.conv == \"decompose\" && relu_1.vectorize)",
        "!fuse.conv_0.relu_1 || relu_1.parallel"})
    ASSERT_FALSE(bool(space.addConstraint(constraint)));
  llvm::Expected<DecisionTree> tree = DecisionTree::build(space);
  ASSERT_TRUE(bool(tree)) << llvm::toString(tree.takeError());
  // conv with conv_0's vectorization; the fusion, which the untransformed
  // relu_1 cannot take, with relu_1's parallelization.
  std::vector<std::string> names;
  for (size_t i = 0; i < tree->depth(); ++i)
    names.push_back(tree->getDecision(i).name);
  EXPECT_EQ(names, (std::vector<std::string>{
                       "conv_0 vectorization and parallelization",
                       "relu_1 vectorization and parallelization"}));
  // Every strategy the space holds is a leaf: decomposed or by im2col and
  // vectorized, and decomposed inside the vectorized consumer.
  std::set<std::string> reached;
  for (const Config &leaf : leaves(*tree)) {
    EXPECT_FALSE(bool(space.check(leaf)));
    reached.insert(leaf[0].str() + (leaf[1].getBoolean() ? " vec" : "") +
                   (leaf[4].getBoolean() ? " fused" : ""));
  }
  EXPECT_TRUE(reached.count("\"decompose\" vec"));
  EXPECT_TRUE(reached.count("\"im2col\" vec"));
  EXPECT_TRUE(reached.count("\"decompose\" vec fused"));
}

TEST(Search, RandomIsReproducibleAndNeverRepeats) {
  Space space = matmulSpace();
  llvm::Expected<ChainOfTrees> chain = ChainOfTrees::build(space);
  ASSERT_TRUE(bool(chain));
  auto run = [&](uint64_t seed) {
    SearchProblem problem;
    problem.chain = &*chain;
    StrategyOptions options;
    options.seed = seed;
    llvm::Expected<std::unique_ptr<Strategy>> s =
        createStrategy("random", problem, options);
    EXPECT_TRUE(bool(s));
    std::vector<uint64_t> hashes;
    for (const Config &c : (*s)->propose(50))
      hashes.push_back(c.hash());
    return hashes;
  };
  std::vector<uint64_t> a = run(3), b = run(3), c = run(4);
  EXPECT_EQ(a, b);
  EXPECT_NE(a, c);
  EXPECT_EQ(std::set<uint64_t>(a.begin(), a.end()).size(), a.size());
}

TEST(Search, BeamWithTheModelScoresInBatchesAndFindsTheOptimum) {
  Space space = matmulSpace();
  llvm::Expected<DecisionTree> tree = DecisionTree::build(space);
  ASSERT_TRUE(bool(tree));
  FunctionEvaluator model([&](const Config &c) { return trueSpeedup(space, c); });
  BeamSearchOptions options;
  options.width = 4;
  options.topK = 3;
  std::unique_ptr<Strategy> beam = createModelBeamSearch(*tree, model, options);
  FunctionEvaluator measure([&](const Config &c) { return trueSpeedup(space, c); });
  TuningResult result = runTuningLoop(*beam, measure, {100, 0}, 2);
  // One model batch for the root, then at most one per level.
  EXPECT_LE(model.batches, 1 + tree->depth());
  EXPECT_EQ(result.history.size(), 3u);
  ASSERT_TRUE(result.best.has_value());
  // 16x16 tiles, 4x16 register tiles, vectorized, parallel: (1+6)*3*1.5.
  EXPECT_DOUBLE_EQ(result.best->value, 31.5);
}

TEST(Search, TopKExecutionRejectsTheModelsFavouriteWhenItMeasuresSlower) {
  Space space = matmulSpace();
  llvm::Expected<DecisionTree> tree = DecisionTree::build(space);
  ASSERT_TRUE(bool(tree));
  // The model believes that a vectorized, parallel schedule whose reduction
  // is register-tiled by 1 is the best of all; on this (pretend) machine it
  // runs at half the speed.
  auto favourite = [&](const Config &c) {
    return get(space, c, "matmul_0.rtile.l2") == 1 &&
           get(space, c, "matmul_0.vectorize") &&
           get(space, c, "matmul_0.parallel");
  };
  FunctionEvaluator model([&](const Config &c) {
    return trueSpeedup(space, c) + (favourite(c) ? 5 : 0);
  });
  FunctionEvaluator measure([&](const Config &c) {
    return trueSpeedup(space, c) * (favourite(c) ? 0.5 : 1);
  });
  BeamSearchOptions options;
  options.width = 8;
  options.topK = 8;
  std::unique_ptr<Strategy> beam = createModelBeamSearch(*tree, model, options);
  TuningResult result = runTuningLoop(*beam, measure, {100, 0}, 4);
  ASSERT_FALSE(result.history.empty());
  // The model's first choice is measured first, and loses to another of the
  // top k: the execution step corrects the model.
  const Observation &first = result.history.front();
  EXPECT_TRUE(favourite(first.config));
  ASSERT_TRUE(result.best.has_value());
  EXPECT_FALSE(favourite(result.best->config));
  EXPECT_LT(first.value, result.best->value);
  EXPECT_DOUBLE_EQ(result.best->value, 31.5);
}

TEST(Search, TheExecutionStepLeavesAFamilyTheMeasurementsRefuted) {
  Space space = matmulSpace();
  llvm::Expected<DecisionTree> tree = DecisionTree::build(space);
  ASSERT_TRUE(bool(tree));
  // The model believes every unvectorized schedule 4x faster than it is, so
  // its best predictions are all unvectorized (the best of them 10.5x, the
  // best vectorized one 31.5x).
  auto vectorized = [&](const Config &c) {
    return get(space, c, "matmul_0.vectorize") != 0;
  };
  auto run = [&](bool correct, auto create) {
    FunctionEvaluator model([&](const Config &c) {
      return trueSpeedup(space, c) * (vectorized(c) ? 1 : 4);
    });
    FunctionEvaluator measure([&](const Config &c) { return trueSpeedup(space, c); });
    std::unique_ptr<Strategy> strategy = create(model, correct);
    TuningResult result = runTuningLoop(*strategy, measure, {100, 0}, 2);
    EXPECT_EQ(result.history.size(), 6u);
    // Families: schedules that differ only in tile sizes and unrolling.
    std::set<std::string> families;
    for (const Observation &o : result.history)
      families.insert(
          o.config[*space.indexOf("matmul_0.order")].str() +
          o.config[*space.indexOf("matmul_0.vectorize")].str() +
          o.config[*space.indexOf("matmul_0.parallel")].str());
    return std::make_pair(families.size(),
                          result.best ? result.best->value : 0.0);
  };
  auto beam = [&](Evaluator &model, bool correct) {
    BeamSearchOptions options;
    options.width = 8;
    options.topK = 6;
    options.correct =
        correct ? ModelCorrection::Errors : ModelCorrection::None;
    return createModelBeamSearch(*tree, model, options);
  };
  auto mcts = [&](Evaluator &model, bool correct) {
    MonteCarloOptions options;
    options.iterations = 60;
    options.topK = 6;
    options.correct =
        correct ? ModelCorrection::Errors : ModelCorrection::None;
    return createMonteCarloTreeSearch(*tree, model, options);
  };
  // Beam search: without correction, six variations of the model's
  // favourite are measured; with it, the first batch refutes them, the
  // search moves on to other families and finds the best schedule.
  auto [blindFamilies, blindBest] = run(false, beam);
  auto [families, best] = run(true, beam);
  EXPECT_EQ(blindFamilies, 1u);
  EXPECT_GE(families, 3u);
  EXPECT_DOUBLE_EQ(blindBest, 10.5);
  EXPECT_DOUBLE_EQ(best, 31.5);
  // MCTS spends its model calls where the model is optimistic: every
  // schedule it kept is unvectorized, but the correction still spreads the
  // measurements over more families.
  auto [blindMctsFamilies, blindMctsBest] = run(false, mcts);
  auto [mctsFamilies, mctsBest] = run(true, mcts);
  EXPECT_GT(mctsFamilies, blindMctsFamilies);
  EXPECT_GE(mctsBest, blindMctsBest);
}

TEST(Search, BeamWithExecutionMeasuresEveryNodeOnce) {
  Space space = matmulSpace();
  llvm::Expected<DecisionTree> tree = DecisionTree::build(space);
  ASSERT_TRUE(bool(tree));
  BeamSearchOptions options;
  options.width = 2;
  std::unique_ptr<Strategy> bse = createExecutionBeamSearch(*tree, options);
  FunctionEvaluator measure([&](const Config &c) { return trueSpeedup(space, c); });
  TuningResult result = runTuningLoop(*bse, measure, {0, 60}, 3);
  EXPECT_EQ(result.history.size(), measure.evaluated);
  ASSERT_TRUE(result.best.has_value());
  EXPECT_GE(result.best->value, 20.0);
}

TEST(Search, MonteCarloFindsAGoodScheduleAndIsReproducible) {
  Space space = matmulSpace();
  llvm::Expected<DecisionTree> tree = DecisionTree::build(space);
  ASSERT_TRUE(bool(tree));
  auto run = [&](uint64_t seed) {
    FunctionEvaluator model([&](const Config &c) { return trueSpeedup(space, c); });
    MonteCarloOptions options;
    options.iterations = 60;
    options.topK = 4;
    options.seed = seed;
    std::unique_ptr<Strategy> mcts =
        createMonteCarloTreeSearch(*tree, model, options);
    FunctionEvaluator measure([&](const Config &c) { return trueSpeedup(space, c); });
    TuningResult result = runTuningLoop(*mcts, measure, {100, 0}, 2);
    EXPECT_LE(result.history.size(), 4u);
    std::vector<uint64_t> hashes;
    for (const Observation &o : result.history)
      hashes.push_back(o.config.hash());
    return std::make_pair(result.best ? result.best->value : 0.0, hashes);
  };
  auto [value, hashes] = run(5);
  EXPECT_GE(value, 20.0);
  EXPECT_EQ(run(5).second, hashes);
}

TEST(Search, SeedsTheModelMisjudgesAreMeasuredAndWin) {
  Space space = matmulSpace();
  llvm::Expected<ChainOfTrees> chain = ChainOfTrees::build(space);
  ASSERT_TRUE(bool(chain));
  llvm::Expected<DecisionTree> tree = DecisionTree::build(space);
  ASSERT_TRUE(bool(tree));
  // The model believes vectorizing is worthless (it never saw it); the
  // machine runs vectorized schedules 3x faster.
  FunctionEvaluator model([&](const Config &c) {
    return trueSpeedup(space, c) /
           (get(space, c, "matmul_0.vectorize") ? 6 : 1);
  });
  FunctionEvaluator measure(
      [&](const Config &c) { return trueSpeedup(space, c); });
  auto set = [&](Config &c, const char *name, ParamValue value) {
    c[*space.indexOf(name)] = std::move(value);
  };
  // The best schedule, and one the constraints reject (a 64x64 vectorized
  // register tile), which the search maps to a feasible neighbour.
  Config best = space.defaultConfig();
  set(best, "matmul_0.tile.l0", ParamValue::integer(16));
  set(best, "matmul_0.tile.l1", ParamValue::integer(16));
  set(best, "matmul_0.rtile.l0", ParamValue::integer(4));
  set(best, "matmul_0.rtile.l1", ParamValue::integer(16));
  set(best, "matmul_0.vectorize", ParamValue::boolean(true));
  set(best, "matmul_0.parallel", ParamValue::boolean(true));
  ASSERT_TRUE(chain->contains(best));
  Config infeasible = space.defaultConfig();
  set(infeasible, "matmul_0.vectorize", ParamValue::boolean(true));
  ASSERT_FALSE(chain->contains(infeasible));

  SearchProblem problem;
  problem.chain = &*chain;
  problem.tree = &*tree;
  problem.model = &model;
  problem.seeds = {infeasible, best};
  StrategyOptions options;
  options.topK = 3;
  for (const char *name : {"beam", "mcts"}) {
    measure.seen.clear();
    model.seen.clear();
    llvm::Expected<std::unique_ptr<Strategy>> strategy =
        createStrategy(name, problem, options);
    ASSERT_TRUE(bool(strategy)) << llvm::toString(strategy.takeError());
    TuningResult result = runTuningLoop(**strategy, measure, {100, 0}, 2);
    // Two seeds beside the top 3, the seeds first.
    ASSERT_EQ(result.history.size(), 5u) << name;
    EXPECT_TRUE(chain->contains(result.history[0].config)) << name;
    EXPECT_TRUE(get(space, result.history[0].config, "matmul_0.vectorize"))
        << name << ": the repair keeps what it need not change";
    EXPECT_EQ(result.history[1].config, best) << name;
    ASSERT_TRUE(result.best.has_value());
    EXPECT_DOUBLE_EQ(result.best->value, 31.5) << name;
  }
  // `bo` opens its initial design with the seeds, on top of its uniform
  // samples (5 with a budget of 8), then proposes from its model.
  for (bool withModel : {true, false}) {
    measure.seen.clear();
    model.seen.clear();
    SearchProblem bo = problem;
    if (!withModel)
      bo.model = nullptr;
    StrategyOptions boOptions;
    boOptions.budget = 8;
    llvm::Expected<std::unique_ptr<Strategy>> strategy =
        createStrategy("bo", bo, boOptions);
    ASSERT_TRUE(bool(strategy)) << llvm::toString(strategy.takeError());
    TuningResult result = runTuningLoop(**strategy, measure, {8, 0}, 1);
    ASSERT_EQ(result.history.size(), 8u);
    EXPECT_TRUE(chain->contains(result.history[0].config));
    EXPECT_TRUE(get(space, result.history[0].config, "matmul_0.vectorize"));
    EXPECT_EQ(result.history[1].config, best);
    ASSERT_TRUE(result.best.has_value());
    EXPECT_DOUBLE_EQ(result.best->value, 31.5);
    llvm::json::Object stats = (*strategy)->statistics();
    EXPECT_EQ(stats.getInteger("initial_seeds"), std::optional<int64_t>(2));
    EXPECT_EQ(stats.getInteger("initial_samples"), std::optional<int64_t>(5));
    EXPECT_EQ(stats.getInteger("model_proposals"), std::optional<int64_t>(1));
  }
  // Without seeds the design is the 5 samples and the model proposes 3.
  measure.seen.clear();
  model.seen.clear();
  SearchProblem unseeded = problem;
  unseeded.seeds.clear();
  StrategyOptions boOptions;
  boOptions.budget = 8;
  llvm::Expected<std::unique_ptr<Strategy>> plain =
      createStrategy("bo", unseeded, boOptions);
  ASSERT_TRUE(bool(plain)) << llvm::toString(plain.takeError());
  runTuningLoop(**plain, measure, {8, 0}, 1);
  EXPECT_EQ((*plain)->statistics().getInteger("initial_seeds"),
            std::optional<int64_t>(0));
  EXPECT_EQ((*plain)->statistics().getInteger("model_proposals"),
            std::optional<int64_t>(3));
}

TEST(Search, BoOpensWithTheModelsTreeSearchList) {
  // On a program's space with a cost model, bo's initial design is the
  // model's best schedules by tree search, in the order mcts would measure
  // them, and that list joins every candidate pool.
  Space space = matmulSpace();
  llvm::Expected<ChainOfTrees> chain = ChainOfTrees::build(space);
  ASSERT_TRUE(bool(chain));
  llvm::Expected<DecisionTree> tree = DecisionTree::build(space);
  ASSERT_TRUE(bool(tree));
  FunctionEvaluator model(
      [&](const Config &c) { return trueSpeedup(space, c); });
  FunctionEvaluator measure(
      [&](const Config &c) { return trueSpeedup(space, c); });
  MonteCarloOptions search;
  search.topK = 64;
  std::vector<Config> mctsList =
      createMonteCarloTreeSearch(*tree, model, search)->propose(64);
  ASSERT_GE(mctsList.size(), 5u);

  SearchProblem problem;
  problem.chain = &*chain;
  problem.tree = &*tree;
  problem.model = &model;
  auto runBo = [&](std::map<std::string, std::string> settings) {
    measure.seen.clear();
    model.seen.clear();
    StrategyOptions options;
    options.budget = 8;
    options.settings = std::move(settings);
    std::unique_ptr<Strategy> bo =
        cantFail(createStrategy("bo", problem, options));
    TuningResult result = runTuningLoop(*bo, measure, {8, 0}, 1);
    return std::make_pair(std::move(result), bo->statistics());
  };
  auto [result, stats] = runBo({});
  ASSERT_EQ(result.history.size(), 8u);
  // The 5 initial configs are the tree search's first 5 (the model, asked
  // by both, never scored a schedule twice: FunctionEvaluator checks).
  for (size_t i = 0; i < 5; ++i)
    EXPECT_EQ(result.history[i].config, mctsList[i]) << i;
  EXPECT_EQ(stats.getString("initial_design"), std::optional<llvm::StringRef>("model"));
  EXPECT_EQ(stats.getInteger("initial_model_picks"), std::optional<int64_t>(5));
  EXPECT_EQ(stats.getInteger("model_candidates"),
            std::optional<int64_t>(int64_t(mctsList.size())));
  ASSERT_TRUE(result.best.has_value());
  EXPECT_DOUBLE_EQ(result.best->value, 31.5);

  // A uniform design: no model picks, but the model's list is still in
  // the pool its proposals come from.
  // (A pool of 20 uniform samples and no local search, which rarely come
  // near the optimum on their own.)
  std::map<std::string, std::string> smallPool = {
      {"initial-design", "uniform"},
      {"candidates", "20"},
      {"local-search-starts", "0"}};
  auto [uniform, uniformStats] = runBo(smallPool);
  EXPECT_EQ(uniformStats.getString("initial_design"),
            std::optional<llvm::StringRef>("uniform"));
  EXPECT_FALSE(uniformStats.getInteger("initial_model_picks"));
  EXPECT_EQ(uniformStats.getInteger("model_candidates"),
            std::optional<int64_t>(int64_t(mctsList.size())));
  smallPool["model-candidates"] = "0";
  auto [none, noneStats] = runBo(smallPool);
  EXPECT_EQ(noneStats.getInteger("model_candidates"),
            std::optional<int64_t>(0));
  ASSERT_TRUE(uniform.best && none.best);
  EXPECT_DOUBLE_EQ(uniform.best->value, 31.5);
  EXPECT_LT(none.best->value, 31.5);
  // Without a tree (a user's space) the design stays uniform.
  problem.tree = nullptr;
  auto [flat, flatStats] = runBo({});
  EXPECT_EQ(flatStats.getString("initial_design"),
            std::optional<llvm::StringRef>("uniform"));
  EXPECT_FALSE(flatStats.getInteger("model_candidates"));
}

TEST(Search, TheRegistryBuildsEveryStrategyAndSaysWhatIsMissing) {
  Space space = matmulSpace();
  llvm::Expected<ChainOfTrees> chain = ChainOfTrees::build(space);
  ASSERT_TRUE(bool(chain));
  llvm::Expected<DecisionTree> tree = DecisionTree::build(space);
  ASSERT_TRUE(bool(tree));
  SearchProblem program;
  program.chain = &*chain;
  program.tree = &*tree;
  SearchProblem userSpace;
  userSpace.chain = &*chain;
  EXPECT_EQ(strategyNames(), (std::vector<std::string>{
                                 "random", "exhaustive", "beam", "beam-exec",
                                 "mcts", "bo", "evolution", "annealing",
                                 "genetic", "portfolio"}));
  for (const StrategyInfo &info : strategyRegistry()) {
    // A model of its own: each strategy scores the root once.
    FunctionEvaluator model(
        [&](const Config &c) { return trueSpeedup(space, c); });
    program.model = &model;
    llvm::Expected<std::unique_ptr<Strategy>> built =
        createStrategy(info.name, program, {});
    ASSERT_TRUE(bool(built)) << llvm::toString(built.takeError());
    EXPECT_EQ((*built)->getName(), info.name);
    EXPECT_FALSE((*built)->propose(1).empty()) << info.name;
    // A user's space has no decision tree and no model.
    llvm::Expected<std::unique_ptr<Strategy>> plain =
        createStrategy(info.name, userSpace, {});
    EXPECT_EQ(bool(plain), !info.needsTree) << info.name;
    if (!plain)
      EXPECT_NE(llvm::toString(plain.takeError()).find("program"),
                std::string::npos);
  }
  program.model = nullptr;
  SearchProblem noModel = program;
  llvm::Expected<std::unique_ptr<Strategy>> mcts =
      createStrategy("mcts", noModel, {});
  ASSERT_FALSE(bool(mcts));
  EXPECT_NE(llvm::toString(mcts.takeError()).find("needs a cost model"),
            std::string::npos);
  llvm::Expected<std::unique_ptr<Strategy>> unknown =
      createStrategy("simplex", program, {});
  ASSERT_FALSE(bool(unknown));
  EXPECT_EQ(llvm::toString(unknown.takeError()),
            "unknown strategy 'simplex' (known: random, exhaustive, "
            "beam, beam-exec, mcts, bo, evolution, annealing, genetic, "
            "portfolio)");
}

} // namespace
