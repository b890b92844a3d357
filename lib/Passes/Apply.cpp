//===- Apply.cpp - --tuner-apply: a config, applied as a schedule ---------===//

#include "tuner/Passes/PassUtils.h"
#include "tuner/Passes/Passes.h"
#include "tuner/Schedule/ApplySchedule.h"
#include "tuner/Schedule/ScheduleBuilder.h"
#include "tuner/Schedule/TransformExtension.h"
#include "tuner/Space/KnobSpace.h"

#include "mlir/Dialect/Transform/IR/TransformDialect.h"
#include "mlir/Support/FileUtilities.h"

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/ToolOutputFile.h"

namespace tuner {
#define GEN_PASS_DEF_TUNERAPPLY
#include "tuner/Passes/Passes.h.inc"
} // namespace tuner

using namespace mlir;
using namespace tuner;

namespace {
struct TunerApplyPass : tuner::impl::TunerApplyBase<TunerApplyPass> {
  using TunerApplyBase::TunerApplyBase;

  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<transform::TransformDialect>();
    registerTunerDialectExtensions(registry);
    registerShapeDialects(registry);
  }

  void runOnOperation() override;

private:
  /// Config::fromJSON + Space::check, with diagnostics at `at`.
  FailureOr<Config> readConfig(Operation *at, const Space &space,
                               const llvm::json::Value &json);
  /// Writes `script` to schedule-output, if set.
  LogicalResult writeSchedule(Operation *at, llvm::StringRef script);
  LogicalResult applyGenerated(const llvm::json::Value &json);
  LogicalResult applyKnobs(const llvm::json::Value &json);
};
} // namespace

FailureOr<Config> TunerApplyPass::readConfig(Operation *at, const Space &space,
                                             const llvm::json::Value &json) {
  llvm::Expected<Config> parsed =
      Config::fromJSON(space, json, /*allowMissing=*/true);
  if (!parsed) {
    emitError(at, "invalid config '" + config + "'", parsed.takeError());
    return failure();
  }
  if (llvm::Error err = space.check(*parsed)) {
    emitError(at, "config '" + config + "' is not in the space",
              std::move(err));
    return failure();
  }
  return *parsed;
}

LogicalResult TunerApplyPass::writeSchedule(Operation *at,
                                            llvm::StringRef script) {
  if (scheduleOutput.empty())
    return success();
  std::string message;
  std::unique_ptr<llvm::ToolOutputFile> file =
      openOutputFile(scheduleOutput, &message);
  if (!file) {
    mlir::emitError(locationOf(at))
        << "cannot write the schedule to '" << scheduleOutput
        << "': " << message;
    return failure();
  }
  file->os() << script;
  file->keep();
  return success();
}

LogicalResult TunerApplyPass::applyGenerated(const llvm::json::Value &json) {
  ModuleOp module = getOperation();
  FailureOr<TunableFunction> function =
      prepareFunction(module, functionName, target, SpaceOptions(), shapes);
  if (failed(function))
    return failure();
  Space space = std::move(function->space);
  if (!spaceFile.empty()) {
    FailureOr<Space> fromFile = readSpaceFile(function->func, spaceFile);
    if (failed(fromFile))
      return failure();
    space = std::move(*fromFile);
  }
  FailureOr<Config> parsed = readConfig(function->func, space, json);
  if (failed(parsed))
    return failure();
  llvm::Expected<std::string> script =
      buildTransformScript(function->tree, space, *parsed);
  if (!script) {
    emitError(function->func,
              "cannot build a schedule from config '" + config + "'",
              script.takeError());
    return failure();
  }
  if (failed(writeSchedule(function->func, *script)))
    return failure();
  return applyTransformScript(module, *script);
}

LogicalResult TunerApplyPass::applyKnobs(const llvm::json::Value &json) {
  ModuleOp module = getOperation();
  std::string message;
  std::unique_ptr<llvm::MemoryBuffer> buffer =
      openInputFile(knobsScript, &message);
  if (!buffer) {
    moduleError(module) << "cannot read the knobs script '" << knobsScript
                       << "': " << message;
    return failure();
  }
  // Parsed unverified: spaceFromKnobs verifies it after reading its knobs.
  FailureOr<OwningOpRef<ModuleOp>> script = parseTransformScript(
      module.getContext(), buffer->getBuffer(), knobsScript, /*verify=*/false);
  if (failed(script)) {
    moduleError(module) << "cannot parse the knobs script '" << knobsScript
                       << "'";
    return failure();
  }
  std::vector<std::string> extraConstraints;
  if (!constraints.empty()) {
    llvm::Expected<std::vector<std::string>> read =
        readConstraintsFile(constraints);
    if (!read) {
      emitError(module, "cannot read the constraints '" + constraints + "'",
                read.takeError());
      return failure();
    }
    extraConstraints = std::move(*read);
  }
  FailureOr<Space> space = spaceFromKnobs(script->get(), extraConstraints);
  if (failed(space))
    return failure();
  if (!spaceFile.empty()) {
    // A saved space of the same knobs, with its own constraints, checks the
    // config instead.
    FailureOr<Space> fromFile = readSpaceFile(module, spaceFile);
    if (failed(fromFile))
      return failure();
    if (llvm::Error err = checkMatchesKnobs(*fromFile, *space)) {
      emitError(module,
                "the space '" + spaceFile + "' does not match the knobs of '" +
                    knobsScript + "'",
                std::move(err));
      return failure();
    }
    space = std::move(*fromFile);
  }
  FailureOr<Config> parsed = readConfig(module, *space, json);
  if (failed(parsed))
    return failure();
  if (llvm::Error err = selectKnobs(script->get(), *space, *parsed)) {
    emitError(module, "cannot set the knobs of '" + knobsScript + "'",
              std::move(err));
    return failure();
  }
  std::string text;
  llvm::raw_string_ostream os(text);
  script->get()->print(os);
  if (failed(writeSchedule(module, text)))
    return failure();
  return applyTransformScript(module, script->get());
}

void TunerApplyPass::runOnOperation() {
  ModuleOp module = getOperation();
  if (config.empty()) {
    moduleError(module)
        << "tuner-apply needs a config: --tuner-apply=\"config=<file.json>\"";
    return signalPassFailure();
  }
  if (!constraints.empty() && (knobsScript.empty() || !spaceFile.empty())) {
    moduleError(module) << "the 'constraints' option only applies with "
                          "'knobs-script' and without 'space' (a space file "
                          "states its own constraints)";
    return signalPassFailure();
  }
  llvm::Expected<llvm::json::Value> json = readJSONFile(config);
  if (!json) {
    emitError(module, "cannot read the config", json.takeError());
    return signalPassFailure();
  }
  LogicalResult result =
      knobsScript.empty() ? applyGenerated(*json) : applyKnobs(*json);
  if (failed(result))
    signalPassFailure();
}
