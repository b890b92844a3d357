//===- Database.cpp - SQLite store of tuning measurements -----------------===//

#include "tuner/Database/Database.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/bit.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"

#include <sqlite3.h>

#include <chrono>
#include <cmath>

using namespace tuner;
using namespace tuner::db;
using llvm::Error;
using llvm::Expected;
using llvm::StringRef;
using llvm::Twine;

//===----------------------------------------------------------------------===//
// Statuses and plain values
//===----------------------------------------------------------------------===//

bool Workload::operator==(const Workload &other) const {
  return hash == other.hash && functionName == other.functionName &&
         canonicalIR == other.canonicalIR;
}

std::optional<double> MeasurementRecord::spreadSeconds() const {
  if (!minSeconds || !maxSeconds)
    return std::nullopt;
  return *maxSeconds - *minSeconds;
}

bool MeasurementRecord::operator==(const MeasurementRecord &other) const {
  return workloadHash == other.workloadHash && target == other.target &&
         config == other.config && configHash == other.configHash &&
         status == other.status && minSeconds == other.minSeconds &&
         medianSeconds == other.medianSeconds &&
         maxSeconds == other.maxSeconds && repetitions == other.repetitions &&
         speedup == other.speedup &&
         baselineMedianSeconds == other.baselineMedianSeconds &&
         strategy == other.strategy && toolVersion == other.toolVersion &&
         timestamp == other.timestamp && message == other.message &&
         objective == other.objective &&
         spaceFingerprint == other.spaceFingerprint &&
         schedule == other.schedule;
}

uint64_t StatusCounts::total() const {
  uint64_t sum = 0;
  for (uint64_t count : counts)
    sum += count;
  return sum;
}

