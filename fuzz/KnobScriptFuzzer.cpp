//===- KnobScriptFuzzer.cpp - libFuzzer target: knob scripts --------------===//
//
// The input is a Transform-dialect script with transform.tune.knob and
// transform.tune.alternatives ops, parsed (unverified, as
// --tuner-extract-space="from-knobs=..." does) in a fresh MLIRContext per
// input. spaceFromKnobs either fails with a diagnostic or gives a space;
// a space without real parameters writes back as knobs that read again to
// the same parameters with domains of the same sizes.
//
//===----------------------------------------------------------------------===//

#include "FuzzSpace.h"

#include "tuner/Space/KnobSpace.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

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
  // As the tools read a file: a NUL-terminated copy (MLIR's lexer relies on
  // the terminator; libFuzzer's data has none).
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(llvm::MemoryBuffer::getMemBufferCopy(text),
                               llvm::SMLoc());
  mlir::OwningOpRef<mlir::ModuleOp> script = mlir::parseSourceFile<mlir::ModuleOp>(
      sourceMgr, mlir::ParserConfig(&context, /*verifyAfterParse=*/false));
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
  // Knobs spell every domain as a list of options, so kinds may change
  // (an integer range reads back as an ordinal); names and domain sizes stay.
  mlir::FailureOr<Space> again = spaceFromKnobs(knobs->get());
  if (mlir::failed(again))
    fuzz::propertyFailed("a space written as knobs does not read back");
  if (again->size() != space->size())
    fuzz::propertyFailed("a space written as knobs reads back with another "
                         "number of parameters");
  for (const Parameter &parameter : space->getParameters()) {
    std::optional<size_t> index = again->indexOf(parameter.name);
    if (!index)
      fuzz::propertyFailed("parameter '" + parameter.name +
                           "' is lost written as knobs");
    if ((*again)[*index].domainSize() != parameter.domainSize())
      fuzz::propertyFailed("parameter '" + parameter.name +
                           "' reads back from knobs with another domain");
  }
  return 0;
}
