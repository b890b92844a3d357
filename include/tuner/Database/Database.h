//===- Database.h - SQLite store of tuning measurements ---------*- C++ -*-===//
//
// Every measurement the tuner takes, successes and failures alike, keyed by
// the workload (a hash of its canonical IR, computed by the caller) and the
// target fingerprint (CPU model, features, cores; given by the caller). The
// store is one SQLite file in WAL mode; every record() is its own committed
// transaction, so a tuning run killed at any moment loses no finished
// measurement, and lookup() lets a rerun skip configs already measured.
//
// Schema (version 2):
//   meta(key TEXT PRIMARY KEY, value TEXT)   application = tuner,
//                                            schema_version = 2
//   workloads(hash, function_name, canonical_ir)
//   measurements(workload_hash, target, config, config_hash, status,
//                min_seconds, median_seconds, max_seconds, repetitions,
//                speedup, baseline_median_seconds, strategy, tool_version,
//                timestamp, message, objective, space_fingerprint, schedule)
// The status column accepts every name of tuner::Status (statusName). Schema
// 1 lacked the last three columns and accepted only the measuring
// evaluator's statuses. A file of schema 1 is read as it is in ReadOnly mode
// (objective null, space fingerprint and schedule empty) and migrated in
// place, in one transaction that keeps every row, when opened ReadWrite. A
// newer schema is refused.
// A measurement is identified by (workload, target, config hash, strategy,
// timestamp); the database holds at most one measurement per identity.
//
// JSON lines format (exportJsonLines / importJsonLines): one JSON object per
// line, each with a "kind" field.
//   {"kind":"workload", "workload":HASH, "function":NAME, "ir":TEXT?}
//   {"kind":"measurement", "workload":HASH, "target":FINGERPRINT,
//    "config":JSON-TEXT, "config_hash":"16 hex digits", "status":STATUS,
//    "min_s":NUM?, "median_s":NUM?, "max_s":NUM?, "repetitions":INT,
//    "speedup":NUM?, "baseline_median_s":NUM?, "strategy":NAME,
//    "tool_version":TEXT, "timestamp":INT, "message":TEXT,
//    "objective":NUM?, "space_fingerprint":"16 hex digits"?,
//    "schedule":TEXT?}
// Fields marked ? may be missing or null (absent; export writes null, but
// omits "ir" when no IR is stored, "objective" when absent, and
// "space_fingerprint" and "schedule" when empty, so that a record without
// them is written as a tuner of schema 1 wrote it); no other field is
// allowed. Numbers are
// written with 17 significant digits, so they round-trip exactly.
// "config" holds the config's canonical JSON text as a string, so that it
// round-trips byte for byte. A measurement line needs its workload in the
// database or on an earlier line. Export writes each workload line followed by
// that workload's measurements, workloads by hash, measurements in insertion
// order, keys sorted.
//
//===----------------------------------------------------------------------===//

#ifndef TUNER_DATABASE_DATABASE_H
#define TUNER_DATABASE_DATABASE_H

#include "tuner/Support/Measurement.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

struct sqlite3;

namespace tuner {
namespace db {

/// One program being tuned.
struct Workload {
  std::string hash;         ///< Hash of the canonical IR (caller-computed).
  std::string functionName; ///< The tuned function's name.
  std::optional<std::string> canonicalIR; ///< The canonical IR text, if kept.

