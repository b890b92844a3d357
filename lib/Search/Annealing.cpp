//===- Annealing.cpp - Kernel Tuner's simulated annealing -----------------===//
//
// Kernel Tuner's simulated_annealing strategy on the Neighbourhood's moves:
// from a start, each step draws a random neighbour of the current position
// (Neighbourhood::move: one parameter moved one step along its topology,
// and when that alone is infeasible, the fewest other parameters changed
// with it so that it is feasible — constraints such as "vectorizing needs
// a small register tile" would otherwise wall regions off) and moves
// there with probability 1 when it is better and exp((new − old) / T)
// otherwise, on the log scale of the values (Kernel Tuner divides the
// difference by the old cost: the same relative difference). A failed
// config is never moved to once an ok one is held, and a failed position is
// always left. The temperature falls as Kernel Tuner's schedule scaled to a
// number of evaluations: T = T0 · alpha^(c · ⌈log(Tmin / T0) / log(alpha)⌉ /
// schedule) after c evaluations, so it reaches Tmin after `schedule` of
// them; then the search restarts hot. A neighbour evaluated before (by this
// strategy or, in a portfolio, by another) costs nothing: the move is
// decided on its known value, as Kernel Tuner's cache does; after
// `max-stuck` such moves in a row without a new config, the search jumps to
// a new start (Kernel Tuner's "stuck" restart).
//
// Two departures from Kernel Tuner's defaults, measured on replay tables at
// budgets of 20 to 200: a start is the best of `starts` uniform samples
// (Kernel Tuner: one; in a portfolio the other members' results count as
// samples), and T0 is 0.1 (Kernel Tuner: 1, whose walk at such budgets
// accepts nearly every move and ends worse than random sampling).
//
//===----------------------------------------------------------------------===//

#include "SearchCommon.h"

#include "tuner/Search/Neighbourhood.h"
#include "tuner/Search/Strategies.h"

#include <cmath>
#include <unordered_map>

using namespace tuner;
using namespace tuner::search;

namespace {

struct AnnealingSettings {
  double temperature = 0.1;
  double minTemperature = 0.001;
  double alpha = 0.995;
  unsigned schedule = 100;
  unsigned maxStuck = 100;
  unsigned starts = 8;
};

class Annealing : public Strategy {
public:
  Annealing(const SearchProblem &problem, uint64_t seed,
            AnnealingSettings settings)
      : neighbourhood(*problem.chain), history(problem.hash),
        sampler(*problem.chain, deriveSeed(seed, 0)), rng(seed),
        settings(settings), startsLeft(settings.starts) {
    // Kernel Tuner's max_iter: the steps alpha needs to bring T0 to Tmin.
    double steps =
        std::ceil(std::log(settings.minTemperature / settings.temperature) /
                  std::log(settings.alpha));
    exponentPerEvaluation = std::max(steps, 1.0) / settings.schedule;
  }

  llvm::StringRef getName() const override { return "annealing"; }

  std::vector<Config> propose(size_t count) override {
    std::vector<Config> result;
    while (result.size() < count) {
      std::optional<Config> next = nextCandidate();
      if (!next)
        break;
      history.propose(*next);
      pending[history.key(*next)] = sampling;
      result.push_back(std::move(*next));
    }
    return result;
  }

  void observe(llvm::ArrayRef<Observation> observations) override {
    for (const Observation &observation : observations) {
      if (!history.observe(observation))
        continue;
      auto it = pending.find(history.key(observation.config));
      if (it == pending.end()) {
        // Another's result (in a portfolio) serves as a start sample.
        if (startsLeft > 0) {
          --startsLeft;
          keepBetter(observation.config, *history.find(observation.config));
        }
        continue;
      }
      bool start = it->second;
      pending.erase(it);
      ++evaluations;
      const Known &known = *history.find(observation.config);
      if (start)
        keepBetter(observation.config, known);
      else
        consider(observation.config, known);
      if (temperature() <= settings.minTemperature)
        restart();
    }
  }

private:
  struct Position {
    Config config;
    bool ok = false;
    double value = 0;
  };

  double temperature() const {
    return settings.temperature *
           std::pow(settings.alpha, exponentPerEvaluation * evaluations);
  }

  /// Starts again from new uniform samples at the initial temperature.
  void restart() {
    jump();
    evaluations = 0;
  }

  /// Leaves the position: the next `starts` configs are new samples.
  void jump() {
    position.reset();
    startsLeft = settings.starts;
  }

