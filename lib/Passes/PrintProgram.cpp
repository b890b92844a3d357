//===- PrintProgram.cpp - Print the ProgramTree of each function ----------===//
//
// --tuner-print-program: for every function holding linalg ops or affine
// nests, prints the tree the cost model and the search space see, as text or
// as JSON, on standard output. The IR is not changed.
//
//===----------------------------------------------------------------------===//

#include "tuner/Analysis/ProgramAnalysis.h"
#include "tuner/Passes/PassUtils.h"
#include "tuner/Passes/Passes.h"
#include "tuner/Tuning/ShapeSpecialization.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

namespace tuner {
#define GEN_PASS_DEF_TUNERPRINTPROGRAM
#include "tuner/Passes/Passes.h.inc"
} // namespace tuner

using namespace mlir;

namespace {
struct TunerPrintProgramPass
    : tuner::impl::TunerPrintProgramBase<TunerPrintProgramPass> {
  using TunerPrintProgramBase::TunerPrintProgramBase;
  void getDependentDialects(DialectRegistry &registry) const override {
    tuner::registerShapeDialects(registry);
  }
  void runOnOperation() override;
};
} // namespace

void TunerPrintProgramPass::runOnOperation() {
  ModuleOp module = getOperation();
  if (format != "text" && format != "json") {
    tuner::moduleError(module) << "unknown format '" << format
                       << "' of --tuner-print-program: expected 'text' or "
                          "'json'";
    return signalPassFailure();
  }

  // Every tree first: nothing is printed unless all functions are analyzed.
  std::vector<tuner::ProgramTree> trees;
  bool anyFailed = false;
  module.walk([&](func::FuncOp func) {
    if (func.isExternal() || !tuner::hasLoopNests(func))
      return;
    // A function with dynamic shapes is analyzed at the sizes given.
    FailureOr<tuner::SpecializedFunction> specialized =
        tuner::hasDynamicShapes(func)
            ? tuner::specializeForTuning(func, shapes)
            : FailureOr<tuner::SpecializedFunction>(
                  tuner::SpecializedFunction{func, {}, {}});
    if (failed(specialized)) {
      anyFailed = true;
      return;
    }
    FailureOr<tuner::ProgramTree> tree = tuner::buildAnalyzedTree(*specialized);
    if (failed(tree)) {
      anyFailed = true;
      return;
    }
    trees.push_back(std::move(*tree));
  });
  if (anyFailed)
    return signalPassFailure();

  llvm::raw_ostream &os = llvm::outs();
  if (format == "json") {
    llvm::json::Array functions;
    for (const tuner::ProgramTree &tree : trees)
      functions.push_back(tree.toJSON());
    os << llvm::formatv("{0:2}", llvm::json::Value(std::move(functions)))
       << "\n";
  } else if (trees.empty()) {
    os << "no function with linalg ops or affine loop nests\n";
  } else {
    for (const tuner::ProgramTree &tree : trees)
      tree.print(os);
  }
  os.flush();
  markAllAnalysesPreserved();
}
