//===- Lowering.h - From tuned IR to the LLVM dialect ------------*- C++
//-*-===//
//
// The CPU pipeline every measurement goes through, baseline and candidates
// alike: linalg on tensors or memrefs, affine, and whatever schedules produce
// (scf.for/forall/parallel, affine.parallel, vector ops) down to the LLVM
// dialect, with functions that take memrefs, return nothing (results become
// out-params) and carry a C interface `_mlir_ciface_<name>`.
//
//===----------------------------------------------------------------------===//

#ifndef TUNER_MEASURE_LOWERING_H
#define TUNER_MEASURE_LOWERING_H

namespace mlir {
class OpPassManager;
} // namespace mlir

namespace tuner {

struct CpuLoweringOptions {
  /// Parallel loops (scf.forall, scf.parallel, affine.parallel) become
  /// OpenMP parallel loops; otherwise they run sequentially.
  bool openmp = true;
  /// OpenMP threads per parallel loop; 0 lets the runtime decide (all cores).
  unsigned numThreads = 0;
};

/// Appends the lowering to `pm`, which must be anchored on builtin.module.
///
/// One-shot bufferization (function boundaries, identity layouts), results to
/// out-params, buffer deallocation, linalg to loops, forall to parallel,
/// vector masks/multi-reductions/transfers to 1-D vector ops (contractions
/// as outer products), affine to scf, parallel loops to OpenMP, then
/// vector/math/memref/scf/cf/func/arith/index/ub/openmp to LLVM and
/// reconcile-unrealized-casts. Any op left that has no lowering makes the
/// pipeline (or the translation to LLVM IR) fail.
void buildCpuLoweringPipeline(mlir::OpPassManager &pm,
                              const CpuLoweringOptions &options = {});

/// Registers the pipeline as `--tuner-lower-cpu` (options `openmp`,
/// `num-threads`) for tuner-opt.
void registerLoweringPipelines();

} // namespace tuner

#endif // TUNER_MEASURE_LOWERING_H
