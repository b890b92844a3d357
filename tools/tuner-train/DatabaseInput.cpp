//===- DatabaseInput.cpp - Tuning databases as training data --------------===//

#include "DatabaseInput.h"

#include "tuner/Analysis/ProgramAnalysis.h"
#include "tuner/Database/Database.h"
#include "tuner/Space/SpaceBuilder.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/InitAllDialects.h"
#include "mlir/Parser/Parser.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/xxhash.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <tuple>

using namespace tuner;

namespace {

/// The records of one workload on one machine, from every database.
struct Group {
  db::Workload workload;
  std::string origin; ///< The database it was first read from.
  std::vector<db::MeasurementRecord> records;
  std::set<std::tuple<uint64_t, std::string, int64_t>> identities;
};

/// A workload parsed and analyzed, or why it could not be.
struct Analyzed {
  std::optional<ProgramTree> tree;
  std::optional<Space> space;
  std::string fingerprint;
  std::string whyNot;
};

/// Parses the canonical IR of `workload` and builds its tree and space.
Analyzed analyze(mlir::MLIRContext &context, const db::Workload &workload,
                 const Target &target) {
  Analyzed result;
  if (!workload.canonicalIR) {
    result.whyNot = "its IR is not stored";
    return result;
  }
  std::string diagnostics;
  mlir::ScopedDiagnosticHandler capture(&context, [&](mlir::Diagnostic &d) {
    if (d.getSeverity() == mlir::DiagnosticSeverity::Error) {
      if (!diagnostics.empty())
        diagnostics += "; ";
      diagnostics += d.str();
    }
    return mlir::success();
  });
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceString<mlir::ModuleOp>(*workload.canonicalIR,
                                              mlir::ParserConfig(&context),
                                              "workload " + workload.hash);
  if (!module) {
    result.whyNot = "its stored IR does not parse: " + diagnostics;
    return result;
  }
  auto func = module->lookupSymbol<mlir::func::FuncOp>(workload.functionName);
  if (!func || func.isExternal()) {
    result.whyNot = "its stored IR has no function @" + workload.functionName;
    return result;
  }
  mlir::FailureOr<ProgramTree> tree = buildProgramTree(func);
  if (failed(tree)) {
    result.whyNot = "the tuner cannot analyze it: " + diagnostics;
    return result;
  }
  llvm::Expected<Space> space = buildSpace(*tree, target, SpaceOptions());
  if (!space) {
    result.whyNot = "no search space: " + llvm::toString(space.takeError());
    return result;
  }
  result.fingerprint = space->fingerprint();
  result.tree = std::move(*tree);
  result.space = std::move(*space);
  return result;
}

/// The median of `values` (which must not be empty).
double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  size_t middle = values.size() / 2;
  return values.size() % 2 ? values[middle]
                           : (values[middle - 1] + values[middle]) / 2;
}

/// The program id of a workload measured on a machine.
std::string programId(llvm::StringRef workload, llvm::StringRef target) {
  std::string id;
  llvm::raw_string_ostream(id)
      << workload << "-"
      << llvm::format_hex_no_prefix(llvm::xxh3_64bits(target) >> 32, 8);
  return id;
}

/// Reads every (workload, machine) of one database into `groups`.
llvm::Error
readDatabase(const std::string &path,
             std::map<std::pair<std::string, std::string>, Group> &groups,
             DatabaseInputStats &stats) {
  llvm::Expected<db::Database> database =
      db::Database::open(path, db::Database::Mode::ReadOnly);
  if (!database)
    return database.takeError();
  llvm::Expected<std::vector<db::WorkloadSummary>> summaries =
      database->summarize();
  if (!summaries)
    return summaries.takeError();
  for (const db::WorkloadSummary &summary : *summaries) {
    if (summary.target.empty())
      continue; // A workload without measurements.
    llvm::Expected<std::optional<db::Workload>> workload =
        database->getWorkload(summary.workloadHash);
    if (!workload)
      return workload.takeError();
    llvm::Expected<std::vector<db::MeasurementRecord>> records =
        database->records(summary.workloadHash, summary.target);
    if (!records)
      return records.takeError();
    Group &group = groups[{summary.workloadHash, summary.target}];
    if (group.origin.empty()) {
      group.workload = **workload;
      group.origin = path;
    } else if (!group.workload.canonicalIR) {
      group.workload.canonicalIR = (*workload)->canonicalIR;
    }
    for (db::MeasurementRecord &record : *records) {
      ++stats.records;
      if (!group.identities
               .emplace(record.configHash, record.strategy, record.timestamp)
               .second) {
        ++stats.duplicates;
        continue;
      }
      group.records.push_back(std::move(record));
    }
  }
  return llvm::Error::success();
}

} // namespace

