//===- DatabaseInput.h - Tuning databases as training data ------*- C++ -*-===//
//
// The measurements of tuning runs as a dataset (DESIGN.md: "tuning databases
// are training data too"). Each workload of a tuning database whose
// canonical IR is stored is parsed and analyzed as `tuner-opt
// --tuner-print-program` would, its space rebuilt with the default space
// options for a target, and each (workload, machine) pair becomes a program
// of the dataset, its records samples:
//
//   program id    WORKLOAD-HASH "-" 8 hex digits of the machine fingerprint
//   target        the record's machine fingerprint
//   baseline      the median of the records' baseline_median_seconds
//   mlir          the stored canonical IR (the function, in generic form)
//   sample        status, speedup and median of a record; its message when
//                 it failed
//
// A record whose space fingerprint is not that of the rebuilt space (tuned
// with other space options, for another target, or by a tuner whose space
// builder has changed since), or whose config does not read in it, is
// skipped and counted. A record without a fingerprint (database schema 1)
// is taken when its config reads. The same measurement in several
// databases is taken once.
//
// This part of tuner-train needs MLIR; the cost model library does not.
//
//===----------------------------------------------------------------------===//

#ifndef TUNER_TOOLS_TUNER_TRAIN_DATABASEINPUT_H
#define TUNER_TOOLS_TUNER_TRAIN_DATABASEINPUT_H

#include "tuner/CostModel/Dataset.h"
#include "tuner/Target/Target.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>

namespace tuner {

/// What readTuningDatabases took and left out.
struct DatabaseInputStats {
  uint64_t workloads = 0;  ///< Workloads with measurements.
  uint64_t programs = 0;   ///< Programs made (one per workload and machine).
  uint64_t records = 0;    ///< Measurement records read.
  uint64_t samples = 0;    ///< Records taken as samples.
  uint64_t duplicates = 0; ///< Records seen in an earlier database.
  uint64_t otherSpace = 0; ///< Made in another space.
  uint64_t unreadable = 0; ///< Config does not read in the space.
  uint64_t incomplete = 0; ///< `ok` without a positive speedup and median.
  /// Records of workloads left out (no IR, not analyzable, ...).
  uint64_t unusableWorkload = 0;
};

/// Reads the tuning databases at `paths` (read-only) into one dataset,
/// rebuilding each workload's space for `target` with the default space
/// options. `note` receives one line per workload left out or with records
/// left out, saying why. Fails when a database cannot be opened or read.
llvm::Expected<Dataset>
readTuningDatabases(llvm::ArrayRef<std::string> paths, const Target &target,
                    DatabaseInputStats &stats,
                    llvm::function_ref<void(const llvm::Twine &)> note);

} // namespace tuner

#endif // TUNER_TOOLS_TUNER_TRAIN_DATABASEINPUT_H
