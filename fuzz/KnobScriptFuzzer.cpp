//===- KnobScriptFuzzer.cpp - libFuzzer target: knob scripts --------------===//
//
// The input is a Transform-dialect script with transform.tune.knob and
// transform.tune.alternatives ops, parsed (unverified, as
// --tuner-extract-space="from-knobs=..." does) in a fresh MLIRContext per
// input. spaceFromKnobs either fails with a diagnostic or gives a space;
// a space without real parameters writes back as knobs that read again to
// the same space.
//
//===----------------------------------------------------------------------===//

#include "FuzzSpace.h"

#include "tuner/Space/KnobSpace.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include <cstddef>
#include <cstdint>

using namespace tuner;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  llvm::StringRef text(reinterpret_cast<const char *>(data), size);
  mlir::DialectRegistry registry;
  registerKnobDialects(registry);
  mlir::MLIRContext context(registry, mlir::MLIRContext::Threading::DISABLED);
  // Diagnostics are the expected outcome of most inputs: drop them.
  mlir::ScopedDiagnosticHandler quiet(
      &context, [](mlir::Diagnostic &) { return mlir::success(); });
  mlir::OwningOpRef<mlir::ModuleOp> script = mlir::parseSourceString<mlir::ModuleOp>(
      text, mlir::ParserConfig(&context, /*verifyAfterParse=*/false));
  if (!script)
    return 0;
  mlir::FailureOr<Space> space = spaceFromKnobs(script->getOperation());
  if (mlir::failed(space))
    return 0;
  llvm::Expected<mlir::OwningOpRef<mlir::ModuleOp>> knobs =
      spaceToKnobs(*space, &context);
  if (!knobs) {
    llvm::consumeError(knobs.takeError());
    return 0;
  }
  mlir::FailureOr<Space> again = spaceFromKnobs(knobs->get());
  if (mlir::failed(again))
    fuzz::propertyFailed("a space written as knobs does not read back");
  if (llvm::Error error = checkMatchesKnobs(*again, *space))
    fuzz::propertyFailed("a space written as knobs reads back as another: " +
                         llvm::toString(std::move(error)));
  return 0;
}