llvm::Expected<Dataset>
tuner::readTuningDatabases(llvm::ArrayRef<std::string> paths,
                           const Target &target, DatabaseInputStats &stats,
                           llvm::function_ref<void(const llvm::Twine &)> note) {
  std::map<std::pair<std::string, std::string>, Group> groups;
  for (const std::string &path : paths)
    if (llvm::Error error = readDatabase(path, groups, stats))
      return std::move(error);

  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::MLIRContext context(registry, mlir::MLIRContext::Threading::DISABLED);
  std::map<std::string, Analyzed> analyzed; // By workload hash.
  std::set<std::string> workloads;

  Dataset dataset;
  for (auto &[key, group] : groups) {
    const auto &[hash, machine] = key;
    workloads.insert(hash);
    std::string id = programId(hash, machine);
    std::string what =
        llvm::formatv("{0}: workload {1} (@{2}), program {3}", group.origin,
                      hash, group.workload.functionName, id)
            .str();
    auto found = analyzed.find(hash);
    if (found == analyzed.end())
      found = analyzed.emplace(hash, analyze(context, group.workload, target))
                  .first;
    const Analyzed &program = found->second;
    if (!program.space) {
      stats.unusableWorkload += group.records.size();
      note(llvm::formatv("{0}: its {1} records are left out: {2}", what,
                         group.records.size(), program.whyNot));
      continue;
    }

    std::vector<SampleRecord> samples;
    std::vector<double> baselines;
    std::vector<std::string> otherSpaces;
    uint64_t otherSpace = 0, unreadable = 0, incomplete = 0;
    std::string firstUnreadable;
    for (const db::MeasurementRecord &record : group.records) {
      if (record.baselineMedianSeconds && *record.baselineMedianSeconds > 0)
        baselines.push_back(*record.baselineMedianSeconds);
      if (!record.mayBeOfSpace(program.fingerprint)) {
        ++otherSpace;
        if (!llvm::is_contained(otherSpaces, record.spaceFingerprint))
          otherSpaces.push_back(record.spaceFingerprint);
        continue;
      }
      llvm::Expected<llvm::json::Value> json = llvm::json::parse(record.config);
      llvm::Expected<Config> config =
          json ? Config::fromJSON(*program.space, *json, /*allowMissing=*/true)
               : llvm::Expected<Config>(json.takeError());
      if (!config) {
        ++unreadable;
        if (firstUnreadable.empty())
          firstUnreadable = llvm::toString(config.takeError());
        else
          llvm::consumeError(config.takeError());
        continue;
      }
      SampleRecord sample;
      sample.programId = id;
      sample.config = std::move(*config);
      sample.status = record.status;
      if (record.status == Status::Ok) {
        if (!(record.speedup.value_or(0) > 0) ||
            !(record.medianSeconds.value_or(0) > 0)) {
          ++incomplete;
          continue;
        }
        sample.speedup = *record.speedup;
        sample.medianSeconds = *record.medianSeconds;
      } else {
        sample.message = record.message.substr(0, 2000);
      }
      samples.push_back(std::move(sample));
    }
    stats.otherSpace += otherSpace;
    stats.unreadable += unreadable;
    stats.incomplete += incomplete;
    if (uint64_t left = otherSpace + unreadable + incomplete) {
      std::vector<std::string> why;
      if (otherSpace)
        why.push_back(llvm::formatv("{0} made in another space ({1}; the "
                                    "space is now {2}: tuned with other "
                                    "space options, for another target or "
                                    "by another version of the tuner)",
                                    otherSpace, llvm::join(otherSpaces, ", "),
                                    program.fingerprint));
      if (unreadable)
        why.push_back(llvm::formatv("{0} whose config does not read in the "
                                    "space (the first: {1})",
                                    unreadable, firstUnreadable));
      if (incomplete)
        why.push_back(llvm::formatv("{0} 'ok' without a positive speedup "
                                    "and median",
                                    incomplete));
      note(llvm::formatv("{0}: {1} of {2} records left out: {3}", what, left,
                         group.records.size(), llvm::join(why, "; ")));
    }
    if (samples.empty())
      continue;

    ProgramRecord record;
    record.id = id;
    record.tree = *program.tree;
    record.space = *program.space;
    record.mlir = *group.workload.canonicalIR;
    record.generator = llvm::formatv("tuning database {0} (@{1})", group.origin,
                                     group.workload.functionName);
    record.baselineSeconds = baselines.empty() ? 0 : median(baselines);
    record.target = machine;
    dataset.programs.push_back(std::move(record));
    stats.samples += samples.size();
    for (SampleRecord &sample : samples)
      dataset.samples.push_back(std::move(sample));
  }
  stats.workloads = workloads.size();
  stats.programs = dataset.programs.size();
  return dataset;
}
