//===- TunerPlugin.cpp - The tuner inside stock mlir-opt ------------------===//

#include "tuner/Measure/GpuLowering.h"
#include "tuner/Passes/Passes.h"
#include "tuner/Schedule/TransformExtension.h"

#include "mlir/Tools/Plugins/DialectPlugin.h"
#include "mlir/Tools/Plugins/PassPlugin.h"

#include "llvm/Config/llvm-config.h"

extern "C" LLVM_ATTRIBUTE_WEAK mlir::PassPluginLibraryInfo
mlirGetPassPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "TunerPasses", LLVM_VERSION_STRING,
          []() { tuner::registerTunerPasses(); }};
}

extern "C" LLVM_ATTRIBUTE_WEAK mlir::DialectPluginLibraryInfo
mlirGetDialectPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "TunerExtensions", LLVM_VERSION_STRING,
          [](mlir::DialectRegistry *registry) {
            tuner::registerTunerDialectExtensions(*registry);
            tuner::registerGpuTranslations(*registry);
          }};
}
