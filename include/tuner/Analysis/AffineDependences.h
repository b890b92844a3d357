//===- AffineDependences.h - Dependence distances of affine bands -*- C++
//-*-===//
//
// The dependences of an affine band as tuner/Analysis/Skewing.h wants them:
// one distance range per band loop, including, for a band whose innermost
// loop holds several sibling loop nests, the siblings' outer loops matched
// by depth (which the affine dependence analysis does not compare, since
// they are different loops). Shared by the analysis, which decides with
// them whether a nest can be skewed, and the tuner's transform ops, which
// compute their shifts and skews with them.
//
//===----------------------------------------------------------------------===//

#ifndef TUNER_ANALYSIS_AFFINEDEPENDENCES_H
#define TUNER_ANALYSIS_AFFINEDEPENDENCES_H

#include "tuner/Analysis/Skewing.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Support/LLVM.h"

#include <string>
#include <vector>

namespace tuner {

/// A band of perfectly nested affine.for ops and, when its innermost loop
/// holds sibling loop nests to fuse, those nests' outer loops.
struct AffineBand {
  /// The perfectly nested loops, outermost first.
  llvm::SmallVector<mlir::affine::AffineForOp> loops;
  /// The affine.for ops in the body of the innermost loop, in program order
  /// (empty when no siblings are fused).
  llvm::SmallVector<mlir::affine::AffineForOp> siblings;
  /// How many perfectly nested loops of each sibling are fused (0: none).
  unsigned fusedDepth = 0;

  /// Loops whose distances are measured: the band's, then the fused depth.
  size_t depth() const { return loops.size() + fusedDepth; }
};

/// Finds the band of `depth` perfectly nested loops rooted at `root` and,
/// with `fusedDepth` > 0, the sibling nests in its innermost loop, each with
/// at least `fusedDepth` perfectly nested loops. Fails with a message (in
/// `why`) when the nest does not have that shape: the innermost band loop
/// must then hold only affine.for ops (and its terminator).
mlir::FailureOr<AffineBand> getAffineBand(mlir::affine::AffineForOp root,
                                          unsigned depth, unsigned fusedDepth,
                                          std::string &why);

/// Every dependence between two memory accesses under `band.loops.front()`
/// that is carried by a band loop or by nothing outside it, with its
/// distance on each loop of the band (and on the fused siblings' loops, by
/// depth; statements are the siblings' indices, 0 without siblings).
/// Dependences carried by loops outside the band are left out. Fails with a
/// message when the dependence analysis cannot decide a pair of accesses, or
/// an access lies outside every sibling.
mlir::FailureOr<std::vector<BandDependence>>
getBandDependences(const AffineBand &band, std::string &why);

/// The sibling shifts, then the skew, that make `band` fully permutable (as
/// computeFusionShifts and computeSkew find them).
struct TimeTiling {
  std::vector<std::vector<int64_t>> shifts;
  SkewMatrix skew;
};
mlir::FailureOr<TimeTiling> planTimeTiling(const AffineBand &band,
                                           std::string &why);

} // namespace tuner

#endif // TUNER_ANALYSIS_AFFINEDEPENDENCES_H