  bool operator==(const Workload &other) const;
};

/// One measurement of one config of a workload on a target.
struct MeasurementRecord {
  std::string workloadHash;
  std::string target; ///< Target fingerprint (see Target::fingerprint()).
  std::string config; ///< The config as canonical JSON text.
  uint64_t configHash = 0;
  Status status = Status::Ok;
  /// Times in seconds; required for `ok`, optional for failures.
  std::optional<double> minSeconds, medianSeconds, maxSeconds;
  unsigned repetitions = 0;      ///< Timed repetitions; at least 1 for `ok`.
  std::optional<double> speedup; ///< Baseline median / median.
  std::optional<double> baselineMedianSeconds;
  std::string strategy;    ///< Search strategy that proposed the config.
  std::string toolVersion; ///< Version of the tuner that measured it.
  int64_t timestamp = 0;   ///< Unix seconds.
  std::string message;     ///< Free-form, e.g. a compiler error excerpt.
  /// The objective in the evaluator's own unit, for evaluators that report
  /// one besides times (a user's command: the number it printed).
  std::optional<double> objective;
  /// Space::fingerprint() of the space the config belongs to; empty when
  /// unknown (records of schema 1).
  std::string spaceFingerprint;
  /// The config's schedule as a Transform-dialect script, when the space
  /// has one (an MLIR function's); empty otherwise.
  std::string schedule;

  /// Whether the config may be read in the space of `fingerprint`: the
  /// record was made in that space, or does not say (schema 1).
  bool mayBeOfSpace(llvm::StringRef fingerprint) const {
    return spaceFingerprint.empty() || spaceFingerprint == fingerprint;
  }
  /// The spread of the repetitions (max - min), when both are known.
  std::optional<double> spreadSeconds() const;
  bool operator==(const MeasurementRecord &other) const;
};

/// Count of measurements per status.
struct StatusCounts {
  std::array<uint64_t, kNumStatuses> counts{};

  uint64_t get(Status status) const {
    return counts[static_cast<unsigned>(status)];
  }
  uint64_t total() const;
};

/// A workload's measurements on one target.
struct TargetRecords {
  std::string target;
  /// Each config's latest measurement (the one lookup() recalls): `ok`
  /// ones best first (as okRecordsBestFirst() ranks them), then failures,
  /// newest first.
  std::vector<MeasurementRecord> latest;
  /// Earlier measurements of configs measured again (e.g. confirmed after
  /// a search), newest first: no ranking or lookup counts them.
  std::vector<MeasurementRecord> superseded;
};

/// One (workload, target) pair with its measurement counts, for listings.
struct WorkloadSummary {
  std::string workloadHash;
  std::string functionName;
  std::string target;
  StatusCounts counts;
  /// Speedup of the best `ok` measurement (Database::best()), if any.
  std::optional<double> bestSpeedup;
};

/// A measurement as a line of exportJsonLines writes it (without the
/// newline).
std::string toJsonLine(const MeasurementRecord &record);

/// What importJsonLines did.
struct ImportStats {
  uint64_t workloadsAdded = 0;
  uint64_t measurementsAdded = 0;
  uint64_t measurementsSkipped = 0; ///< Already present (same identity).
};

/// The current time in unix seconds, for MeasurementRecord::timestamp.
int64_t unixNow();

/// The per-user default database path: `$XDG_DATA_HOME/tuner/tuning.db` when
/// XDG_DATA_HOME is set to an absolute path, else
/// `~/.local/share/tuner/tuning.db`. Fails when no home directory is known.
llvm::Expected<std::string> defaultDatabasePath();

/// An open tuning database. Move-only; closes the file on destruction.
class Database {
public:
  enum class Mode {
    /// Reading only: the file must exist and is opened read-only. (As with
    /// any SQLite reader of a WAL database, SQLite may leave empty -wal and
    /// -shm files beside it.)
    ReadOnly,
    /// Reading and writing: creates the file (and its folder) if missing.
    ReadWrite,
  };

  /// Opens the database at `path`. A file that is not an SQLite database, or
  /// an SQLite database that is not a tuner database of a known schema
  /// version, is an error naming the path and the problem, and is left
  /// untouched. A file of an older schema is migrated to kSchemaVersion when
  /// opened ReadWrite (in one transaction: on failure, an error and the file
  /// as it was) and read as it is when opened ReadOnly.
  static llvm::Expected<Database> open(llvm::StringRef path,
                                       Mode mode = Mode::ReadWrite);

  Database(Database &&other) noexcept;
  Database &operator=(Database &&other) noexcept;
  Database(const Database &) = delete;
  Database &operator=(const Database &) = delete;
  ~Database();

