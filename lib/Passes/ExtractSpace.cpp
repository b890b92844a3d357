//===- ExtractSpace.cpp - Write the search space of a function ------------===//

#include "tuner/Passes/PassUtils.h"
#include "tuner/Passes/Passes.h"
#include "tuner/Space/ChainOfTrees.h"
#include "tuner/Space/KnobSpace.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/Parser/Parser.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"

namespace tuner {
#define GEN_PASS_DEF_TUNEREXTRACTSPACE
#include "tuner/Passes/Passes.h.inc"
} // namespace tuner

using namespace mlir;
using namespace tuner;

namespace {
struct TunerExtractSpacePass
    : tuner::impl::TunerExtractSpaceBase<TunerExtractSpacePass> {
  using TunerExtractSpaceBase::TunerExtractSpaceBase;
  void getDependentDialects(DialectRegistry &registry) const override {
    registerShapeDialects(registry);
  }
  void runOnOperation() override;
  template <typename PassT>
  friend SpaceOptions tuner::readSpaceOptions(const PassT &pass);

private:
  FailureOr<Space> spaceFromUserScript();
  LogicalResult writeText(StringRef path, llvm::function_ref<void(raw_ostream &)> write);
};
} // namespace

LogicalResult TunerExtractSpacePass::writeText(
    StringRef path, llvm::function_ref<void(raw_ostream &)> write) {
  if (path == "-") {
    write(llvm::outs());
    llvm::outs().flush();
    return success();
  }
  std::error_code ec;
  llvm::ToolOutputFile file(path, ec, llvm::sys::fs::OF_Text);
  if (ec)
    return moduleError(getOperation())
           << "cannot write '" << path << "': " << ec.message();
  write(file.os());
  file.keep();
  return success();
}

FailureOr<Space> TunerExtractSpacePass::spaceFromUserScript() {
  ModuleOp module = getOperation();
  std::vector<std::string> extra;
  if (!constraints.empty()) {
    auto list = readConstraintsFile(constraints);
    if (!list) {
      emitError(module, "cannot read constraints", list.takeError());
      return failure();
    }
    extra = std::move(*list);
  }
  // Parse the user's script in a context of its own (dialects cannot be
  // loaded into the payload's context while passes run) that knows every
  // dialect and extension the payload's context does.
  MLIRContext scriptContext(module.getContext()->getDialectRegistry(),
                            MLIRContext::Threading::DISABLED);
  DialectRegistry knobDialects;
  registerKnobDialects(knobDialects);
  scriptContext.appendDialectRegistry(knobDialects);
  // Its diagnostics point into the script file, with the usual
  // file:line:column prefix.
  auto buffer = llvm::MemoryBuffer::getFile(fromKnobs);
  if (!buffer)
    return moduleError(module) << "cannot read the transform script '"
                              << fromKnobs << "': "
                              << buffer.getError().message();
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(std::move(*buffer), llvm::SMLoc());
  SourceMgrDiagnosticHandler handler(sourceMgr, &scriptContext);
  // spaceFromKnobs verifies the script after reading its knobs, so that a
  // knob's own errors name the knob.
  OwningOpRef<ModuleOp> script = parseSourceFile<ModuleOp>(
      sourceMgr, ParserConfig(&scriptContext, /*verifyAfterParse=*/false));
  if (!script)
    return moduleError(module)
           << "cannot parse the transform script '" << fromKnobs << "'";
  return spaceFromKnobs(*script, extra);
}

void TunerExtractSpacePass::runOnOperation() {
  ModuleOp module = getOperation();
  if (!constraints.empty() && fromKnobs.empty()) {
    moduleError(module) << "the 'constraints' option only applies with "
                          "'from-knobs' (generated spaces state their own)";
    return signalPassFailure();
  }

  Space space;
  // Where errors about the space go: the function it belongs to, or the
  // module for a user's script.
  Operation *spaceOwner = module;
  if (!fromKnobs.empty()) {
    FailureOr<Space> fromScript = spaceFromUserScript();
    if (failed(fromScript))
      return signalPassFailure();
    space = std::move(*fromScript);
  } else {
    FailureOr<TunableFunction> tunable = prepareFunction(
        module, functionName, target, readSpaceOptions(*this), shapes);
    if (failed(tunable))
      return signalPassFailure();
    space = std::move(tunable->space);
    spaceOwner = tunable->func;
    if (tunable->specialized)
      space.attributes["shapes"] =
          shapesAttribute(tunable->specialized->shapes);
  }

  // The size of the space, exactly; an empty space is an error.
  llvm::Expected<ChainOfTrees> chain = ChainOfTrees::build(space);
  if (!chain) {
    emitError(spaceOwner, "cannot enumerate the space", chain.takeError());
    return signalPassFailure();
  }
  space.attributes["size"] = chain->countString();
  if (fromKnobs.empty() && chain->count().isOne())
    mlir::emitWarning(locationOf(spaceOwner))
        << "@" << space.attributes["function"]
        << " has nothing to tune: its space holds only the untransformed "
           "schedule (with these space options)";

  llvm::json::Value json = space.toJSON();
  if (failed(writeText(output, [&](raw_ostream &os) {
        os << llvm::formatv("{0:2}", json) << "\n";
      })))
    return signalPassFailure();

  if (!knobsOutput.empty()) {
    MLIRContext knobContext(MLIRContext::Threading::DISABLED);
    auto knobs = spaceToKnobs(space, &knobContext);
    if (!knobs) {
      emitError(module, "cannot write the space as knobs", knobs.takeError());
      return signalPassFailure();
    }
    if (failed(writeText(knobsOutput,
                         [&](raw_ostream &os) { (*knobs)->print(os); })))
      return signalPassFailure();
  }
  markAllAnalysesPreserved();
}
