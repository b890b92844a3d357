//===- Measurement.h - The outcome of evaluating one candidate --*- C++ -*-===//
//
// The vocabulary every layer shares (Support depends on nothing of ours):
// what happened to a candidate (Status, whose names are the failure classes
// of the measurement protocol in DESIGN.md) and how long it took
// (Measurement). The database stores Status, the search observes it, the
// dataset and the cost model read it; nobody converts it by name.
//
//===----------------------------------------------------------------------===//

#ifndef TUNER_SUPPORT_MEASUREMENT_H
#define TUNER_SUPPORT_MEASUREMENT_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"

#include <optional>
#include <string>

namespace tuner {

/// What happened to a candidate. The names (statusName) are the failure
/// classes of the measurement protocol in DESIGN.md, plus two that only
/// evaluators other than the measuring one produce.
enum class Status {
  Ok,            ///< Ran, results match the baseline, timed.
  ApplyFailed,   ///< The schedule could not be applied (set by callers).
  CompileFailed, ///< Lowering, translation or the native compiler failed.
  Crashed,       ///< The harness (or a user's command) died or exited
                 ///< non-zero.
  Timeout,       ///< It ran past its wall-clock limit.
  WrongResult,   ///< Outputs differ from the baseline's on the same inputs.
  InvalidOutput, ///< A user's command printed no readable objective.
  ModelError,    ///< The cost model could not score the config.
};

/// Number of Status values.
constexpr unsigned kNumStatuses = 8;

/// "ok", "apply_failed", "compile_failed", "crashed", "timeout",
/// "wrong_result", "invalid_output", "model_error".
llvm::StringRef statusName(Status status);
/// The inverse of statusName; std::nullopt for any other string.
std::optional<Status> parseStatus(llvm::StringRef name);
/// Every status name, in enum order, joined by ", " (for error messages).
std::string statusNames();

/// One measured (or failed) candidate. Times are per call of the function,
/// over `repetitions` repetitions after a warm-up; they are zero unless the
/// status is Ok.
/// A timing during which other processes kept more than this many cores
/// busy, on average, is not the candidate's own: the Measurer takes it
/// again, and training leaves out samples still above it.
constexpr double kMaxForeignLoad = 0.5;

struct Measurement {
  Status status = Status::Ok;
  double minSeconds = 0;
  double medianSeconds = 0;
  double maxSeconds = 0;
  unsigned repetitions = 0;
  /// Cores that other processes kept busy, on average, while the harness
  /// timed (from /proc/stat); negative when unknown.
  double foreignLoad = -1;
  /// Page faults per timed call (the harness's own); negative when unknown.
  /// Near zero for a schedule whose temporaries are reused between calls.
  double pageFaultsPerCall = -1;
  /// Baseline median / candidate median; 0 unless the status is Ok.
  double speedup = 0;
  /// Why it failed (first mismatch, compiler errors, signal), else empty.
  std::string message;

  bool ok() const { return status == Status::Ok; }
  /// A failed measurement with no times.
  static Measurement failure(Status status, std::string message);

  /// {"status", "min_seconds", "median_seconds", "max_seconds",
  ///  "repetitions", "speedup", "message", "foreign_load" and
  ///  "page_faults_per_call" (when known)}.
  llvm::json::Value toJSON() const;
  /// Reads what toJSON writes; a missing or mistyped field is an error,
  /// but for "foreign_load" and "page_faults_per_call" (unknown when
  /// missing: older records).
  static llvm::Expected<Measurement> fromJSON(const llvm::json::Value &json);
};

} // namespace tuner

#endif // TUNER_SUPPORT_MEASUREMENT_H
