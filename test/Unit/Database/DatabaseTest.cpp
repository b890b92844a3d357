//===- DatabaseTest.cpp - SQLite tuning records ---------------------------===//

#include "tuner/Database/Database.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

#include <sqlite3.h>

#include <csignal>
#include <cstdlib>
#include <limits>
#include <sys/wait.h>
#include <unistd.h>

using namespace tuner::db;
using tuner::Status;

/// Fails the test with the error's message when `expr` returns an error.
#define ASSERT_NO_ERROR(expr)                                                  \
  do {                                                                         \
    if (llvm::Error err = (expr))                                              \
      FAIL() << llvm::toString(std::move(err));                                \
  } while (false)

namespace {

constexpr const char *kWorkload = "a1b2c3d4e5f60718";
constexpr const char *kTarget = "cpu=test;features=+avx2;cores=2";

/// A measurement of config `index` of kWorkload on kTarget.
MeasurementRecord makeRecord(uint64_t index,
                             Status status = Status::Ok,
                             double median = 1.0) {
  MeasurementRecord record;
  record.workloadHash = kWorkload;
  record.target = kTarget;
  record.config = "{\"tile\":[" + std::to_string(index) + ",8]}";
  record.configHash = index;
  record.status = status;
  if (status == Status::Ok) {
    record.minSeconds = median * 0.9;
    record.medianSeconds = median;
    record.maxSeconds = median * 1.2;
    record.repetitions = 5;
    record.speedup = 2.0 / median;
  } else {
    record.message = "error: failed\n  at line 3";
  }
  record.baselineMedianSeconds = 2.0;
  record.strategy = "random";
  record.toolVersion = "0.1.0";
  record.timestamp = 1700000000 + static_cast<int64_t>(index);
  return record;
}

Workload makeWorkload(const char *hash = kWorkload) {
  return Workload{hash, "matmul", std::string("func.func @matmul() {}")};
}

std::string readBytes(const std::string &path) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buffer =
      llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                  /*RequiresNullTerminator=*/false);
  EXPECT_TRUE(bool(buffer)) << path;
  return buffer ? (*buffer)->getBuffer().str() : std::string();
}

void writeBytes(const std::string &path, llvm::StringRef bytes) {
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec);
  ASSERT_FALSE(ec) << path;
  os << bytes;
}

/// Runs SQL through the raw SQLite API, to build files our library refuses.
void rawSql(const std::string &path, const char *sql) {
  sqlite3 *db = nullptr;
  ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
  char *message = nullptr;
  int rc = sqlite3_exec(db, sql, nullptr, nullptr, &message);
  std::string text = message ? message : "";
  sqlite3_free(message);
  sqlite3_close(db);
  ASSERT_EQ(rc, SQLITE_OK) << text;
}

/// The single text value a query returns, read through the raw SQLite API.
std::string rawQuery(const std::string &path, const char *sql) {
  sqlite3 *db = nullptr;
  EXPECT_EQ(sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr),
            SQLITE_OK);
  sqlite3_stmt *stmt = nullptr;
  std::string result;
  if (sqlite3_prepare_v2(db, sql, -1, &stmt, nullptr) == SQLITE_OK &&
      sqlite3_step(stmt) == SQLITE_ROW)
    result = reinterpret_cast<const char *>(sqlite3_column_text(stmt, 0));
  sqlite3_finalize(stmt);
  sqlite3_close(db);
  return result;
}

class DatabaseTest : public ::testing::Test {
protected:
  void SetUp() override {
    llvm::SmallString<128> dir;
    ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("tuner-db-test", dir));
    tempDir = std::string(dir);
  }
  void TearDown() override { llvm::sys::fs::remove_directories(tempDir); }

  std::string file(llvm::StringRef name) const {
    llvm::SmallString<128> path(tempDir);
    llvm::sys::path::append(path, name);
    return std::string(path);
  }

  /// Opens (creating) a database holding kWorkload.
  Database openWithWorkload(const std::string &path) {
    Database db = llvm::cantFail(Database::open(path));
    llvm::cantFail(db.addWorkload(makeWorkload()));
    return db;
  }

  /// Expects that `path` is refused in both modes with a message holding the
  /// path and `reason`, and that its bytes are unchanged.
  void expectRefused(const std::string &path, llvm::StringRef reason) {
    std::string before = readBytes(path);
    for (Database::Mode mode :
         {Database::Mode::ReadWrite, Database::Mode::ReadOnly}) {
      llvm::Expected<Database> db = Database::open(path, mode);
      ASSERT_FALSE(bool(db));
      std::string message = llvm::toString(db.takeError());
      EXPECT_NE(message.find(path), std::string::npos) << message;
      EXPECT_NE(message.find(reason.str()), std::string::npos) << message;
    }
    EXPECT_EQ(readBytes(path), before);
    EXPECT_FALSE(llvm::sys::fs::exists(path + "-wal"));
    EXPECT_FALSE(llvm::sys::fs::exists(path + "-shm"));
  }

  std::string tempDir;
};

TEST_F(DatabaseTest, CreatesFolderWalAndMeta) {
  std::string path = file("a/b/tuning.db");
  {
    llvm::Expected<Database> db = Database::open(path);
    ASSERT_TRUE(bool(db)) << llvm::toString(db.takeError());
    EXPECT_EQ(db->path(), path);
    ASSERT_NO_ERROR(db->checkIntegrity());
  }
  EXPECT_EQ(rawQuery(path, "PRAGMA journal_mode"), "wal");
  EXPECT_EQ(rawQuery(path, "SELECT value FROM meta WHERE key='application'"),
            "tuner");
  EXPECT_EQ(rawQuery(path, "SELECT value FROM meta WHERE key='schema_version'"),
            "2");
  // An existing empty file is a fresh database, not a foreign one.
  std::string empty = file("empty.db");
  writeBytes(empty, "");
  llvm::Expected<Database> emptyReader =
      Database::open(empty, Database::Mode::ReadOnly);
  ASSERT_FALSE(bool(emptyReader));
  EXPECT_NE(llvm::toString(emptyReader.takeError())
                .find("holds no tuning database (it is empty)"),
            std::string::npos);
  llvm::Expected<Database> fresh = Database::open(empty);
  ASSERT_TRUE(bool(fresh)) << llvm::toString(fresh.takeError());
}

