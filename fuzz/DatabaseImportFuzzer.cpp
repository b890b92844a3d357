//===- DatabaseImportFuzzer.cpp - libFuzzer target: tuner-db import -------===//
//
// The input is what `tuner-db import` reads: JSON lines of workloads and
// measurements. An import either fails with an error (and imports nothing)
// or imports lines that pass SQLite's integrity checks and export to lines
// that import again into a fresh database.
//
// The database is a file under $TMPDIR (best on tmpfs: the database syncs
// every commit); it is emptied after every input that imported something.
//
//===----------------------------------------------------------------------===//

#include "FuzzSpace.h"

#include "tuner/Database/Database.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"

#include <cstddef>
#include <cstdint>
#include <optional>

using namespace tuner;

namespace {
/// A fresh database at a path of this process, removed at exit.
class FreshDatabase {
public:
  FreshDatabase() {
    llvm::SmallString<128> dir;
    llvm::sys::path::system_temp_directory(/*ErasedOnReboot=*/true, dir);
    llvm::sys::path::append(dir, "tuner-fuzz-db-" +
                                     std::to_string(llvm::sys::Process::getProcessId()) +
                                     ".db");
    path = std::string(dir);
  }
  ~FreshDatabase() {
    db.reset();
    removeFiles();
  }
  /// The database, emptied when `fresh`.
  db::Database &get(bool fresh) {
    if (fresh || !db) {
      db.reset();
      removeFiles();
      llvm::Expected<db::Database> opened = db::Database::open(path);
      if (!opened)
        fuzz::propertyFailed("cannot open the fuzz database: " +
                             llvm::toString(opened.takeError()));
      db.emplace(std::move(*opened));
    }
    return *db;
  }

private:
  void removeFiles() {
    for (const char *suffix : {"", "-wal", "-shm", "-journal"})
      llvm::sys::fs::remove(path + suffix);
  }
  std::string path;
  std::optional<db::Database> db;
};
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static FreshDatabase fresh;
  llvm::StringRef text(reinterpret_cast<const char *>(data), size);
  db::Database &db = fresh.get(/*fresh=*/false);
  llvm::Expected<db::ImportStats> stats = db.importJsonLines(text, "fuzz");
  if (!stats) {
    llvm::consumeError(stats.takeError());
    return 0;
  }
  if (llvm::Error error = db.checkIntegrity())
    fuzz::propertyFailed("an import breaks the database: " +
                         llvm::toString(std::move(error)));
  llvm::Expected<std::vector<db::WorkloadSummary>> summary = db.summarize();
  if (!summary)
    fuzz::propertyFailed("an imported database does not summarize: " +
                         llvm::toString(summary.takeError()));
  std::string exported;
  llvm::raw_string_ostream os(exported);
  if (llvm::Error error = db.exportJsonLines(os))
    fuzz::propertyFailed("an imported database does not export: " +
                         llvm::toString(std::move(error)));
  db::Database &empty = fresh.get(/*fresh=*/true);
  llvm::Expected<db::ImportStats> again =
      empty.importJsonLines(exported, "export");
  if (!again)
    fuzz::propertyFailed("an export does not import: " +
                         llvm::toString(again.takeError()) + "\n" + exported);
  fresh.get(/*fresh=*/true);
  return 0;
}
