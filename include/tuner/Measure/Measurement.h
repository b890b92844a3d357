//===- Measurement.h - The outcome of measuring one candidate ---*- C++ -*-===//
//
// A plain value that every stage exchanges: whether a candidate ran and gave
// the baseline's results, and how long it took. Failures are results too
// (they feed hidden-constraint learning and are stored like successes).
//
//===----------------------------------------------------------------------===//

#ifndef TUNER_MEASURE_MEASUREMENT_H
#define TUNER_MEASURE_MEASUREMENT_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"

#include <optional>
#include <string>

namespace tuner {

/// What happened to a candidate. The names (statusName) are the failure
/// classes of the measurement protocol in DESIGN.md.
enum class Status {
  Ok,            ///< Ran, results match the baseline, timed.
  ApplyFailed,   ///< The schedule could not be applied (set by callers).
  CompileFailed, ///< Lowering, translation or the native compiler failed.
  Crashed,       ///< The harness died (signal, non-zero exit, memory limit).
  Timeout,       ///< The harness ran past its wall-clock limit.
  WrongResult,   ///< Outputs differ from the baseline's on the same inputs.
};

/// "ok", "apply_failed", "compile_failed", "crashed", "timeout",
/// "wrong_result".
llvm::StringRef statusName(Status status);
/// The inverse of statusName; std::nullopt for any other string.
std::optional<Status> parseStatus(llvm::StringRef name);

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

#endif // TUNER_MEASURE_MEASUREMENT_H