TEST_F(DatabaseTest, RecordsAndQueries) {
  std::string path = file("t.db");
  Database db = openWithWorkload(path);
  std::vector<MeasurementRecord> written = {
      makeRecord(1, Status::Ok, 0.5),
      makeRecord(2, Status::CompileFailed),
      makeRecord(3, Status::Ok, 0.25),
      makeRecord(4, Status::Timeout),
      makeRecord(5, Status::Ok, 0.75)};
  for (const MeasurementRecord &record : written)
    ASSERT_NO_ERROR(db.record(record));

  llvm::Expected<std::vector<MeasurementRecord>> all =
      db.records(kWorkload, kTarget);
  ASSERT_TRUE(bool(all));
  EXPECT_EQ(*all, written);
  EXPECT_EQ(all->at(1).message, "error: failed\n  at line 3");
  EXPECT_FALSE(all->at(1).medianSeconds.has_value());

  llvm::Expected<std::optional<MeasurementRecord>> best =
      db.best(kWorkload, kTarget);
  ASSERT_TRUE(bool(best));
  ASSERT_TRUE(best->has_value());
  EXPECT_EQ((*best)->configHash, 3u);
  EXPECT_DOUBLE_EQ(*(*best)->spreadSeconds(), 0.25 * 1.2 - 0.25 * 0.9);

  llvm::Expected<StatusCounts> counts = db.countByStatus(kWorkload, kTarget);
  ASSERT_TRUE(bool(counts));
  EXPECT_EQ(counts->get(Status::Ok), 3u);
  EXPECT_EQ(counts->get(Status::CompileFailed), 1u);
  EXPECT_EQ(counts->get(Status::Timeout), 1u);
  EXPECT_EQ(counts->get(Status::Crashed), 0u);
  EXPECT_EQ(counts->total(), 5u);

  // Another target is another key.
  llvm::Expected<std::optional<MeasurementRecord>> none =
      db.best(kWorkload, "cpu=other");
  ASSERT_TRUE(bool(none));
  EXPECT_FALSE(none->has_value());

  // The newest measurement of a config wins.
  MeasurementRecord again = makeRecord(2, Status::Ok, 0.4);
  again.timestamp += 100;
  ASSERT_NO_ERROR(db.record(again));
  llvm::Expected<std::optional<MeasurementRecord>> found =
      db.lookup(kWorkload, kTarget, 2);
  ASSERT_TRUE(bool(found));
  ASSERT_TRUE(found->has_value());
  EXPECT_EQ(**found, again);
  llvm::Expected<std::optional<MeasurementRecord>> missing =
      db.lookup(kWorkload, kTarget, 99);
  ASSERT_TRUE(bool(missing));
  EXPECT_FALSE(missing->has_value());

  // One group per target: each config's latest record, ok ones best first
  // (3: 0.25, 2: 0.4 when measured again, 1: 0.5, 5: 0.75), then failures
  // (4); config 2's earlier compile failure apart.
  MeasurementRecord elsewhere = makeRecord(7, Status::Ok, 0.1);
  elsewhere.target = "cpu=other";
  ASSERT_NO_ERROR(db.record(elsewhere));
  llvm::Expected<std::vector<TargetRecords>> groups =
      db.recordsByTarget(kWorkload);
  ASSERT_TRUE(bool(groups));
  ASSERT_EQ(groups->size(), 2u);
  auto hashes = [](llvm::ArrayRef<MeasurementRecord> records) {
    std::vector<uint64_t> order;
    for (const MeasurementRecord &record : records)
      order.push_back(record.configHash);
    return order;
  };
  EXPECT_EQ((*groups)[0].target, "cpu=other");
  EXPECT_EQ(hashes((*groups)[0].latest), (std::vector<uint64_t>{7}));
  EXPECT_TRUE((*groups)[0].superseded.empty());
  EXPECT_EQ((*groups)[1].target, kTarget);
  EXPECT_EQ(hashes((*groups)[1].latest),
            (std::vector<uint64_t>{3, 2, 1, 5, 4}));
  ASSERT_EQ((*groups)[1].superseded.size(), 1u);
  EXPECT_EQ((*groups)[1].superseded[0], written[1]);

  ASSERT_NO_ERROR(db.addWorkload(makeWorkload("ffff000011112222")));
  llvm::Expected<std::vector<WorkloadSummary>> summary = db.summarize();
  ASSERT_TRUE(bool(summary));
  ASSERT_EQ(summary->size(), 3u);
  EXPECT_EQ((*summary)[0].workloadHash, kWorkload);
  EXPECT_EQ((*summary)[0].target, "cpu=other");
  EXPECT_EQ((*summary)[0].counts.total(), 1u);
  EXPECT_DOUBLE_EQ(*(*summary)[0].bestSpeedup, 20.0);
  EXPECT_EQ((*summary)[1].functionName, "matmul");
  EXPECT_EQ((*summary)[1].target, kTarget);
  EXPECT_EQ((*summary)[1].counts.total(), 6u);
  EXPECT_DOUBLE_EQ(*(*summary)[1].bestSpeedup, 8.0);
  EXPECT_EQ((*summary)[2].workloadHash, "ffff000011112222");
  EXPECT_EQ((*summary)[2].counts.total(), 0u);

  llvm::Expected<std::vector<Workload>> prefixed = db.findWorkloads("a1b2");
  ASSERT_TRUE(bool(prefixed));
  ASSERT_EQ(prefixed->size(), 1u);
  EXPECT_EQ(prefixed->front(), makeWorkload());
  llvm::Expected<std::vector<Workload>> everything = db.findWorkloads("");
  ASSERT_TRUE(bool(everything));
  EXPECT_EQ(everything->size(), 2u);
}

