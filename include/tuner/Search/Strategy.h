//===- Strategy.h - Search strategies over a Space --------------*- C++ -*-===//
//
// Every search strategy (random, exhaustive, and the model-guided and
// Bayesian ones) proposes configs of a Space and observes how they fared;
// every evaluator (measurement, cost model, replay of recorded data) turns a
// batch of configs into observations. The tuning loop connects the two under
// a budget. Nothing here knows about MLIR.
//
//===----------------------------------------------------------------------===//

#ifndef TUNER_SEARCH_STRATEGY_H
#define TUNER_SEARCH_STRATEGY_H

#include "tuner/Space/ChainOfTrees.h"
#include "tuner/Space/Space.h"
#include "tuner/Support/Measurement.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"

#include <functional>
#include <map>
#include <memory>
#include <optional>

namespace tuner {

/// The outcome of evaluating one config.
struct Observation {
  Config config;
  /// What happened; anything but Ok is a failed candidate (the failure
  /// class), with `message` saying why.
  Status status = Status::Ok;
  std::string message;
  /// Higher is better: the speedup over the untransformed program (measured
  /// or predicted), or a user's objective, negated when it is minimized.
  /// Meaningful only when ok().
  double value = 0;
  /// The objective as the evaluator read it, in its own unit (seconds per
  /// call for a measured function; the number a user's command printed).
  double objective = 0;
  /// Per-call times when the config was timed (0 otherwise).
  double minSeconds = 0, medianSeconds = 0, maxSeconds = 0;
  unsigned repetitions = 0;
  /// Cores other processes kept busy while it was timed (negative: unknown;
  /// see Measurement::foreignLoad).
  double foreignLoad = -1;
  /// What evaluating it cost (compiling and running), in seconds, when
  /// known; a replayed table reports the recorded cost.
  double costSeconds = 0;
  /// The config's schedule as a Transform-dialect script, when the
  /// evaluator built one (a program's config); empty otherwise.
  std::string schedule;
  /// True when the outcome was known before (e.g. read from a database) and
  /// cost no evaluation.
  bool cached = false;

