//===- ImportTable.cpp - Record a replay table in the tuning database -----===//
//
// Turns a fully measured replay table into the records the autotune pass
// would have made had it measured the table's configs itself on this
// machine, so that autotune runs replay the table through the pass.
//
//===----------------------------------------------------------------------===//

#include "tuner/Analysis/WorkloadHash.h"
#include "tuner/Database/Database.h"
#include "tuner/Passes/PassUtils.h"
#include "tuner/Passes/Passes.h"
#include "tuner/Target/Target.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MemoryBuffer.h"

namespace tuner {
#define GEN_PASS_DEF_TUNERIMPORTTABLE
#include "tuner/Passes/Passes.h.inc"
} // namespace tuner

using namespace mlir;
using namespace tuner;

namespace {
struct TunerImportTablePass
    : tuner::impl::TunerImportTableBase<TunerImportTablePass> {
  using TunerImportTableBase::TunerImportTableBase;
  template <typename PassT>
  friend SpaceOptions tuner::readSpaceOptions(const PassT &pass);

  void getDependentDialects(DialectRegistry &registry) const override {
    registerShapeDialects(registry);
  }
  void runOnOperation() override;
};

/// One row of a replay table, read in the space.
struct Row {
  Config config;
  Status status = Status::Ok;
  std::optional<double> seconds;
  size_t line = 0;
};
} // namespace

/// Reads the rows of `text` (the table named `name`) in `space`.
static llvm::Expected<std::vector<Row>>
readTable(llvm::StringRef text, llvm::StringRef name, const Space &space) {
  std::vector<Row> rows;
  size_t lineNumber = 0;
  while (!text.empty()) {
    auto [line, rest] = text.split('\n');
    text = rest;
    ++lineNumber;
    if (line.trim().empty())
      continue;
    auto fail = [&](llvm::Twine message) {
      return llvm::createStringError(name + ":" + llvm::Twine(lineNumber) +
                                     ": " + message);
    };
    llvm::Expected<llvm::json::Value> json = llvm::json::parse(line);
    if (!json)
      return fail("not JSON: " + llvm::toString(json.takeError()));
    const llvm::json::Object *object = json->getAsObject();
    if (!object)
      return fail("expected an object {\"config\", \"time\", \"status\"}");
    const llvm::json::Value *configJson = object->get("config");
    if (!configJson)
      return fail("no \"config\"");
    llvm::Expected<Config> config = Config::fromJSON(space, *configJson);
    if (!config)
      return fail("the config is not of the space: " +
                  llvm::toString(config.takeError()));
    Row row;
    row.config = std::move(*config);
    row.line = lineNumber;
    std::optional<llvm::StringRef> status = object->getString("status");
    if (!status)
      return fail("no \"status\" string");
    std::optional<Status> parsed = parseStatus(*status);
    if (!parsed)
      return fail("unknown status '" + *status + "'");
    row.status = *parsed;
    const llvm::json::Value *time = object->get("time");
    if (time && time->kind() != llvm::json::Value::Null) {
      std::optional<double> seconds = time->getAsNumber();
      if (!seconds || !(*seconds > 0))
        return fail("\"time\" is not a positive number of seconds");
      row.seconds = *seconds;
    }
    if (row.status == Status::Ok && !row.seconds)
      return fail("an 'ok' row needs its \"time\"");
    rows.push_back(std::move(row));
  }
  return rows;
}

