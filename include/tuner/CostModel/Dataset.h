//===- Dataset.h - Measured schedules of programs ---------------*- C++ -*-===//
//
// The training data of the cost model: programs (their ProgramTree, space
// and IR) and, per program, configs measured with the harness, failures
// included, with the speedup over the untransformed program as the label.
//
// On disk a dataset is a folder of JSON-lines files: `programs*.jsonl` (one
// program per line) and `samples*.jsonl` (one measured config per line).
// Several generator shards write files with distinct suffixes into one
// folder (or into folders that are simply copied together): reading the
// folder merges them. Lines are appended and flushed one at a time, so a
// killed generator leaves at most a truncated last line, which readers
// skip with a warning and writers remove when they reopen the file.
//
//   programs*.jsonl: {"id", "generator", "target", "baseline_seconds",
//                     "baseline_foreign_load"?, "mlir",
//                     "tree": ProgramTree::toJSON(), "space": Space::toJSON()}
//   samples*.jsonl:  {"program", "config": Config::toJSON(space), "status",
//                     "speedup", "median_seconds", "foreign_load"?,
//                     "generation_seconds"?, "message"}
// The foreign loads (cores other processes kept busy while the harness
// timed, see Measurement::foreignLoad) are absent in older datasets, and so
// is what a sample cost to make (SampleRecord::generationSeconds).
//
//===----------------------------------------------------------------------===//

#ifndef TUNER_COSTMODEL_DATASET_H
#define TUNER_COSTMODEL_DATASET_H

#include "tuner/Analysis/ProgramTree.h"
#include "tuner/Space/Space.h"
#include "tuner/Support/Measurement.h"

#include "llvm/Support/Error.h"

#include <map>
#include <string>
#include <vector>

namespace tuner {

/// One program of the dataset.
struct ProgramRecord {
  std::string id; ///< Unique in the dataset, e.g. "s0-p00042".
  ProgramTree tree;
  Space space;
  std::string mlir;      ///< The program's IR (a module with one function).
  std::string generator; ///< What made it, e.g. "random-linalg seed=7".
  double baselineSeconds = 0; ///< Median of the untransformed program.
  double baselineForeignLoad = -1; ///< Negative: unknown.
  std::string target;         ///< Fingerprint of the measuring machine.
};

/// One measured config of a program.
struct SampleRecord {
  std::string programId;
  Config config;
  Status status = Status::Ok;
  double speedup = 0;       ///< Baseline median / median; 0 unless ok.
  double medianSeconds = 0; ///< 0 unless ok.
  double foreignLoad = -1;  ///< Negative: unknown.
  /// The wall time tuner-gen spent to make the sample: everything it did for
  /// the sample's program in its run (generating it, its space, timing its
  /// baseline, applying, compiling, timing and verifying the configs), over
  /// the samples measured for the program in that run. Summed over samples,
  /// the measurement hours a dataset cost. Negative: unknown (older
  /// datasets, tuning databases).
  double generationSeconds = -1;
  std::string message; ///< Why it failed (shortened); empty if ok.
};

class Dataset {
public:
  std::vector<ProgramRecord> programs;
  std::vector<SampleRecord> samples;
  /// What reading skipped, one "file:line: why" per skipped line (truncated
  /// last lines left by a killed writer).
  std::vector<std::string> warnings;

  /// Index of each program id in `programs`.
  std::map<std::string, size_t> programIndex() const;

  /// Appends `other`'s programs, samples and warnings, to train on several
  /// sources at once (dataset folders, tuning databases). A program id
  /// already present is an error naming it and `origin` (what `other` was
  /// read from), and leaves this dataset unchanged.
  llvm::Error append(Dataset other, llvm::StringRef origin);

  /// Reads every programs*.jsonl / samples*.jsonl file of `folder` (in name
  /// order, programs first). A malformed line (other than a truncated last
  /// line) is an error naming the file and line; so are a program id seen
  /// twice, a sample of an unknown program and a config outside its
  /// program's space. A folder without dataset files is an error.
  static llvm::Expected<Dataset> read(llvm::StringRef folder);
  /// Reads one shard's files, programs<suffix>.jsonl and
  /// samples<suffix>.jsonl, as `read` does; missing files read as empty.
  static llvm::Expected<Dataset> readShard(llvm::StringRef folder,
                                           llvm::StringRef suffix);
};

/// Appends records to one shard's files in a dataset folder
/// (programs<suffix>.jsonl, samples<suffix>.jsonl), creating them as needed.
class DatasetWriter {
public:
  /// Opens the shard's files for appending, creating the folder as needed.
  /// A last line without its newline left by a killed writer is removed
  /// when it is not a whole record, and completed when it is.
  static llvm::Expected<DatasetWriter> open(llvm::StringRef folder,
                                            llvm::StringRef suffix);
  /// Append one line and close the file, so that a kill loses at most the
  /// line being written.
  llvm::Error add(const ProgramRecord &program);
  llvm::Error add(const SampleRecord &sample, const Space &space);

  const std::string &programsPath() const { return programsFile; }
  const std::string &samplesPath() const { return samplesFile; }

private:
  std::string programsFile, samplesFile;
};

/// The file names of one shard: programs<suffix>.jsonl, samples<suffix>.jsonl.
std::string programsFileName(llvm::StringRef suffix);
std::string samplesFileName(llvm::StringRef suffix);

/// JSON forms used in the files (and by tools). Readers check types and
/// values (a known status, a config in the space, times of "ok" samples
/// positive) and name the offending field.
llvm::json::Value toJSON(const ProgramRecord &program);
llvm::Expected<ProgramRecord> programFromJSON(const llvm::json::Value &json);
llvm::json::Value toJSON(const SampleRecord &sample, const Space &space);
llvm::Expected<SampleRecord> sampleFromJSON(const llvm::json::Value &json,
                                            const Space &space);

} // namespace tuner

#endif // TUNER_COSTMODEL_DATASET_H
