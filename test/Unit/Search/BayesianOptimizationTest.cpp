//===- BayesianOptimizationTest.cpp - Kernels, GP, forest and bo ----------===//

#include "tuner/Search/BayesianOptimization.h"
#include "tuner/Search/FeasibilityForest.h"
#include "tuner/Search/GaussianProcess.h"
#include "tuner/Search/Strategies.h"

#include "gtest/gtest.h"

#include <cmath>
#include <functional>
#include <set>
#include <tuple>

using namespace tuner;

namespace {

ParamValue::Permutation order(std::initializer_list<int64_t> v) { return v; }

std::vector<ParamValue> integers(std::initializer_list<int64_t> values) {
  std::vector<ParamValue> result;
  for (int64_t v : values)
    result.push_back(ParamValue::integer(v));
  return result;
}

//===----------------------------------------------------------------------===//
// Kernels, against numbers computed by hand
//===----------------------------------------------------------------------===//

TEST(Kernels, Matern52) {
  EXPECT_DOUBLE_EQ(matern52(0), 1);
  // (1 + sqrt5 + 5/3) exp(-sqrt5), (1 + sqrt5/2 + 5/12) exp(-sqrt5/2).
  EXPECT_NEAR(matern52(1), 0.5239941088318203, 1e-14);
  EXPECT_NEAR(matern52(0.5), 0.8286491424181253, 1e-14);
}

TEST(Kernels, PermutationDistances) {
  // BaCO's Figure 3: [1,2,3,4] against [2,4,3,1], from 0.
  std::vector<int64_t> a = {0, 1, 2, 3}, b = {1, 3, 2, 0};
  // Squared displacements 1 + 4 + 0 + 9 = 14 of at most 4 * 15 / 3 = 20.
  EXPECT_DOUBLE_EQ(permutationDistance(PermutationDistance::Spearman, a, b),
                   0.7);
  // Discordant pairs (0,3), (1,2), (1,3), (2,3) of 6.
  EXPECT_DOUBLE_EQ(permutationDistance(PermutationDistance::Kendall, a, b),
                   4.0 / 6.0);
  // Three of four elements moved.
  EXPECT_DOUBLE_EQ(permutationDistance(PermutationDistance::Hamming, a, b),
                   0.75);
  std::vector<int64_t> reversed = {3, 2, 1, 0};
  for (PermutationDistance d :
       {PermutationDistance::Spearman, PermutationDistance::Kendall}) {
    EXPECT_DOUBLE_EQ(permutationDistance(d, a, a), 0);
    EXPECT_DOUBLE_EQ(permutationDistance(d, a, reversed), 1);
  }
  EXPECT_EQ(parsePermutationDistance("kendall"), PermutationDistance::Kendall);
  EXPECT_FALSE(parsePermutationDistance("euclid"));
}

/// A space of every kernel kind: a log-scale ordinal, an integer range, a
/// categorical and a permutation.
struct KernelSpace {
  Space space;
  KernelSpace() {
    cantFail(space.addParameter(
        Parameter::ordinal("tile", integers({1, 2, 4, 8}), true)));
    cantFail(space.addParameter(Parameter::integer("unroll", 0, 10)));
    cantFail(space.addParameter(Parameter::categorical("mode", {"a", "b"})));
    cantFail(space.addParameter(Parameter::permutation("order", 3)));
  }
  Config config(int64_t tile, int64_t unroll, const char *mode,
                ParamValue::Permutation perm) const {
    return Config({ParamValue::integer(tile), ParamValue::integer(unroll),
                   ParamValue::string(mode),
                   ParamValue::permutation(std::move(perm))});
  }
};

TEST(Kernels, EncodingAndDistances) {
  KernelSpace s;
  ConfigEncoding encoding(s.space);
  ASSERT_EQ(encoding.width(), 6u);
  ASSERT_EQ(encoding.parameters(), 4u);
  Eigen::RowVectorXd a = encoding.encode(s.config(2, 5, "a", order({0, 1, 2})));
  Eigen::RowVectorXd b =
      encoding.encode(s.config(8, 10, "b", order({2, 1, 0})));
  // log 2 / log 8 and 5 / 10.
  EXPECT_DOUBLE_EQ(a(0), 1.0 / 3.0);
  EXPECT_DOUBLE_EQ(a(1), 0.5);
  EXPECT_DOUBLE_EQ(a(2), 0);
  EXPECT_DOUBLE_EQ(b(2), 1);
  EXPECT_DOUBLE_EQ(encoding.distance(0, a.data(), b.data()), 2.0 / 3.0);
  EXPECT_DOUBLE_EQ(encoding.distance(1, a.data(), b.data()), 0.5);
  EXPECT_DOUBLE_EQ(encoding.distance(2, a.data(), b.data()), 1);
  EXPECT_DOUBLE_EQ(encoding.distance(3, a.data(), b.data()), 1);
  EXPECT_DOUBLE_EQ(encoding.distance(2, a.data(), a.data()), 0);
}

TEST(Kernels, ProductOfPerParameterKernels) {
  KernelSpace s;
  ConfigEncoding encoding(s.space);
  GaussianProcess process(encoding);
  // Lengthscales 0.5, 1, 2, 1; signal 1.5; noise 1e-4.
  Eigen::VectorXd theta(6);
  theta << std::log(0.5), 0, std::log(2.0), 0, std::log(1.5), std::log(1e-4);
  process.setHyperparameters(theta);
  Eigen::RowVectorXd a = encoding.encode(s.config(2, 5, "a", order({0, 1, 2})));
  Eigen::RowVectorXd b = encoding.encode(s.config(8, 5, "b", order({2, 1, 0})));
  // 1.5 * matern52((2/3) / 0.5) * exp(-1 / 2) * exp(-1 / 1).
  EXPECT_NEAR(process.kernel(a.data(), b.data()), 0.11788742159765311, 1e-14);
  EXPECT_DOUBLE_EQ(process.kernel(a.data(), a.data()), 1.5);
}

//===----------------------------------------------------------------------===//
// The Gaussian process
//===----------------------------------------------------------------------===//

/// One real parameter in [0, 1].
struct LineSpace {
  Space space;
  LineSpace() { cantFail(space.addParameter(Parameter::real("x", 0, 1))); }
};

TEST(GaussianProcess, PosteriorOfTwoPoints) {
  LineSpace s;
  ConfigEncoding encoding(s.space);
  GaussianProcess process(encoding);
  Eigen::VectorXd theta(3);
  theta << 0, 0, std::log(0.01); // l = 1, signal 1, noise 0.01
  process.setHyperparameters(theta);
  Eigen::MatrixXd points(2, 1);
  points << 0, 1;
  Eigen::VectorXd targets(2);
  targets << 1, -1;
  process.setData(points, targets);

  Eigen::MatrixXd query(3, 1);
  query << 0.5, 0, 0.25;
  Eigen::VectorXd mean, variance;
  process.predict(query, mean, variance);
  // By hand: K = [[1.01, m(1)], [m(1), 1.01]], k* = [m(|x|), m(|x - 1|)],
  // mean = k*' K^-1 y, variance = 1 - k*' K^-1 k*.
  EXPECT_NEAR(mean(0), 0, 1e-12);
  EXPECT_NEAR(variance(0), 0.10474310523499364, 1e-12);
  EXPECT_NEAR(mean(1), 0.9794241177283598, 1e-12);
  EXPECT_NEAR(variance(1), 0.009864525939345725, 1e-12);
  EXPECT_NEAR(mean(2), 0.566478980323107, 1e-12);
  EXPECT_NEAR(variance(2), 0.05961433298936991, 1e-12);
}

/// Noisy samples of a smooth function of tile, unroll, mode and order.
struct Dataset {
  KernelSpace s;
  Eigen::MatrixXd points;
  Eigen::VectorXd targets;
  explicit Dataset(const ConfigEncoding &encoding, unsigned n = 24) {
    std::mt19937_64 rng(7);
    std::normal_distribution<double> noise(0, 0.05);
    points.resize(n, encoding.width());
    targets.resize(n);
    const int64_t tiles[] = {1, 2, 4, 8};
    std::vector<ParamValue::Permutation> orders = {
        order({0, 1, 2}), order({1, 0, 2}), order({2, 1, 0})};
    for (unsigned i = 0; i < n; ++i) {
      int64_t tile = tiles[rng() % 4], unroll = int64_t(rng() % 11);
      const char *mode = rng() % 2 ? "a" : "b";
      ParamValue::Permutation perm = orders[rng() % 3];
      points.row(i) = encoding.encode(s.config(tile, unroll, mode, perm));
      targets(i) = std::sin(3 * points(i, 0)) + 0.5 * points(i, 1) -
                   (mode[0] == 'b' ? 0.7 : 0) + 0.3 * double(perm[0]) +
                   noise(rng);
    }
  }
};

TEST(GaussianProcess, GradientMatchesFiniteDifferences) {
  KernelSpace s;
  for (PermutationDistance distance :
       {PermutationDistance::Spearman, PermutationDistance::Kendall,
        PermutationDistance::Hamming}) {
    ConfigEncoding encoding(s.space, distance);
    Dataset data(encoding);
    GaussianProcess process(encoding);
    process.setData(data.points, data.targets);
    Eigen::VectorXd theta(6);
    theta << std::log(0.7), std::log(1.3), std::log(0.4), std::log(2.0),
        std::log(0.8), std::log(0.02);
    Eigen::VectorXd gradient, priorGradient;
    process.logMarginalLikelihood(theta, &gradient);
    process.logPrior(theta, &priorGradient);
    for (int i = 0; i < theta.size(); ++i) {
      Eigen::VectorXd up = theta, down = theta;
      up(i) += 1e-6;
      down(i) -= 1e-6;
      double numeric = (process.logMarginalLikelihood(up) -
                        process.logMarginalLikelihood(down)) /
                       2e-6;
      EXPECT_NEAR(gradient(i), numeric, 1e-4 * std::max(1.0, std::abs(numeric)))
          << "hyperparameter " << i;
      double numericPrior =
          (process.logPrior(up) - process.logPrior(down)) / 2e-6;
      EXPECT_NEAR(priorGradient(i), numericPrior, 1e-5);
    }
  }
}

TEST(GaussianProcess, FitImprovesTheMarginalLikelihood) {
  KernelSpace s;
  ConfigEncoding encoding(s.space);
  Dataset data(encoding);
  GaussianProcess process(encoding);
  process.setData(data.points, data.targets);
  Eigen::VectorXd initial = process.defaultHyperparameters();
  double before =
      process.logMarginalLikelihood(initial) + process.logPrior(initial);
  std::mt19937_64 rng(1);
  Eigen::VectorXd fitted = process.fit(rng);
  double after =
      process.logMarginalLikelihood(fitted) + process.logPrior(fitted);
  EXPECT_GT(after, before + 1);
  EXPECT_GT(process.logMarginalLikelihood(fitted),
            process.logMarginalLikelihood(initial));
  EXPECT_EQ(process.getHyperparameters(), fitted);
  // Deterministic for a seed.
  std::mt19937_64 again(1);
  GaussianProcess other(encoding);
  other.setData(data.points, data.targets);
  EXPECT_EQ(other.fit(again), fitted);
  // The fitted model predicts its (noisy) data closely.
  Eigen::VectorXd mean, variance;
  process.predict(data.points, mean, variance);
  EXPECT_LT((mean - data.targets).cwiseAbs().maxCoeff(), 0.3);
}

//===----------------------------------------------------------------------===//
// Acquisition functions
//===----------------------------------------------------------------------===//

TEST(Acquisition, Formulas) {
  // g = 0.5, sd = 1: 0.5 Phi(0.5) + phi(0.5).
  EXPECT_NEAR(expectedImprovement(1, 1, 0.5, 0), 0.6977965574013061, 1e-12);
  // g = 0.3, sd = 2: 0.3 Phi(0.15) + 2 phi(0.15).
  EXPECT_NEAR(expectedImprovement(1, 2, 0.5, 0.2), 0.9568439695268507, 1e-12);
  EXPECT_NEAR(probabilityOfImprovement(1, 1, 0.5, 0), 0.6914624612740131,
              1e-12);
  EXPECT_DOUBLE_EQ(confidenceBound(1, 2, 0.5), 2);
  // No uncertainty: the plain improvement, or none.
  EXPECT_NEAR(expectedImprovement(1, 0, 0.25, 0), 0.75, 1e-12);
  EXPECT_NEAR(expectedImprovement(0, 0, 0.25, 0), 0, 1e-12);
  EXPECT_EQ(parseAcquisition("advanced-multi"), Acquisition::AdvancedMulti);
  EXPECT_FALSE(parseAcquisition("ucb"));
}

//===----------------------------------------------------------------------===//
// The feasibility forest
//===----------------------------------------------------------------------===//

TEST(FeasibilityForest, ClassifiesASeparableSet) {
  std::mt19937_64 rng(3);
  std::uniform_real_distribution<double> unit(0, 1);
  Eigen::MatrixXd points(60, 3);
  std::vector<bool> feasible(60);
  for (int i = 0; i < 60; ++i) {
    for (int j = 0; j < 3; ++j)
      points(i, j) = unit(rng);
    feasible[i] = points(i, 1) < 0.5; // only the second feature matters
  }
  for (bool bootstrap : {false, true}) {
    FeasibilityForestOptions options;
    options.bootstrap = bootstrap;
    FeasibilityForest forest(options);
    EXPECT_DOUBLE_EQ(forest.probability(Eigen::RowVectorXd::Zero(3)), 1);
    forest.train(points, feasible, 11);
    ASSERT_TRUE(forest.trained());
    Eigen::RowVectorXd inside(3), outside(3);
    inside << 0.5, 0.2, 0.9;
    outside << 0.5, 0.8, 0.1;
    EXPECT_GT(forest.probability(inside), 0.9);
    EXPECT_LT(forest.probability(outside), 0.1);
    int errors = 0;
    for (int i = 0; i < 60; ++i)
      errors += (forest.probability(Eigen::RowVectorXd(points.row(i))) >=
                 0.5) != feasible[i];
    EXPECT_EQ(errors, 0);
    // Seeded.
    FeasibilityForest again(options);
    again.train(points, feasible, 11);
    EXPECT_EQ(again.probability(Eigen::RowVectorXd::Constant(3, 0.5)),
              forest.probability(Eigen::RowVectorXd::Constant(3, 0.5)));
  }
}

//===----------------------------------------------------------------------===//
// The strategy
//===----------------------------------------------------------------------===//

/// tile (log ordinal) x unroll (integer) x vec x order, tile * unroll <= 64:
/// speedup exp(-0.3 (log2 tile - 3)^2 - 0.1 (unroll - 3)^2 - 0.6 [!vec] -
/// 0.8 spearman(order, [2, 0, 1])), every config with unroll >= 6 crashes.
/// The small variant (tile 1..4, unroll 5..6: 72 configs) is for runs to
/// exhaustion.
struct Problem {
  Space space;
  std::optional<ChainOfTrees> chain;
  explicit Problem(bool small = false) {
    cantFail(space.addParameter(Parameter::ordinal(
        "tile",
        small ? integers({1, 2, 4}) : integers({1, 2, 4, 8, 16, 32, 64}),
        true)));
    cantFail(space.addParameter(
        Parameter::integer("unroll", small ? 5 : 1, small ? 6 : 8)));
    cantFail(space.addParameter(Parameter::boolean("vec")));
    cantFail(space.addParameter(Parameter::permutation("order", 3)));
    cantFail(space.addConstraint("tile * unroll <= 64"));
    chain = cantFail(ChainOfTrees::build(space));
  }
  static double speedup(const Config &config) {
    double tile = std::log2(double(config[0].getInteger()));
    double unroll = double(config[1].getInteger());
    double penalty =
        0.3 * (tile - 3) * (tile - 3) + 0.1 * (unroll - 3) * (unroll - 3) +
        (config[2].getBoolean() ? 0 : 0.6) +
        0.8 * permutationDistance(PermutationDistance::Spearman,
                                  config[3].getPermutation(), {2, 0, 1});
    return std::exp(-penalty);
  }
  static bool fails(const Config &config) {
    return config[1].getInteger() >= 6;
  }
  SearchProblem problem(Evaluator *model = nullptr) const {
    SearchProblem p;
    p.chain = &*chain;
    p.model = model;
    return p;
  }
};

class FunctionEvaluator : public Evaluator {
public:
  std::vector<Observation> evaluate(llvm::ArrayRef<Config> configs) override {
    std::vector<Observation> result;
    for (const Config &config : configs) {
      if (Problem::fails(config)) {
        result.push_back(
            Observation::failure(config, Status::Crashed, "unroll >= 6"));
        continue;
      }
      Observation observation;
      observation.config = config;
      observation.value = Problem::speedup(config);
      observation.objective = observation.value;
      result.push_back(observation);
    }
    return result;
  }
};

/// A cost model that knows the speedup exactly, scoring in batches.
class PerfectModel : public Evaluator {
public:
  std::vector<Observation> evaluate(llvm::ArrayRef<Config> configs) override {
    ++batches;
    scored += configs.size();
    std::vector<Observation> result;
    for (const Config &config : configs) {
      Observation observation;
      observation.config = config;
      observation.value = Problem::speedup(config);
      result.push_back(observation);
    }
    return result;
  }
  size_t batches = 0, scored = 0;
};

std::unique_ptr<Strategy>
makeBo(const SearchProblem &problem, uint64_t seed,
       std::map<std::string, std::string> settings = {}) {
  StrategyOptions options;
  options.seed = seed;
  options.settings = std::move(settings);
  return cantFail(createStrategy("bo", problem, options));
}

TEST(BayesianOptimization, SameSeedSameProposals) {
  Problem p;
  auto run = [&](uint64_t seed, std::map<std::string, std::string> s) {
    std::unique_ptr<Strategy> bo = makeBo(p.problem(), seed, s);
    FunctionEvaluator evaluator;
    TuningResult result = runTuningLoop(*bo, evaluator, {24, 0}, 2);
    std::vector<Config> configs;
    for (const Observation &o : result.history)
      configs.push_back(o.config);
    return configs;
  };
  for (auto settings : std::vector<std::map<std::string, std::string>>{
           {},
           {{"candidates", "32"}},
           {{"acquisition", "advanced-multi"}},
           {{"trust-region", "true"}, {"candidates", "32"}}}) {
    std::vector<Config> first = run(5, settings), second = run(5, settings);
    ASSERT_EQ(first.size(), 24u);
    EXPECT_EQ(first, second);
    EXPECT_NE(first, run(6, settings));
  }
}

TEST(BayesianOptimization, NeverInfeasibleNeverTwice) {
  Problem large, small(true);
  size_t size = small.chain->count().getZExtValue();
  ASSERT_EQ(size, 72u);
  // Budgets within the space with local search (few candidates per
  // proposal) and batches, then a small space (scored whole) to exhaustion.
  for (auto [settings, budget, batch] : std::vector<
           std::tuple<std::map<std::string, std::string>, size_t, size_t>>{
           {{{"candidates", "16"}}, 40, 4},
           {{{"acquisition", "multi"}, {"candidates", "16"}}, 40, 1},
           {{}, size + 10, 8},
           {{{"candidates", "8"}}, size + 10, 3},
           {{{"trust-region", "true"}}, size + 10, 2}}) {
    Problem &p = budget > size ? small : large;
    std::unique_ptr<Strategy> bo = makeBo(p.problem(), 2, settings);
    FunctionEvaluator evaluator;
    TuningResult result = runTuningLoop(*bo, evaluator, {budget, 0}, batch);
    std::set<Config> distinct;
    for (const Observation &o : result.history) {
      EXPECT_TRUE(p.chain->contains(o.config));
      EXPECT_TRUE(distinct.insert(o.config).second) << "proposed twice";
    }
    EXPECT_EQ(result.history.size(),
              std::min<size_t>(budget, p.chain->count().getZExtValue()));
  }
}

TEST(BayesianOptimization, FindsTheOptimumAndAvoidsTheFailingRegion) {
  Problem p;
  double optimum = 0;
  size_t failing = 0, size = p.chain->count().getZExtValue();
  for (size_t i = 0; i < size; ++i) {
    Config config = p.chain->at(llvm::APInt(64, i));
    failing += Problem::fails(config);
    if (!Problem::fails(config))
      optimum = std::max(optimum, Problem::speedup(config));
  }
  std::unique_ptr<Strategy> bo = makeBo(p.problem(), 1);
  FunctionEvaluator evaluator;
  TuningResult result = runTuningLoop(*bo, evaluator, {40, 0});
  ASSERT_TRUE(result.best);
  EXPECT_DOUBLE_EQ(result.best->value, optimum);
  size_t failed = llvm::count_if(result.history,
                                 [](const Observation &o) { return !o.ok(); });
  // Random search would fail on failing/size of its proposals.
  EXPECT_LT(double(failed), 40.0 * double(failing) / double(size));
  llvm::json::Object stats = bo->statistics();
  EXPECT_EQ(stats.getString("acquisition"), "ei");
  EXPECT_EQ(stats.getInteger("initial_samples"), 5);
  EXPECT_GT(*stats.getInteger("steered_from_predicted_failures"), 0);
}

TEST(BayesianOptimization, ModelPriorLeadsToTheOptimum) {
  Problem p;
  Config best;
  double optimum = 0;
  for (size_t i = 0, e = p.chain->count().getZExtValue(); i < e; ++i) {
    Config config = p.chain->at(llvm::APInt(64, i));
    if (!Problem::fails(config) && Problem::speedup(config) > optimum) {
      optimum = Problem::speedup(config);
      best = config;
    }
  }
  PerfectModel model;
  std::unique_ptr<Strategy> bo = makeBo(p.problem(&model), 1);
  FunctionEvaluator evaluator;
  TuningResult result = runTuningLoop(*bo, evaluator, {6, 0});
  // The initial design, then straight to where the exact model points.
  ASSERT_EQ(result.history.size(), 6u);
  EXPECT_EQ(result.history.back().config, best);
  EXPECT_EQ(bo->statistics().getBoolean("model_prior"), true);
  // Scored in batches, not one call per candidate.
  EXPECT_GT(model.scored, 10 * model.batches);

  // Without the prior the model is never asked.
  PerfectModel unused;
  std::unique_ptr<Strategy> plain =
      makeBo(p.problem(&unused), 1, {{"model-prior", "false"}});
  runTuningLoop(*plain, evaluator, {8, 0});
  EXPECT_EQ(unused.batches, 0u);
}

/// A cost model that ranks every config backwards: its predicted log
/// speedup is the negated true one.
class BackwardModel : public Evaluator {
public:
  std::vector<Observation> evaluate(llvm::ArrayRef<Config> configs) override {
    std::vector<Observation> result;
    for (const Config &config : configs) {
      Observation observation;
      observation.config = config;
      observation.value = 1 / Problem::speedup(config);
      result.push_back(observation);
    }
    return result;
  }
};

TEST(BayesianOptimization, LearnedPriorWeightDiscountsABackwardModel) {
  Problem p;
  double optimum = 0;
  for (size_t i = 0, e = p.chain->count().getZExtValue(); i < e; ++i) {
    Config config = p.chain->at(llvm::APInt(64, i));
    if (!Problem::fails(config))
      optimum = std::max(optimum, Problem::speedup(config));
  }
  FunctionEvaluator evaluator;
  // An exact model keeps its weight near 1 ...
  PerfectModel perfect;
  std::unique_ptr<Strategy> trusting =
      makeBo(p.problem(&perfect), 1, {{"prior-weight", "learned"}});
  runTuningLoop(*trusting, evaluator, {12, 0});
  std::optional<double> weight =
      trusting->statistics().getNumber("prior_weight");
  ASSERT_TRUE(weight);
  EXPECT_NEAR(*weight, 1.0, 0.05);
  // ... a backward one is discounted to 0 and the search still finds the
  // optimum; with the fixed weight the statistic is absent.
  BackwardModel backward;
  std::unique_ptr<Strategy> learned =
      makeBo(p.problem(&backward), 1, {{"prior-weight", "learned"}});
  TuningResult withLearned = runTuningLoop(*learned, evaluator, {40, 0});
  weight = learned->statistics().getNumber("prior_weight");
  ASSERT_TRUE(weight);
  EXPECT_LT(*weight, 0.1);
  ASSERT_TRUE(withLearned.best);
  EXPECT_DOUBLE_EQ(withLearned.best->value, optimum);
  std::unique_ptr<Strategy> fixed = makeBo(p.problem(&backward), 1);
  TuningResult withFixed = runTuningLoop(*fixed, evaluator, {40, 0});
  EXPECT_FALSE(fixed->statistics().getNumber("prior_weight"));
}

TEST(BayesianOptimization, MixedInitialDesignTakesTheModelsPicks) {
  Problem p;
  // The space is small enough to be ranked whole: with an exact model the
  // second initial config is the optimum, the fourth the runner-up.
  // Ranked by speedup, ties in the chain's order (a plain sort with the
  // index as tie-break: stable_sort's buffer is deprecated in libstdc++ 12).
  std::vector<std::tuple<double, size_t, Config>> ranked;
  for (size_t i = 0, e = p.chain->count().getZExtValue(); i < e; ++i) {
    Config config = p.chain->at(llvm::APInt(64, i));
    ranked.push_back({Problem::speedup(config), i, config});
  }
  std::sort(ranked.begin(), ranked.end(), [](const auto &a, const auto &b) {
    if (std::get<0>(a) != std::get<0>(b))
      return std::get<0>(a) > std::get<0>(b);
    return std::get<1>(a) < std::get<1>(b);
  });
  PerfectModel model;
  std::unique_ptr<Strategy> bo =
      makeBo(p.problem(&model), 1, {{"initial-design", "mixed"}});
  FunctionEvaluator evaluator;
  TuningResult result = runTuningLoop(*bo, evaluator, {5, 0});
  ASSERT_EQ(result.history.size(), 5u);
  EXPECT_EQ(result.history[1].config, std::get<2>(ranked[0]));
  EXPECT_EQ(result.history[3].config, std::get<2>(ranked[1]));
  EXPECT_EQ(bo->statistics().getInteger("initial_model_picks"), 2);
  // Without a model the design stays uniform.
  std::unique_ptr<Strategy> plain =
      makeBo(p.problem(), 1, {{"initial-design", "mixed"}});
  runTuningLoop(*plain, evaluator, {5, 0});
  EXPECT_EQ(plain->statistics().getInteger("initial_model_picks"), 0);
}

TEST(BayesianOptimization, TrustRegionStaysNearTheBest) {
  // Model proposals that differ from the best config observed before them
  // in more parameters than the trust region's radius at the time (2 of 4
  // for plain BO): none with the region, some without it.
  Problem p;
  auto farProposals = [&](std::map<std::string, std::string> settings,
                          size_t *restarts) {
    std::unique_ptr<Strategy> bo = makeBo(p.problem(), 3, settings);
    FunctionEvaluator evaluator;
    std::optional<Config> best;
    double bestValue = 0;
    size_t far = 0;
    for (size_t step = 0; step < 30; ++step) {
      std::optional<int64_t> radius =
          bo->statistics().getInteger("trust_region_radius");
      std::vector<Config> next = bo->propose(1);
      EXPECT_EQ(next.size(), 1u);
      if (next.empty())
        break;
      std::optional<int64_t> after =
          bo->statistics().getInteger("trust_region_radius");
      std::vector<Observation> observed = evaluator.evaluate(next);
      // A proposal that opened the region (nothing unseen was left in it)
      // may go anywhere.
      if (step >= 5 && best && radius == after) {
        int64_t differ = 0;
        for (size_t i = 0; i < p.space.size(); ++i)
          differ += !(next[0][i] == (*best)[i]);
        far += differ > radius.value_or(2) && radius.value_or(2) < 4;
      }
      if (observed[0].ok() && observed[0].value > bestValue) {
        bestValue = observed[0].value;
        best = observed[0].config;
      }
      bo->observe(observed);
    }
    if (restarts)
      *restarts = size_t(
          bo->statistics().getInteger("trust_region_restarts").value_or(0));
    return far;
  };
  size_t restarts = 0;
  EXPECT_GT(farProposals({}, nullptr), 0u);
  EXPECT_EQ(farProposals({{"trust-region", "true"}}, &restarts), 0u);
  // The failing region (unroll >= 6) keeps shrinking it to nothing, and
  // each time it opens again.
  EXPECT_GT(restarts, 0u);
}

TEST(BayesianOptimization, PortfoliosNarrowDown) {
  // Kernel Tuner's portfolios start with ei, poi and lcb and drop the
  // functions that keep repeating another's proposals (multi) or whose
  // observations stay worse than the mean (advanced-multi).
  Problem p;
  for (const char *acquisition : {"multi", "advanced-multi"}) {
    std::unique_ptr<Strategy> bo =
        makeBo(p.problem(), 1, {{"acquisition", acquisition}});
    FunctionEvaluator evaluator;
    EXPECT_EQ(bo->statistics().getArray("acquisitions_in_play")->size(), 3u);
    TuningResult result = runTuningLoop(*bo, evaluator, {80, 0});
    EXPECT_EQ(result.history.size(), 80u);
    EXPECT_LT(bo->statistics().getArray("acquisitions_in_play")->size(), 3u)
        << acquisition;
  }
}

TEST(BayesianOptimization, Settings) {
  Problem p;
  auto error = [&](std::map<std::string, std::string> settings) {
    StrategyOptions options;
    options.settings = std::move(settings);
    llvm::Expected<std::unique_ptr<Strategy>> strategy =
        createStrategy("bo", p.problem(), options);
    return strategy ? std::string() : llvm::toString(strategy.takeError());
  };
  EXPECT_EQ(error({{"acquisition", "lcb"}, {"exploration", "0.5"}}), "");
  EXPECT_EQ(error({{"exploration", "cv"},
                   {"permutation-distance", "kendall"},
                   {"initial", "3"},
                   {"discount", "1"}}),
            "");
  EXPECT_EQ(error({{"acqusition", "ei"}}),
            "strategy 'bo' has no setting 'acqusition' (known: initial, "
            "acquisition, exploration, permutation-distance, "
            "feasibility-model, feasibility-threshold, model-prior, "
            "initial-design, model-candidates, model-search-iterations, "
            "prior-weight, trust-region, candidates, local-search-starts, "
            "skip-threshold, discount, required-improvement)");
  EXPECT_EQ(error({{"initial-design", "sobol"}}),
            "strategy 'bo': setting 'initial-design=sobol': expected one of "
            "uniform, mixed, model");
  EXPECT_EQ(error({{"model-search-iterations", "0"}}),
            "strategy 'bo': setting 'model-search-iterations=0': expected an "
            "integer in [1, 1000000]");
  EXPECT_EQ(error({{"model-candidates", "0"}, {"initial-design", "model"}}),
            "");
  EXPECT_EQ(error({{"prior-weight", "half"}}),
            "strategy 'bo': setting 'prior-weight=half': expected fixed or "
            "learned");
  EXPECT_EQ(error({{"acquisition", "ucb"}}),
            "strategy 'bo': setting 'acquisition=ucb': expected one of ei, "
            "poi, lcb, multi, advanced-multi");
  EXPECT_EQ(error({{"initial", "many"}}),
            "strategy 'bo': setting 'initial=many': expected an integer in "
            "[1, 1000000]");
  EXPECT_EQ(error({{"feasibility-threshold", "1.5"}}),
            "strategy 'bo': setting 'feasibility-threshold=1.5': expected a "
            "number in [0, 1]");
  EXPECT_EQ(error({{"exploration", "-1"}}),
            "strategy 'bo': setting 'exploration=-1': expected a number in "
            "[0, 100], cv or auto");
  EXPECT_EQ(error({{"model-prior", "yes"}}),
            "strategy 'bo': setting 'model-prior=yes': expected true or "
            "false");
  EXPECT_EQ(error({{"discount", "0"}}),
            "strategy 'bo': setting 'discount=0': expected a number in "
            "(0, 1]");

  // Other strategies take no settings.
  StrategyOptions options;
  options.settings = {{"initial", "3"}};
  llvm::Expected<std::unique_ptr<Strategy>> random =
      createStrategy("random", p.problem(), options);
  ASSERT_FALSE(random);
  EXPECT_EQ(llvm::toString(random.takeError()),
            "strategy 'random' has no settings (got 'initial')");
}

TEST(StrategySettings, Parse) {
  std::map<std::string, std::string> settings;
  EXPECT_FALSE(
      bool(parseStrategySettings("acquisition=ei, initial=4", settings)));
  EXPECT_EQ(settings, (std::map<std::string, std::string>{{"acquisition", "ei"},
                                                          {"initial", "4"}}));
  EXPECT_FALSE(bool(parseStrategySettings("", settings)));
  EXPECT_EQ(llvm::toString(parseStrategySetting("initial", settings)),
            "strategy setting 'initial' is not of the form key=value");
  EXPECT_EQ(llvm::toString(parseStrategySetting("=3", settings)),
            "strategy setting '=3' has no key before '='");
  EXPECT_EQ(llvm::toString(parseStrategySetting("initial=5", settings)),
            "strategy setting 'initial' is given twice");
}

} // namespace
