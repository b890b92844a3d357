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

#include <functional>
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
  /// What evaluating it cost (compiling and running), in seconds, when
  /// known; a replayed table reports the recorded cost.
  double costSeconds = 0;
  /// True when the outcome was known before (e.g. read from a database) and
  /// cost no evaluation.
  bool cached = false;

  bool ok() const { return status == Status::Ok; }
  /// A failed observation of `config`.
  static Observation failure(Config config, Status status,
                             std::string message);
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
};

class Evaluator {
public:
  virtual ~Evaluator();
  /// One observation per config, in order.
  virtual std::vector<Observation> evaluate(llvm::ArrayRef<Config> configs) = 0;
};

/// Names of the strategies createStrategy knows.
std::vector<std::string> strategyNames();

/// A strategy by name ("random", "exhaustive"); `chain` must outlive it.
llvm::Expected<std::unique_ptr<Strategy>>
createStrategy(llvm::StringRef name, const ChainOfTrees &chain, uint64_t seed);

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
};

/// Proposes, evaluates and observes in batches of `batch` until the budget
/// is spent or the strategy has nothing more to propose. `progress`, when
/// set, is called after every batch.
TuningResult
runTuningLoop(Strategy &strategy, Evaluator &evaluator, const Budget &budget,
              size_t batch = 1,
              std::function<void(const TuningResult &)> progress = nullptr);

} // namespace tuner

#endif // TUNER_SEARCH_STRATEGY_H
