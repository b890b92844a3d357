//===- ReplayEvaluator.h - Outcomes read from a recorded table --*- C++ -*-===//
//
// Replays a table that records every config of a space with its objective
// or failure, so that strategies can be compared fairly and fast: hundreds
// of seeded runs in seconds, each charged the tuning time the table records.
//
// Formats (by extension: .csv, else JSON lines):
//   JSON lines: {"config": {NAME: VALUE, ...}, "time": SECONDS | null,
//                "status": "ok" | FAILURE CLASS,
//                "compile_s": SECONDS?, "run_s": SECONDS?}
//   CSV: a header with one column per parameter plus `time` and `status`
//        (and optionally `compile_s`, `run_s`); cells as JSON values
//        (numbers, true/false, [0, 2, 1]) or plain strings; "..." quotes.
// "time" is the objective (seconds unless the user says otherwise); an ok
// row needs a finite one. A config the strategy proposes that the table
// lacks stops the run with an error, never a guess.
//
//===----------------------------------------------------------------------===//

#ifndef TUNER_TUNING_REPLAYEVALUATOR_H
#define TUNER_TUNING_REPLAYEVALUATOR_H

#include "tuner/Search/Strategy.h"
#include "tuner/Tuning/TuningSession.h"

#include <memory>
#include <unordered_map>

namespace tuner {

class ReplayEvaluator : public Evaluator {
public:
  /// One row of a table.
  struct Row {
    Status status = Status::Ok;
    double objective = 0;
    /// What evaluating it cost when it was recorded (compile_s + run_s, or
    /// the objective when neither is given and it is a time).
    double costSeconds = 0;
  };

  /// Reads the table at `path` against `space` (which must outlive the
  /// evaluator). Errors name the file and line: a malformed row, a
  /// parameter the space does not have, a config outside the space, a
  /// config recorded twice, an unknown status, an ok row without a time.
  static llvm::Expected<std::unique_ptr<ReplayEvaluator>>
  load(llvm::StringRef path, const Space &space, Objective objective);
  /// The same from text (`name` for messages; `csv` picks the format).
  static llvm::Expected<std::unique_ptr<ReplayEvaluator>>
  parse(llvm::StringRef text, llvm::StringRef name, bool csv,
        const Space &space, Objective objective);

  std::vector<Observation> evaluate(llvm::ArrayRef<Config> configs) override;

  size_t size() const { return rows.size(); }
  /// The row of `config`, if recorded.
  const Row *find(const Config &config) const;
  /// Tuning time the configs evaluated so far would have cost.
  double simulatedSeconds() const { return simulated; }
  /// Starts a new run (the simulated time back to zero).
  void reset() { simulated = 0; }

private:
  ReplayEvaluator(const Space &space, std::string name, Objective objective)
      : space(space), name(std::move(name)), objective(objective) {}
  llvm::Error addRow(const Config &config, Row row, size_t line);

  const Space &space;
  std::string name;
  Objective objective;
  std::unordered_map<uint64_t, Row> rows;
  double simulated = 0;
};

} // namespace tuner

#endif // TUNER_TUNING_REPLAYEVALUATOR_H
