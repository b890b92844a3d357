//===- ExtractSpace.cpp ---------------------------------------------------------===//
// PLACEHOLDER: replaced by the real pass during development.
#include "tuner/Passes/Passes.h"

namespace tuner {
#define GEN_PASS_DEF_TUNEREXTRACTSPACE
#include "tuner/Passes/Passes.h.inc"
} // namespace tuner

namespace {
struct TunerExtractSpacePass : tuner::impl::TunerExtractSpaceBase<TunerExtractSpacePass> {
  using TunerExtractSpaceBase::TunerExtractSpaceBase;
  void runOnOperation() override;
};
} // namespace

void TunerExtractSpacePass::runOnOperation() {
  getOperation().emitError("placeholder pass");
  signalPassFailure();
}
