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

#include "mlir/Support/LLVM.h"

#include <cstdint>

namespace mlir {
class OpPassManager;
namespace func {
class FuncOp;
} // namespace func
} // namespace mlir

namespace tuner {

struct CpuLoweringOptions {
  /// Parallel loops (scf.forall, scf.parallel, affine.parallel) become
  /// OpenMP parallel loops; otherwise they run sequentially.
  bool openmp = true;
  /// OpenMP threads per parallel loop; 0 lets the runtime decide (all cores).
  unsigned numThreads = 0;
  /// The lowering fails when the module holds more operations than this
  /// right after the vector lowering (which unrolls each n-D vector op into
  /// one op per 1-D row); 0: no limit. A candidate past it would take
  /// minutes to lower further and to compile.
  uint64_t maxOps = 0;
  /// The limit the tuning tools hold candidates to by default (the autotune
  /// pass's and tuner-gen's max-lowered-ops): of 48 candidates counted in
  /// seed 2029's slowest programs, every one that compiled held at most
  /// 963 thousand ops and the three over 1.4 million failed anyway.
  static constexpr uint64_t candidateMaxOps = 1200000;
};

/// Appends the lowering to `pm`, which must be anchored on builtin.module.
///
/// Integer memory spaces of memrefs in host functions (outside gpu.module)
/// are dropped first: host memory is one address space. Other memory spaces
/// (a GPU address space) are left for the LLVM conversion to refuse. Then
/// one-shot bufferization (function boundaries, identity layouts), results to
/// out-params, buffer deallocation, linalg to loops, forall to parallel,
/// vector masks/multi-reductions/transfers to 1-D vector ops (contractions
/// as outer products), affine to scf, parallel loops to OpenMP, then
/// vector/math/memref/scf/cf/func/arith/index/ub/openmp to LLVM and
/// reconcile-unrealized-casts. Any op left that has no lowering makes the
/// pipeline (or the translation to LLVM IR) fail.
void buildCpuLoweringPipeline(mlir::OpPassManager &pm,
                              const CpuLoweringOptions &options = {});

/// Rewrites `function` for the harness, which passes only memrefs: each
/// scalar argument (integer, index or float) becomes a rank-0 memref loaded
/// at entry, and each scalar result a rank-0 memref allocated and stored at
/// every return (which the pipeline turns into an out-param, in result
/// order). Fails, with an error at the function, when the function is
/// called within its module (its callers would no longer match).
mlir::LogicalResult convertScalarsToMemrefs(mlir::func::FuncOp function);

/// Registers the pipeline as `--tuner-lower-cpu` (options `openmp`,
/// `num-threads`) for tuner-opt.
void registerLoweringPipelines();

} // namespace tuner

#endif // TUNER_MEASURE_LOWERING_H
