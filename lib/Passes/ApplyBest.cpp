//===- ApplyBest.cpp - Apply the best recorded schedules ------------------===//

#include "tuner/Analysis/ProgramAnalysis.h"
#include "tuner/Analysis/WorkloadHash.h"
#include "tuner/Database/Database.h"
#include "tuner/Passes/PassUtils.h"
#include "tuner/Passes/Passes.h"
#include "tuner/Schedule/ApplySchedule.h"
#include "tuner/Schedule/ScheduleBuilder.h"
#include "tuner/Schedule/TransformExtension.h"

#include "mlir/Dialect/Transform/IR/TransformDialect.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

namespace tuner {
#define GEN_PASS_DEF_TUNERAPPLYBEST
#include "tuner/Passes/Passes.h.inc"
} // namespace tuner

using namespace mlir;
using namespace tuner;

namespace {
/// The schedule chosen for one function, applied once every function has
/// been decided.
struct Choice {
  std::string function;
  Location loc;
  std::string script;
  double speedup;
};

struct TunerApplyBestPass
    : tuner::impl::TunerApplyBestBase<TunerApplyBestPass> {
  using TunerApplyBestBase::TunerApplyBestBase;
  template <typename PassT>
  friend SpaceOptions tuner::readSpaceOptions(const PassT &pass);

  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<transform::TransformDialect>();
    registerTunerDialectExtensions(registry);
    registerShapeDialects(registry);
  }
  void runOnOperation() override;

private:
  /// Chooses the best record of `func` made in the space the function has
  /// now: std::nullopt when there is nothing to apply (with a remark),
  /// failure on an error (diagnosed).
  FailureOr<std::optional<Choice>> choose(func::FuncOp func,
                                          db::Database &records,
                                          const Target &target,
                                          llvm::StringRef machine);
};
} // namespace

FailureOr<std::optional<Choice>>
TunerApplyBestPass::choose(func::FuncOp func, db::Database &records,
                           const Target &target, llvm::StringRef machine) {
  // A dynamic function's records are those made at the sizes given.
  FailureOr<SpecializedFunction> specialized = specializeForTuning(
      func, hasDynamicShapes(func) ? llvm::StringRef(shapes) : "");
  if (failed(specialized))
    return failure();
  std::string workload = workloadHash(
      func, specialized->isDynamic() ? specialized->shapes.front().str() : "");
  auto ranked = records.okRecordsBestFirst(workload, machine);
  if (!ranked) {
    emitError(func, "cannot read the tuning database", ranked.takeError());
    return failure();
  }
  if (ranked->empty()) {
    mlir::emitRemark(func.getLoc())
        << "no tuning record for @" << func.getSymName() << " (workload "
        << workload << ") on this machine: left as it is";
    return std::optional<Choice>();
  }
  FailureOr<ProgramTree> tree = buildAnalyzedTree(*specialized);
  if (failed(tree))
    return failure();
  llvm::Expected<Space> space = buildSpace(
      *tree, target,
      specialized->isDynamic() ? dynamicSpaceOptions(readSpaceOptions(*this))
                               : readSpaceOptions(*this));
  if (!space) {
    emitError(func, "cannot build the search space", space.takeError());
    return failure();
  }
  std::string fingerprint = space->fingerprint();

  // The best record made in this space. A record of schema 1 does not know
  // its space: it is taken when its config reads in this one. Parameters
  // the tuning run's space did not have keep their defaults, which leave
  // the program as it is.
  std::optional<db::MeasurementRecord> chosen;
  std::optional<Config> config;
  std::vector<std::string> otherSpaces;
  size_t inOtherSpaces = 0;
  std::string unreadable; // Why the best record of schema 1 did not read.
  for (db::MeasurementRecord &record : *ranked) {
    if (!record.mayBeOfSpace(fingerprint)) {
      ++inOtherSpaces;
      if (!llvm::is_contained(otherSpaces, record.spaceFingerprint))
        otherSpaces.push_back(record.spaceFingerprint);
      continue;
    }
    llvm::Expected<llvm::json::Value> json = llvm::json::parse(record.config);
    if (!json) {
      emitError(func, "the recorded config is not JSON", json.takeError());
      return failure();
    }
    llvm::Expected<Config> read =
        Config::fromJSON(*space, *json, /*allowMissing=*/true);
    if (!read) {
      if (!record.spaceFingerprint.empty()) {
        emitError(func,
                  "a record made in this function's space has a config "
                  "that does not read in it",
                  read.takeError());
        return failure();
      }
      if (unreadable.empty())
        unreadable = llvm::toString(read.takeError());
      else
        llvm::consumeError(read.takeError());
      continue;
    }
    chosen = std::move(record);
    config = std::move(*read);
    break;
  }
  if (!chosen) {
    InFlightDiagnostic diag = mlir::emitError(func.getLoc());
    diag << "no tuning record of @" << func.getSymName()
         << " on this machine was made in the space it has now";
    if (!otherSpaces.empty())
      diag << ": the space changed (other space options, or another version "
              "of the tuner): its "
           << inOtherSpaces << " verified record"
           << (inOtherSpaces == 1 ? " was" : "s were") << " made in space "
           << llvm::join(otherSpaces, ", ") << ", the space is now "
           << fingerprint
           << "; use the space options it was tuned with, or tune it again";
    if (!unreadable.empty())
      diag << (otherSpaces.empty() ? ": " : "; ")
           << "the best record without a space fingerprint has a config "
              "that does not fit this function's space (was it tuned with "
              "other space options?): "
           << unreadable;
    return failure();
  }
  if (chosen->speedup.value_or(0) <= 1.0) {
    mlir::emitRemark(func.getLoc())
        << "no recorded schedule of @" << func.getSymName()
        << " beats the untransformed function: left as it is";
    return std::optional<Choice>();
  }
  llvm::Expected<std::string> script =
      buildTransformScript(*tree, *space, *config);
  if (!script) {
    emitError(func, "the recorded config is not a valid schedule",
              script.takeError());
    return failure();
  }
  return std::optional<Choice>(Choice{func.getSymName().str(), func.getLoc(),
                                      std::move(*script),
                                      chosen->speedup.value_or(0)});
}

