//===- GpuLowering.h - From tuned IR to an NVIDIA GPU binary ----*- C++ -*-===//
//
// The GPU pipeline every GPU measurement goes through, baseline and
// candidates alike. It takes either
//  - a GPU schedule's output: functions on memrefs whose computations sit in
//    `gpu.launch` ops (tile_using_forall with #gpu.block / #gpu.thread
//    mappings, bufferization, map_forall_to_blocks /
//    map_nested_forall_to_threads), or
//  - an untransformed linalg function on tensors or memrefs, which it maps
//    naively onto the GPU (the baseline): one thread per point of each op's
//    parallel iteration space, blocks of up to 256 threads along the
//    innermost dimensions, reductions serial per thread,
// and lowers it to the LLVM dialect: host functions that take memref
// descriptors of device buffers, return nothing (results become out-params)
// and carry a C interface `_mlir_ciface_<name>`, kernels outlined into
// gpu.module ops compiled (PTX or cubin through the CUDA toolkit's ptxas) and
// embedded as gpu.binary, launched through MLIR's `mgpu*` runtime calls.
//
//===----------------------------------------------------------------------===//

#ifndef TUNER_MEASURE_GPULOWERING_H
#define TUNER_MEASURE_GPULOWERING_H

#include "mlir/Support/LLVM.h"

#include <string>

namespace mlir {
class DialectRegistry;
class OpPassManager;
} // namespace mlir

namespace tuner {

struct GpuTarget;

struct GpuLoweringOptions {
  /// The NVVM chip, e.g. "sm_90" (GpuTarget::chip()).
  std::string chip = "sm_90";
  /// NVVM target features, e.g. "+ptx80" (GpuTarget::ptxFeatures).
  std::string features = "+ptx80";
  /// What gpu-module-to-binary embeds: "isa" (PTX, compiled by the driver
  /// when loaded), "bin" (cubin, through <toolkit>/bin/ptxas) or "fatbin".
  std::string format = "bin";
  /// Optimization level of the NVVM target (0-3).
  unsigned optLevel = 3;
  /// The CUDA toolkit (its bin/ptxas compiles "bin" and "fatbin").
  std::string toolkitPath = "/usr/local/cuda";

  /// Chip and features of `gpu`, the rest as above.
  static GpuLoweringOptions forTarget(const GpuTarget &gpu);
};

/// Appends the GPU lowering to `pm`, which must be anchored on
/// builtin.module: one-shot bufferization (function boundaries, identity
/// layouts), results to out-params, memref.copy to linalg.copy, linalg ops
/// outside kernels to parallel loops that are tiled (up to 256 threads per
/// block along the innermost dimensions) and mapped to blocks and threads
/// (`gpu.launch`), loops left in host code (reductions to a scalar) wrapped
/// in a single-thread launch, linalg ops inside kernels to sequential loops;
/// temporaries of host code become `gpu.alloc`/`gpu.dealloc` (device
/// memory), those inside kernels workgroup attributions (workgroup memory
/// space) or allocas; then kernel outlining, gpu-async-region,
/// nvvm-attach-target, convert-gpu-to-nvvm, gpu-to-llvm, gpu-module-to-binary
/// and the host's lowering to the LLVM dialect. The result translates to
/// LLVM IR with registerGpuTranslations() registered.
void buildGpuLoweringPipeline(mlir::OpPassManager &pm,
                              const GpuLoweringOptions &options = {});

/// Registers what the pipeline and the translation of its result need
/// beyond the dialects: the NVVM target attribute's serialization interface,
/// the builtin, LLVM, GPU and NVVM to-LLVM-IR translations and the offloading translation
/// of gpu.binary / gpu.launch_func (which embeds the binary and emits the
/// mgpu* calls).
void registerGpuTranslations(mlir::DialectRegistry &registry);

} // namespace tuner

#endif // TUNER_MEASURE_GPULOWERING_H
