//===- Apply.cpp ---------------------------------------------------------===//
// PLACEHOLDER: replaced by the real pass during development.
#include "tuner/Passes/Passes.h"

namespace tuner {
#define GEN_PASS_DEF_TUNERAPPLY
#include "tuner/Passes/Passes.h.inc"
} // namespace tuner

namespace {
struct TunerApplyPass : tuner::impl::TunerApplyBase<TunerApplyPass> {
  using TunerApplyBase::TunerApplyBase;
  void runOnOperation() override;
};
} // namespace

void TunerApplyPass::runOnOperation() {
  getOperation().emitError("placeholder pass");
  signalPassFailure();
}