  /// A start: the best of the samples.
  void keepBetter(const Config &config, const Known &known) {
    if (!position ||
        (known.ok && (!position->ok || known.value > position->value)))
      position = Position{config, known.ok, known.value};
  }

  /// Kernel Tuner's acceptance_prob on the log scale.
  double acceptance(const Known &candidate) const {
    if (!position->ok)
      return 1;
    if (!candidate.ok)
      return 0;
    if (candidate.value >= position->value)
      return 1;
    const ValueScale &scale = history.getScale();
    return std::exp((scale(candidate.value) - scale(position->value)) /
                    temperature());
  }

  /// One annealing step to `config` (observed as `known`).
  void consider(const Config &config, const Known &known) {
    if (!position) {
      position = Position{config, known.ok, known.value};
      return;
    }
    double probability = acceptance(known);
    if (probability >= 1 ||
        std::uniform_real_distribution<double>(0, 1)(rng) < probability)
      position = Position{config, known.ok, known.value};
  }

  /// The next config to evaluate: a neighbour of the position no one has
  /// evaluated, after free steps to known ones; a new sample to start from.
  std::optional<Config> nextCandidate() {
    sampling = false;
    for (unsigned stuck = 0; stuck <= settings.maxStuck; ++stuck) {
      if (startsLeft > 0 || !position) {
        startsLeft -= startsLeft > 0;
        sampling = true;
        return sampler.next(history);
      }
      std::optional<Config> neighbour =
          neighbourhood.move(position->config, rng);
      if (!neighbour)
        break;
      const Known *known = history.find(*neighbour);
      if (!known)
        return neighbour;
      if (known->observed)
        consider(*neighbour, *known);
    }
    // Stuck: jump to new samples, at the current temperature.
    jump();
    startsLeft -= startsLeft > 0;
    sampling = true;
    return sampler.next(history);
  }

  Neighbourhood neighbourhood;
  History history;
  Sampler sampler;
  std::mt19937_64 rng;
  AnnealingSettings settings;
  double exponentPerEvaluation = 1;
  std::optional<Position> position;
  /// This strategy's evaluations since the last (re)start.
  uint64_t evaluations = 0;
  /// Samples still to draw before walking from the best of them.
  unsigned startsLeft = 0;
  /// Whether the config nextCandidate returned is a start sample.
  bool sampling = false;
  /// Keys of the configs it proposed and has not yet observed, and whether
  /// each is a start sample.
  std::unordered_map<uint64_t, bool> pending;
};

} // namespace

static const StrategySetting kAnnealingSettings[] = {
    {"temperature", "T0, the initial temperature on the log scale of the "
                    "values, > 0 (default 0.1; Kernel Tuner's is 1)"},
    {"min-temperature", "Tmin, below T0 (default 0.001)"},
    {"alpha", "the cooling factor, in (0, 1) (default 0.995)"},
    {"schedule", "evaluations over which T falls from T0 to Tmin, then a "
                 "hot restart (default 100)"},
    {"max-stuck", "free moves over known configs in a row before a new "
                  "start (default 100)"},
    {"starts", "a start is the best of this many uniform samples (default "
               "8; Kernel Tuner's is 1)"},
};

llvm::ArrayRef<StrategySetting> tuner::annealingSettings() {
  return kAnnealingSettings;
}

llvm::Expected<std::unique_ptr<Strategy>>
tuner::createAnnealing(const SearchProblem &problem,
                       const StrategyOptions &options) {
  SettingsReader reader("annealing", options.settings);
  AnnealingSettings settings;
  settings.temperature = reader.getNumber("temperature", settings.temperature,
                                          0, 1e9, /*loOpen=*/true);
  settings.minTemperature =
      reader.getNumber("min-temperature", settings.minTemperature, 0, 1e9,
                       /*loOpen=*/true);
  settings.alpha =
      reader.getNumber("alpha", settings.alpha, 0, 1, true, /*hiOpen=*/true);
  settings.schedule =
      reader.getInteger("schedule", settings.schedule, 1, 100000000);
  settings.maxStuck =
      reader.getInteger("max-stuck", settings.maxStuck, 1, 1000000);
  settings.starts = reader.getInteger("starts", settings.starts, 1, 1000000);
  if (settings.minTemperature >= settings.temperature)
    reader.fail("strategy 'annealing': setting 'min-temperature' (" +
                formatNumber(settings.minTemperature) +
                ") must be below 'temperature' (" +
                formatNumber(settings.temperature) + ")");
  if (llvm::Error error = reader.finish())
    return std::move(error);
  return std::make_unique<Annealing>(problem, options.seed, settings);
}