TEST_F(DatabaseTest, ConfigHashKeepsAll64Bits) {
  std::string path = file("t.db");
  std::vector<uint64_t> hashes = {0,
                                  1,
                                  0x7fffffffffffffffULL,
                                  0x8000000000000000ULL,
                                  0xfedcba9876543210ULL,
                                  ~0ULL};
  {
    Database db = openWithWorkload(path);
    for (uint64_t hash : hashes) {
      MeasurementRecord record = makeRecord(1);
      record.configHash = hash;
      ASSERT_NO_ERROR(db.record(record));
    }
  }
  llvm::Expected<Database> db = Database::open(path, Database::Mode::ReadOnly);
  ASSERT_TRUE(bool(db)) << llvm::toString(db.takeError());
  for (uint64_t hash : hashes) {
    llvm::Expected<std::optional<MeasurementRecord>> found =
        db->lookup(kWorkload, kTarget, hash);
    ASSERT_TRUE(bool(found));
    ASSERT_TRUE(found->has_value()) << hash;
    EXPECT_EQ((*found)->configHash, hash);
  }
  std::string text;
  llvm::raw_string_ostream os(text);
  ASSERT_NO_ERROR(db->exportJsonLines(os));
  EXPECT_NE(text.find("\"config_hash\":\"ffffffffffffffff\""),
            std::string::npos);
  EXPECT_NE(text.find("\"config_hash\":\"8000000000000000\""),
            std::string::npos);
}

TEST_F(DatabaseTest, RejectsBadRecords) {
  Database db = openWithWorkload(file("t.db"));
  auto messageOf = [&](const MeasurementRecord &record) {
    return llvm::toString(db.record(record));
  };
  MeasurementRecord unknown = makeRecord(1);
  unknown.workloadHash = "0000";
  EXPECT_NE(messageOf(unknown).find("workload '0000' is not in the database"),
            std::string::npos);
  ASSERT_NO_ERROR(db.record(makeRecord(1)));
  EXPECT_NE(messageOf(makeRecord(1)).find("is already stored"),
            std::string::npos);
  MeasurementRecord badConfig = makeRecord(2);
  badConfig.config = "{tile: 3";
  EXPECT_NE(messageOf(badConfig).find("config is not valid JSON"),
            std::string::npos);
  MeasurementRecord noTimes = makeRecord(3);
  noTimes.medianSeconds.reset();
  EXPECT_NE(messageOf(noTimes).find("needs min, median and max"),
            std::string::npos);
  MeasurementRecord unordered = makeRecord(4);
  unordered.minSeconds = 5.0;
  EXPECT_NE(messageOf(unordered).find("min time exceeds median"),
            std::string::npos);
  // None of them was stored.
  llvm::Expected<StatusCounts> counts = db.countByStatus(kWorkload, kTarget);
  ASSERT_TRUE(bool(counts));
  EXPECT_EQ(counts->total(), 1u);
}

TEST_F(DatabaseTest, ReadOnlyModeNeitherCreatesNorWrites) {
  std::string path = file("missing.db");
  llvm::Expected<Database> missing =
      Database::open(path, Database::Mode::ReadOnly);
  ASSERT_FALSE(bool(missing));
  EXPECT_NE(llvm::toString(missing.takeError()).find(path + ": no tuning"),
            std::string::npos);
  EXPECT_FALSE(llvm::sys::fs::exists(path));

  { openWithWorkload(path); }
  llvm::Expected<Database> db = Database::open(path, Database::Mode::ReadOnly);
  ASSERT_TRUE(bool(db)) << llvm::toString(db.takeError());
  std::string message = llvm::toString(db->record(makeRecord(1)));
  EXPECT_NE(message.find(path), std::string::npos) << message;
  EXPECT_NE(message.find("readonly"), std::string::npos) << message;
  llvm::Expected<std::optional<Workload>> workload = db->getWorkload(kWorkload);
  ASSERT_TRUE(bool(workload));
  ASSERT_TRUE(workload->has_value());
  EXPECT_EQ(**workload, makeWorkload());
}

TEST_F(DatabaseTest, AddWorkloadKeepsNameAndFillsIR) {
  Database db = openWithWorkload(file("t.db"));
  ASSERT_NO_ERROR(db.addWorkload({"beef", "first", std::nullopt}));
  ASSERT_NO_ERROR(db.addWorkload({"beef", "second", std::string("ir")}));
  llvm::Expected<std::optional<Workload>> workload = db.getWorkload("beef");
  ASSERT_TRUE(bool(workload));
  ASSERT_TRUE(workload->has_value());
  EXPECT_EQ((*workload)->functionName, "first");
  EXPECT_EQ((*workload)->canonicalIR, std::string("ir"));
  EXPECT_NE(llvm::toString(db.addWorkload({"", "f", std::nullopt}))
                .find("workload has an empty hash"),
            std::string::npos);
}

