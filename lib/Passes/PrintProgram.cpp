//===- PrintProgram.cpp ---------------------------------------------------------===//
// PLACEHOLDER: replaced by the real pass during development.
#include "tuner/Passes/Passes.h"

namespace tuner {
#define GEN_PASS_DEF_TUNERPRINTPROGRAM
#include "tuner/Passes/Passes.h.inc"
} // namespace tuner

namespace {
struct TunerPrintProgramPass : tuner::impl::TunerPrintProgramBase<TunerPrintProgramPass> {
  using TunerPrintProgramBase::TunerPrintProgramBase;
  void runOnOperation() override;
};
} // namespace

void TunerPrintProgramPass::runOnOperation() {
  getOperation().emitError("placeholder pass");
  signalPassFailure();
}