int64_t db::unixNow() {
  return std::chrono::duration_cast<std::chrono::seconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

Expected<std::string> db::defaultDatabasePath() {
  llvm::SmallString<256> path;
  std::optional<std::string> xdg = llvm::sys::Process::GetEnv("XDG_DATA_HOME");
  if (xdg && !xdg->empty() && llvm::sys::path::is_absolute(*xdg)) {
    path = *xdg;
  } else {
    if (!llvm::sys::path::home_directory(path))
      return llvm::createStringError(
          "cannot find the home directory for the default tuning database; "
          "pass a database path");
    llvm::sys::path::append(path, ".local", "share");
  }
  llvm::sys::path::append(path, "tuner", "tuning.db");
  return std::string(path);
}

/// The config hash as SQLite stores it: the same 64 bits, read as signed.
static int64_t toSqlHash(uint64_t hash) {
  return llvm::bit_cast<int64_t>(hash);
}
static uint64_t fromSqlHash(int64_t hash) {
  return llvm::bit_cast<uint64_t>(hash);
}

static std::string formatConfigHash(uint64_t hash) {
  std::string text;
  llvm::raw_string_ostream(text) << llvm::format_hex_no_prefix(hash, 16);
  return text;
}

/// Whether `text` is exactly 16 hex digits (a config hash or a space
/// fingerprint).
static bool isHexHash(StringRef text) {
  return text.size() == 16 && llvm::all_of(text, llvm::isHexDigit);
}

/// Checks what the schema cannot: JSON config, sane times, complete `ok`.
static Error checkRecord(const MeasurementRecord &record) {
  if (record.workloadHash.empty())
    return llvm::createStringError("measurement has an empty workload hash");
  if (record.target.empty())
    return llvm::createStringError("measurement has an empty target");
  if (Expected<llvm::json::Value> config = llvm::json::parse(record.config);
      !config)
    return llvm::createStringError("config is not valid JSON: " +
                                   llvm::toString(config.takeError()));
  auto checkTime = [](const std::optional<double> &value,
                      StringRef name) -> Error {
    if (value && (!std::isfinite(*value) || *value < 0))
      return llvm::createStringError(name +
                                     " must be a finite, non-negative number");
    return Error::success();
  };
  if (Error err = checkTime(record.minSeconds, "min time"))
    return err;
  if (Error err = checkTime(record.medianSeconds, "median time"))
    return err;
  if (Error err = checkTime(record.maxSeconds, "max time"))
    return err;
  if (Error err = checkTime(record.baselineMedianSeconds, "baseline median"))
    return err;
  if (Error err = checkTime(record.speedup, "speedup"))
    return err;
  if (record.minSeconds && record.medianSeconds &&
      *record.minSeconds > *record.medianSeconds)
    return llvm::createStringError("min time exceeds median time");
  if (record.medianSeconds && record.maxSeconds &&
      *record.medianSeconds > *record.maxSeconds)
    return llvm::createStringError("median time exceeds max time");
  if (record.status == Status::Ok) {
    if (!record.minSeconds || !record.medianSeconds || !record.maxSeconds)
      return llvm::createStringError(
          "an 'ok' measurement needs min, median and max times");
    if (*record.medianSeconds <= 0)
      return llvm::createStringError(
          "an 'ok' measurement needs a positive median time");
    if (record.repetitions == 0)
      return llvm::createStringError(
          "an 'ok' measurement needs at least one repetition");
  }
  if (record.timestamp < 0)
    return llvm::createStringError("timestamp must not be negative");
  if (record.objective && !std::isfinite(*record.objective))
    return llvm::createStringError("objective must be a finite number");
  if (!record.spaceFingerprint.empty() && !isHexHash(record.spaceFingerprint))
    return llvm::createStringError(
        "space fingerprint '" + record.spaceFingerprint +
        "' is not 16 hex digits (Space::fingerprint())");
  return Error::success();
}

//===----------------------------------------------------------------------===//
// SQLite wrappers
//===----------------------------------------------------------------------===//

namespace {

/// "PATH: WHAT: SQLITE MESSAGE".
Error sqliteError(StringRef path, const Twine &what, sqlite3 *db) {
  return llvm::createStringError(path + ": " + what + ": " +
                                 (db ? sqlite3_errmsg(db) : "out of memory"));
}

/// A prepared statement, finalized on destruction. Bind errors are kept and
/// reported by the next step().
class Statement {
public:
  static Expected<Statement>
  prepare(sqlite3 *db, StringRef path, StringRef sql,
          const Twine &whatOnError = "cannot prepare a query") {
    sqlite3_stmt *stmt = nullptr;
    if (sqlite3_prepare_v2(db, sql.data(), static_cast<int>(sql.size()), &stmt,
                           nullptr) != SQLITE_OK)
      return sqliteError(path, whatOnError, db);
    return Statement(db, path, stmt);
  }

  Statement(Statement &&other) noexcept
      : db(other.db), path(other.path), stmt(other.stmt),
        bindFailed(other.bindFailed) {
    other.stmt = nullptr;
  }
  Statement &operator=(Statement &&) = delete;
  Statement(const Statement &) = delete;
  Statement &operator=(const Statement &) = delete;
  ~Statement() { sqlite3_finalize(stmt); }

  void bind(int index, StringRef text) {
    check(sqlite3_bind_text64(stmt, index, text.data(), text.size(),
                              SQLITE_TRANSIENT, SQLITE_UTF8));
  }
  void bind(int index, int64_t value) {
    check(sqlite3_bind_int64(stmt, index, value));
  }
  void bind(int index, const std::optional<double> &value) {
    check(value ? sqlite3_bind_double(stmt, index, *value)
                : sqlite3_bind_null(stmt, index));
  }
  void bind(int index, const std::optional<std::string> &value) {
    if (value)
      bind(index, StringRef(*value));
    else
      check(sqlite3_bind_null(stmt, index));
  }

  /// True when a row is ready, false when done.
  Expected<bool> step() {
    if (bindFailed)
      return sqliteError(path, "cannot bind a query parameter", db);
    int rc = sqlite3_step(stmt);
    if (rc == SQLITE_ROW)
      return true;
    if (rc == SQLITE_DONE)
      return false;
    return sqliteError(path, "query failed", db);
  }
  /// The extended result code of the last failed step().
  int extendedErrorCode() const { return sqlite3_extended_errcode(db); }

  bool isNull(int column) const {
    return sqlite3_column_type(stmt, column) == SQLITE_NULL;
  }
  int64_t getInt(int column) const {
    return sqlite3_column_int64(stmt, column);
  }
  std::optional<double> getOptionalDouble(int column) const {
    if (isNull(column))
      return std::nullopt;
    return sqlite3_column_double(stmt, column);
  }
  std::string getText(int column) const {
    const unsigned char *text = sqlite3_column_text(stmt, column);
    if (!text)
      return {};
    return std::string(reinterpret_cast<const char *>(text),
                       sqlite3_column_bytes(stmt, column));
  }
  std::optional<std::string> getOptionalText(int column) const {
    if (isNull(column))
      return std::nullopt;
    return getText(column);
  }

private:
  Statement(sqlite3 *db, StringRef path, sqlite3_stmt *stmt)
      : db(db), path(path), stmt(stmt) {}
  void check(int rc) {
    if (rc != SQLITE_OK)
      bindFailed = true;
  }

  sqlite3 *db;
  StringRef path;
  sqlite3_stmt *stmt;
  bool bindFailed = false;
};

/// Runs SQL without parameters or results.
Error execute(sqlite3 *db, StringRef path, const char *sql, const Twine &what) {
  if (sqlite3_exec(db, sql, nullptr, nullptr, nullptr) != SQLITE_OK)
    return sqliteError(path, what, db);
  return Error::success();
}

/// A write transaction, rolled back unless committed.
class Transaction {
public:
  static Expected<Transaction> begin(sqlite3 *db, StringRef path) {
    if (Error err =
            execute(db, path, "BEGIN IMMEDIATE", "cannot start a transaction"))
      return std::move(err);
    return Transaction(db, path);
  }
  Transaction(Transaction &&other) noexcept
      : db(other.db), path(other.path), open(other.open) {
    other.open = false;
  }
  Transaction &operator=(Transaction &&) = delete;
  ~Transaction() {
    if (open)
      sqlite3_exec(db, "ROLLBACK", nullptr, nullptr, nullptr);
  }
  Error commit() {
    if (Error err = execute(db, path, "COMMIT", "cannot commit a transaction"))
      return err;
    open = false;
    return Error::success();
  }

private:
  Transaction(sqlite3 *db, StringRef path) : db(db), path(path) {}
  sqlite3 *db;
  StringRef path;
  bool open = true;
};

/// The status names of tuner::Status as an SQL list: 'ok', 'apply_failed',
/// ... (the CHECK constraint of the status column).
std::string statusSqlList() {
  std::string list;
  for (unsigned i = 0; i < kNumStatuses; ++i) {
    if (i)
      list += ", ";
    list += "'" + statusName(static_cast<Status>(i)).str() + "'";
  }
  return list;
}

/// CREATE TABLE of the measurements table of the current schema, named
/// `name` (a migration builds it beside the old one, and must not find one
/// there).
std::string createMeasurementsSql(StringRef name, bool ifNotExists) {
  return std::string("CREATE TABLE ") + (ifNotExists ? "IF NOT EXISTS " : "") +
         name.str() + R"sql((
  id INTEGER PRIMARY KEY,
  workload_hash TEXT NOT NULL REFERENCES workloads(hash),
  target TEXT NOT NULL,
  config TEXT NOT NULL,
  config_hash INTEGER NOT NULL,
  status TEXT NOT NULL CHECK (status IN ()sql" +
         statusSqlList() + R"sql()),
  min_seconds REAL,
  median_seconds REAL,
  max_seconds REAL,
  repetitions INTEGER NOT NULL,
  speedup REAL,
  baseline_median_seconds REAL,
  strategy TEXT NOT NULL,
  tool_version TEXT NOT NULL,
  timestamp INTEGER NOT NULL,
  message TEXT NOT NULL,
  objective REAL,
  space_fingerprint TEXT NOT NULL DEFAULT '',
  schedule TEXT NOT NULL DEFAULT '',
  UNIQUE(workload_hash, target, config_hash, strategy, timestamp));
)sql";
}

/// The whole schema of the current version.
std::string createSchemaSql() {
  return R"sql(
CREATE TABLE IF NOT EXISTS meta(
  key TEXT PRIMARY KEY NOT NULL,
  value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS workloads(
  hash TEXT PRIMARY KEY NOT NULL,
  function_name TEXT NOT NULL,
  canonical_ir TEXT);
)sql" + createMeasurementsSql("measurements", /*ifNotExists=*/true);
}

/// The columns of a measurement in schema 1, which every later schema has.
constexpr const char *kVersion1Columns =
    "workload_hash, target, config, config_hash, status, min_seconds, "
    "median_seconds, max_seconds, repetitions, speedup, "
    "baseline_median_seconds, strategy, tool_version, timestamp, message";

/// The columns that readRecord reads, from a file of schema `version`: the
/// columns schema 2 added read as their defaults in a file of schema 1.
std::string recordColumns(int64_t version) {
  return std::string(kVersion1Columns) +
         (version >= 2 ? ", objective, space_fingerprint, schedule"
                       : ", NULL, '', ''");
}

/// A statement selecting every record column of the measurements that
/// `clause` (WHERE / ORDER BY / LIMIT) picks, in a file of schema `version`.
Expected<Statement> prepareRecordQuery(sqlite3 *db, StringRef path,
                                       int64_t version, StringRef clause) {
  return Statement::prepare(db, path,
                            "SELECT " + recordColumns(version) +
                                " FROM measurements " + clause.str());
}

/// Reads the columns of recordColumns() from the current row.
Expected<MeasurementRecord> readRecord(const Statement &stmt, StringRef path) {
  MeasurementRecord record;
  record.workloadHash = stmt.getText(0);
  record.target = stmt.getText(1);
  record.config = stmt.getText(2);
  record.configHash = fromSqlHash(stmt.getInt(3));
  std::string status = stmt.getText(4);
  std::optional<Status> parsed = parseStatus(status);
  if (!parsed)
    return llvm::createStringError(path + ": a measurement of workload '" +
                                   record.workloadHash +
                                   "' has an unknown status '" + status + "'");
  record.status = *parsed;
  record.minSeconds = stmt.getOptionalDouble(5);
  record.medianSeconds = stmt.getOptionalDouble(6);
  record.maxSeconds = stmt.getOptionalDouble(7);
  record.repetitions = static_cast<unsigned>(stmt.getInt(8));
  record.speedup = stmt.getOptionalDouble(9);
  record.baselineMedianSeconds = stmt.getOptionalDouble(10);
  record.strategy = stmt.getText(11);
  record.toolVersion = stmt.getText(12);
  record.timestamp = stmt.getInt(13);
  record.message = stmt.getText(14);
  record.objective = stmt.getOptionalDouble(15);
  record.spaceFingerprint = stmt.getText(16);
  record.schedule = stmt.getText(17);
  return record;
}

/// Runs a query of recordColumns() and collects every row.
Expected<std::vector<MeasurementRecord>> readRecords(Statement &stmt,
                                                     StringRef path) {
  std::vector<MeasurementRecord> result;
  while (true) {
    Expected<bool> row = stmt.step();
    if (!row)
      return row.takeError();
    if (!*row)
      return result;
    Expected<MeasurementRecord> record = readRecord(stmt, path);
    if (!record)
      return record.takeError();
    result.push_back(std::move(*record));
  }
}

/// The single record of a query with LIMIT 1, if any.
Expected<std::optional<MeasurementRecord>> readOptionalRecord(Statement &stmt,
                                                              StringRef path) {
  Expected<std::vector<MeasurementRecord>> records = readRecords(stmt, path);
  if (!records)
    return records.takeError();
  if (records->empty())
    return std::nullopt;
  return std::move(records->front());
}

/// Reads one meta value; std::nullopt when the key is missing.
Expected<std::optional<std::string>> readMeta(sqlite3 *db, StringRef path,
                                              StringRef key) {
  Expected<Statement> stmt = Statement::prepare(
      db, path, "SELECT value FROM meta WHERE key = ?1",
      "is an SQLite database of another application (its 'meta' table is "
      "not the tuner's); refusing to use it");
  if (!stmt)
    return stmt.takeError();
  stmt->bind(1, key);
  Expected<bool> row = stmt->step();
  if (!row)
    return row.takeError();
  if (!*row)
    return std::nullopt;
  return stmt->getText(0);
}

/// Checks that `db` is empty (returns 0) or a tuner database of a schema
/// version this code reads (returns that version). Reads only.
Expected<int64_t> validateSchema(sqlite3 *db, StringRef path) {
  static constexpr StringRef kUnreadable = "cannot read the database schema";
  Expected<Statement> stmt = Statement::prepare(
      db, path,
      "SELECT type, name FROM sqlite_schema WHERE name NOT LIKE 'sqlite_%' "
      "ORDER BY name",
      kUnreadable);
  if (!stmt)
    return stmt.takeError();
  llvm::StringSet<> tables;
  std::vector<std::string> names;
  bool anything = false;
  while (true) {
    Expected<bool> row = stmt->step();
    if (!row) {
      llvm::consumeError(row.takeError());
      return sqliteError(path, kUnreadable, db);
    }
    if (!*row)
      break;
    anything = true;
    if (stmt->getText(0) == "table") {
      tables.insert(stmt->getText(1));
      names.push_back(stmt->getText(1));
    }
  }
  if (!anything)
    return 0;
  if (!tables.contains("meta"))
    return llvm::createStringError(
        path + ": is an SQLite database of another application (tables: " +
        llvm::join(names, ", ") + "; no 'meta' table); refusing to use it");
  Expected<std::optional<std::string>> application =
      readMeta(db, path, "application");
  if (!application)
    return application.takeError();
  if (!*application || **application != "tuner")
    return llvm::createStringError(
        path + ": is an SQLite database of another application (its 'meta' " +
        "table has application = '" + application->value_or("") +
        "', not 'tuner'); refusing to use it");
  Expected<std::optional<std::string>> version =
      readMeta(db, path, "schema_version");
  if (!version)
    return version.takeError();
  int64_t number = 0;
  if (!*version || StringRef(**version).getAsInteger(10, number) || number < 1)
    return llvm::createStringError(path + ": has an unknown schema version '" +
                                   version->value_or("") +
                                   "'; refusing to use it");
  if (number > Database::kSchemaVersion)
    return llvm::createStringError(
        path + ": has schema version " + Twine(number) +
        ", newer than the version this tuner supports (" +
        Twine(Database::kSchemaVersion) +
        "); use a newer tuner. The file was not changed");
  for (StringRef table : {"workloads", "measurements"})
    if (!tables.contains(table))
      return llvm::createStringError(path +
                                     ": is a tuner database without a '" +
                                     table + "' table; refusing to use it");
  return number;
}

enum class FileState { Missing, Empty, SQLite };

/// Checks the file before SQLite sees it: it is missing, empty, or starts
/// with the SQLite header.
Expected<FileState> checkFile(StringRef path) {
  llvm::sys::fs::file_status status;
  if (std::error_code ec = llvm::sys::fs::status(path, status)) {
    if (ec == std::errc::no_such_file_or_directory)
      return FileState::Missing;
    return llvm::createStringError(ec,
                                   path + ": cannot access: " + ec.message());
  }
  if (status.type() != llvm::sys::fs::file_type::regular_file)
    return llvm::createStringError(path + ": is not a regular file");
  if (status.getSize() == 0)
    return FileState::Empty;
  static constexpr StringRef kMagic("SQLite format 3\0", 16);
  llvm::Expected<llvm::sys::fs::file_t> file =
      llvm::sys::fs::openNativeFileForRead(path);
  if (!file)
    return llvm::createStringError(
        path + ": cannot read: " + llvm::toString(file.takeError()));
  char header[16] = {};
  Expected<size_t> bytes = llvm::sys::fs::readNativeFile(
      *file, llvm::MutableArrayRef<char>(header, sizeof(header)));
  llvm::sys::fs::closeFile(*file);
  if (!bytes)
    return llvm::createStringError(
        path + ": cannot read: " + llvm::toString(bytes.takeError()));
  if (StringRef(header, *bytes) != kMagic)
    return llvm::createStringError(
        path + ": is not an SQLite database (its first bytes are not the "
               "SQLite header); refusing to use it. The file was not changed");
  return FileState::SQLite;
}

struct CloseConnection {
  void operator()(sqlite3 *db) const { sqlite3_close_v2(db); }
};
using Connection = std::unique_ptr<sqlite3, CloseConnection>;

/// Opens an SQLite connection to `name` (a path, or a URI with
/// SQLITE_OPEN_URI); errors name `path`.
Expected<Connection> connect(StringRef path, const std::string &name,
                             int flags) {
  sqlite3 *raw = nullptr;
  int rc = sqlite3_open_v2(name.c_str(), &raw, flags, nullptr);
  Connection connection(raw);
  if (rc != SQLITE_OK)
    return sqliteError(path, "cannot open", raw);
  sqlite3_extended_result_codes(raw, 1);
  sqlite3_busy_timeout(raw, 5000);
  return connection;
}

/// A `file:` URI that opens `path` as immutable: SQLite then reads the file
/// alone and creates no -wal or -shm beside it.
std::string immutableUri(StringRef path) {
  llvm::SmallString<256> absolute(path);
  llvm::sys::fs::make_absolute(absolute);
  std::string uri = "file://";
  llvm::raw_string_ostream os(uri);
  for (char c : absolute) {
    if (c == '%' || c == '?' || c == '#')
      os << '%'
         << llvm::format_hex_no_prefix(static_cast<unsigned char>(c), 2,
                                       /*Upper=*/true);
    else
      os << c;
  }
  os << "?immutable=1";
  return uri;
}

/// Validates an existing SQLite file through a read-only connection, so that
/// a file we refuse is never written, checkpointed or switched to WAL. Without
/// a -wal file, everything is in the main file and the connection is
/// immutable, leaving nothing behind; with one, SQLite must read it.
Expected<int64_t> validateFile(StringRef path) {
  bool hasWal = llvm::sys::fs::exists(path + "-wal");
  Expected<Connection> probe =
      hasWal ? connect(path, path.str(), SQLITE_OPEN_READONLY)
             : connect(path, immutableUri(path),
                       SQLITE_OPEN_READONLY | SQLITE_OPEN_URI);
  if (!probe)
    return probe.takeError();
  return validateSchema(probe->get(), path);
}

/// Inserts a workload unless its hash is known, then fills in a missing IR.
/// Returns whether the workload was new.
Expected<bool> upsertWorkload(sqlite3 *db, StringRef path,
                              const Workload &workload) {
  if (workload.hash.empty())
    return llvm::createStringError(path + ": workload has an empty hash");
  Expected<Statement> insert = Statement::prepare(
      db, path,
      "INSERT INTO workloads(hash, function_name, canonical_ir) "
      "VALUES (?1, ?2, ?3) ON CONFLICT(hash) DO NOTHING");
  if (!insert)
    return insert.takeError();
  insert->bind(1, StringRef(workload.hash));
  insert->bind(2, StringRef(workload.functionName));
  insert->bind(3, workload.canonicalIR);
  if (Expected<bool> done = insert->step(); !done)
    return done.takeError();
  bool added = sqlite3_changes(db) > 0;
  if (added || !workload.canonicalIR)
    return added;
  Expected<Statement> update =
      Statement::prepare(db, path,
                         "UPDATE workloads SET canonical_ir = ?2 "
                         "WHERE hash = ?1 AND canonical_ir IS NULL");
  if (!update)
    return update.takeError();
  update->bind(1, StringRef(workload.hash));
  update->bind(2, workload.canonicalIR);
  if (Expected<bool> done = update->step(); !done)
    return done.takeError();
  return false;
}

enum class InsertResult { Added, Duplicate };

/// Inserts a checked measurement. A duplicate identity is an error unless
/// `skipDuplicate`.
Expected<InsertResult> insertRecord(sqlite3 *db, StringRef path,
                                    const MeasurementRecord &record,
                                    bool skipDuplicate) {
  std::string sql = "INSERT INTO measurements(" +
                    recordColumns(Database::kSchemaVersion) +
                    ") VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, "
                    "?12, ?13, ?14, ?15, ?16, ?17, ?18)";
  if (skipDuplicate)
    sql += " ON CONFLICT(workload_hash, target, config_hash, strategy, "
           "timestamp) DO NOTHING";
  Expected<Statement> stmt = Statement::prepare(db, path, sql);
  if (!stmt)
    return stmt.takeError();
  stmt->bind(1, StringRef(record.workloadHash));
  stmt->bind(2, StringRef(record.target));
  stmt->bind(3, StringRef(record.config));
  stmt->bind(4, toSqlHash(record.configHash));
  stmt->bind(5, statusName(record.status));
  stmt->bind(6, record.minSeconds);
  stmt->bind(7, record.medianSeconds);
  stmt->bind(8, record.maxSeconds);
  stmt->bind(9, static_cast<int64_t>(record.repetitions));
  stmt->bind(10, record.speedup);
  stmt->bind(11, record.baselineMedianSeconds);
  stmt->bind(12, StringRef(record.strategy));
  stmt->bind(13, StringRef(record.toolVersion));
  stmt->bind(14, record.timestamp);
  stmt->bind(15, StringRef(record.message));
  stmt->bind(16, record.objective);
  stmt->bind(17, StringRef(record.spaceFingerprint));
  stmt->bind(18, StringRef(record.schedule));
  Expected<bool> done = stmt->step();
  if (done)
    return sqlite3_changes(db) > 0 ? InsertResult::Added
                                   : InsertResult::Duplicate;
  int code = stmt->extendedErrorCode();
  if (code == SQLITE_CONSTRAINT_FOREIGNKEY) {
    llvm::consumeError(done.takeError());
    return llvm::createStringError(path + ": workload '" + record.workloadHash +
                                   "' is not in the database; add it first");
  }
  if (code == SQLITE_CONSTRAINT_UNIQUE) {
    llvm::consumeError(done.takeError());
    return llvm::createStringError(
        path + ": a measurement of config " +
        formatConfigHash(record.configHash) + " of workload '" +
        record.workloadHash + "' on target '" + record.target +
        "' by strategy '" + record.strategy + "' at timestamp " +
        Twine(record.timestamp) + " is already stored");
  }
  return done.takeError();
}

/// Prefixes an error's message with `prefix`.
Error prefixError(Error err, const Twine &prefix) {
  return llvm::createStringError(prefix + ": " +
                                 llvm::toString(std::move(err)));
}

/// The single integer a query without parameters returns.
Expected<int64_t> queryInt(sqlite3 *db, StringRef path, StringRef sql) {
  Expected<Statement> stmt = Statement::prepare(db, path, sql);
  if (!stmt)
    return stmt.takeError();
  Expected<bool> row = stmt->step();
  if (!row)
    return row.takeError();
  if (!*row)
    return llvm::createStringError(path + ": '" + sql + "' returned no row");
  return stmt->getInt(0);
}

/// Migrates a database of schema 1 to the current schema in one
/// transaction: the measurements table is rebuilt (its status CHECK
/// constraint changes and it gains the objective, space fingerprint and
/// schedule columns), keeping every row and its id. Foreign keys must be off
/// (SQLite's procedure for changing a table's definition).
Error migrate(sqlite3 *db, StringRef path) {
  auto failed = [&](Error err) {
    return prefixError(std::move(err),
                       path + ": cannot migrate from schema version 1 to " +
                           Twine(Database::kSchemaVersion) +
                           " (the file was not changed)");
  };
  Expected<Transaction> txn = Transaction::begin(db, path);
  if (!txn)
    return failed(txn.takeError());
  // Another process may have migrated it since it was validated.
  Expected<std::optional<std::string>> version =
      readMeta(db, path, "schema_version");
  if (!version)
    return failed(version.takeError());
  if (*version != std::optional<std::string>("1"))
    return txn->commit();

  // Indexes of the old table (other than its implicit ones) are recreated.
  std::vector<std::string> indexes;
  {
    Expected<Statement> stmt = Statement::prepare(
        db, path,
        "SELECT sql FROM sqlite_schema WHERE type = 'index' AND "
        "tbl_name = 'measurements' AND sql IS NOT NULL");
    if (!stmt)
      return failed(stmt.takeError());
    while (true) {
      Expected<bool> row = stmt->step();
      if (!row)
        return failed(row.takeError());
      if (!*row)
        break;
      indexes.push_back(stmt->getText(0));
    }
  }
  Expected<int64_t> before =
      queryInt(db, path, "SELECT COUNT(*) FROM measurements");
  if (!before)
    return failed(before.takeError());
  std::string copy = std::string("INSERT INTO measurements_migrated(id, ") +
                     kVersion1Columns + ") SELECT id, " + kVersion1Columns +
                     " FROM measurements ORDER BY id";
  if (Error err = execute(db, path,
                          createMeasurementsSql("measurements_migrated",
                                                /*ifNotExists=*/false)
                              .c_str(),
                          "cannot create the new measurements table"))
    return failed(std::move(err));
  if (Error err =
          execute(db, path, copy.c_str(), "cannot copy the measurements"))
    return failed(std::move(err));
  Expected<int64_t> after =
      queryInt(db, path, "SELECT COUNT(*) FROM measurements_migrated");
  if (!after)
    return failed(after.takeError());
  if (*after != *before)
    return failed(llvm::createStringError("copied " + Twine(*after) + " of " +
                                          Twine(*before) + " measurements"));
  if (Error err = execute(db, path, "DROP TABLE measurements",
                          "cannot drop the old measurements table"))
    return failed(std::move(err));
  if (Error err = execute(
          db, path, "ALTER TABLE measurements_migrated RENAME TO measurements",
          "cannot rename the new measurements table"))
    return failed(std::move(err));
  for (const std::string &index : indexes)
    if (Error err =
            execute(db, path, index.c_str(), "cannot recreate an index"))
      return failed(std::move(err));
  Expected<int64_t> dangling =
      queryInt(db, path, "SELECT COUNT(*) FROM pragma_foreign_key_check");
  if (!dangling)
    return failed(dangling.takeError());
  if (*dangling)
    return failed(llvm::createStringError(
        Twine(*dangling) + " rows refer to missing rows after the migration"));
  Expected<Statement> meta = Statement::prepare(
      db, path, "UPDATE meta SET value = ?1 WHERE key = 'schema_version'");
  if (!meta)
    return failed(meta.takeError());
  meta->bind(1, StringRef(std::to_string(Database::kSchemaVersion)));
  if (Expected<bool> done = meta->step(); !done)
    return failed(done.takeError());
  if (Error err = txn->commit())
    return failed(std::move(err));
  return Error::success();
}

} // namespace