TEST_F(DatabaseTest, JsonLinesRoundTripAndIdempotentImport) {
  std::string text;
  {
    Database db = openWithWorkload(file("a.db"));
    ASSERT_NO_ERROR(db.addWorkload({"beef", "conv", std::nullopt}));
    ASSERT_NO_ERROR(db.record(makeRecord(1, Status::Ok, 0.5)));
    ASSERT_NO_ERROR(db.record(makeRecord(2, Status::Crashed)));
    MeasurementRecord other = makeRecord(3, Status::WrongResult);
    other.workloadHash = "beef";
    other.baselineMedianSeconds.reset();
    ASSERT_NO_ERROR(db.record(other));
    llvm::raw_string_ostream os(text);
    ASSERT_NO_ERROR(db.exportJsonLines(os));
  }
  // Workloads by hash, each followed by its measurements.
  llvm::SmallVector<llvm::StringRef> lines;
  llvm::StringRef(text).split(lines, '\n', -1, /*KeepEmpty=*/false);
  ASSERT_EQ(lines.size(), 5u);
  EXPECT_TRUE(lines[0].starts_with("{\"function\":\"matmul\""));
  EXPECT_NE(lines[0].find("\"ir\":\"func.func @matmul() {}\""),
            llvm::StringRef::npos);
  EXPECT_NE(lines[1].find("\"status\":\"ok\""), llvm::StringRef::npos);
  EXPECT_NE(lines[2].find("\"median_s\":null"), llvm::StringRef::npos);
  EXPECT_EQ(lines[3],
            "{\"function\":\"conv\",\"kind\":\"workload\",\"workload\":"
            "\"beef\"}");

  Database copy = openWithWorkload(file("b.db"));
  llvm::Expected<ImportStats> first = copy.importJsonLines(text, "dump.jsonl");
  ASSERT_TRUE(bool(first)) << llvm::toString(first.takeError());
  EXPECT_EQ(first->workloadsAdded, 1u); // a1b2... was already there
  EXPECT_EQ(first->measurementsAdded, 3u);
  EXPECT_EQ(first->measurementsSkipped, 0u);
  llvm::Expected<ImportStats> second = copy.importJsonLines(text, "dump.jsonl");
  ASSERT_TRUE(bool(second));
  EXPECT_EQ(second->workloadsAdded, 0u);
  EXPECT_EQ(second->measurementsAdded, 0u);
  EXPECT_EQ(second->measurementsSkipped, 3u);

  std::string again;
  llvm::raw_string_ostream os(again);
  ASSERT_NO_ERROR(copy.exportJsonLines(os));
  EXPECT_EQ(again, text);
}

TEST_F(DatabaseTest, MalformedLineImportsNothing) {
  Database db = openWithWorkload(file("t.db"));
  std::string good;
  {
    Database source = openWithWorkload(file("source.db"));
    ASSERT_NO_ERROR(source.addWorkload({"beef", "conv", std::nullopt}));
    ASSERT_NO_ERROR(source.record(makeRecord(7)));
    llvm::raw_string_ostream os(good);
    ASSERT_NO_ERROR(source.exportJsonLines(os));
  }
  // good has 3 lines: workload, measurement, workload.
  struct Case {
    std::string badLine;
    std::string expected;
  };
  std::vector<Case> cases = {
      {"{\"kind\":\"measurement\",", "in.jsonl:5: invalid JSON"},
      {"[1,2]", "in.jsonl:5: expected a JSON object"},
      {"{\"kind\":\"sample\"}", "in.jsonl:5: unknown kind 'sample'"},
      {"{\"kind\":\"workload\",\"workload\":\"x\",\"function\":\"f\","
       "\"extra\":1}",
       "in.jsonl:5: unknown field 'extra'"},
      {"{\"kind\":\"workload\",\"function\":\"f\"}",
       "in.jsonl:5: missing value"},
  };
  MeasurementRecord record = makeRecord(8);
  std::string measurement;
  {
    Database source = openWithWorkload(file("one.db"));
    ASSERT_NO_ERROR(source.record(record));
    llvm::raw_string_ostream os(measurement);
    ASSERT_NO_ERROR(source.exportJsonLines(os));
    measurement = llvm::StringRef(measurement).split('\n').second.rtrim().str();
  }
  auto replace = [&](llvm::StringRef from, llvm::StringRef to) {
    std::string line = measurement;
    size_t at = line.find(from.str());
    EXPECT_NE(at, std::string::npos) << from.str();
    return line.replace(at, from.size(), to.str());
  };
  cases.push_back({replace("\"status\":\"ok\"", "\"status\":\"fine\""),
                   "in.jsonl:5: unknown status"});
  cases.push_back(
      {replace("\"config_hash\":\"0000000000000008\"", "\"config_hash\":8"),
       "in.jsonl:5: expected a string of 16 hex digits"});
  cases.push_back({replace("\"median_s\":1,", "\"median_s\":null,"),
                   "in.jsonl:5: an 'ok' measurement needs"});
  cases.push_back({replace(kWorkload, "0123"),
                   "in.jsonl:5: " + file("t.db") +
                       ": workload '0123' is not in the database"});

  for (const Case &c : cases) {
    // Line 4 is blank; blank lines count but are skipped.
    std::string text = good + "\n" + c.badLine + "\n";
    llvm::Expected<ImportStats> stats = db.importJsonLines(text, "in.jsonl");
    ASSERT_FALSE(bool(stats)) << c.badLine;
    std::string message = llvm::toString(stats.takeError());
    EXPECT_NE(message.find(c.expected), std::string::npos)
        << message << "\nexpected: " << c.expected;
    llvm::Expected<std::optional<Workload>> beef = db.getWorkload("beef");
    ASSERT_TRUE(bool(beef));
    EXPECT_FALSE(beef->has_value()) << "imported despite: " << c.badLine;
    llvm::Expected<StatusCounts> counts = db.countByStatus(kWorkload, kTarget);
    ASSERT_TRUE(bool(counts));
    EXPECT_EQ(counts->total(), 0u);
  }
}

