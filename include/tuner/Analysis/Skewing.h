//===- Skewing.h - Shifts and skews that make a band tileable ---*- C++ -*-===//
//
// Time tiling of stencils (Pluto's recipe): a time loop whose band is not
// fully permutable (some dependence has a negative distance on an inner
// loop) becomes fully permutable once its inner loops are skewed by the
// outer ones, and then tiles in every dimension and runs its tiles as a
// wavefront. When the time loop's body is a sequence of loop nests (two
// sweeps of a Jacobi stencil), their outer loops are first fused into one,
// each nest shifted so that no dependence between them runs backwards.
//
// These are the algorithms on dependence distances, without MLIR: the
// affine dependence analysis (tuner/Analysis/AffineDependences.h) measures
// the distances, the analysis decides with them whether a nest can be
// skewed, and the tuner's transform ops compute the same shifts and skews
// when they transform the nest.
//
//===----------------------------------------------------------------------===//

#ifndef TUNER_ANALYSIS_SKEWING_H
#define TUNER_ANALYSIS_SKEWING_H

#include "llvm/Support/Error.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tuner {

/// The distance of a dependence on one loop (target iteration minus source
/// iteration), as an interval [lb, ub]; std::nullopt: unbounded that way.
struct DistanceRange {
  std::optional<int64_t> lb, ub;

  static DistanceRange exactly(int64_t d) { return {d, d}; }
  bool operator==(const DistanceRange &other) const {
    return lb == other.lb && ub == other.ub;
  }
  /// "[lb, ub]", "-inf" / "+inf" for unbounded ends; "d" when exact.
  std::string str() const;
};

/// One dependence inside a band: the statements at its ends and its
/// distance on each loop of the band, outermost first. A statement is one
/// of the sibling nests fused into the band (0 when the band is perfect);
/// the loops of different siblings are matched by depth.
struct BandDependence {
  unsigned source = 0, target = 0;
  std::vector<DistanceRange> distance;

  /// "(d0, d1, ...)", with "from statement s to statement t" when those
  /// differ.
  std::string str() const;
};

/// A skew of a band of n loops: the unit lower-triangular integer matrix M
/// of y = M x (x: the original iteration, y: the skewed one; row k says
/// y_k = x_k + sum over l < k of M[k][l] * x_l). It preserves the order of
/// the iterations, so every skew is legal; what it changes is which loops
/// carry which dependences.
using SkewMatrix = std::vector<std::vector<int64_t>>;

/// The identity skew of `depth` loops.
SkewMatrix identitySkew(size_t depth);
/// Whether `matrix` is `depth` x `depth`, unit lower-triangular.
bool isSkewMatrix(const SkewMatrix &matrix, size_t depth);
/// Whether `matrix` skews anything (is not the identity).
bool isNontrivialSkew(const SkewMatrix &matrix);
/// The inverse of a skew matrix (again unit lower-triangular, integer).
SkewMatrix invertSkew(const SkewMatrix &matrix);

/// The distances of `dependence` after the skew `matrix` (interval
/// arithmetic: a component's bounds combine the bounds of the components
/// it is made of, which is exact for distance vectors and an enclosure of
/// the true range otherwise).
std::vector<DistanceRange> skewDistances(const SkewMatrix &matrix,
                                         const std::vector<DistanceRange> &d);

/// Whether every distance of every dependence is known to be non-negative:
/// the band is fully permutable and may be tiled in every dimension.
bool isFullyPermutable(const std::vector<BandDependence> &dependences,
                       size_t depth);

/// The smallest non-negative skew that makes the band of `depth` loops
/// fully permutable. Loop by loop, outermost first, each dependence with a
/// negative distance on loop k is skewed by the outermost loop l < k that
/// carries it (positive distance there, after the skew of l), by just enough
/// to make its distance on k non-negative; skewing by a carrying loop never
/// hurts another dependence. For seidel-2d's (t, i, j) this gives
/// y = (t, t + i, 2t + i + j). Fails, naming the dependence, when a
/// distance is unbounded below, negative on the outermost loop, or negative
/// on a loop that no outer loop carries (no skew helps).
llvm::Expected<SkewMatrix>
computeSkew(const std::vector<BandDependence> &dependences, size_t depth);

/// Shifts that let sibling nests fuse: the band's loops 0 .. `fusedFrom` - 1
/// enclose all `numStatements` siblings (loop 0 is the time loop), loops
/// `fusedFrom` .. depth - 1 are the siblings' own outer loops, fused by
/// depth. Returns, per statement and fused loop, the smallest non-negative
/// shift (statement s runs its iteration x of those loops at x + shift[s])
/// such that every dependence between two siblings within one iteration of
/// the enclosing loops (zero distance on loops 0 .. fusedFrom - 1) has a
/// non-negative distance on every fused loop; siblings run in program
/// order, so a zero distance keeps the source first. Fails, naming the
/// dependence, when such a distance is unbounded below.
llvm::Expected<std::vector<std::vector<int64_t>>>
computeFusionShifts(const std::vector<BandDependence> &dependences,
                    unsigned numStatements, size_t fusedFrom, size_t depth);

/// Checks that `shifts` (one list per statement, one shift per fused loop)
/// let the siblings fuse, by the rule of computeFusionShifts; the error
/// names a dependence they would reverse.
llvm::Error verifyFusionShifts(const std::vector<BandDependence> &dependences,
                               const std::vector<std::vector<int64_t>> &shifts,
                               size_t fusedFrom, size_t depth);

/// The distances of `dependences` once the siblings are shifted by
/// `shifts` (as computeFusionShifts returns them).
std::vector<BandDependence>
shiftDependences(const std::vector<BandDependence> &dependences,
                 const std::vector<std::vector<int64_t>> &shifts,
                 size_t fusedFrom);

} // namespace tuner

#endif // TUNER_ANALYSIS_SKEWING_H
