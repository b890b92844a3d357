//===- Evolution.cpp - OpEvo: topology-aware evolution --------------------===//
//
// OpEvo (Gao et al., AAAI 2021), Algorithm 1: a population seeded with
// uniform feasible samples; then, for every child, the top-λ configs
// observed so far are the parents, each parameter of the child is inherited
// from a parent drawn with probability proportional to its fitness (failed
// configs have none), and each parameter is mutated by a q-random walk on
// its own topology (Neighbourhood). An infeasible child is repaired around
// its mutations (Neighbourhood::repairs: the fewest other parameters
// changed); a child already known is drawn again; no config is proposed
// twice. The default mutation rate is 0.3 (OpEvo's experiments: 0.5), which
// measured better on the replay tables of benchmarks/strategies. With
// `restart`, a population that has not found a new best for that many
// observations is replaced by new uniform samples (its parents are then
// only what it observes).
//
//===----------------------------------------------------------------------===//

#include "SearchCommon.h"

#include "tuner/Search/Neighbourhood.h"
#include "tuner/Search/Strategies.h"

#include <algorithm>

using namespace tuner;
using namespace tuner::search;

namespace {

struct EvolutionSettings {
  unsigned population = 8;
  double q = 0.3;
  unsigned restart = 0;
};

class Evolution : public Strategy {
public:
  Evolution(const SearchProblem &problem, uint64_t seed,
            EvolutionSettings settings)
      : neighbourhood(*problem.chain), history(problem.hash),
        sampler(*problem.chain, deriveSeed(seed, 0)), rng(seed),
        settings(settings) {}

  llvm::StringRef getName() const override { return "evolution"; }

  std::vector<Config> propose(size_t count) override {
    std::vector<Config> result;
    while (result.size() < count) {
      std::optional<Config> next = nextConfig();
      if (!next)
        break;
      history.propose(*next);
      result.push_back(std::move(*next));
    }
    return result;
  }

  void observe(llvm::ArrayRef<Observation> observations) override {
    for (const Observation &observation : observations) {
      if (!history.observe(observation))
        continue;
      bool ok = observation.ok() && std::isfinite(observation.value);
      pool.push_back({observation.config, ok, observation.value});
      ++sinceImprovement;
      if (ok && (!best || observation.value > *best)) {
        best = observation.value;
        sinceImprovement = 0;
      }
    }
  }

private:
  struct Individual {
    Config config;
    bool ok = false;
    double value = 0;
  };

  /// Draws of a child (recombination and mutation) before falling back to a
  /// parent's feasible mutation.
  static constexpr unsigned kChildAttempts = 32;

  std::optional<Config> nextConfig() {
    // Stagnation: a new population from uniform samples, whose parents are
    // only what it observes.
    if (settings.restart && sinceImprovement >= settings.restart) {
      sinceImprovement = 0;
      epochStart = pool.size();
      epochSamples = 0;
    }
    // The initial population: uniform samples until λ configs are known.
    if (history.size() < settings.population ||
        (epochStart > 0 && epochSamples < settings.population)) {
      ++epochSamples;
      return sampler.next(history);
    }
    std::vector<const Individual *> parents;
    std::vector<double> fitness;
    selectParents(parents, fitness);
    if (parents.empty())
      return sampler.next(history);
    if (std::optional<Config> child = breed(parents, fitness))
      return child;
    return sampler.next(history);
  }

  /// The top-λ observed ok configs by value and their fitnesses: the value
  /// on the log scale, shifted so that the worst parent gets a tenth of the
  /// parents' spread (all get one when they are equal). Failed configs are
  /// never parents (OpEvo gives them zero fitness). Empty when nothing
  /// observed is ok.
  void selectParents(std::vector<const Individual *> &parents,
                     std::vector<double> &fitness) const {
    std::vector<const Individual *> ranked;
    for (const Individual &individual :
         llvm::ArrayRef(pool).drop_front(epochStart))
      if (individual.ok)
        ranked.push_back(&individual);
    if (ranked.empty())
      return;
    // Best first; earlier observed first on ties (the pool is a vector).
    std::sort(ranked.begin(), ranked.end(),
              [](const Individual *a, const Individual *b) {
                if (a->value != b->value)
                  return a->value > b->value;
                return a < b;
              });
    const ValueScale &scale = history.getScale();
    double best = scale(ranked.front()->value);
    size_t count = std::min<size_t>(ranked.size(), settings.population);
    double worst = scale(ranked[count - 1]->value);
    double floor = best > worst ? (best - worst) / 10 : 1;
    for (const Individual *individual :
         llvm::ArrayRef(ranked).take_front(count)) {
      parents.push_back(individual);
      fitness.push_back(scale(individual->value) - worst + floor);
    }
  }

