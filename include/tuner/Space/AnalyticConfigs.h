//===- AnalyticConfigs.h - Schedules derived from the target ----*- C++ -*-===//
//
// The schedules a performance engineer would write first, derived from the
// target's description instead of searched: for each contraction of a
// program (a linalg nest with a reduction loop whose output's two innermost
// dimensions are each indexed by one parallel loop, e.g. a matmul), a
// BLIS-style micro-kernel. The register tile is shaped for the vector
// registers (NR = 2 vectors along the output's contiguous loop, MR rows:
// half of what the register file holds beside the two B vectors and the
// broadcast of A, or all of it: 3x16 or 6x16 on AVX2, 7x32 (snapped to 8)
// or 14x32 on AVX-512), the reduction is register-tiled by 1 and lowered to
// outer products (FMAs), and the cache tiles come from the cache sizes: the
// reduction tile kc so that A's MR x kc micro-panel takes a quarter of L1
// (and B's kc x NR one at most all of it), the columns so that B's kc x nc
// block takes a quarter of L2, the rows so that every core gets eight row
// tiles; the row tiles are distributed over the cores. Tile sizes that do not divide
// the extents are what the space offers for them: partial tiles are peeled.
//
// The model-guided strategies measure these beside the model's picks (the
// execution step's seeds), so that a program the cost model misjudges still
// gets the schedule its shape calls for: a prime size like 1021 has no
// divisor to tile by, and the model's picks for it were poor (README,
// "Sizes that do not divide").
//
// Every value is snapped to the nearest one (in log scale) of its
// parameter's domain, and the parameters the recipe does not set keep their
// defaults; the result may still violate a constraint of the space (the
// search maps it to the nearest feasible config, see
// Neighbourhood::repairs).
//
// Nothing here knows about MLIR.
//
//===----------------------------------------------------------------------===//

#ifndef TUNER_SPACE_ANALYTICCONFIGS_H
#define TUNER_SPACE_ANALYTICCONFIGS_H

#include "tuner/Analysis/ProgramTree.h"
#include "tuner/Space/Space.h"
#include "tuner/Target/Target.h"

#include <vector>

namespace tuner {

/// The ideal values of one contraction's micro-kernel schedule (before they
/// are snapped to the space's domains), per band position of its nest.
struct MicroKernelPlan {
  std::string nest;
  /// Cache and register tile per band position (the extent: not tiled).
  std::vector<int64_t> tile, rtile;
  /// Tile loop order, outermost first (band positions).
  std::vector<int64_t> order;
};

/// The micro-kernel plans of `tree`'s contractions on `target`, variant
/// `variant` (0: two vectors wide, half the rows the registers hold, which
/// leaves the compiler registers to spare; 1: all of them; 2 and on: one
/// vector wide, all the rows). Nests that are no contraction get none.
std::vector<MicroKernelPlan> microKernelPlans(const ProgramTree &tree,
                                              const Target &target,
                                              unsigned variant);

/// What the seeds do with the other linalg nests of a program that has a
/// contraction (element-wise maps and fills: no reduction loop): a nest
/// that computes a contraction's init (a fill, the beta * D of 2mm) is
/// fused into that contraction's row tiles, where the micro-kernel reads it
/// from cache; the others run vectorized on all cores in row tiles (eight
/// per core, the contiguous loop untiled and cut into register tiles of four
/// vectors), instead of sequential scalar loops beside a parallel
/// micro-kernel.
struct CompanionPlan {
  std::string nest;
  /// The contraction nest to fuse it into ("": none).
  std::string fuseInto;
  /// Its own schedule when it is not fused: cache and register tile per
  /// band position (the extent: not tiled).
  std::vector<int64_t> tile, rtile;
};

/// The companion plans of `tree`'s element-wise nests beside the
/// contractions `contractions` (microKernelPlans); none without one.
std::vector<CompanionPlan>
companionPlans(const ProgramTree &tree, const Target &target,
               const std::vector<MicroKernelPlan> &contractions);

/// Up to `count` (at most 3) distinct configs of `space` (built for `tree`
/// on `target`): variant i's micro-kernel plans, snapped to the domains,
/// and their companion plans, over the space's defaults; cache tiles
/// snapped to multiples of their register tiles where the domain has one
/// within a factor of two. Empty when the program has no contraction whose
/// parameters the space holds (e.g. the space was built without tiling).
std::vector<Config> analyticConfigs(const ProgramTree &tree,
                                    const Space &space, const Target &target,
                                    unsigned count);

} // namespace tuner

#endif // TUNER_SPACE_ANALYTICCONFIGS_H
