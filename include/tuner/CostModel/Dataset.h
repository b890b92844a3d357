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
// ignore with a warning and writers complete on resume.
//
//===----------------------------------------------------------------------===//

#ifndef TUNER_COSTMODEL_DATASET_H
#define TUNER_COSTMODEL_DATASET_H

#include "tuner/Analysis/ProgramTree.h"
#include "tuner/Space/Space.h"

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
  std::string target;         ///< Fingerprint of the measuring machine.
};

/// One measured config of a program.
struct SampleRecord {
  std::string programId;
  Config config;
  /// "ok" or a failure class (apply_failed, compile_failed, crashed,
  /// timeout, wrong_result).
  std::string status;
  double speedup = 0;       ///< Baseline median / median; 0 unless ok.
  double medianSeconds = 0; ///< 0 unless ok.
};

class Dataset {
public:
  std::vector<ProgramRecord> programs;
  std::vector<SampleRecord> samples;

  /// Index of each program id in `programs`.
  std::map<std::string, size_t> programIndex() const;

  /// Reads every programs*.jsonl / samples*.jsonl file of `folder`. A
  /// malformed line (other than a truncated last line) is an error naming
  /// the file and line; a sample of an unknown program is an error.
  static llvm::Expected<Dataset> read(llvm::StringRef folder);
};

/// Appends records to one shard's files in a dataset folder
/// (programs<suffix>.jsonl, samples<suffix>.jsonl), creating them as needed.
class DatasetWriter {
public:
  /// Opens the shard's files for appending; a truncated last line left by a
  /// killed writer is completed with a newline (the partial record is then
  /// skipped by readers).
  static llvm::Expected<DatasetWriter> open(llvm::StringRef folder,
                                            llvm::StringRef suffix);
  llvm::Error add(const ProgramRecord &program);
  llvm::Error add(const SampleRecord &sample, const Space &space);

  const std::string &programsPath() const { return programsFile; }
  const std::string &samplesPath() const { return samplesFile; }

private:
  std::string programsFile, samplesFile;
};

/// JSON forms used in the files (and by tools).
llvm::json::Value toJSON(const ProgramRecord &program);
llvm::Expected<ProgramRecord> programFromJSON(const llvm::json::Value &json);
llvm::json::Value toJSON(const SampleRecord &sample, const Space &space);
llvm::Expected<SampleRecord> sampleFromJSON(const llvm::json::Value &json,
                                            const Space &space);

} // namespace tuner

#endif // TUNER_COSTMODEL_DATASET_H
