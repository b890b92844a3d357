//===- CheckSpace.cpp - --tuner-check-space: sampled configs must apply ---===//
//
// The property test of the space builder: every config the space offers
// must apply. Configs are drawn uniformly from the Chain-of-Trees of each
// function's space, turned into schedules and applied to a copy of the
// module, exactly as the measuring evaluator applies a candidate; nothing is
// lowered or measured.
//
//===----------------------------------------------------------------------===//

#include "tuner/Analysis/ProgramAnalysis.h"
#include "tuner/Passes/PassUtils.h"
#include "tuner/Passes/Passes.h"
#include "tuner/Schedule/ApplySchedule.h"
#include "tuner/Schedule/ScheduleBuilder.h"
#include "tuner/Schedule/TransformExtension.h"
#include "tuner/Space/ChainOfTrees.h"
#include "tuner/Tuning/ShapeSpecialization.h"

#include "mlir/Dialect/Transform/IR/TransformDialect.h"
#include "mlir/IR/Diagnostics.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/ToolOutputFile.h"

#include <random>
#include <unordered_set>

namespace tuner {
#define GEN_PASS_DEF_TUNERCHECKSPACE
#include "tuner/Passes/Passes.h.inc"
} // namespace tuner

using namespace mlir;
using namespace tuner;

namespace {
struct TunerCheckSpacePass
    : tuner::impl::TunerCheckSpaceBase<TunerCheckSpacePass> {
  using TunerCheckSpaceBase::TunerCheckSpaceBase;

  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<transform::TransformDialect>();
    registerTunerDialectExtensions(registry);
    registerShapeDialects(registry);
  }

  void runOnOperation() override;
  template <typename PassT>
  friend SpaceOptions tuner::readSpaceOptions(const PassT &pass);

private:
  /// Checks one function; returns the number of configs that failed to
  /// apply, or failure when the function was refused.
  FailureOr<unsigned> checkFunction(func::FuncOp func, const Target &target,
                                    raw_ostream &os);
};

/// Collects the error diagnostics (and their notes) emitted while alive into
/// one line, instead of letting them reach the user.
class DiagnosticCollector {
public:
  explicit DiagnosticCollector(MLIRContext *context)
      : handler(context, [this](Diagnostic &diag) {
          if (diag.getSeverity() != DiagnosticSeverity::Error)
            return success();
          append(diag.str());
          for (Diagnostic &note : diag.getNotes())
            append(note.str());
          return success();
        }) {}

  /// What was collected since the last take(), then forgets it.
  std::string take() {
    std::string result = std::move(text);
    text.clear();
    return result.empty() ? std::string("(no diagnostic)") : result;
  }

private:
  void append(llvm::StringRef message) {
    if (!text.empty())
      text += "; ";
    // One line per failure in the report.
    for (char c : message)
      text += c == '\n' ? ' ' : c;
  }

  std::string text;
  ScopedDiagnosticHandler handler;
};
} // namespace

FailureOr<unsigned> TunerCheckSpacePass::checkFunction(func::FuncOp func,
                                                       const Target &target,
                                                       raw_ostream &os) {
  ModuleOp module = getOperation();
  DiagnosticCollector diagnostics(&getContext());
  llvm::StringRef name = func.getSymName();

  // As the tuner prepares it: a function with dynamic shapes is analyzed
  // at the sizes of `shapes`, and its schedules are applied to it as it is.
  FailureOr<TunableFunction> tunable =
      prepareFunction(func, target, readSpaceOptions(*this), shapes);
  if (failed(tunable)) {
    os << "refused @" << name << ": " << diagnostics.take() << "\n";
    return failure();
  }
  const ProgramTree *tree = &tunable->tree;
  const Space *space = &tunable->space;
  llvm::Expected<ChainOfTrees> chain = ChainOfTrees::build(*space);
  if (!chain) {
    os << "refused @" << name << ": cannot enumerate the space: "
       << llvm::toString(chain.takeError()) << "\n";
    return failure();
  }

  std::mt19937_64 rng(seed);
  std::unordered_set<uint64_t> seen;
  unsigned failures = 0;
  std::string failureLines;
  llvm::raw_string_ostream failureStream(failureLines);
  for (unsigned i = 0; i < samples; ++i) {
    llvm::Expected<Config> config = chain->sample(rng);
    if (!config) {
      os << "refused @" << name << ": cannot sample the space: "
         << llvm::toString(config.takeError()) << "\n";
      return failure();
    }
    if (!seen.insert(config->hash()).second)
      continue;
    std::string error;
    llvm::Expected<std::string> script =
        buildTransformScript(*tree, *space, *config);
    if (!script) {
      error = "cannot build the schedule: " + llvm::toString(script.takeError());
    } else {
      FailureOr<OwningOpRef<ModuleOp>> applied =
          applyTransformScriptToCopy(module, *script);
      if (failed(applied))
        error = diagnostics.take();
    }
    if (error.empty())
      continue;
    ++failures;
    failureStream << "apply-failed @" << name << " "
                  << llvm::formatv("{0}", config->toJSON(*space)) << ": "
                  << error << "\n";
  }
  os << "check-space @" << name << ": size " << chain->countString() << ", "
     << samples << " samples (" << seen.size() << " distinct), " << failures
     << " failed\n"
     << failureLines;
  return failures;
}

void TunerCheckSpacePass::runOnOperation() {
  ModuleOp module = getOperation();
  SmallVector<func::FuncOp> functions;
  if (!functionName.empty()) {
    auto func = module.lookupSymbol<func::FuncOp>(functionName);
    if (!func || func.isExternal()) {
      module.emitError() << "no function with a body named '" << functionName
                         << "' in the module";
      return signalPassFailure();
    }
    functions.push_back(func);
  } else {
    for (auto func : module.getOps<func::FuncOp>())
      if (!func.isExternal() && hasLoopNests(func))
        functions.push_back(func);
  }
  if (functions.empty()) {
    module.emitError()
        << "no function with linalg ops or affine loop nests to check";
    return signalPassFailure();
  }
  FailureOr<Target> resolved = resolveTarget(module, target);
  if (failed(resolved))
    return signalPassFailure();

  std::error_code ec;
  llvm::ToolOutputFile file(output, ec, llvm::sys::fs::OF_Text);
  if (ec) {
    module.emitError() << "cannot write '" << output << "': " << ec.message();
    return signalPassFailure();
  }
  unsigned failures = 0;
  unsigned checked = 0;
  for (func::FuncOp func : functions) {
    FailureOr<unsigned> failed = checkFunction(func, *resolved, file.os());
    if (::mlir::failed(failed))
      continue;
    ++checked;
    failures += *failed;
  }
  file.os().flush();
  file.keep();
  if (failures != 0) {
    module.emitError() << failures
                       << " sampled config(s) failed to apply (listed in the "
                          "report as 'apply-failed')";
    return signalPassFailure();
  }
  if (checked == 0) {
    module.emitError() << "every function was refused (listed in the report "
                          "as 'refused')";
    return signalPassFailure();
  }
  markAllAnalysesPreserved();
}