void TunerApplyBestPass::runOnOperation() {
  ModuleOp module = getOperation();
  FailureOr<Target> target = resolveTarget(module, this->target);
  if (failed(target))
    return signalPassFailure();
  FailureOr<db::Database> records = openTuningDatabase(
      module, database, db::Database::Mode::ReadOnly);
  if (failed(records))
    return signalPassFailure();

  SmallVector<func::FuncOp> funcs;
  if (!functionName.empty()) {
    FailureOr<func::FuncOp> func = selectFunction(module, functionName);
    if (failed(func))
      return signalPassFailure();
    funcs.push_back(*func);
  } else {
    for (auto func : module.getOps<func::FuncOp>())
      if (!func.isExternal() && hasLoopNests(func))
        funcs.push_back(func);
  }
  // Records are keyed by the machine that measured them: this one, or the
  // GPU a GPU target measures on.
  std::string machine =
      target->isGpu() ? target->fingerprint() : Target::host().fingerprint();
  // Every function is decided before any is changed: an error leaves the
  // module as it was.
  std::vector<Choice> choices;
  bool ok = true;
  for (func::FuncOp func : funcs) {
    FailureOr<std::optional<Choice>> choice =
        choose(func, *records, *target, machine);
    if (failed(choice))
      ok = false;
    else if (*choice)
      choices.push_back(std::move(**choice));
  }
  if (!ok)
    return signalPassFailure();
  // Applying a schedule replaces the module's body; a script finds its
  // function by name.
  for (const Choice &choice : choices) {
    if (failed(applyTransformScript(module, choice.script)))
      return signalPassFailure();
    mlir::emitRemark(choice.loc)
        << "applied the best recorded schedule of @" << choice.function
        << llvm::formatv(" ({0:F2}x over the untransformed function when "
                         "measured)",
                         choice.speedup);
  }
}