//===----------------------------------------------------------------------===//
// Opening
//===----------------------------------------------------------------------===//

void Database::SqliteCloser::operator()(sqlite3 *handle) const {
  sqlite3_close_v2(handle);
}

Database::Database(std::string path, Handle handle, int64_t schemaVersion)
    : dbPath(std::move(path)), handle(std::move(handle)),
      fileSchemaVersion(schemaVersion) {}
Database::Database(Database &&other) noexcept = default;
Database &Database::operator=(Database &&other) noexcept = default;
Database::~Database() = default;

Expected<Database> Database::open(StringRef pathRef, Mode mode) {
  std::string path = pathRef.str();
  if (path.empty())
    return llvm::createStringError("the tuning database path is empty");
  Expected<FileState> state = checkFile(path);
  if (!state)
    return state.takeError();
  bool readOnly = mode == Mode::ReadOnly;
  if (*state == FileState::Missing) {
    if (readOnly)
      return llvm::createStringError(
          path + ": no tuning database here (no such file)");
    StringRef parent = llvm::sys::path::parent_path(path);
    if (!parent.empty())
      if (std::error_code ec = llvm::sys::fs::create_directories(parent))
        return llvm::createStringError(ec, "cannot create the folder '" +
                                               parent + "' for " + path + ": " +
                                               ec.message());
  }
  int64_t version = 0; // 0: a fresh database.
  if (*state == FileState::SQLite) {
    Expected<int64_t> valid = validateFile(path);
    if (!valid)
      return valid.takeError();
    version = *valid;
  }
  bool initialized = version > 0;
  if (!initialized && readOnly)
    return llvm::createStringError(path +
                                   ": holds no tuning database (it is empty)");

  Expected<Connection> connection =
      connect(path, path,
              readOnly ? SQLITE_OPEN_READONLY
                       : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE);
  if (!connection)
    return connection.takeError();
  Handle handle(connection->release());
  sqlite3 *db = handle.get();
  if (!readOnly) {
    Expected<Statement> wal =
        Statement::prepare(db, path, "PRAGMA journal_mode = WAL");
    if (!wal)
      return wal.takeError();
    Expected<bool> row = wal->step();
    if (!row)
      return row.takeError();
    if (!*row || wal->getText(0) != "wal")
      return llvm::createStringError(path +
                                     ": cannot switch to WAL journal mode");
    // FULL: a committed measurement survives a power loss, not just a kill.
    if (Error err = execute(db, path, "PRAGMA synchronous = FULL",
                            "cannot set synchronous mode"))
      return std::move(err);
  }
  if (!initialized) {
    Expected<Transaction> txn = Transaction::begin(db, path);
    if (!txn)
      return txn.takeError();
    if (Error err = execute(db, path, createSchemaSql().c_str(),
                            "cannot create the schema"))
      return std::move(err);
    Expected<Statement> meta =
        Statement::prepare(db, path,
                           "INSERT OR IGNORE INTO meta(key, value) VALUES "
                           "('application', 'tuner'), ('schema_version', ?1)");
    if (!meta)
      return meta.takeError();
    meta->bind(1, StringRef(std::to_string(kSchemaVersion)));
    if (Expected<bool> done = meta->step(); !done)
      return done.takeError();
    if (Error err = txn->commit())
      return std::move(err);
    version = kSchemaVersion;
  }
  // A file of an older schema is read as it is, and migrated when opened
  // for writing.
  if (!readOnly && version < kSchemaVersion) {
    if (Error err = execute(db, path, "PRAGMA foreign_keys = OFF",
                            "cannot disable foreign keys to migrate"))
      return std::move(err);
    if (Error err = migrate(db, path))
      return std::move(err);
    version = kSchemaVersion;
  }
  if (Error err = execute(db, path, "PRAGMA foreign_keys = ON",
                          "cannot enable foreign keys"))
    return std::move(err);
  return Database(std::move(path), std::move(handle), version);
}