TEST_F(DatabaseTest, RefusesFilesThatAreNotOurs) {
  std::string text = file("notes.txt");
  writeBytes(text, "these are my notes, not a database\n");
  expectRefused(text, "is not an SQLite database");

  std::string random = file("random.bin");
  std::string bytes;
  uint32_t state = 12345;
  for (int i = 0; i < 4096; ++i) {
    state = state * 1664525u + 1013904223u;
    bytes.push_back(static_cast<char>(state >> 24));
  }
  writeBytes(random, bytes);
  expectRefused(random, "is not an SQLite database");

  std::string foreign = file("foreign.db");
  rawSql(foreign, "CREATE TABLE users(id INTEGER, name TEXT);"
                  "INSERT INTO users VALUES (1, 'ada');");
  expectRefused(foreign, "another application (tables: users; no 'meta'");

  std::string otherMeta = file("other-meta.db");
  rawSql(otherMeta, "CREATE TABLE meta(name TEXT, data BLOB);");
  expectRefused(otherMeta, "its 'meta' table is not the tuner's");

  std::string otherApp = file("other-app.db");
  rawSql(otherApp, "CREATE TABLE meta(key TEXT, value TEXT);"
                   "INSERT INTO meta VALUES ('application', 'photos');");
  expectRefused(otherApp, "application = 'photos'");

  std::string newer = file("newer.db");
  {
    llvm::Expected<Database> db = Database::open(newer);
    ASSERT_TRUE(bool(db));
  }
  rawSql(newer, "UPDATE meta SET value = '3' WHERE key = 'schema_version'");
  expectRefused(newer, "has schema version 3, newer than the version this "
                       "tuner supports (2)");

  std::string unknown = file("unknown.db");
  {
    llvm::Expected<Database> db = Database::open(unknown);
    ASSERT_TRUE(bool(db));
  }
  rawSql(unknown, "UPDATE meta SET value = 'one' WHERE key = 'schema_version'");
  expectRefused(unknown, "unknown schema version 'one'");

  std::string truncated = file("truncated.db");
  {
    Database db = openWithWorkload(truncated);
    ASSERT_NO_ERROR(db.record(makeRecord(1)));
  }
  std::string header = readBytes(truncated).substr(0, 100);
  std::string garbage(8192, '\x5a');
  writeBytes(truncated, header + garbage);
  std::string before = readBytes(truncated);
  for (Database::Mode mode :
       {Database::Mode::ReadWrite, Database::Mode::ReadOnly}) {
    llvm::Expected<Database> db = Database::open(truncated, mode);
    ASSERT_FALSE(bool(db));
    std::string message = llvm::toString(db.takeError());
    EXPECT_NE(message.find(truncated), std::string::npos) << message;
  }
  EXPECT_EQ(readBytes(truncated), before);

  std::string folder = file("folder.db");
  ASSERT_FALSE(llvm::sys::fs::create_directory(folder));
  llvm::Expected<Database> dir = Database::open(folder);
  ASSERT_FALSE(bool(dir));
  EXPECT_NE(llvm::toString(dir.takeError()).find("is not a regular file"),
            std::string::npos);
}

TEST_F(DatabaseTest, KilledWriterLosesNoFinishedRecord) {
  std::string path = file("killed.db");
  { openWithWorkload(path); }
  int fds[2];
  ASSERT_EQ(pipe(fds), 0);
  pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    close(fds[0]);
    llvm::Expected<Database> db = Database::open(path);
    if (!db) {
      llvm::consumeError(db.takeError());
      _exit(2);
    }
    for (uint64_t i = 0; i < 100000; ++i) {
      if (llvm::Error err = db->record(makeRecord(i))) {
        llvm::consumeError(std::move(err));
        _exit(3);
      }
      if (write(fds[1], &i, sizeof(i)) != sizeof(i))
        _exit(4);
    }
    _exit(0);
  }
  close(fds[1]);
  auto readReport = [&](uint64_t &index) {
    char *out = reinterpret_cast<char *>(&index);
    size_t got = 0;
    while (got < sizeof(index)) {
      ssize_t n = read(fds[0], out + got, sizeof(index) - got);
      if (n <= 0)
        return false;
      got += n;
    }
    return true;
  };
  std::vector<uint64_t> reported;
  uint64_t index = 0;
  while (reported.size() < 30 && readReport(index))
    reported.push_back(index);
  kill(child, SIGKILL);
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFSIGNALED(status)) << "the writer exited early: " << status;
  EXPECT_EQ(WTERMSIG(status), SIGKILL);
  while (readReport(index))
    reported.push_back(index);
  close(fds[0]);
  ASSERT_GE(reported.size(), 30u);

  // A reader comes first, as `tuner-db list` would after a crashed run.
  for (Database::Mode mode :
       {Database::Mode::ReadOnly, Database::Mode::ReadWrite}) {
    llvm::Expected<Database> db = Database::open(path, mode);
    ASSERT_TRUE(bool(db)) << llvm::toString(db.takeError());
    llvm::Error integrity = db->checkIntegrity();
    EXPECT_FALSE(bool(integrity)) << llvm::toString(std::move(integrity));
    for (uint64_t i : reported) {
      llvm::Expected<std::optional<MeasurementRecord>> found =
          db->lookup(kWorkload, kTarget, i);
      ASSERT_TRUE(bool(found));
      ASSERT_TRUE(found->has_value()) << "lost measurement " << i;
      EXPECT_EQ(**found, makeRecord(i));
    }
    llvm::Expected<std::vector<MeasurementRecord>> all =
        db->records(kWorkload, kTarget);
    ASSERT_TRUE(bool(all));
    // Everything stored is whole; at most the one in flight went unreported.
    EXPECT_GE(all->size(), reported.size());
    EXPECT_LE(all->size(), reported.size() + 1);
    for (size_t i = 0; i < all->size(); ++i)
      EXPECT_EQ((*all)[i], makeRecord(i));
  }
}

