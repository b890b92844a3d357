//===- tuner-opt.cpp - mlir-opt with the tuner's passes -------------------===//
//
// Every upstream dialect, extension and pass, plus the tuner's passes and
// transform extensions: an mlir-opt that users already know.
//
//===----------------------------------------------------------------------===//

#include "tuner/Measure/GpuLowering.h"
#include "tuner/Measure/Lowering.h"
#include "tuner/Passes/Passes.h"
#include "tuner/Schedule/TransformExtension.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

#include <vector>

int main(int argc, char **argv) {
  mlir::registerAllPasses();
  tuner::registerTunerPasses();
  tuner::registerLoweringPipelines();

  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  tuner::registerTunerDialectExtensions(registry);
  tuner::registerGpuTranslations(registry);

  // Diagnostics are at the op they concern; printing that op (a function,
  // or the whole module) in generic form after each is noise for a user of
  // the tuner. The flag stays settable: a later
  // --mlir-print-op-on-diagnostic=true wins.
  std::vector<char *> args(argv, argv + argc);
  static char quiet[] = "--mlir-print-op-on-diagnostic=false";
  args.insert(args.begin() + 1, quiet);
  argc = int(args.size());
  argv = args.data();

  return mlir::asMainReturnCode(mlir::MlirOptMain(
      argc, argv, "tuner optimizer driver: mlir-opt plus the tuner's passes\n",
      registry));
}