//===----------------------------------------------------------------------===//
// Writing and reading
//===----------------------------------------------------------------------===//

Error Database::addWorkload(const Workload &workload) {
  Expected<bool> added = upsertWorkload(handle.get(), dbPath, workload);
  if (!added)
    return added.takeError();
  return Error::success();
}

Expected<std::optional<Workload>> Database::getWorkload(StringRef hash) {
  Expected<Statement> stmt = Statement::prepare(
      handle.get(), dbPath,
      "SELECT hash, function_name, canonical_ir FROM workloads "
      "WHERE hash = ?1");
  if (!stmt)
    return stmt.takeError();
  stmt->bind(1, hash);
  Expected<bool> row = stmt->step();
  if (!row)
    return row.takeError();
  if (!*row)
    return std::nullopt;
  return Workload{stmt->getText(0), stmt->getText(1), stmt->getOptionalText(2)};
}

Expected<std::vector<Workload>> Database::findWorkloads(StringRef hashPrefix) {
  Expected<Statement> stmt = Statement::prepare(
      handle.get(), dbPath,
      "SELECT hash, function_name, canonical_ir FROM workloads "
      "WHERE substr(hash, 1, length(?1)) = ?1 ORDER BY hash");
  if (!stmt)
    return stmt.takeError();
  stmt->bind(1, hashPrefix);
  std::vector<Workload> result;
  while (true) {
    Expected<bool> row = stmt->step();
    if (!row)
      return row.takeError();
    if (!*row)
      return result;
    result.push_back(
        {stmt->getText(0), stmt->getText(1), stmt->getOptionalText(2)});
  }
}

