//===- GeneticSearch.cpp - Kernel Tuner's genetic algorithm ---------------===//
//
// Kernel Tuner's genetic_algorithm strategy: a population of `population`
// uniform feasible samples; once every member of a generation is observed,
// the members are ranked (failures last) and the next generation is bred:
// two distinct parents drawn by rank with Kernel Tuner's Beta(1, 2.5)
// index (the best ranks most likely), crossed over (uniform, single-point,
// two-point or disruptive uniform), each child moved to a random neighbour
// (Neighbourhood::move: one parameter one step, repaired when the step
// alone is infeasible) with chance 1 in `mutation-chance`, and kept when it
// is feasible and not yet in the new generation. Members evaluated before cost
// nothing (Kernel Tuner's cache); only new ones are proposed. A generation that
// cannot be filled from its parents is filled with new samples, and after a run
// of generations that bring nothing new the population is sampled afresh. The
// default population is 8 (Kernel Tuner's is 20): on replay tables at budgets
// of 20 to 200, more generations beat a larger first one.
//
//===----------------------------------------------------------------------===//

#include "SearchCommon.h"

#include "tuner/Search/Neighbourhood.h"
#include "tuner/Search/Strategies.h"

#include "llvm/ADT/StringSwitch.h"

#include <algorithm>
#include <deque>

using namespace tuner;
using namespace tuner::search;

namespace {

enum class Crossover { Uniform, SinglePoint, TwoPoint, DisruptiveUniform };

struct GeneticSettings {
  unsigned population = 8;
  unsigned mutationChance = 10;
  Crossover crossover = Crossover::Uniform;
};

class GeneticSearch : public Strategy {
public:
  GeneticSearch(const SearchProblem &problem, uint64_t seed,
                GeneticSettings settings)
      : neighbourhood(*problem.chain), history(problem.hash),
        sampler(*problem.chain, deriveSeed(seed, 0)), rng(seed),
        settings(settings) {}

  llvm::StringRef getName() const override { return "genetic"; }

  std::vector<Config> propose(size_t count) override {
    std::vector<Config> result;
    while (result.size() < count) {
      if (queue.empty() && !advance())
        break;
      if (queue.empty())
        break;
      Config next = std::move(queue.front());
      queue.pop_front();
      if (history.known(next))
        continue;
      history.propose(next);
      result.push_back(std::move(next));
    }
    return result;
  }

  void observe(llvm::ArrayRef<Observation> observations) override {
    for (const Observation &observation : observations)
      history.observe(observation);
  }

private:
  /// Generations in a row without a new config after which the population
  /// is sampled afresh.
  static constexpr unsigned kIdleGenerations = 20;

  /// Fills the queue with the new members of the next generation. False
  /// while members of the current one are still waiting for their results,
  /// or when the space has nothing new left.
  bool advance() {
    for (unsigned idle = 0; idle <= kIdleGenerations; ++idle) {
      if (generation.empty()) {
        fillWithSamples(generation);
      } else {
        for (const Config &member : generation) {
          const Known *known = history.find(member);
          if (!known || !known->observed)
            return false;
        }
        generation = breed();
      }
      for (const Config &member : generation)
        if (!history.known(member))
          queue.push_back(member);
      if (!queue.empty())
        return true;
    }
    // Nothing new for many generations: start again from new samples.
    generation.clear();
    fillWithSamples(generation);
    for (const Config &member : generation)
      queue.push_back(member);
    return !queue.empty();
  }

  /// Adds new uniform samples to `members` up to the population size.
  void fillWithSamples(std::vector<Config> &members) {
    // Samples already chosen are not yet in the history: skip them too.
    History chosen = history;
    for (const Config &member : members)
      chosen.propose(member);
    while (members.size() < settings.population) {
      std::optional<Config> sample = sampler.next(chosen);
      if (!sample)
        break;
      chosen.propose(*sample);
      members.push_back(std::move(*sample));
    }
  }

  /// The next generation from the observed current one.
  std::vector<Config> breed() {
    // Kernel Tuner sorts by time, failures (the largest cost) last.
    std::vector<const Config *> ranked;
    for (const Config &member : generation)
      ranked.push_back(&member);
    // Earlier members first on ties (the generation is a vector).
    std::sort(ranked.begin(), ranked.end(),
              [&](const Config *a, const Config *b) {
                const Known &x = *history.find(*a);
                const Known &y = *history.find(*b);
                if (x.ok != y.ok)
                  return x.ok;
                if (x.ok && x.value != y.value)
                  return x.value > y.value;
                return a < b;
              });
    std::vector<Config> next;
    auto contains = [&](const Config &config) {
      uint64_t key = history.key(config);
      return llvm::any_of(next, [&](const Config &member) {
        return history.key(member) == key;
      });
    };
    unsigned attempts = 0, maxAttempts = 50 * settings.population;
    while (next.size() < settings.population && attempts++ < maxAttempts) {
      auto [first, second] = chooseParents(ranked.size());
      auto [a, b] = cross(*ranked[first], *ranked[second]);
      for (Config *child : {&a, &b}) {
        mutate(*child);
        if (next.size() < settings.population && !contains(*child) &&
            neighbourhood.feasible(*child))
          next.push_back(std::move(*child));
      }
    }
    fillWithSamples(next);
    return next;
  }

