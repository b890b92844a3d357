//===- tuner-db.cpp - Inspect, export and import tuning databases ---------===//
//
//   tuner-db [--db PATH] list           workloads with counts and best speedup
//   tuner-db [--db PATH] show [PREFIX]  a workload's measurements, best first
//   tuner-db [--db PATH] [--target T] best [PREFIX]
//                                       the best record as a JSON line
//   tuner-db [--db PATH] export [-o F]  JSON lines to stdout or F
//   tuner-db [--db PATH] import FILE    JSON lines into the database
//   tuner-db [--db PATH] check          integrity and schema
//   tuner-db host                       this machine's target fingerprint
//
//===----------------------------------------------------------------------===//

#include "tuner/Database/Database.h"
#include "tuner/Target/Target.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

using namespace tuner::db;
using llvm::Error;
using llvm::Expected;
using llvm::StringRef;

namespace cl = llvm::cl;

static cl::OptionCategory toolCategory("tuner-db options");

static cl::opt<std::string>
    dbPathOption("db",
                 cl::desc("Tuning database (default: "
                          "$XDG_DATA_HOME/tuner/tuning.db, else "
                          "~/.local/share/tuner/tuning.db)"),
                 cl::value_desc("path"), cl::cat(toolCategory));

static cl::opt<std::string>
    outputOption("o", cl::desc("File that export writes (default: stdout)"),
                 cl::value_desc("file"), cl::cat(toolCategory));

static cl::opt<std::string>
    targetOption("target",
                 cl::desc("Target fingerprint whose records best reads "
                          "(default: this machine's, as tuner-db host "
                          "prints it)"),
                 cl::value_desc("fingerprint"), cl::cat(toolCategory));

static cl::list<std::string> positionals(cl::Positional,
                                         cl::desc("<command> [argument]"),
                                         cl::cat(toolCategory));

static constexpr const char *kOverview =
    "inspect, export and import tuning databases\n\n"
    "commands:\n"
    "  list           workloads with measurement counts and best speedup\n"
    "  show [PREFIX]  measurements of the workload whose hash starts with "
    "PREFIX (the database's only one without PREFIX): each config's latest "
    "record best first, with the fingerprint of the space of each config, "
    "then the earlier ones of configs measured again\n"
    "  best [PREFIX]  the best verified measurement of the workload (the "
    "database's only one without PREFIX) on this machine (or --target) as "
    "a JSON line: what --tuner-apply-best applies\n"
    "  export [-o F]  every workload and measurement as JSON lines\n"
    "  import FILE    JSON lines from FILE (idempotent; all or nothing)\n"
    "  check          SQLite integrity check and schema check\n"
    "  host           the target fingerprint of this machine, which keys its "
    "records\n";

/// Prints rows as columns padded to the widest cell; a column whose
/// `rightAligned` entry is true holds numbers.
static void printTable(llvm::raw_ostream &os,
                       const std::vector<std::vector<std::string>> &rows,
                       const std::vector<bool> &rightAligned) {
  std::vector<size_t> widths(rightAligned.size(), 0);
  for (const std::vector<std::string> &row : rows)
    for (size_t i = 0; i < row.size(); ++i)
      widths[i] = std::max(widths[i], row[i].size());
  for (const std::vector<std::string> &row : rows) {
    std::string line;
    llvm::raw_string_ostream lineOs(line);
    for (size_t i = 0; i < row.size(); ++i) {
      if (i)
        lineOs << "  ";
      if (rightAligned[i])
        lineOs << llvm::right_justify(row[i], widths[i]);
      else
        lineOs << llvm::left_justify(row[i], widths[i]);
    }
    os << StringRef(line).rtrim(' ') << '\n';
  }
}

static std::string formatSeconds(const std::optional<double> &seconds) {
  if (!seconds)
    return "-";
  std::string text;
  llvm::raw_string_ostream(text) << llvm::format("%.4g", *seconds);
  return text;
}

static std::string formatSpeedup(const std::optional<double> &speedup) {
  if (!speedup)
    return "-";
  std::string text;
  llvm::raw_string_ostream(text) << llvm::format("%.2fx", *speedup);
  return text;
}

/// The first line of a message, cut to a table cell.
static std::string shortMessage(StringRef message) {
  StringRef line = message.split('\n').first.rtrim();
  constexpr size_t kMaxLength = 60;
  if (line.size() <= kMaxLength)
    return line.str();
  return line.take_front(kMaxLength - 3).str() + "...";
}