Error Database::record(const MeasurementRecord &record) {
  if (Error err = checkRecord(record))
    return prefixError(std::move(err), dbPath);
  Expected<InsertResult> inserted =
      insertRecord(handle.get(), dbPath, record, /*skipDuplicate=*/false);
  if (!inserted)
    return inserted.takeError();
  return Error::success();
}

/// A record that no later record of the same config (workload, target and
/// config hash) supersedes: what lookup() recalls, and the only record of
/// its config that best() and okRecordsBestFirst() rank. A config measured
/// again (e.g. confirmed after a search) is known by its latest measurement.
static constexpr const char *kLatestOfItsConfig =
    "NOT EXISTS (SELECT 1 FROM measurements AS later WHERE "
    "later.workload_hash = measurements.workload_hash AND "
    "later.target = measurements.target AND "
    "later.config_hash = measurements.config_hash AND "
    "(later.timestamp > measurements.timestamp OR "
    "(later.timestamp = measurements.timestamp AND "
    "later.id > measurements.id)))";

/// The ORDER BY keys of ok records best first: by the speedup measured side
/// by side with the baseline (the pass chooses by it too), then, for records
/// without one (a user's objective), by the median, then by age. `onlyWhen` (an
/// SQL condition, empty: always) restricts the keys to the rows it holds for;
/// the others tie.
static std::string bestFirst(StringRef onlyWhen = "") {
  struct Key {
    const char *expression;
    bool descending;
  };
  static constexpr Key kKeys[] = {{"speedup IS NULL", false},
                                  {"speedup", true},
                                  {"median_seconds", false},
                                  {"id", false}};
  std::string keys;
  for (const Key &key : kKeys) {
    if (!keys.empty())
      keys += ", ";
    keys += onlyWhen.empty() ? std::string(key.expression)
                             : "CASE WHEN " + onlyWhen.str() + " THEN " +
                                   key.expression + " END";
    if (key.descending)
      keys += " DESC";
  }
  return keys;
}

