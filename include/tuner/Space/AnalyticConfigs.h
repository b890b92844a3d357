//===- AnalyticConfigs.h - Schedules derived from the target ----*- C++ -*-===//
//
// The schedules a performance engineer would write first, derived from the
// target's description instead of searched: for each contraction of a
// program (a linalg nest with a reduction loop whose output's two innermost
// dimensions are each indexed by one parallel loop, and no read through a
// window, e.g. a matmul), a BLIS-style micro-kernel. The register tile is
// shaped for the vector registers (NR = 2 vectors along the output's
// contiguous loop, MR rows: half of what the register file holds beside the
// two B vectors and the broadcast of A, or all of it: 3x16 or 6x16 on AVX2,
// 7x32 (snapped to 8) or 14x32 on AVX-512), the reduction is register-tiled
// by 1 and lowered to outer products (FMAs), and the cache tiles come from
// the cache sizes: the reduction tile kc so that A's MR x kc micro-panel
// takes a quarter of L1 (and B's kc x NR one at most all of it), the
// columns so that B's kc x nc block takes a quarter of L2, the rows so that
// every core gets eight row tiles; the row tiles are distributed over the
// cores. Tile sizes that do not divide the extents are what the space
// offers for them: partial tiles are peeled.
//
// For each convolution (a named convolution the convolution analysis knows,
// see tuner/Analysis/Convolution.h) and each stencil or element-wise nest
// (every loop parallel: shifted or plain reads), a streaming schedule:
// vectorized along the output's contiguous loop, the tiles on all cores,
// the producers fused into their consumers where the space offers it (a
// bias into its convolution, a convolution into its ReLU, a stencil stage
// into the next one through windows), convolutions decomposed into 1-D
// convolutions along that loop. Variant 0 tiles one row (every other
// parallel loop by 1) by a few vectors (4: 64 f32 on AVX-512, 32 on AVX2),
// register tile = cache tile, which keeps a convolution's accumulator row
// in registers across its reductions; variant 1 tiles whole rows, as many
// as take half of L2 (fewer when the cores would get less than eight tiles
// each), in register tiles of one row by the same few vectors, which
// amortizes the halo a fused stencil stage recomputes per tile. A nest
// that feeds a contraction gets the contraction's companion plan instead: an
// init (a fill, 2mm's beta * D) fused into the contraction's row tiles, any
// other (2mm's alpha scaling) vectorized on all cores.
//
// One config covers every nest of the function: seed i is contraction
// variant i together with stencil variant min(i, 1).
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

/// What the seeds do with the other linalg nests that feed a contraction
/// (element-wise maps and fills: no reduction loop): a nest that computes a
/// contraction's init (a fill, the beta * D of 2mm) is fused into that
/// contraction's row tiles, where the micro-kernel reads it from cache; the
/// others (2mm's alpha * (A * B)) run vectorized on all cores in row tiles
/// (eight per core, the contiguous loop untiled and cut into register tiles
/// of four vectors), instead of sequential scalar loops beside a parallel
/// micro-kernel. Nests that feed no contraction get streaming plans
/// (stencilPlans).
struct CompanionPlan {
  std::string nest;
  /// The contraction nest to fuse it into ("": none).
  std::string fuseInto;
  /// Its own schedule when it is not fused: cache and register tile per
  /// band position (the extent: not tiled).
  std::vector<int64_t> tile, rtile;
};

/// The companion plans of `tree`'s element-wise nests that feed the
/// contractions `contractions` (microKernelPlans); none without one.
std::vector<CompanionPlan>
companionPlans(const ProgramTree &tree, const Target &target,
               const std::vector<MicroKernelPlan> &contractions);

/// The ideal values of one convolution's or stencil's streaming schedule
/// (before they are snapped to the space's domains), per band position.
struct StencilPlan {
  std::string nest;
  /// Cache and register tile per band position (the extent: not tiled).
  std::vector<int64_t> tile, rtile;
  /// Tile loop order, outermost first (band positions): the parallel loops
  /// that the nest's largest input does not depend on (a convolution's
  /// filters) inside the rows, so that the cores run a row's tiles for all
  /// of them one after the other, its input rows in cache (the
  /// scf.forall's order); the reductions innermost. A nest that streams a
  /// planned nest's output (a ReLU after a convolution) takes the loops
  /// that index that output where the producer's do.
  std::vector<int64_t> order;
  /// Whether the nest is a convolution (decomposed where the space offers
  /// it).
  bool convolution = false;
};

/// The streaming plans of `tree`'s convolutions and stencil / element-wise
/// nests on `target`, variant `variant` (0: one row by four vectors; 1 and
/// on: whole rows, half of L2 per tile, register tiles of one row by four
/// vectors), the input-independent loops inside the rows (order). Contractions, other nests with reductions, nests whose
/// output's innermost dimension is not one parallel loop, and nests that
/// feed a contraction get none.
std::vector<StencilPlan> stencilPlans(const ProgramTree &tree,
                                      const Target &target, unsigned variant);

/// Up to `count` (at most 3) distinct configs of `space` (built for `tree`
/// on `target`): variant i's micro-kernel plans and variant min(i, 1)'s
/// streaming plans and the contractions' companion plans, snapped to the
/// domains (a contraction's cache tiles to multiples of its register tiles
/// where the domain has one within a factor of two), the fusions between
/// planned nests switched on (one consumer per producer), over the space's
/// defaults. Empty when the program has no contraction, convolution or
/// stencil whose parameters the space holds (e.g. the space was built
/// without tiling).
std::vector<Config> analyticConfigs(const ProgramTree &tree,
                                    const Space &space, const Target &target,
                                    unsigned count);

} // namespace tuner

#endif // TUNER_SPACE_ANALYTICCONFIGS_H