  /// The path this database was opened from.
  llvm::StringRef path() const { return dbPath; }
  /// The schema version this library writes (it reads every older one).
  static constexpr int64_t kSchemaVersion = 2;
  /// The schema version of the open file: kSchemaVersion, but for an older
  /// file opened ReadOnly, which is read as it is.
  int64_t schemaVersion() const { return fileSchemaVersion; }

  /// Adds a workload; when its hash is already known, keeps the stored
  /// function name and fills in the IR if it was missing.
  llvm::Error addWorkload(const Workload &workload);
  /// The workload with this exact hash, if present.
  llvm::Expected<std::optional<Workload>> getWorkload(llvm::StringRef hash);
  /// All workloads whose hash starts with `prefix`, by hash.
  llvm::Expected<std::vector<Workload>>
  findWorkloads(llvm::StringRef hashPrefix);

  /// Stores one measurement in its own committed transaction. Its workload
  /// must have been added; a measurement with the same identity (workload,
  /// target, config hash, strategy, timestamp) must not exist yet.
  llvm::Error record(const MeasurementRecord &record);

  /// The most recent measurement of a config, if any (for resuming a run).
  llvm::Expected<std::optional<MeasurementRecord>>
  lookup(llvm::StringRef workloadHash, llvm::StringRef target,
         uint64_t configHash);
  /// All measurements of a workload on a target, in insertion order.
  llvm::Expected<std::vector<MeasurementRecord>>
  records(llvm::StringRef workloadHash, llvm::StringRef target);
  /// All measurements of a workload, one group per target (by target), as
  /// `tuner-db show` lists them.
  llvm::Expected<std::vector<TargetRecords>>
  recordsByTarget(llvm::StringRef workloadHash);
  /// The `ok` measurement with the highest speedup (measured side by side
  /// with the baseline, as the autotune pass chooses; without a speedup, a
  /// user's objective, the lowest median), if any, among each config's
  /// latest measurement (the one lookup() recalls): a config measured
  /// again, e.g. confirmed after a search, is judged by the new
  /// measurement, and one whose latest measurement failed is not taken.
  llvm::Expected<std::optional<MeasurementRecord>>
  best(llvm::StringRef workloadHash, llvm::StringRef target);
  /// Every config's latest measurement of a workload on a target that is
  /// `ok`, best first: by descending speedup, then ascending median, then
  /// in insertion order (best() is the first).
  llvm::Expected<std::vector<MeasurementRecord>>
  okRecordsBestFirst(llvm::StringRef workloadHash, llvm::StringRef target);
  /// Measurements of a workload on a target, per status.
  llvm::Expected<StatusCounts> countByStatus(llvm::StringRef workloadHash,
                                             llvm::StringRef target);
  /// Every (workload, target) pair that has measurements, by hash and target,
  /// followed by workloads without any measurement (empty target).
  llvm::Expected<std::vector<WorkloadSummary>> summarize();

  /// Writes every workload and measurement as JSON lines (see the file
  /// comment for the format).
  llvm::Error exportJsonLines(llvm::raw_ostream &os);
  /// Imports JSON lines in one transaction: a malformed line is an error
  /// naming `sourceName` and the line number, and nothing is imported.
  /// Measurements already present are skipped, so importing twice is a no-op.
  llvm::Expected<ImportStats> importJsonLines(llvm::StringRef text,
                                              llvm::StringRef sourceName);

  /// Runs SQLite's integrity and foreign key checks; an error lists what
  /// they found.
  llvm::Error checkIntegrity();

private:
  struct SqliteCloser {
    void operator()(sqlite3 *handle) const;
  };
  using Handle = std::unique_ptr<sqlite3, SqliteCloser>;

  Database(std::string path, Handle handle, int64_t schemaVersion);

  std::string dbPath;
  Handle handle;
  int64_t fileSchemaVersion;
};

} // namespace db
} // namespace tuner

#endif // TUNER_DATABASE_DATABASE_H