  bool ok() const { return status == Status::Ok; }
  /// A failed observation of `config`.
  static Observation failure(Config config, Status status,
                             std::string message);
  /// The observation of a measured `config` (applied as `schedule`): its
  /// status, message, speedup (the value), median time (the objective),
  /// times and foreign load.
  static Observation measured(Config config, const Measurement &measurement,
                              std::string schedule = {});
};

class Strategy {
public:
  virtual ~Strategy();
  virtual llvm::StringRef getName() const = 0;
  /// Up to `count` configs never proposed before, in the order to try them;
  /// fewer (possibly none) once the strategy has nothing new to offer.
  virtual std::vector<Config> propose(size_t count) = 0;
  /// Reports how proposed configs fared.
  virtual void observe(llvm::ArrayRef<Observation> observations) = 0;
  /// What the strategy has to say about its run for the tuning summary
  /// (e.g. how often a learned model steered it away from a predicted
  /// failure); empty by default.
  virtual llvm::json::Object statistics() const { return {}; }
};

class Evaluator {
public:
  virtual ~Evaluator();
  /// One observation per config, in order.
  virtual std::vector<Observation> evaluate(llvm::ArrayRef<Config> configs) = 0;
  /// Set once an evaluation went wrong in a way that makes the run
  /// meaningless (not a failed candidate: e.g. a replayed table that lacks a
  /// config); the tuning loop stops and reports it.
  const std::optional<std::string> &fatalError() const { return fatal; }

protected:
  std::optional<std::string> fatal;
};

class DecisionTree;

/// Identifies a schedule: configs that mean the same schedule must hash
/// equal, so that no schedule is scored or measured twice. Defaults to
/// Config::hash.
using ScheduleHash = std::function<uint64_t(const Config &)>;

/// The model's representation of configs for adapting it to one program
/// (CostModel::ProgramPredictor::represent): one vector per config, in
/// order, whose length is the same for all.
using ScheduleRepresentation =
    std::function<llvm::Expected<std::vector<std::vector<float>>>(
        llvm::ArrayRef<Config>)>;

/// How the execution step of the model-guided strategies uses the
/// measurements of its top k before proposing the next batch (see
/// ExecutionStep).
enum class ModelCorrection {
  /// The model's order, unchanged.
  None,
  /// A Gaussian process over configs on the model's log errors: schedules
  /// near a measured one inherit its error.
  Errors,
  /// The model adapted to the function: a per-function offset and scale of
  /// its log predictions and its last layer refitted (Bayesian) on the
  /// measured log speedups.
  Adapt,
  /// Both.
  AdaptAndErrors,
};
/// "none", "gp", "adapt", "adapt+gp".
llvm::StringRef modelCorrectionName(ModelCorrection correction);
/// Those names; also "false" (none) and "true" (gp), the values of the
/// boolean option it replaced.
std::optional<ModelCorrection> parseModelCorrection(llvm::StringRef name);

/// What a strategy searches. Every space has its chain; a program's space
/// (an MLIR function's) also has the decision tree of its schedules, and,
/// when a cost model can score the program, the model as an evaluator.
/// Everything pointed to must outlive the strategy.
struct SearchProblem {
  const ChainOfTrees *chain = nullptr;
  const DecisionTree *tree = nullptr;
  Evaluator *model = nullptr;
  ScheduleHash hash;
  /// What the model cannot tell apart: configs in different strata differ
  /// in parameters the model has no features for (e.g. skewing), so its
  /// predictions cannot rank them against each other, and the execution
  /// step shares its measurements among the strata. Null: one stratum.
  std::function<uint64_t(const Config &)> stratum;
  /// With a model that can say how it sees configs: see
  /// ScheduleRepresentation. Null: the execution step adapts only the
  /// offset and scale of the model's predictions.
  ScheduleRepresentation represent;
  /// Schedules derived from the target rather than searched (e.g.
  /// analyticConfigs): the model-guided strategies measure them first,
  /// beside their top k (see ExecutionStep), and `bo` opens its initial
  /// design with them. Each is mapped to the nearest feasible config of the
  /// space (feasibleSeeds) or dropped.
  std::vector<Config> seeds;
};

/// The problem's seeds, each mapped to the nearest feasible config of its
/// space: the fewest other parameters changed, keeping the ones the seed
/// sets away from their defaults (its decisions) where that is possible
/// (Neighbourhood::repairs). A seed of another space's size, or one with no
/// feasible repair, is dropped; so is a repeat of an earlier one.
std::vector<Config> feasibleSeeds(const SearchProblem &problem);

/// The knobs of the built-in strategies (each reads the ones it has).
struct StrategyOptions {
  uint64_t seed = 1;
  /// Beam searches: partial schedules kept at each level.
  unsigned beamWidth = 8;
  /// Model-guided strategies: best predicted schedules measured.
  unsigned topK = 8;
  /// MCTS: nodes expanded.
  unsigned mctsIterations = 200;
  /// Model-guided strategies: see ExecutionStep.
  ModelCorrection modelCorrection = ModelCorrection::None;
  bool diverseTopK = false;
  /// Strategy-specific settings, key -> value as the user wrote them; each
  /// strategy reads its own keys (StrategyInfo::settings) and rejects bad
  /// values, and createStrategy rejects keys it does not read.
  std::map<std::string, std::string> settings;
  /// Evaluations the run may make (Budget::evaluations), for strategies
  /// that size their phases to it (bo's initial design); 0: unknown.
  size_t budget = 0;
};

/// Adds one "key=value" to `settings`: the error says what is wrong with a
/// missing '=', an empty key or a key given twice.
llvm::Error parseStrategySetting(llvm::StringRef text,
                                 std::map<std::string, std::string> &settings);
/// Adds every "key=value" of a comma-separated list (empty: none).
llvm::Error parseStrategySettings(llvm::StringRef text,
                                  std::map<std::string, std::string> &settings);

/// One key of StrategyOptions::settings that a strategy reads.
struct StrategySetting {
  const char *key;
  /// Its values and default, in one line, for --help and error messages.
  const char *description;
};

/// One entry of the strategy registry.
struct StrategyInfo {
  const char *name;
  /// One line for --help and error messages.
  const char *summary;
  /// Whether it walks a program's decision tree, and whether it needs the
  /// cost model to do so.
  bool needsTree = false, needsModel = false;
  /// Builds it; a setting it rejects (StrategyOptions::settings) is an
  /// error that names the setting.
  llvm::Expected<std::unique_ptr<Strategy>> (*create)(
      const SearchProblem &problem, const StrategyOptions &options);
  /// The settings keys it reads (any other key is an error). A key written
  /// "<member>.<key>" stands for every key with a dot (a portfolio's
  /// settings for its members, which its `create` checks).
  llvm::ArrayRef<StrategySetting> settings = {};
  /// Checks the values of its settings before `create` (null: it has none
  /// to check); the error names the key and the value.
  llvm::Error (*checkSettings)(const StrategyOptions &options) = nullptr;
  /// Whether it uses the cost model when the problem has one, without
  /// needing it (e.g. as a prior).
  bool usesModel = false;
};

/// Every built-in strategy, in the order to list them. Adding a strategy is
/// one file with its factory and one entry here.
llvm::ArrayRef<StrategyInfo> strategyRegistry();
/// The registered names, in registry order.
std::vector<std::string> strategyNames();
/// The registry entry of `name`; an unknown name is an error that lists the
/// known ones.
llvm::Expected<const StrategyInfo &> findStrategy(llvm::StringRef name);

/// Checks `options.settings` against strategy `name`: a key it does not read
/// is an error that lists the ones it does, a value it rejects one that says
/// why.
llvm::Error checkStrategySettings(const StrategyInfo &info,
                                  const StrategyOptions &options);

/// The strategy `name` over `problem`. Fails, saying why, on an unknown
/// name, on a tree strategy without a decision tree or a model-guided one
/// without a model ("it needs a program"), on exhaustive search of a
/// space it cannot enumerate, and on settings the strategy does not read or
/// whose values it rejects.
llvm::Expected<std::unique_ptr<Strategy>>
createStrategy(llvm::StringRef name, const SearchProblem &problem,
               const StrategyOptions &options);

/// Limits of one tuning run; zero means unlimited (not both).
struct Budget {
  /// Candidates observed, cached ones included: a run that is killed and
  /// rerun ends where it would have ended.
  size_t evaluations = 0;
  double seconds = 0;
};

struct TuningResult {
  std::vector<Observation> history; ///< In evaluation order.
  std::optional<Observation> best;  ///< Best ok observation.
  size_t evaluated = 0;             ///< Not counting cached ones.
  double seconds = 0;
  /// The evaluator's fatal error, when it stopped the run.
  std::optional<std::string> error;
};

/// Proposes, evaluates and observes in batches of `batch` until the budget
/// is spent, the strategy has nothing more to propose, or the evaluator
/// reports a fatal error (in `error`). `progress`, when set, is called after
/// every batch. TuningSession (lib/Tuning) drives it for every tool.
TuningResult
runTuningLoop(Strategy &strategy, Evaluator &evaluator, const Budget &budget,
              size_t batch = 1,
              std::function<void(const TuningResult &)> progress = nullptr);

} // namespace tuner

#endif // TUNER_SEARCH_STRATEGY_H