/// A database of schema version 1, as the tuner of that version created it
/// (the SQL that tuner-db-migrate.test also uses).
std::string schemaVersion1() {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> sql =
      llvm::MemoryBuffer::getFile(TUNER_SCHEMA1_SQL);
  EXPECT_TRUE(bool(sql)) << TUNER_SCHEMA1_SQL;
  return sql ? (*sql)->getBuffer().str() : std::string();
}

/// The records schemaVersion1() holds, as this version reads them.
std::vector<MeasurementRecord> version1Records() {
  MeasurementRecord first = makeRecord(1, Status::Ok, 0.5);
  first.minSeconds = 0.45;
  first.maxSeconds = 0.6;
  first.speedup = 4.0;
  MeasurementRecord second = makeRecord(2, Status::CompileFailed);
  second.message = "error: failed";
  MeasurementRecord third = makeRecord(3, Status::Ok, 0.25);
  third.minSeconds = 0.2;
  third.maxSeconds = 0.3;
  third.speedup = 8.0;
  return {first, second, third};
}

/// A record with every field of schema 2.
MeasurementRecord makeFullRecord(uint64_t index, Status status) {
  MeasurementRecord record = makeRecord(index, status, 0.5);
  record.objective = -12.5 + static_cast<double>(index);
  record.spaceFingerprint = "0123456789abcdef";
  record.schedule = "module attributes {transform.with_named_sequence} {\n"
                    "  // \"tile\" " +
                    std::to_string(index) + "\n}\n";
  return record;
}

TEST_F(DatabaseTest, StoresObjectiveSpaceFingerprintScheduleAndAllStatuses) {
  std::string path = file("t.db");
  std::vector<MeasurementRecord> written;
  {
    Database db = openWithWorkload(path);
    EXPECT_EQ(db.schemaVersion(), 2);
    for (unsigned i = 0; i < tuner::kNumStatuses; ++i)
      written.push_back(makeFullRecord(i + 1, static_cast<Status>(i)));
    // A record that leaves them out reads back without them.
    written.push_back(makeRecord(20));
    for (const MeasurementRecord &record : written)
      ASSERT_NO_ERROR(db.record(record));
  }
  llvm::Expected<Database> db = Database::open(path, Database::Mode::ReadOnly);
  ASSERT_TRUE(bool(db)) << llvm::toString(db.takeError());
  llvm::Expected<std::vector<MeasurementRecord>> all =
      db->records(kWorkload, kTarget);
  ASSERT_TRUE(bool(all));
  EXPECT_EQ(*all, written);
  EXPECT_EQ(all->at(0).spaceFingerprint, "0123456789abcdef");
  EXPECT_EQ(all->at(0).objective, std::optional<double>(-11.5));
  EXPECT_NE(all->at(0).schedule.find("transform.with_named_sequence"),
            std::string::npos);
  EXPECT_FALSE(all->back().objective.has_value());
  EXPECT_TRUE(all->back().spaceFingerprint.empty());
  llvm::Expected<StatusCounts> counts = db->countByStatus(kWorkload, kTarget);
  ASSERT_TRUE(bool(counts));
  EXPECT_EQ(counts->get(Status::InvalidOutput), 1u);
  EXPECT_EQ(counts->get(Status::ModelError), 1u);
  EXPECT_EQ(counts->get(Status::Ok), 2u);
  llvm::Expected<std::optional<MeasurementRecord>> found =
      db->lookup(kWorkload, kTarget, 1);
  ASSERT_TRUE(bool(found) && found->has_value());
  EXPECT_EQ(**found, written[0]);
  llvm::Expected<std::optional<MeasurementRecord>> best =
      db->best(kWorkload, kTarget);
  ASSERT_TRUE(bool(best) && best->has_value());
  EXPECT_EQ((*best)->schedule, written[0].schedule);

  // The status column checks what it stores, names from tuner::Status.
  char *message = nullptr;
  sqlite3 *raw = nullptr;
  ASSERT_EQ(sqlite3_open(path.c_str(), &raw), SQLITE_OK);
  int rc = sqlite3_exec(
      raw,
      "INSERT INTO measurements(workload_hash, target, config, config_hash, "
      "status, repetitions, strategy, tool_version, timestamp, message) "
      "VALUES ('a1b2c3d4e5f60718', 't', '{}', 99, 'exploded', 0, 's', 'v', "
      "0, '')",
      nullptr, nullptr, &message);
  std::string error = message ? message : "";
  sqlite3_free(message);
  sqlite3_close(raw);
  EXPECT_NE(rc, SQLITE_OK);
  EXPECT_NE(error.find("CHECK constraint failed"), std::string::npos) << error;
}

TEST_F(DatabaseTest, RejectsBadNewFields) {
  Database db = openWithWorkload(file("t.db"));
  MeasurementRecord fingerprint = makeRecord(1);
  fingerprint.spaceFingerprint = "not-a-fingerprint";
  std::string message = llvm::toString(db.record(fingerprint));
  EXPECT_NE(message.find("space fingerprint 'not-a-fingerprint' is not 16 "
                         "hex digits"),
            std::string::npos)
      << message;
  MeasurementRecord objective = makeRecord(2);
  objective.objective = std::numeric_limits<double>::infinity();
  message = llvm::toString(db.record(objective));
  EXPECT_NE(message.find("objective must be a finite number"),
            std::string::npos)
      << message;
  llvm::Expected<StatusCounts> counts = db.countByStatus(kWorkload, kTarget);
  ASSERT_TRUE(bool(counts));
  EXPECT_EQ(counts->total(), 0u);
}