Expected<std::optional<MeasurementRecord>>
Database::lookup(StringRef workloadHash, StringRef target,
                 uint64_t configHash) {
  Expected<Statement> stmt = prepareRecordQuery(
      handle.get(), dbPath, fileSchemaVersion,
      "WHERE workload_hash = ?1 AND target = ?2 AND config_hash = ?3 AND " +
          std::string(kLatestOfItsConfig));
  if (!stmt)
    return stmt.takeError();
  stmt->bind(1, workloadHash);
  stmt->bind(2, target);
  stmt->bind(3, toSqlHash(configHash));
  return readOptionalRecord(*stmt, dbPath);
}

Expected<std::vector<MeasurementRecord>>
Database::records(StringRef workloadHash, StringRef target) {
  Expected<Statement> stmt =
      prepareRecordQuery(handle.get(), dbPath, fileSchemaVersion,
                         "WHERE workload_hash = ?1 AND target = ?2 "
                         "ORDER BY id");
  if (!stmt)
    return stmt.takeError();
  stmt->bind(1, workloadHash);
  stmt->bind(2, target);
  return readRecords(*stmt, dbPath);
}

Expected<std::vector<TargetRecords>>
Database::recordsByTarget(StringRef workloadHash) {
  auto query = [&](const std::string &clause)
      -> Expected<std::vector<MeasurementRecord>> {
    Expected<Statement> stmt =
        prepareRecordQuery(handle.get(), dbPath, fileSchemaVersion, clause);
    if (!stmt)
      return stmt.takeError();
    stmt->bind(1, workloadHash);
    return readRecords(*stmt, dbPath);
  };
  Expected<std::vector<MeasurementRecord>> latestRecords =
      query("WHERE workload_hash = ?1 AND " + std::string(kLatestOfItsConfig) +
            " ORDER BY target, status <> 'ok', " + bestFirst("status = 'ok'") +
            ", timestamp DESC, id DESC");
  if (!latestRecords)
    return latestRecords.takeError();
  Expected<std::vector<MeasurementRecord>> earlierRecords = query(
      "WHERE workload_hash = ?1 AND NOT " + std::string(kLatestOfItsConfig) +
      " ORDER BY target, timestamp DESC, id DESC");
  if (!earlierRecords)
    return earlierRecords.takeError();
  // Every superseded record's config has a latest record on its target, so
  // the targets of the first query are all the targets.
  std::vector<TargetRecords> groups;
  for (MeasurementRecord &record : *latestRecords) {
    if (groups.empty() || groups.back().target != record.target)
      groups.push_back(TargetRecords{record.target, {}, {}});
    groups.back().latest.push_back(std::move(record));
  }
  for (MeasurementRecord &record : *earlierRecords) {
    auto group = llvm::find_if(groups, [&](const TargetRecords &group) {
      return group.target == record.target;
    });
    assert(group != groups.end() && "a superseded record without a latest");
    group->superseded.push_back(std::move(record));
  }
  return groups;
}

Expected<std::optional<MeasurementRecord>>
Database::best(StringRef workloadHash, StringRef target) {
  Expected<Statement> stmt =
      prepareRecordQuery(handle.get(), dbPath, fileSchemaVersion,
                         "WHERE workload_hash = ?1 AND target = ?2 AND "
                         "status = 'ok' AND " +
                             std::string(kLatestOfItsConfig) + " ORDER BY " +
                             bestFirst() + " LIMIT 1");
  if (!stmt)
    return stmt.takeError();
  stmt->bind(1, workloadHash);
  stmt->bind(2, target);
  return readOptionalRecord(*stmt, dbPath);
}

