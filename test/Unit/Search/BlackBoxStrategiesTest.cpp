//===- BlackBoxStrategiesTest.cpp - evolution, annealing, genetic, portfolio =//

#include "tuner/Search/Strategies.h"

#include "llvm/ADT/StringExtras.h"

#include "gtest/gtest.h"

#include <cmath>
#include <functional>
#include <set>

using namespace tuner;

namespace {

const char *const kStrategies[] = {"evolution", "annealing", "genetic",
                                   "portfolio"};

/// The settings the tests run a strategy with: the portfolio without bo,
/// whose model fits would make the tests slow (BuildsItsMembersFromTheRegistry
/// runs it with bo).
std::map<std::string, std::string> testSettings(llvm::StringRef name) {
  if (name == "portfolio")
    return {{"members", "random,evolution,annealing,genetic"}};
  return {};
}

/// Tile sizes, an unroll factor, a mode and a loop order under one
/// constraint: 9792 feasible configs.
struct Synthetic {
  Space space;
  std::optional<ChainOfTrees> chain;
  Synthetic() {
    std::vector<ParamValue> tx, ty;
    for (int64_t v : {1, 2, 4, 8, 16, 32, 64})
      tx.push_back(ParamValue::integer(v));
    for (int64_t v : {1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48})
      ty.push_back(ParamValue::integer(v));
    cantFail(space.addParameter(Parameter::ordinal("tx", tx, true)));
    cantFail(space.addParameter(Parameter::ordinal("ty", ty, true)));
    cantFail(space.addParameter(Parameter::integer("unroll", 1, 8)));
    cantFail(
        space.addParameter(Parameter::categorical("mode", {"a", "b", "c"})));
    cantFail(space.addParameter(Parameter::permutation("order", 3)));
    cantFail(space.addConstraint("tx * ty <= 512"));
    chain = cantFail(ChainOfTrees::build(space));
  }