void TunerImportTablePass::runOnOperation() {
  ModuleOp module = getOperation();
  if (table.empty()) {
    moduleError(module) << "the 'table' option is required";
    return signalPassFailure();
  }
  if (llvm::StringRef(table).ends_with(".xz")) {
    moduleError(module) << "the table '" << table
                        << "' is compressed: decompress it first (xz -dk)";
    return signalPassFailure();
  }
  FailureOr<TunableFunction> tunable = prepareFunction(
      module, functionName, target, readSpaceOptions(*this), shapes);
  if (failed(tunable))
    return signalPassFailure();
  func::FuncOp func = tunable->func;
  Space space = std::move(tunable->space);
  if (!spaceFile.empty()) {
    FailureOr<Space> fromFile = readSpaceFile(func, spaceFile);
    if (failed(fromFile))
      return signalPassFailure();
    llvm::Expected<Space> narrowed = narrowSpace(space, *fromFile);
    if (!narrowed) {
      emitError(func,
                "the space '" + spaceFile + "' does not narrow the space of @" +
                    func.getSymName(),
                narrowed.takeError());
      return signalPassFailure();
    }
    space = std::move(*narrowed);
  }

  auto buffer = llvm::MemoryBuffer::getFile(table, /*IsText=*/true);
  if (!buffer) {
    moduleError(module) << "cannot read the table '" << table
                        << "': " << buffer.getError().message();
    return signalPassFailure();
  }
  llvm::Expected<std::vector<Row>> rows =
      readTable((*buffer)->getBuffer(), table, space);
  if (!rows) {
    emitError(func, "cannot import the table", rows.takeError());
    return signalPassFailure();
  }

  FailureOr<db::Database> database =
      openTuningDatabase(module, this->database, db::Database::Mode::ReadWrite);
  if (failed(database))
    return signalPassFailure();
  // The keys tuner-autotune gives its own records of this function: this
  // machine measures (or the GPU target does), and a dynamic function is
  // another workload at each size.
  std::string shapeKey =
      tunable->specialized ? tunable->specialized->shapes.front().str() : "";
  std::string workload = workloadHash(func, shapeKey);
  std::string machine = tunable->target.isGpu()
                            ? tunable->target.fingerprint()
                            : Target::host().fingerprint();
  std::string spaceFingerprint = space.fingerprint();
  if (llvm::Error error = database->addWorkload(
          {workload, func.getSymName().str(), canonicalIR(func, shapeKey)})) {
    emitError(func, "cannot write to the tuning database", std::move(error));
    return signalPassFailure();
  }

  // One JSON line per row not recorded yet, imported in one transaction.
  std::string lines;
  llvm::raw_string_ostream os(lines);
  size_t present = 0, added = 0;
  int64_t now = db::unixNow();
  for (const Row &row : *rows) {
    auto known = database->lookup(workload, machine, row.config.hash());
    if (!known) {
      emitError(func, "cannot read the tuning database", known.takeError());
      return signalPassFailure();
    }
    if (*known && (*known)->mayBeOfSpace(spaceFingerprint)) {
      ++present;
      continue;
    }
    std::string config;
    llvm::raw_string_ostream(config) << row.config.toJSON(space);
    std::string hash;
    llvm::raw_string_ostream(hash)
        << llvm::format_hex_no_prefix(row.config.hash(), 16);
    llvm::json::Value seconds =
        row.seconds ? llvm::json::Value(*row.seconds) : nullptr;
    llvm::json::Object record{
        {"kind", "measurement"},
        {"workload", workload},
        {"target", machine},
        {"config", config},
        {"config_hash", hash},
        {"status", statusName(row.status)},
        {"min_s", seconds},
        {"median_s", seconds},
        {"max_s", seconds},
        {"repetitions", row.seconds ? 1 : 0},
        {"speedup", nullptr},
        {"baseline_median_s", nullptr},
        {"strategy", "table"},
        {"tool_version", TUNER_VERSION_STRING},
        {"timestamp", now},
        {"message", (table + ":" + llvm::Twine(row.line)).str()},
        {"space_fingerprint", spaceFingerprint}};
    os << llvm::json::Value(std::move(record)) << "\n";
    ++added;
  }
  llvm::Expected<db::ImportStats> stats =
      database->importJsonLines(lines, table);
  if (!stats) {
    emitError(func, "cannot write to the tuning database", stats.takeError());
    return signalPassFailure();
  }
  mlir::emitRemark(func.getLoc())
      << "import-table @" << func.getSymName() << ": " << added
      << " records of '" << table << "' imported into " << database->path()
      << " (" << present << " already recorded in this space; workload "
      << workload << ", space " << spaceFingerprint << ")";
}