Expected<std::vector<MeasurementRecord>>
Database::okRecordsBestFirst(StringRef workloadHash, StringRef target) {
  Expected<Statement> stmt = prepareRecordQuery(
      handle.get(), dbPath, fileSchemaVersion,
      "WHERE workload_hash = ?1 AND target = ?2 AND "
      "status = 'ok' AND " +
          std::string(kLatestOfItsConfig) + " ORDER BY " + bestFirst());
  if (!stmt)
    return stmt.takeError();
  stmt->bind(1, workloadHash);
  stmt->bind(2, target);
  return readRecords(*stmt, dbPath);
}

Expected<StatusCounts> Database::countByStatus(StringRef workloadHash,
                                               StringRef target) {
  Expected<Statement> stmt = Statement::prepare(
      handle.get(), dbPath,
      "SELECT status, COUNT(*) FROM measurements "
      "WHERE workload_hash = ?1 AND target = ?2 GROUP BY status");
  if (!stmt)
    return stmt.takeError();
  stmt->bind(1, workloadHash);
  stmt->bind(2, target);
  StatusCounts counts;
  while (true) {
    Expected<bool> row = stmt->step();
    if (!row)
      return row.takeError();
    if (!*row)
      return counts;
    std::string name = stmt->getText(0);
    std::optional<Status> status = parseStatus(name);
    if (!status)
      return llvm::createStringError(dbPath + ": a measurement of workload '" +
                                     workloadHash +
                                     "' has an unknown status '" + name + "'");
    counts.counts[static_cast<unsigned>(*status)] = stmt->getInt(1);
  }
}

Expected<std::vector<WorkloadSummary>> Database::summarize() {
  std::vector<WorkloadSummary> result;
  {
    Expected<Statement> stmt = Statement::prepare(
        handle.get(), dbPath,
        "SELECT m.workload_hash, w.function_name, m.target FROM measurements m "
        "JOIN workloads w ON w.hash = m.workload_hash "
        "GROUP BY m.workload_hash, m.target ORDER BY m.workload_hash, "
        "m.target");
    if (!stmt)
      return stmt.takeError();
    while (true) {
      Expected<bool> row = stmt->step();
      if (!row)
        return row.takeError();
      if (!*row)
        break;
      WorkloadSummary summary;
      summary.workloadHash = stmt->getText(0);
      summary.functionName = stmt->getText(1);
      summary.target = stmt->getText(2);
      result.push_back(std::move(summary));
    }
  }
  for (WorkloadSummary &summary : result) {
    Expected<StatusCounts> counts =
        countByStatus(summary.workloadHash, summary.target);
    if (!counts)
      return counts.takeError();
    summary.counts = *counts;
    Expected<std::optional<MeasurementRecord>> bestRecord =
        best(summary.workloadHash, summary.target);
    if (!bestRecord)
      return bestRecord.takeError();
    if (*bestRecord)
      summary.bestSpeedup = (*bestRecord)->speedup;
  }
  Expected<Statement> unmeasured = Statement::prepare(
      handle.get(), dbPath,
      "SELECT hash, function_name FROM workloads w WHERE NOT EXISTS "
      "(SELECT 1 FROM measurements m WHERE m.workload_hash = w.hash) "
      "ORDER BY hash");
  if (!unmeasured)
    return unmeasured.takeError();
  while (true) {
    Expected<bool> row = unmeasured->step();
    if (!row)
      return row.takeError();
    if (!*row)
      return result;
    WorkloadSummary summary;
    summary.workloadHash = unmeasured->getText(0);
    summary.functionName = unmeasured->getText(1);
    result.push_back(std::move(summary));
  }
}

//===----------------------------------------------------------------------===//
// JSON lines
//===----------------------------------------------------------------------===//

static llvm::json::Value optionalNumber(const std::optional<double> &value) {
  if (value)
    return *value;
  return nullptr;
}

static llvm::json::Object toJSON(const Workload &workload) {
  llvm::json::Object object{{"kind", "workload"},
                            {"workload", workload.hash},
                            {"function", workload.functionName}};
  if (workload.canonicalIR)
    object["ir"] = *workload.canonicalIR;
  return object;
}

static llvm::json::Object toJSON(const MeasurementRecord &record) {
  llvm::json::Object object{
      {"kind", "measurement"},
      {"workload", record.workloadHash},
      {"target", record.target},
      {"config", record.config},
      {"config_hash", formatConfigHash(record.configHash)},
      {"status", statusName(record.status)},
      {"min_s", optionalNumber(record.minSeconds)},
      {"median_s", optionalNumber(record.medianSeconds)},
      {"max_s", optionalNumber(record.maxSeconds)},
      {"repetitions", static_cast<int64_t>(record.repetitions)},
      {"speedup", optionalNumber(record.speedup)},
      {"baseline_median_s", optionalNumber(record.baselineMedianSeconds)},
      {"strategy", record.strategy},
      {"tool_version", record.toolVersion},
      {"timestamp", record.timestamp},
      {"message", record.message},
  };
  // Fields of schema 2, written when known (lines stay short for records
  // of other evaluators and of schema 1).
  if (record.objective)
    object["objective"] = *record.objective;
  if (!record.spaceFingerprint.empty())
    object["space_fingerprint"] = record.spaceFingerprint;
  if (!record.schedule.empty())
    object["schedule"] = record.schedule;
  return object;
}

std::string tuner::db::toJsonLine(const MeasurementRecord &record) {
  std::string line;
  llvm::raw_string_ostream(line) << llvm::json::Value(toJSON(record));
  return line;
}

Error Database::exportJsonLines(llvm::raw_ostream &os) {
  Expected<std::vector<Workload>> workloads = findWorkloads("");
  if (!workloads)
    return workloads.takeError();
  for (const Workload &workload : *workloads) {
    os << llvm::json::Value(toJSON(workload)) << '\n';
    Expected<Statement> query =
        prepareRecordQuery(handle.get(), dbPath, fileSchemaVersion,
                           "WHERE workload_hash = ?1 ORDER BY id");
    if (!query)
      return query.takeError();
    query->bind(1, StringRef(workload.hash));
    Expected<std::vector<MeasurementRecord>> records =
        readRecords(*query, dbPath);
    if (!records)
      return records.takeError();
    for (const MeasurementRecord &record : *records)
      os << llvm::json::Value(toJSON(record)) << '\n';
  }
  return Error::success();
}