static Expected<std::string> databasePath() {
  if (!dbPathOption.empty())
    return dbPathOption.getValue();
  return defaultDatabasePath();
}

static Expected<Database> openDatabase(Database::Mode mode) {
  Expected<std::string> path = databasePath();
  if (!path)
    return path.takeError();
  return Database::open(*path, mode);
}

static Error listCommand() {
  Expected<Database> db = openDatabase(Database::Mode::ReadOnly);
  if (!db)
    return db.takeError();
  Expected<std::vector<WorkloadSummary>> summaries = db->summarize();
  if (!summaries)
    return summaries.takeError();
  if (summaries->empty()) {
    llvm::outs() << "no workloads in " << db->path() << "\n";
    return Error::success();
  }
  std::vector<std::vector<std::string>> rows = {
      {"WORKLOAD", "FUNCTION", "TARGET", "RECORDS", "OK", "FAILED", "BEST"}};
  for (const WorkloadSummary &summary : *summaries) {
    uint64_t ok = summary.counts.get(tuner::Status::Ok);
    uint64_t total = summary.counts.total();
    rows.push_back(
        {StringRef(summary.workloadHash).take_front(16).str(),
         summary.functionName, summary.target.empty() ? "-" : summary.target,
         std::to_string(total), std::to_string(ok), std::to_string(total - ok),
         formatSpeedup(summary.bestSpeedup)});
  }
  printTable(llvm::outs(), rows, {false, false, false, true, true, true, true});
  return Error::success();
}

/// The workload whose hash starts with `prefix` (the one whose hash is
/// `prefix`, when several start with it); without a prefix, the database's
/// only workload.
static Expected<Workload> findWorkload(Database &db,
                                       std::optional<StringRef> prefix) {
  if (prefix && prefix->empty())
    return llvm::createStringError("the hash prefix is empty");
  Expected<std::vector<Workload>> matches =
      db.findWorkloads(prefix ? *prefix : "");
  if (!matches)
    return matches.takeError();
  if (matches->empty())
    return llvm::createStringError(
        prefix ? "no workload with a hash starting with '" + *prefix + "' in " +
                     db.path()
               : "no workloads in " + db.path());
  if (!prefix) {
    if (matches->size() > 1)
      return llvm::createStringError(
          db.path() + " holds " + std::to_string(matches->size()) +
          " workloads; name one by a prefix of its hash (tuner-db list)");
    return matches->front();
  }
  for (const Workload &match : *matches)
    if (match.hash == *prefix)
      return match;
  if (matches->size() > 1) {
    std::string hashes;
    for (const Workload &match : *matches)
      hashes += (hashes.empty() ? "" : ", ") + match.hash;
    return llvm::createStringError("hash prefix '" + *prefix +
                                   "' is ambiguous in " + db.path() +
                                   ": it matches " + hashes);
  }
  return matches->front();
}

/// Prints `records` as one table; OBJECTIVE appears when one of them has
/// one (a user's command's number).
static void printRecords(llvm::raw_ostream &os,
                         llvm::ArrayRef<MeasurementRecord> records) {
  bool objectives = llvm::any_of(records, [](const MeasurementRecord &record) {
    return record.objective.has_value();
  });
  std::vector<std::string> header = {
      "STATUS",   "MEDIAN_S",    "MIN_S", "MAX_S",  "REPS",   "SPEEDUP",
      "STRATEGY", "CONFIG_HASH", "SPACE", "CONFIG", "MESSAGE"};
  std::vector<bool> rightAligned = {false, true,  true,  true,  true, true,
                                    false, false, false, false, false};
  if (objectives) {
    header.insert(header.begin() + 6, "OBJECTIVE");
    rightAligned.insert(rightAligned.begin() + 6, true);
  }
  std::vector<std::vector<std::string>> rows = {header};
  for (const MeasurementRecord &record : records) {
    std::string hash;
    llvm::raw_string_ostream(hash)
        << llvm::format_hex_no_prefix(record.configHash, 16);
    std::vector<std::string> row = {
        statusName(record.status).str(),
        formatSeconds(record.medianSeconds),
        formatSeconds(record.minSeconds),
        formatSeconds(record.maxSeconds),
        std::to_string(record.repetitions),
        formatSpeedup(record.speedup),
        record.strategy,
        hash,
        record.spaceFingerprint.empty() ? "-" : record.spaceFingerprint,
        record.config,
        shortMessage(record.message)};
    if (objectives)
      row.insert(row.begin() + 6, formatSeconds(record.objective));
    rows.push_back(std::move(row));
  }
  printTable(os, rows, rightAligned);
}

