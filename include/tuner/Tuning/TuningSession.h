//===- TuningSession.h - One tuning run over any space ----------*- C++ -*-===//
//
// The tuning core every tool drives (the autotune pass, tuner-search,
// tuner-gen): a strategy proposes configs of a space, an evaluator turns
// them into observations (measuring an MLIR function, running a user's
// command, replaying a recorded table, or scoring with the cost model), and
// a recorder remembers every outcome, so that a killed run resumes where it
// stopped and nothing is measured twice. The session runs the loop under a
// budget, keeps the best result and the failures by class, and describes
// the run as JSON.
//
//===----------------------------------------------------------------------===//

#ifndef TUNER_TUNING_TUNINGSESSION_H
#define TUNER_TUNING_TUNINGSESSION_H

#include "tuner/Search/Strategy.h"

#include "llvm/Support/JSON.h"

#include <functional>
#include <map>
#include <optional>
#include <string>

namespace tuner {

namespace db {
class Database;
struct MeasurementRecord;
} // namespace db

/// How an evaluator's objective becomes an observation's value (higher is
/// better).
enum class Objective {
  /// The value is a speedup over the untransformed program (measured or
  /// predicted).
  Speedup,
  /// The value is the objective negated (e.g. a time a command printed).
  Minimize,
  /// The value is the objective (e.g. a throughput a command printed).
  Maximize,
};

/// "speedup", "minimize", "maximize".
llvm::StringRef objectiveName(Objective objective);
/// The observation value of an objective (Minimize negates it).
double valueOfObjective(Objective objective, double value);

/// Reads outcomes known from before and keeps new ones.
class Recorder {
public:
  virtual ~Recorder();
  /// The outcome of `config` if it is known (marked cached).
  virtual std::optional<Observation> recall(const Config &config) = 0;
  /// Keeps the outcome of a config evaluated now.
  virtual void record(const Observation &observation) = 0;
  /// Keeps the outcome of a config evaluated again after the search, to
  /// confirm it (SessionOptions::confirm): it supersedes the config's
  /// earlier outcome. By default kept like any other.
  virtual void recordConfirmation(const Observation &observation) {
    record(observation);
  }
  /// The first error met while recalling or recording (the run goes on
  /// without the recorder's help); empty when none.
  const std::string &getError() const { return error; }

protected:
  void noteError(std::string message);

private:
  std::string error;
};

/// A recorder over a tuning database: records are keyed by workload and
/// target, and carry the space's fingerprint and the schedule script. A
/// record of another space (another fingerprint) is never recalled.
class DatabaseRecorder : public Recorder {
public:
  struct Keys {
    /// The workload's hash and the target's fingerprint (db keys).
    std::string workload, target;
    /// The strategy that proposes the configs (kept in each record).
    std::string strategy;
    Objective objective = Objective::Speedup;
    /// The baseline's median time in this session, when there is one: a
    /// recalled config of an older session keeps the speedup it was
    /// measured with, and a record without one is divided by this.
    std::optional<double> baselineSeconds;
  };

  /// `database` and `space` must outlive the recorder.
  DatabaseRecorder(db::Database &database, const Space &space, Keys keys);

  std::optional<Observation> recall(const Config &config) override;
  void record(const Observation &observation) override;
  /// Recorded with strategy "confirm" (kConfirmStrategy), after the
  /// search's own record of the config, which it supersedes (the database
  /// recalls and applies a config's latest record).
  void recordConfirmation(const Observation &observation) override;

  /// The database record of `observation` (exposed for tests and tools
  /// that write records of their own).
  db::MeasurementRecord toRecord(const Observation &observation) const;

  /// The strategy of the records of a confirmation.
  static constexpr const char *kConfirmStrategy = "confirm";

private:
  /// Records `record`, noting the first error.
  void write(const db::MeasurementRecord &record);

  db::Database &database;
  const Space &space;
  std::string spaceFingerprint;
  Keys keys;
};

struct SessionOptions {
  Budget budget;
  /// Configs proposed and evaluated at once.
  size_t batch = 1;
  /// Where outcomes are recalled from and recorded to (none: every config
  /// is evaluated).
  Recorder *recorder = nullptr;
  /// Called after every batch.
  std::function<void(const TuningResult &)> progress;
  /// After the search, evaluate its best `confirm` distinct configs again,
  /// in one batch, and name the best by each config's latest evaluation
  /// (0: not at all). While that best is one not evaluated again (those
  /// that were came out slower than its first evaluation), it is evaluated
  /// again too, up to `confirm` more. A search that evaluated many
  /// candidates once each keeps the luckiest draw of the noise as its best
  /// (the winner's curse); evaluated again, side by side, the top few are
  /// ranked by an unselected sample. Outside the budget; its time counts in
  /// the result's seconds.
  unsigned confirm = 0;
};

/// What a confirmation did (TuningSession::getConfirmation).
struct Confirmation {
  /// The configs evaluated again, in order (the top batch best first by
  /// their first evaluation, then any evaluated after it): `first` that
  /// evaluation (from the search or the recorder), `again` the new one.
  struct Entry {
    Observation first, again;
  };
  std::vector<Entry> entries;
  /// The best before the confirmation (the search's).
  std::optional<Observation> before;
  double seconds = 0;
  /// The evaluator's fatal error, when it stopped the confirmation (the
  /// best is chosen by what was evaluated again before it: the search's
  /// when nothing was).
  std::optional<std::string> error;
};

/// One tuning run: strategy, evaluator and recorder under a budget.
class TuningSession {
public:
  /// `strategy`, `evaluator` and the recorder must outlive the session.
  TuningSession(Strategy &strategy, Evaluator &evaluator,
                SessionOptions options);

  /// Runs the loop (once); the result's `error` is set when the evaluator
  /// stopped the run.
  const TuningResult &run();
  const TuningResult &getResult() const { return result; }

  /// The confirmation after the search (SessionOptions::confirm), if one
  /// ran.
  const std::optional<Confirmation> &getConfirmation() const {
    return confirmation;
  }

  /// Failed candidates by class (recalled ones included).
  const std::map<Status, unsigned> &getFailures() const { return failures; }
  unsigned failureCount() const;
  /// "3 timeout, 1 wrong_result".
  std::string describeFailures() const;

  /// The run as JSON: {"strategy", "candidates", "evaluated", "cached",
  /// "failed": {class: count}, "search_seconds", "best": {"config",
  /// "value", "objective", "median_s", "min_s"} | null, and the strategy's
  /// "strategy_statistics" when it has any, and "confirmation": {"seconds",
  /// "best_before": {"config", "value"} | null, "error" (when it failed),
  /// "candidates": [{"config", "first", "again", "status"}]} when one ran};
  /// tools add their own fields.
  llvm::json::Object summary(const Space &space) const;

private:
  Strategy &strategy;
  Evaluator &evaluator;
  SessionOptions options;
  /// Evaluates the search's best `options.confirm` configs again with the
  /// session's evaluator (never the recorder: the point is a new sample)
  /// and names the best by those evaluations.
  void confirm();

  TuningResult result;
  std::optional<Confirmation> confirmation;
  std::map<Status, unsigned> failures;
};

} // namespace tuner

#endif // TUNER_TUNING_TUNINGSESSION_H