TEST_F(DatabaseTest, JsonLinesCarryNewFieldsAndReadOldLines) {
  std::string text;
  {
    Database db = openWithWorkload(file("a.db"));
    ASSERT_NO_ERROR(db.record(makeFullRecord(1, Status::Ok)));
    ASSERT_NO_ERROR(db.record(makeFullRecord(2, Status::InvalidOutput)));
    ASSERT_NO_ERROR(db.record(makeRecord(3)));
    llvm::raw_string_ostream os(text);
    ASSERT_NO_ERROR(db.exportJsonLines(os));
  }
  llvm::SmallVector<llvm::StringRef> lines;
  llvm::StringRef(text).split(lines, '\n', -1, /*KeepEmpty=*/false);
  ASSERT_EQ(lines.size(), 4u);
  EXPECT_NE(lines[1].find("\"objective\":-11.5"), llvm::StringRef::npos)
      << lines[1].str();
  EXPECT_NE(lines[1].find("\"space_fingerprint\":\"0123456789abcdef\""),
            llvm::StringRef::npos)
      << lines[1].str();
  EXPECT_NE(lines[1].find("\"schedule\":\"module attributes"),
            llvm::StringRef::npos)
      << lines[1].str();
  EXPECT_NE(lines[2].find("\"status\":\"invalid_output\""),
            llvm::StringRef::npos);
  // A record without them writes a line as schema 1 did.
  EXPECT_EQ(lines[3].find("objective"), llvm::StringRef::npos)
      << lines[3].str();
  EXPECT_EQ(lines[3].find("space_fingerprint"), llvm::StringRef::npos);
  EXPECT_EQ(lines[3].find("schedule"), llvm::StringRef::npos);

  Database copy = openWithWorkload(file("b.db"));
  llvm::Expected<ImportStats> stats = copy.importJsonLines(text, "dump.jsonl");
  ASSERT_TRUE(bool(stats)) << llvm::toString(stats.takeError());
  EXPECT_EQ(stats->measurementsAdded, 3u);
  llvm::Expected<std::vector<MeasurementRecord>> all =
      copy.records(kWorkload, kTarget);
  ASSERT_TRUE(bool(all));
  EXPECT_EQ(*all,
            (std::vector<MeasurementRecord>{
                makeFullRecord(1, Status::Ok),
                makeFullRecord(2, Status::InvalidOutput), makeRecord(3)}));

  // A line written by a tuner of schema 1, and the new fields as null.
  std::string old =
      "{\"baseline_median_s\":2,\"config\":\"{\\\"tile\\\":[4,8]}\","
      "\"config_hash\":\"0000000000000004\",\"kind\":\"measurement\","
      "\"max_s\":1.2,\"median_s\":1,\"message\":\"\",\"min_s\":0.9,"
      "\"repetitions\":5,\"speedup\":2,\"status\":\"ok\",\"strategy\":"
      "\"random\",\"target\":\"cpu=test;features=+avx2;cores=2\","
      "\"timestamp\":1700000004,\"tool_version\":\"0.1.0\",\"workload\":"
      "\"a1b2c3d4e5f60718\"}\n"
      "{\"baseline_median_s\":2,\"config\":\"{\\\"tile\\\":[5,8]}\","
      "\"config_hash\":\"0000000000000005\",\"kind\":\"measurement\","
      "\"max_s\":null,\"median_s\":null,\"message\":\"\",\"min_s\":null,"
      "\"repetitions\":0,\"speedup\":null,\"status\":\"model_error\","
      "\"strategy\":\"random\",\"target\":\"cpu=test;features=+avx2;cores=2\","
      "\"timestamp\":1700000005,\"tool_version\":\"0.1.0\",\"workload\":"
      "\"a1b2c3d4e5f60718\",\"objective\":null}\n";
  Database fresh = openWithWorkload(file("c.db"));
  llvm::Expected<ImportStats> oldStats = fresh.importJsonLines(old, "old");
  ASSERT_TRUE(bool(oldStats)) << llvm::toString(oldStats.takeError());
  EXPECT_EQ(oldStats->measurementsAdded, 2u);
  llvm::Expected<std::optional<MeasurementRecord>> four =
      fresh.lookup(kWorkload, kTarget, 4);
  ASSERT_TRUE(bool(four) && four->has_value());
  EXPECT_EQ(**four, makeRecord(4));
  llvm::Expected<std::optional<MeasurementRecord>> five =
      fresh.lookup(kWorkload, kTarget, 5);
  ASSERT_TRUE(bool(five) && five->has_value());
  EXPECT_EQ((*five)->status, Status::ModelError);
  EXPECT_FALSE((*five)->objective.has_value());

  // A malformed new field names the line.
  std::string bad = lines[0].str() + "\n" +
                    llvm::StringRef(lines[1]).str().replace(
                        lines[1].find("\"0123456789abcdef\""), 18, "17") +
                    "\n";
  llvm::Expected<ImportStats> badStats =
      fresh.importJsonLines(bad, "bad.jsonl");
  ASSERT_FALSE(bool(badStats));
  std::string message = llvm::toString(badStats.takeError());
  EXPECT_NE(message.find("bad.jsonl:2:"), std::string::npos) << message;
  EXPECT_NE(message.find("space_fingerprint"), std::string::npos) << message;
  // An unknown status names the statuses there are.
  std::string unknown = llvm::StringRef(lines[1]).str().replace(
      lines[1].find("\"status\":\"ok\""), 13, "\"status\":\"exploded\"");
  badStats = fresh.importJsonLines(unknown, "bad.jsonl");
  ASSERT_FALSE(bool(badStats));
  message = llvm::toString(badStats.takeError());
  EXPECT_NE(message.find("unknown status 'exploded' (expected one of ok, "
                         "apply_failed"),
            std::string::npos)
      << message;
  EXPECT_NE(message.find("model_error"), std::string::npos) << message;
}