/// A database opened to read, and the workload `prefix` names in it (see
/// findWorkload).
struct OpenedWorkload {
  Database db;
  Workload workload;
};

static Expected<OpenedWorkload> openWorkload(std::optional<StringRef> prefix) {
  Expected<Database> db = openDatabase(Database::Mode::ReadOnly);
  if (!db)
    return db.takeError();
  Expected<Workload> workload = findWorkload(*db, prefix);
  if (!workload)
    return workload.takeError();
  return OpenedWorkload{std::move(*db), std::move(*workload)};
}

static Error showCommand(std::optional<StringRef> prefix) {
  Expected<OpenedWorkload> opened = openWorkload(prefix);
  if (!opened)
    return opened.takeError();
  Database &db = opened->db;
  const Workload &workload = opened->workload;
  Expected<std::vector<TargetRecords>> groups =
      db.recordsByTarget(workload.hash);
  if (!groups)
    return groups.takeError();
  llvm::raw_ostream &os = llvm::outs();
  os << "workload: " << workload.hash << "\n"
     << "function: " << workload.functionName << "\n";
  if (groups->empty()) {
    os << "no measurements\n";
    return Error::success();
  }
  for (const TargetRecords &group : *groups) {
    os << "\ntarget: " << group.target << "\n";
    printRecords(os, group.latest);
    if (group.superseded.empty())
      continue;
    os << "superseded: " << group.superseded.size() << " earlier measurement"
       << (group.superseded.size() == 1 ? " of a config" : "s of configs")
       << " measured again (only the latest counts), newest first\n";
    printRecords(os, group.superseded);
  }
  return Error::success();
}

/// The best verified record of a workload on a target (this machine's by
/// default), as one JSON line of the export format: what
/// --tuner-apply-best applies.
static Error bestCommand(std::optional<StringRef> prefix) {
  Expected<OpenedWorkload> opened = openWorkload(prefix);
  if (!opened)
    return opened.takeError();
  Database &db = opened->db;
  const Workload &workload = opened->workload;
  std::string target = targetOption.empty()
                           ? tuner::Target::host().fingerprint()
                           : targetOption.getValue();
  Expected<std::optional<MeasurementRecord>> best =
      db.best(workload.hash, target);
  if (!best)
    return best.takeError();
  if (*best) {
    llvm::outs() << toJsonLine(**best) << "\n";
    return Error::success();
  }
  std::string why = ("no verified measurement of workload " + workload.hash +
                     " on target '" + target + "' in " + db.path())
                        .str();
  Expected<std::vector<WorkloadSummary>> summaries = db.summarize();
  if (!summaries)
    return summaries.takeError();
  std::string others;
  for (const WorkloadSummary &summary : *summaries)
    if (summary.workloadHash == workload.hash && summary.target != target &&
        summary.bestSpeedup)
      others += (others.empty() ? "" : ", ") + ("'" + summary.target + "'");
  if (!others.empty())
    why += "; it has some on " + others + " (choose one with --target)";
  return llvm::createStringError(why);
}

static Error exportCommand() {
  Expected<Database> db = openDatabase(Database::Mode::ReadOnly);
  if (!db)
    return db.takeError();
  if (outputOption.empty())
    return db->exportJsonLines(llvm::outs());
  std::error_code ec;
  llvm::ToolOutputFile output(outputOption, ec, llvm::sys::fs::OF_None);
  if (ec)
    return llvm::createStringError(ec, "cannot write " + outputOption + ": " +
                                           ec.message());
  if (Error err = db->exportJsonLines(output.os()))
    return err;
  output.os().flush();
  if (output.os().has_error())
    return llvm::createStringError(output.os().error(),
                                   "cannot write " + outputOption + ": " +
                                       output.os().error().message());
  output.keep();
  return Error::success();
}

