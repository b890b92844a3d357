//===- LowerGpu.cpp - --tuner-lower-gpu: the GPU lowering as a pass -------===//
//
// A thin driver over buildGpuLoweringPipeline: reads the chip and features
// from a target description (or the options) and runs the pipeline on the
// module, so that what the Measurer compiles can be inspected with tuner-opt
// or stock mlir-opt and the plugin.
//
//===----------------------------------------------------------------------===//

#include "tuner/Measure/GpuLowering.h"
#include "tuner/Passes/Passes.h"
#include "tuner/Target/Target.h"

#include "mlir/Pass/PassManager.h"

namespace tuner {
#define GEN_PASS_DEF_TUNERLOWERGPU
#include "tuner/Passes/Passes.h.inc"
} // namespace tuner

using namespace mlir;
using namespace tuner;

namespace {
struct TunerLowerGpuPass : tuner::impl::TunerLowerGpuBase<TunerLowerGpuPass> {
  using TunerLowerGpuBase::TunerLowerGpuBase;

  void getDependentDialects(DialectRegistry &registry) const override {
    // The dialects the pipeline creates, and the NVVM target's
    // serialization that gpu-module-to-binary needs.
    OpPassManager pm(ModuleOp::getOperationName());
    buildGpuLoweringPipeline(pm);
    pm.getDependentDialects(registry);
    registerGpuTranslations(registry);
  }

  void runOnOperation() override;
};
} // namespace

void TunerLowerGpuPass::runOnOperation() {
  ModuleOp module = getOperation();
  GpuLoweringOptions lowering;
  lowering.chip = chip;
  lowering.features = features;
  if (!target.empty()) {
    llvm::Expected<Target> described = Target::resolve(target);
    if (!described) {
      module.emitError() << "--tuner-lower-gpu: "
                         << llvm::toString(described.takeError());
      return signalPassFailure();
    }
    if (!described->isGpu()) {
      module.emitError() << "--tuner-lower-gpu: the target '" << target
                         << "' is of kind '" << described->kind
                         << "'; the GPU lowering needs a target of kind gpu";
      return signalPassFailure();
    }
    lowering = GpuLoweringOptions::forTarget(described->gpu);
  }
  if (format != "isa" && format != "bin" && format != "fatbin") {
    module.emitError() << "--tuner-lower-gpu: format '" << format
                       << "' is not one of isa, bin, fatbin";
    return signalPassFailure();
  }
  if (optLevel > 3) {
    module.emitError() << "--tuner-lower-gpu: opt-level " << optLevel
                       << " is not in 0-3";
    return signalPassFailure();
  }
  lowering.format = format;
  lowering.optLevel = optLevel;
  lowering.toolkitPath = toolkit;
  OpPassManager pm(ModuleOp::getOperationName());
  buildGpuLoweringPipeline(pm, lowering);
  if (failed(runPipeline(pm, module)))
    signalPassFailure();
}