TEST_F(DatabaseTest, SchemaVersion1IsReadAsItIsAndMigratedForWriting) {
  std::string path = file("v1.db");
  rawSql(path, schemaVersion1().c_str());
  std::string before = readBytes(path);
  std::vector<MeasurementRecord> expected = version1Records();

  // Read-only: read as it is, the file untouched.
  {
    llvm::Expected<Database> db =
        Database::open(path, Database::Mode::ReadOnly);
    ASSERT_TRUE(bool(db)) << llvm::toString(db.takeError());
    EXPECT_EQ(db->schemaVersion(), 1);
    llvm::Expected<std::vector<MeasurementRecord>> all =
        db->records(kWorkload, kTarget);
    ASSERT_TRUE(bool(all)) << llvm::toString(all.takeError());
    EXPECT_EQ(*all, expected);
    llvm::Expected<std::optional<MeasurementRecord>> best =
        db->best(kWorkload, kTarget);
    ASSERT_TRUE(bool(best) && best->has_value());
    EXPECT_EQ((*best)->configHash, 3u);
    EXPECT_TRUE((*best)->spaceFingerprint.empty());
    std::string text;
    llvm::raw_string_ostream os(text);
    ASSERT_NO_ERROR(db->exportJsonLines(os));
    EXPECT_EQ(text.find("space_fingerprint"), std::string::npos);
    EXPECT_NE(text.find("\"config_hash\":\"0000000000000003\""),
              std::string::npos);
    ASSERT_NO_ERROR(db->checkIntegrity());
  }
  EXPECT_EQ(readBytes(path), before);
  EXPECT_EQ(rawQuery(path, "SELECT value FROM meta WHERE key='schema_version'"),
            "1");

  // Read-write: migrated in place, every row kept with its id.
  {
    llvm::Expected<Database> db = Database::open(path);
    ASSERT_TRUE(bool(db)) << llvm::toString(db.takeError());
    EXPECT_EQ(db->schemaVersion(), 2);
    llvm::Expected<std::vector<MeasurementRecord>> all =
        db->records(kWorkload, kTarget);
    ASSERT_TRUE(bool(all));
    EXPECT_EQ(*all, expected);
    ASSERT_NO_ERROR(db->checkIntegrity());
    // It now takes what schema 1 could not.
    MeasurementRecord full = makeFullRecord(9, Status::ModelError);
    ASSERT_NO_ERROR(db->record(full));
    expected.push_back(full);
  }
  EXPECT_EQ(rawQuery(path, "SELECT value FROM meta WHERE key='schema_version'"),
            "2");
  EXPECT_EQ(rawQuery(path, "SELECT group_concat(id) FROM (SELECT id FROM "
                           "measurements ORDER BY id)"),
            "1,2,5,6");
  EXPECT_EQ(rawQuery(path, "SELECT name FROM sqlite_schema WHERE type = "
                           "'index' AND sql IS NOT NULL"),
            "measurements_by_strategy");
  EXPECT_EQ(rawQuery(path, "SELECT count(*) FROM sqlite_schema WHERE name = "
                           "'measurements_migrated'"),
            "0");
  // Opening again neither migrates again nor loses anything.
  llvm::Expected<Database> again = Database::open(path);
  ASSERT_TRUE(bool(again)) << llvm::toString(again.takeError());
  llvm::Expected<std::vector<MeasurementRecord>> all =
      again->records(kWorkload, kTarget);
  ASSERT_TRUE(bool(all));
  EXPECT_EQ(*all, expected);
  llvm::Expected<std::optional<Workload>> workload =
      again->getWorkload(kWorkload);
  ASSERT_TRUE(bool(workload) && workload->has_value());
  EXPECT_EQ(**workload, makeWorkload());
}

TEST_F(DatabaseTest, DefaultPathFollowsXdgThenHome) {
  std::optional<std::string> savedXdg, savedHome;
  if (const char *v = getenv("XDG_DATA_HOME"))
    savedXdg = v;
  if (const char *v = getenv("HOME"))
    savedHome = v;
  setenv("XDG_DATA_HOME", "/data/xdg", 1);
  llvm::Expected<std::string> xdg = defaultDatabasePath();
  unsetenv("XDG_DATA_HOME");
  setenv("HOME", "/home/someone", 1);
  llvm::Expected<std::string> home = defaultDatabasePath();
  setenv("XDG_DATA_HOME", "relative/is/ignored", 1);
  llvm::Expected<std::string> relative = defaultDatabasePath();
  if (savedXdg)
    setenv("XDG_DATA_HOME", savedXdg->c_str(), 1);
  else
    unsetenv("XDG_DATA_HOME");
  if (savedHome)
    setenv("HOME", savedHome->c_str(), 1);
  else
    unsetenv("HOME");
  ASSERT_TRUE(bool(xdg) && bool(home) && bool(relative));
  EXPECT_EQ(*xdg, "/data/xdg/tuner/tuning.db");
  EXPECT_EQ(*home, "/home/someone/.local/share/tuner/tuning.db");
  EXPECT_EQ(*relative, "/home/someone/.local/share/tuner/tuning.db");
}

} // namespace
