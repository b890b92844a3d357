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

#include <optional>
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

/// The legality of reordering the loops of a perfect band: the one test
/// that both the analysis (the legal orders the space offers) and
/// transform.tuner.affine_interchange (which refuses an illegal order)
/// apply. Dependences are computed once, at construction. An order lists,
/// outermost first, the band position each loop comes from (order[p] = b).
/// It is legal when every dependence's first non-zero component, in the new
/// order, is positive and known (the test of
/// affine::isValidLoopInterchangePermutation, with an unknown bound making a
/// reordering illegal). A band whose loops carry iter_args keeps its order:
/// permuting would reorder the values they carry (a floating-point sum
/// among them), which the memory dependences do not show, and
/// affine::permuteLoops does not move iter_args.
class BandOrderLegality {
public:
  explicit BandOrderLegality(
      llvm::ArrayRef<mlir::affine::AffineForOp> band);
  /// Whether `order` (a permutation of 0..depth-1) is legal; the identity
  /// always is.
  bool isLegal(llvm::ArrayRef<int64_t> order) const;
  /// Whether every dependence has a known non-negative component on every
  /// loop (and no loop carries iter_args), so that every order is legal and
  /// the band may be tiled in several dimensions.
  bool isFullyPermutable() const { return fullyPermutable; }
  /// Whether some loop of the band carries iter_args.
  bool carriesValues() const { return hasIterArgs; }

private:
  size_t depth = 0;
  bool hasIterArgs = false;
  bool fullyPermutable = true;
  /// Per dependence, the lower bound of its distance on each band loop
  /// (nullopt: unknown); a dependence with fewer components than the band
  /// is deep makes every reordering illegal.
  std::vector<std::vector<std::optional<int64_t>>> lowerBounds;
};

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