namespace tuner {

/// Found by argument-dependent lookup (Status lives in namespace tuner).
static bool fromJSON(const llvm::json::Value &value, Status &status,
                     llvm::json::Path path) {
  std::optional<StringRef> name = value.getAsString();
  if (!name) {
    path.report("expected a status string");
    return false;
  }
  std::optional<Status> parsed = parseStatus(*name);
  if (!parsed) {
    // parseImportLine names the statuses; a literal is all report takes.
    path.report("unknown status");
    return false;
  }
  status = *parsed;
  return true;
}

namespace db {

/// The config hash: exactly 16 hex digits.
struct HexHash {
  uint64_t value = 0;
};

static bool fromJSON(const llvm::json::Value &value, HexHash &hash,
                     llvm::json::Path path) {
  std::optional<StringRef> text = value.getAsString();
  if (!text || !isHexHash(*text) || text->getAsInteger(16, hash.value)) {
    path.report("expected a string of 16 hex digits");
    return false;
  }
  return true;
}

static bool fromJSON(const llvm::json::Value &value, Workload &workload,
                     llvm::json::Path path) {
  llvm::json::ObjectMapper mapper(value, path);
  return mapper && mapper.map("workload", workload.hash) &&
         mapper.map("function", workload.functionName) &&
         mapper.map("ir", workload.canonicalIR);
}

static bool fromJSON(const llvm::json::Value &value, MeasurementRecord &record,
                     llvm::json::Path path) {
  llvm::json::ObjectMapper mapper(value, path);
  HexHash hash;
  bool ok = mapper && mapper.map("workload", record.workloadHash) &&
            mapper.map("target", record.target) &&
            mapper.map("config", record.config) &&
            mapper.map("config_hash", hash) &&
            mapper.map("status", record.status) &&
            mapper.map("min_s", record.minSeconds) &&
            mapper.map("median_s", record.medianSeconds) &&
            mapper.map("max_s", record.maxSeconds) &&
            mapper.map("repetitions", record.repetitions) &&
            mapper.map("speedup", record.speedup) &&
            mapper.map("baseline_median_s", record.baselineMedianSeconds) &&
            mapper.map("strategy", record.strategy) &&
            mapper.map("tool_version", record.toolVersion) &&
            mapper.map("timestamp", record.timestamp) &&
            mapper.map("message", record.message) &&
            mapper.map("objective", record.objective) &&
            mapper.mapOptional("space_fingerprint", record.spaceFingerprint) &&
            mapper.mapOptional("schedule", record.schedule);
  record.configHash = hash.value;
  return ok;
}

} // namespace db
} // namespace tuner

namespace {
/// One parsed line of a JSON lines file.
struct ImportLine {
  unsigned number;
  std::optional<Workload> workload;
  std::optional<MeasurementRecord> measurement;
};

/// Parses and checks one non-blank line.
Expected<ImportLine> parseImportLine(StringRef text, unsigned number) {
  Expected<llvm::json::Value> value = llvm::json::parse(text);
  if (!value)
    return llvm::createStringError("invalid JSON: " +
                                   llvm::toString(value.takeError()));
  const llvm::json::Object *object = value->getAsObject();
  if (!object)
    return llvm::createStringError("expected a JSON object");
  std::optional<StringRef> kind = object->getString("kind");
  if (!kind)
    return llvm::createStringError(
        "missing or non-string \"kind\" (\"workload\" or \"measurement\")");
  static const llvm::StringSet<> kWorkloadFields = {"kind", "workload",
                                                    "function", "ir"};
  static const llvm::StringSet<> kMeasurementFields = {
      "kind",        "workload",     "target",
      "config",      "config_hash",  "status",
      "min_s",       "median_s",     "max_s",
      "repetitions", "speedup",      "baseline_median_s",
      "strategy",    "tool_version", "timestamp",
      "message",     "objective",    "space_fingerprint",
      "schedule"};
  bool isWorkload = *kind == "workload";
  if (!isWorkload && *kind != "measurement")
    return llvm::createStringError("unknown kind '" + *kind +
                                   "' (expected workload or measurement)");
  const llvm::StringSet<> &fields =
      isWorkload ? kWorkloadFields : kMeasurementFields;
  for (const auto &entry : *object)
    if (!fields.contains(entry.first))
      return llvm::createStringError("unknown field '" + entry.first.str() +
                                     "' in a " + *kind + " line");
  ImportLine line{number, std::nullopt, std::nullopt};
  llvm::json::Path::Root root(*kind);
  if (isWorkload) {
    Workload workload;
    if (!fromJSON(*value, workload, root))
      return root.getError();
    if (workload.hash.empty())
      return llvm::createStringError("workload has an empty hash");
    line.workload = std::move(workload);
  } else {
    if (std::optional<StringRef> status = object->getString("status"))
      if (!parseStatus(*status))
        return llvm::createStringError("unknown status '" + *status +
                                       "' (expected one of " + statusNames() +
                                       ")");
    MeasurementRecord record;
    if (!fromJSON(*value, record, root))
      return root.getError();
    if (Error err = checkRecord(record))
      return std::move(err);
    line.measurement = std::move(record);
  }
  return line;
}
} // namespace

Expected<ImportStats> Database::importJsonLines(StringRef text,
                                                StringRef sourceName) {
  std::vector<ImportLine> lines;
  unsigned number = 0;
  while (!text.empty()) {
    StringRef lineText;
    std::tie(lineText, text) = text.split('\n');
    ++number;
    lineText = lineText.rtrim('\r');
    if (lineText.trim().empty())
      continue;
    Expected<ImportLine> line = parseImportLine(lineText, number);
    if (!line)
      return prefixError(line.takeError(), sourceName + ":" + Twine(number));
    lines.push_back(std::move(*line));
  }

  sqlite3 *db = handle.get();
  Expected<Transaction> txn = Transaction::begin(db, dbPath);
  if (!txn)
    return txn.takeError();
  ImportStats stats;
  for (const ImportLine &line : lines) {
    std::string where = (sourceName + ":" + Twine(line.number)).str();
    if (line.workload) {
      Expected<bool> added = upsertWorkload(db, dbPath, *line.workload);
      if (!added)
        return prefixError(added.takeError(), where);
      stats.workloadsAdded += *added;
      continue;
    }
    Expected<InsertResult> inserted =
        insertRecord(db, dbPath, *line.measurement, /*skipDuplicate=*/true);
    if (!inserted)
      return prefixError(inserted.takeError(), where);
    if (*inserted == InsertResult::Added)
      ++stats.measurementsAdded;
    else
      ++stats.measurementsSkipped;
  }
  if (Error err = txn->commit())
    return std::move(err);
  return stats;
}

Error Database::checkIntegrity() {
  std::vector<std::string> problems;
  {
    Expected<Statement> stmt =
        Statement::prepare(handle.get(), dbPath, "PRAGMA integrity_check");
    if (!stmt)
      return stmt.takeError();
    while (true) {
      Expected<bool> row = stmt->step();
      if (!row)
        return row.takeError();
      if (!*row)
        break;
      std::string line = stmt->getText(0);
      if (line != "ok")
        problems.push_back(std::move(line));
    }
  }
  Expected<Statement> keys =
      Statement::prepare(handle.get(), dbPath, "PRAGMA foreign_key_check");
  if (!keys)
    return keys.takeError();
  while (true) {
    Expected<bool> row = keys->step();
    if (!row)
      return row.takeError();
    if (!*row)
      break;
    problems.push_back("row " + std::to_string(keys->getInt(1)) + " of '" +
                       keys->getText(0) + "' refers to a missing row of '" +
                       keys->getText(2) + "'");
  }
  if (problems.empty())
    return Error::success();
  return llvm::createStringError(
      dbPath + ": integrity check failed: " + llvm::join(problems, "; "));
}