static Error importCommand(StringRef file) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buffer =
      llvm::MemoryBuffer::getFile(file, /*IsText=*/true);
  if (!buffer)
    return llvm::createStringError(buffer.getError(),
                                   "cannot read " + file + ": " +
                                       buffer.getError().message());
  Expected<Database> db = openDatabase(Database::Mode::ReadWrite);
  if (!db)
    return db.takeError();
  Expected<ImportStats> stats =
      db->importJsonLines((*buffer)->getBuffer(), file);
  if (!stats)
    return stats.takeError();
  llvm::outs() << "imported " << stats->workloadsAdded << " workloads and "
               << stats->measurementsAdded << " measurements from " << file
               << " into " << db->path() << " (" << stats->measurementsSkipped
               << " measurements already present)\n";
  return Error::success();
}

static Error checkCommand() {
  Expected<Database> db = openDatabase(Database::Mode::ReadOnly);
  if (!db)
    return db.takeError();
  if (Error err = db->checkIntegrity())
    return err;
  Expected<std::vector<WorkloadSummary>> summaries = db->summarize();
  if (!summaries)
    return summaries.takeError();
  llvm::StringSet<> workloads;
  uint64_t measurements = 0;
  for (const WorkloadSummary &summary : *summaries) {
    workloads.insert(summary.workloadHash);
    measurements += summary.counts.total();
  }
  llvm::outs() << db->path() << ": ok (schema version " << db->schemaVersion()
               << ", " << workloads.size() << " workloads, " << measurements
               << " measurements)\n";
  if (db->schemaVersion() < Database::kSchemaVersion)
    llvm::outs() << "schema version " << db->schemaVersion()
                 << " is read as it is; writing to the database (import, "
                    "tuning) migrates it to version "
                 << Database::kSchemaVersion << "\n";
  return Error::success();
}

/// The fingerprint this machine's records are keyed by (what autotune and
/// --tuner-apply-best use when no target is given).
static Error hostCommand() {
  llvm::outs() << tuner::Target::host().fingerprint() << "\n";
  return Error::success();
}

static Error run() {
  if (positionals.empty())
    return llvm::createStringError(
        "no command given; expected list, show, best, export, import, check "
        "or host (see --help)");
  StringRef command = positionals.front();
  size_t arguments = positionals.size() - 1;
  // Between `least` and `most` arguments.
  auto expectArguments = [&](size_t least, size_t most,
                             StringRef usage) -> Error {
    if (arguments >= least && arguments <= most)
      return Error::success();
    return llvm::createStringError(
        "'" + command + "' takes " + (least < most ? "at most " : "") +
        std::to_string(most) + " argument" + (most == 1 ? "" : "s") + ", got " +
        std::to_string(arguments) + "; usage: tuner-db " + usage);
  };
  if (!outputOption.empty() && command != "export")
    return llvm::createStringError("-o is only for the export command");
  if (!targetOption.empty() && command != "best")
    return llvm::createStringError("--target is only for the best command");
  if (command == "list") {
    if (Error err = expectArguments(0, 0, "[--db PATH] list"))
      return err;
    return listCommand();
  }
  // show and best read the workload a hash prefix names, or the
  // database's only one.
  std::optional<StringRef> prefix;
  if (arguments == 1)
    prefix = positionals[1];
  if (command == "show") {
    if (Error err = expectArguments(0, 1, "[--db PATH] show [HASH-PREFIX]"))
      return err;
    return showCommand(prefix);
  }
  if (command == "best") {
    if (Error err = expectArguments(
            0, 1, "[--db PATH] [--target T] best [HASH-PREFIX]"))
      return err;
    return bestCommand(prefix);
  }
  if (command == "export") {
    if (Error err = expectArguments(0, 0, "[--db PATH] export [-o FILE]"))
      return err;
    return exportCommand();
  }
  if (command == "import") {
    if (Error err = expectArguments(1, 1, "[--db PATH] import FILE"))
      return err;
    return importCommand(positionals[1]);
  }
  if (command == "check") {
    if (Error err = expectArguments(0, 0, "[--db PATH] check"))
      return err;
    return checkCommand();
  }
  if (command == "host") {
    if (Error err = expectArguments(0, 0, "host"))
      return err;
    return hostCommand();
  }
  return llvm::createStringError("unknown command '" + command +
                                 "'; expected list, show, best, export, "
                                 "import, check or host (see --help)");
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  cl::HideUnrelatedOptions(toolCategory);
  cl::ParseCommandLineOptions(argc, argv, kOverview);
  if (Error err = run()) {
    llvm::WithColor::error(llvm::errs(), "tuner-db")
        << llvm::toString(std::move(err)) << "\n";
    return 1;
  }
  return 0;
}
