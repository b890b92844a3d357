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

#include "llvm/Support/FormatVariadic.h"

namespace tuner {
#define GEN_PASS_DEF_TUNERAPPLYBEST
#include "tuner/Passes/Passes.h.inc"
} // namespace tuner

using namespace mlir;
using namespace tuner;

namespace {
struct TunerApplyBestPass
    : tuner::impl::TunerApplyBestBase<TunerApplyBestPass> {
  using TunerApplyBestBase::TunerApplyBestBase;
  template <typename PassT>
  friend SpaceOptions tuner::readSpaceOptions(const PassT &pass);

  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<transform::TransformDialect>();
    registerTunerDialectExtensions(registry);
  }
  void runOnOperation() override;

private:
  /// Applies the best record of `func`; false on an error (diagnosed).
  bool applyBest(func::FuncOp func, db::Database &records,
                 const Target &target, llvm::StringRef machine);
};
} // namespace

bool TunerApplyBestPass::applyBest(func::FuncOp func, db::Database &records,
                                   const Target &target,
                                   llvm::StringRef machine) {
  std::string workload = workloadHash(func);
  auto best = records.best(workload, machine);
  if (!best) {
    emitError(func, "cannot read the tuning database", best.takeError());
    return false;
  }
  if (!*best) {
    mlir::emitRemark(func.getLoc())
        << "no tuning record for @" << func.getSymName() << " (workload "
        << workload << ") on this machine: left as it is";
    return true;
  }
  if ((*best)->speedup.value_or(0) <= 1.0) {
    mlir::emitRemark(func.getLoc())
        << "no recorded schedule of @" << func.getSymName()
        << " beats the untransformed function: left as it is";
    return true;
  }
  FailureOr<ProgramTree> tree = buildProgramTree(func);
  if (failed(tree))
    return false;
  llvm::Expected<Space> space =
      buildSpace(*tree, target, readSpaceOptions(*this));
  if (!space) {
    emitError(func, "cannot build the search space", space.takeError());
    return false;
  }
  llvm::Expected<llvm::json::Value> json = llvm::json::parse((*best)->config);
  if (!json) {
    emitError(func, "the recorded config is not JSON", json.takeError());
    return false;
  }
  // Parameters the tuning run's space did not have keep their defaults,
  // which leave the program as it is.
  llvm::Expected<Config> config =
      Config::fromJSON(*space, *json, /*allowMissing=*/true);
  if (!config) {
    emitError(func,
              "the recorded config does not fit this function's space (was "
              "it tuned with other space options?)",
              config.takeError());
    return false;
  }
  llvm::Expected<std::string> script =
      buildTransformScript(*tree, *space, *config);
  if (!script) {
    emitError(func, "the recorded config is not a valid schedule",
              script.takeError());
    return false;
  }
  std::string name = func.getSymName().str();
  Location loc = func.getLoc();
  if (failed(applyTransformScript(getOperation(), *script)))
    return false;
  mlir::emitRemark(loc) << "applied the best recorded schedule of @" << name
                        << llvm::formatv(" ({0:F2}x over the untransformed "
                                         "function when measured)",
                                         (*best)->speedup.value_or(0));
  return true;
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

  SmallVector<std::string> names;
  if (!functionName.empty()) {
    FailureOr<func::FuncOp> func = selectFunction(module, functionName);
    if (failed(func))
      return signalPassFailure();
    names.push_back(functionName);
  } else {
    for (auto func : module.getOps<func::FuncOp>())
      if (!func.isExternal() && hasLoopNests(func))
        names.push_back(func.getSymName().str());
  }
  // Records are keyed by the machine that measured them: this one.
  std::string machine = Target::host().fingerprint();
  bool ok = true;
  // Look functions up by name each time: applying a schedule replaces the
  // module's body.
  for (const std::string &name : names)
    ok &= applyBest(module.lookupSymbol<func::FuncOp>(name), *records,
                    *target, machine);
  if (!ok)
    signalPassFailure();
}