  /// A smooth speedup, best (8) at tx 16, ty 8, unroll 5, mode b, order
  /// (1, 0, 2); unroll 1 fails.
  double speedup(const Config &c) const {
    double x = std::log2(double(c[0].getInteger())) - 4;
    double y = std::log2(double(c[1].getInteger())) - 3;
    double u = double(c[2].getInteger()) - 5;
    if (c[2].getInteger() == 1)
      return 0;
    double s = 8 * std::exp(-(x * x + y * y) / 4 - u * u / 8);
    if (c[3].getString() != "b")
      s *= 0.8;
    const ParamValue::Permutation &order = c[4].getPermutation();
    if (order[0] != 1)
      s *= 0.9;
    if (order[1] != 0)
      s *= 0.9;
    return s;
  }
  static constexpr double kOptimum = 8;
};

/// Scores configs with a function (a failure where it is not positive,
/// negated when `minimize`, as a time would be); checks that no config is
/// evaluated twice and that every config is feasible.
class CheckingEvaluator : public Evaluator {
public:
  CheckingEvaluator(const ChainOfTrees &chain,
                    std::function<double(const Config &)> f,
                    bool minimize = false)
      : chain(chain), f(std::move(f)), minimize(minimize) {}
  std::vector<Observation> evaluate(llvm::ArrayRef<Config> configs) override {
    std::vector<Observation> result;
    for (const Config &config : configs) {
      EXPECT_TRUE(seen.insert(config.hash()).second)
          << "a config was evaluated twice";
      EXPECT_TRUE(chain.contains(config)) << "an infeasible config";
      Observation o;
      o.config = config;
      double value = f(config);
      if (value <= 0) {
        o.status = Status::Crashed;
      } else {
        // A time of 1 / speedup, minimized: the value is its negation.
        o.objective = minimize ? 1 / value : value;
        o.value = minimize ? -o.objective : value;
      }
      result.push_back(o);
    }
    return result;
  }
  const ChainOfTrees &chain;
  std::function<double(const Config &)> f;
  bool minimize;
  std::set<uint64_t> seen;
};

std::unique_ptr<Strategy>
build(llvm::StringRef name, const ChainOfTrees &chain, uint64_t seed,
      std::map<std::string, std::string> settings = {}) {
  SearchProblem problem;
  problem.chain = &chain;
  StrategyOptions options;
  options.seed = seed;
  options.settings = std::move(settings);
  llvm::Expected<std::unique_ptr<Strategy>> strategy =
      createStrategy(name, problem, options);
  EXPECT_TRUE(bool(strategy)) << llvm::toString(strategy.takeError());
  return strategy ? std::move(*strategy) : nullptr;
}

struct Outcome {
  std::vector<uint64_t> hashes;
  double best = 0;
};

Outcome run(llvm::StringRef name, const Synthetic &s, uint64_t seed,
            size_t budget, size_t batch = 1, bool minimize = false,
            std::map<std::string, std::string> settings = {}) {
  if (settings.empty())
    settings = testSettings(name);
  std::unique_ptr<Strategy> strategy =
      build(name, *s.chain, seed, std::move(settings));
  CheckingEvaluator evaluator(
      *s.chain, [&](const Config &c) { return s.speedup(c); }, minimize);
  TuningResult result = runTuningLoop(*strategy, evaluator, {budget, 0}, batch);
  Outcome r;
  for (const Observation &o : result.history)
    r.hashes.push_back(o.config.hash());
  if (result.best)
    r.best = minimize ? 1 / result.best->objective : result.best->value;
  return r;
}

TEST(BlackBoxStrategies, AreRegistered) {
  std::vector<std::string> names = strategyNames();
  for (const char *name : kStrategies)
    EXPECT_TRUE(llvm::is_contained(names, name)) << name;
}

TEST(BlackBoxStrategies, NeverRepeatNorLeaveTheSpaceAndAreReproducible) {
  Synthetic s;
  for (const char *name : kStrategies)
    for (size_t batch : {1, 5}) {
      SCOPED_TRACE(std::string(name) + " batch " + std::to_string(batch));
      Outcome a = run(name, s, 7, 300, batch), b = run(name, s, 7, 300, batch),
              c = run(name, s, 8, 300, batch);
      EXPECT_EQ(a.hashes.size(), 300u);
      EXPECT_EQ(a.hashes, b.hashes);
      EXPECT_NE(a.hashes, c.hashes);
      EXPECT_EQ(std::set<uint64_t>(a.hashes.begin(), a.hashes.end()).size(),
                a.hashes.size());
    }
}

/// Every crossover, Kernel Tuner's annealing defaults, walks that never
/// stop early or never start, portfolios of two: the same guarantees.
TEST(BlackBoxStrategies, SettingsKeepTheGuarantees) {
  Synthetic s;
  const std::pair<const char *, std::map<std::string, std::string>> variants[] =
      {
          {"genetic", {{"crossover", "single-point"}}},
          {"genetic", {{"crossover", "two-point"}, {"population", "4"}}},
          {"genetic",
           {{"crossover", "disruptive-uniform"}, {"mutation-chance", "1"}}},
          {"annealing", {{"starts", "1"}, {"temperature", "1"}}},
          {"annealing", {{"schedule", "10"}, {"max-stuck", "1"}}},
          {"evolution", {{"q", "0"}, {"population", "2"}}},
          {"evolution", {{"q", "1"}}},
          {"evolution", {{"restart", "10"}, {"population", "4"}}},
          {"portfolio",
           {{"members", "annealing,genetic"}, {"genetic.population", "4"}}},
      };
  for (const auto &[name, settings] : variants) {
    SCOPED_TRACE(name);
    Outcome a = run(name, s, 11, 200, 3, false, settings);
    Outcome b = run(name, s, 11, 200, 3, false, settings);
    EXPECT_EQ(a.hashes.size(), 200u);
    EXPECT_EQ(a.hashes, b.hashes);
    EXPECT_GT(a.best, 4.0);
  }
}

TEST(BlackBoxStrategies, ExhaustATinySpaceWithoutRepeating) {
  Space space;
  cantFail(space.addParameter(Parameter::integer("a", 0, 4)));
  cantFail(space.addParameter(Parameter::boolean("b")));
  cantFail(space.addConstraint("a != 2"));
  ChainOfTrees chain = cantFail(ChainOfTrees::build(space));
  for (const char *name : kStrategies) {
    SCOPED_TRACE(name);
    std::unique_ptr<Strategy> strategy =
        build(name, chain, 3, testSettings(name));
    CheckingEvaluator evaluator(chain, [](const Config &c) {
      return 1.0 + c[0].getInteger() + c[1].getBoolean();
    });
    TuningResult result = runTuningLoop(*strategy, evaluator, {100, 0}, 3);
    EXPECT_EQ(result.history.size(), 8u);
    ASSERT_TRUE(result.best);
    EXPECT_EQ(result.best->value, 6);
  }
}

/// On the smooth synthetic objective, each strategy finds the optimum
/// within 150 evaluations (of 9792 configs) in more of 12 seeds than
/// random search does (none when this was written; evolution 8, annealing
/// and genetic 12, portfolio 10), whether the values are speedups or negated
/// times.
TEST(BlackBoxStrategies, FindTheOptimumMoreOftenThanRandom) {
  Synthetic s;
  const size_t budget = 150;
  for (bool minimize : {false, true}) {
    auto successes = [&](const char *name) {
      int found = 0;
      for (uint64_t seed = 1; seed <= 12; ++seed)
        found += run(name, s, seed, budget, 1, minimize).best >=
                 Synthetic::kOptimum - 1e-9;
      return found;
    };
    int random = successes("random");
    for (const char *name : kStrategies) {
      int found = successes(name);
      SCOPED_TRACE(std::string(name) + (minimize ? " minimizing" : ""));
      EXPECT_GT(found, random);
      EXPECT_GE(found, 6) << "random found it " << random << " times";
    }
  }
}

TEST(BlackBoxStrategies, BadSettingsAreErrors) {
  Synthetic s;
  SearchProblem problem;
  problem.chain = &*s.chain;
  auto error = [&](llvm::StringRef name,
                   std::map<std::string, std::string> settings) {
    StrategyOptions options;
    options.settings = std::move(settings);
    llvm::Expected<std::unique_ptr<Strategy>> strategy =
        createStrategy(name, problem, options);
    return strategy ? std::string("no error")
                    : llvm::toString(strategy.takeError());
  };
  EXPECT_EQ(error("evolution", {{"q", "1.5"}}),
            "strategy 'evolution': setting 'q' must be a number in [0, 1], "
            "not '1.5'");
  EXPECT_EQ(error("evolution", {{"population", "many"}}),
            "strategy 'evolution': setting 'population' must be an integer "
            "from 2 to 100000, not 'many'");
  EXPECT_EQ(error("evolution", {{"popsize", "4"}}),
            "strategy 'evolution' has no setting 'popsize' (known: "
            "population, q, restart)");
  EXPECT_EQ(error("annealing", {{"alpha", "1"}}),
            "strategy 'annealing': setting 'alpha' must be a number in (0, "
            "1), not '1'");
  EXPECT_EQ(
      error("annealing", {{"temperature", "0.01"}, {"min-temperature", "0.1"}}),
      "strategy 'annealing': setting 'min-temperature' (0.1) must be "
      "below 'temperature' (0.01)");
  EXPECT_EQ(error("annealing", {{"starts", "0"}}),
            "strategy 'annealing': setting 'starts' must be an integer from "
            "1 to 1000000, not '0'");
  EXPECT_EQ(error("annealing", {{"temperature", "nan"}}),
            "strategy 'annealing': setting 'temperature' must be a number in "
            "(0, 1e+09], not 'nan'");
  EXPECT_EQ(error("genetic", {{"crossover", "three-point"}}),
            "strategy 'genetic': setting 'crossover' must be one of uniform, "
            "single-point, two-point, disruptive-uniform, not 'three-point'");
  EXPECT_EQ(error("genetic", {{"mutation-chance", "0"}}),
            "strategy 'genetic': setting 'mutation-chance' must be an "
            "integer from 1 to 1000000, not '0'");
  EXPECT_EQ(error("portfolio", {{"members", "random,simplex"}}),
            "strategy 'portfolio': member 'simplex': unknown strategy "
            "'simplex' (known: " +
                llvm::join(strategyNames(), ", ") + ")");
  EXPECT_EQ(error("portfolio", {{"members", "random,portfolio"}}),
            "strategy 'portfolio': a portfolio cannot be a member of itself");
  EXPECT_EQ(error("portfolio", {{"members", "random,random"}}),
            "strategy 'portfolio': member 'random' is listed twice");
  EXPECT_EQ(error("portfolio", {{"members", "random, mcts"}}),
            "strategy 'portfolio': member 'mcts': strategy 'mcts' walks the "
            "schedules of a program (an MLIR function's space), which this "
            "space is not; use random or exhaustive");
  // A member's own settings go to it, prefixed with its name.
  EXPECT_EQ(error("portfolio", {{"evolution.q", "2"}}),
            "strategy 'portfolio': member 'evolution': strategy 'evolution': "
            "setting 'q' must be a number in [0, 1], not '2'");
  EXPECT_EQ(
      error("portfolio", {{"members", "random"}, {"genetic.population", "4"}}),
      "strategy 'portfolio' has no setting 'genetic.population' "
      "(known: exploration, members, window)");
  EXPECT_EQ(error("portfolio", {{"members", "random,evolution"},
                                {"evolution.q", "0.2"},
                                {"window", "50"}}),
            "no error");
}

/// Proposes its configs in order; counts how many of them were evaluated
/// (it observes every result of the portfolio).
class Scripted : public Strategy {
public:
  Scripted(std::vector<Config> configs, size_t *used)
      : configs(std::move(configs)), used(used) {}
  llvm::StringRef getName() const override { return "scripted"; }
  std::vector<Config> propose(size_t count) override {
    std::vector<Config> result;
    while (result.size() < count && next < configs.size()) {
      mine.insert(configs[next].hash());
      result.push_back(configs[next++]);
    }
    return result;
  }
  void observe(llvm::ArrayRef<Observation> observations) override {
    for (const Observation &o : observations) {
      ++observed;
      *used += mine.count(o.config.hash());
    }
  }
  std::vector<Config> configs;
  size_t next = 0;
  size_t *used;
  std::set<uint64_t> mine;
  size_t observed = 0;
};

TEST(Portfolio, GivesMoreEvaluationsToTheMemberThatEarnsMore) {
  Space space;
  cantFail(space.addParameter(Parameter::integer("x", 0, 199)));
  ChainOfTrees chain = cantFail(ChainOfTrees::build(space));
  auto config = [&](int64_t x) {
    Config c = space.defaultConfig();
    c[0] = ParamValue::integer(x);
    return c;
  };
  // The value grows with x below 100 and is tiny from 100: the climber's
  // configs (0, 1, 2, ...) are each a new best, the other's (100, 101, ...)
  // never.
  std::vector<Config> up, down;
  for (int64_t x = 0; x < 100; ++x) {
    up.push_back(config(x));
    down.push_back(config(100 + x));
  }
  size_t climber = 0, loser = 0;
  std::vector<PortfolioMember> members;
  members.push_back({"loser", std::make_unique<Scripted>(down, &loser)});
  members.push_back({"climber", std::make_unique<Scripted>(up, &climber)});
  auto *loserMember = static_cast<Scripted *>(members[0].strategy.get());
  PortfolioOptions options;
  options.seed = 5;
  std::unique_ptr<Strategy> portfolio =
      createPortfolio(std::move(members), options);
  CheckingEvaluator evaluator(chain, [](const Config &c) {
    int64_t x = c[0].getInteger();
    return x < 100 ? 1.0 + x : 1.0 / x;
  });
  // Values 1 + x for the climber, below 0.01 for the loser: the loser's
  // first config may be a best once, never again.
  TuningResult result = runTuningLoop(*portfolio, evaluator, {60, 0});
  EXPECT_EQ(result.history.size(), 60u);
  EXPECT_EQ(climber + loser, 60u);
  EXPECT_GE(climber, 50u) << "the loser got " << loser;
  // Every member observed every result.
  EXPECT_EQ(loserMember->observed, 60u);
  // The summary counts each member's evaluations and new bests.
  llvm::json::Object statistics = portfolio->statistics();
  const llvm::json::Object *perMember = statistics.getObject("members");
  ASSERT_TRUE(perMember);
  EXPECT_EQ(perMember->getObject("climber")->getInteger("evaluations"),
            int64_t(climber));
  EXPECT_EQ(perMember->getObject("loser")->getInteger("evaluations"),
            int64_t(loser));
  EXPECT_GE(*perMember->getObject("climber")->getInteger("new_bests"),
            int64_t(climber) - 1);
}

TEST(Portfolio, NeverEvaluatesADuplicateAcrossMembers) {
  Space space;
  cantFail(space.addParameter(Parameter::integer("x", 0, 9)));
  ChainOfTrees chain = cantFail(ChainOfTrees::build(space));
  auto configs = [&](std::initializer_list<int64_t> xs) {
    std::vector<Config> result;
    for (int64_t x : xs) {
      Config c = space.defaultConfig();
      c[0] = ParamValue::integer(x);
      result.push_back(c);
    }
    return result;
  };
  std::vector<PortfolioMember> members;
  members.push_back({"a", createListSearch(configs({0, 1, 2, 3, 4}))});
  members.push_back({"b", createListSearch(configs({4, 3, 2, 5, 6}))});
  members.push_back({"c", createListSearch(configs({0, 6, 7}))});
  std::unique_ptr<Strategy> portfolio =
      createPortfolio(std::move(members), PortfolioOptions());
  CheckingEvaluator evaluator(
      chain, [](const Config &c) { return 1.0 + c[0].getInteger(); });
  TuningResult result = runTuningLoop(*portfolio, evaluator, {100, 0}, 4);
  // Every config any member offers, each once: 0 to 7.
  EXPECT_EQ(result.history.size(), 8u);
}

TEST(Portfolio, BuildsItsMembersFromTheRegistry) {
  std::vector<std::string> members = defaultPortfolioMembers();
  EXPECT_EQ(members, (std::vector<std::string>{"random", "evolution",
                                               "annealing", "genetic", "bo"}));
  // The default members, bo included: reproducible, and each member asked.
  Synthetic s;
  std::map<std::string, std::string> defaults = {
      {"members", llvm::join(members, ",")}, {"bo.candidates", "100"}};
  Outcome a = run("portfolio", s, 3, 30, 1, false, defaults);
  Outcome b = run("portfolio", s, 3, 30, 1, false, defaults);
  EXPECT_EQ(a.hashes.size(), 30u);
  EXPECT_EQ(a.hashes, b.hashes);
}

} // namespace