  /// Kernel Tuner's weighted_choice: two distinct ranks, each
  /// ⌊Beta(1, 2.5) · n⌋.
  std::pair<size_t, size_t> chooseParents(size_t n) {
    if (n < 2)
      return {0, 0};
    auto draw = [&] {
      double x = std::gamma_distribution<double>(1.0, 1.0)(rng);
      double y = std::gamma_distribution<double>(2.5, 1.0)(rng);
      double beta = x + y > 0 ? x / (x + y) : 0;
      return std::min(size_t(beta * n), n - 1);
    };
    size_t first = draw(), second = draw();
    while (second == first)
      second = draw();
    return {first, second};
  }

  std::pair<Config, Config> cross(const Config &x, const Config &y) {
    Config a = x, b = y;
    size_t n = x.size();
    std::uniform_real_distribution<double> unit(0, 1);
    auto swapRange = [&](size_t from, size_t to) {
      for (size_t i = from; i < to; ++i)
        std::swap(a[i], b[i]);
    };
    switch (settings.crossover) {
    case Crossover::Uniform:
      for (size_t i = 0; i < n; ++i)
        if (unit(rng) > 0.5)
          std::swap(a[i], b[i]);
      break;
    case Crossover::SinglePoint:
      // Kernel Tuner: dna1[:pos] + dna2[pos:] with pos in [0, n).
      swapRange(std::uniform_int_distribution<size_t>(0, n ? n - 1 : 0)(rng),
                n);
      break;
    case Crossover::TwoPoint: {
      // Kernel Tuner: two distinct cut points in [1, n) (the whole range
      // below five parameters).
      size_t start = 0, end = n;
      if (n >= 5) {
        std::uniform_int_distribution<size_t> cut(1, n - 1);
        start = cut(rng);
        do
          end = cut(rng);
        while (end == start);
        if (start > end)
          std::swap(start, end);
      }
      swapRange(start, end);
      break;
    }
    case Crossover::DisruptiveUniform: {
      // Children differ from both parents when the parents differ in more
      // than one parameter.
      size_t differences = 0;
      for (size_t i = 0; i < n; ++i)
        differences += !(x[i] == y[i]);
      size_t swaps = 0;
      for (size_t i = 0; i < n; ++i) {
        if (x[i] == y[i] || 2 * swaps >= differences)
          continue;
        if (a == x || b == y || unit(rng) < 0.5) {
          std::swap(a[i], b[i]);
          ++swaps;
        }
      }
      break;
    }
    }
    return {std::move(a), std::move(b)};
  }

  /// With chance 1 in mutation-chance, a random move (Neighbourhood::move).
  void mutate(Config &child) {
    if (std::uniform_int_distribution<unsigned>(0, settings.mutationChance -
                                                       1)(rng) != 0)
      return;
    if (std::optional<Config> moved = neighbourhood.move(child, rng))
      child = std::move(*moved);
  }

  Neighbourhood neighbourhood;
  History history;
  Sampler sampler;
  std::mt19937_64 rng;
  GeneticSettings settings;
  /// The current generation.
  std::vector<Config> generation;
  /// Its members still to propose.
  std::deque<Config> queue;
};

} // namespace

static const StrategySetting kGeneticSettings[] = {
    {"population", "configs per generation (default 8; Kernel Tuner's is "
                   "20)"},
    {"mutation-chance", "a child mutates to a neighbour with chance 1 in "
                        "this (default 10)"},
    {"crossover", "uniform (default), single-point, two-point or "
                  "disruptive-uniform"},
};

llvm::ArrayRef<StrategySetting> tuner::geneticSearchSettings() {
  return kGeneticSettings;
}

llvm::Expected<std::unique_ptr<Strategy>>
tuner::createGeneticSearch(const SearchProblem &problem,
                           const StrategyOptions &options) {
  SettingsReader reader("genetic", options.settings);
  GeneticSettings settings;
  settings.population =
      reader.getInteger("population", settings.population, 2, 100000);
  settings.mutationChance =
      reader.getInteger("mutation-chance", settings.mutationChance, 1, 1000000);
  std::string crossover = reader.getChoice(
      "crossover", "uniform",
      {"uniform", "single-point", "two-point", "disruptive-uniform"});
  settings.crossover =
      llvm::StringSwitch<Crossover>(crossover)
          .Case("single-point", Crossover::SinglePoint)
          .Case("two-point", Crossover::TwoPoint)
          .Case("disruptive-uniform", Crossover::DisruptiveUniform)
          .Default(Crossover::Uniform);
  if (llvm::Error error = reader.finish())
    return std::move(error);
  return std::make_unique<GeneticSearch>(problem, options.seed, settings);
}