  /// A child of `parents`: every parameter inherited from a parent drawn
  /// by fitness, then walked q-randomly with probability q (OpEvo's
  /// q-random walk distribution: it stays with probability 1 − q, and each
  /// step continues with probability q). An infeasible child is repaired
  /// keeping its mutated parameters (a random one of the nearest feasible
  /// configs); a child without a new repair is drawn again. After
  /// kChildAttempts draws, a feasible mutation of a parent drawn by fitness
  /// (Neighbourhood::mutate). Nullopt when neither finds a new config.
  std::optional<Config> breed(llvm::ArrayRef<const Individual *> parents,
                              llvm::ArrayRef<double> fitness) {
    std::uniform_real_distribution<double> unit(0, 1);
    size_t width = parents.front()->config.size();
    for (unsigned attempt = 0; attempt < kChildAttempts; ++attempt) {
      Config child = parents.front()->config;
      for (size_t i = 0; i < width; ++i)
        child[i] = parents[drawWeighted(fitness, rng)]->config[i];
      std::vector<size_t> walked;
      for (size_t i = 0; i < width; ++i)
        if (unit(rng) < settings.q) {
          ParamValue value = neighbourhood.walk(i, child[i], settings.q, rng);
          if (!(value == child[i]))
            walked.push_back(i);
          child[i] = std::move(value);
        }
      // An infeasible child keeps its mutations and is repaired around them.
      std::vector<Config> repaired = neighbourhood.repairs(child, walked);
      llvm::erase_if(repaired,
                     [&](const Config &c) { return history.known(c); });
      if (!repaired.empty())
        return std::move(repaired[std::uniform_int_distribution<size_t>(
            0, repaired.size() - 1)(rng)]);
    }
    for (unsigned attempt = 0; attempt < kChildAttempts; ++attempt) {
      const Config &parent = parents[drawWeighted(fitness, rng)]->config;
      double rate = width ? 1.0 / width : 1.0;
      std::optional<Config> mutated =
          neighbourhood.mutate(parent, rate, settings.q, rng);
      if (mutated && !history.known(*mutated))
        return mutated;
    }
    return std::nullopt;
  }

  Neighbourhood neighbourhood;
  History history;
  Sampler sampler;
  std::mt19937_64 rng;
  EvolutionSettings settings;
  /// Every observed config, in observation order (OpEvo's queue Q).
  std::vector<Individual> pool;
  /// The best value observed, and the observations since it improved.
  std::optional<double> best;
  size_t sinceImprovement = 0;
  /// Where the current population's observations begin in the pool (after
  /// a restart), and the samples drawn since.
  size_t epochStart = 0;
  unsigned epochSamples = 0;
};

} // namespace

static const StrategySetting kEvolutionSettings[] = {
    {"population", "λ: the initial uniform samples and the parents of every "
                   "child, the best configs observed (default 8)"},
    {"q", "the q-random walk's mutation rate, in [0, 1]: a parameter "
          "mutates with probability q and each step continues with "
          "probability q (default 0.3)"},
    {"restart", "observations without a new best after which a new "
                "population starts from uniform samples (0: never; default "
                "0)"},
};

llvm::ArrayRef<StrategySetting> tuner::evolutionSettings() {
  return kEvolutionSettings;
}

llvm::Expected<std::unique_ptr<Strategy>>
tuner::createEvolution(const SearchProblem &problem,
                       const StrategyOptions &options) {
  SettingsReader reader("evolution", options.settings);
  EvolutionSettings settings;
  settings.population =
      reader.getInteger("population", settings.population, 2, 100000);
  settings.q = reader.getNumber("q", settings.q, 0, 1);
  settings.restart = reader.getInteger("restart", settings.restart, 0, 1000000);
  if (llvm::Error error = reader.finish())
    return std::move(error);
  return std::make_unique<Evolution>(problem, options.seed, settings);
}
