//===- SpaceBuilder.h - The schedule space of a program ---------*- C++ -*-===//
//
// Extracts, from a ProgramTree and a Target, the parameters of a schedule:
// per loop nest, cache- and register-level tile sizes per loop, the loop
// order, the unroll factor, and vectorize / parallelize switches; per
// producer/consumer pair of nests, whether to fuse. Each parameter carries
// its typed role and target (Parameter::role, nest, loop, producer,
// consumer; "attributes" in JSON), which is how the schedule builder reads a
// Config without parsing names:
//
//   Tile          nest=N loop=L   cache-level tile size of band loop L
//                                 (the loop's extent: not tiled)
//   RegisterTile  nest=N loop=L   register-level tile size (at most the
//                                 tile; partial tiles are peeled)
//   Order         nest=N          permutation of the band's loops
//   Unroll        nest=N          unroll factor of the innermost loop
//   Vectorize     nest=N          vectorize the innermost tile
//   Lowering      nest=N          how its contractions are lowered
//   Parallel      nest=N          run the outer tile loops on all cores
//   Distribute    nest=N          all tiled parallel loops, or the outer one
//   Convolution   nest=N          direct, im2col or decomposed convolution
//   Fuse          producer=P consumer=C   fuse nest P into C's tile loops
//
//===----------------------------------------------------------------------===//

#ifndef TUNER_SPACE_SPACEBUILDER_H
#define TUNER_SPACE_SPACEBUILDER_H

#include "tuner/Analysis/ProgramTree.h"
#include "tuner/Space/Space.h"
#include "tuner/Target/Target.h"

#include <optional>

namespace tuner {

struct SpaceOptions {
  bool tile = true;
  bool registerTile = true;
  bool interchange = true;
  bool unroll = true;
  bool vectorize = true;
  bool parallelize = true;
  bool fuse = true;
  /// Offer tile sizes that do not divide the extent (linalg nests: powers of
  /// two besides the divisors; register tiles shaped for the vector
  /// registers), whose partial tiles the schedule peels. Off: divisors only.
  bool partialTiles = true;
  /// Offer the lowering of vectorized contractions as a parameter.
  bool contractionLowering = true;
  /// Offer which tiled parallel loops a parallel nest distributes (all, or
  /// the outermost) as a parameter.
  bool distribution = true;
  /// Offer skewing (time tiling) for affine nests whose band is not fully
  /// permutable: a `skew` switch, tile sizes for every loop of the skewed
  /// band, and wavefront parallelism. Off: such bands are only strip-mined
  /// along their outermost loop, as before.
  bool skew = true;
  /// Offer how a convolution nest is computed (direct, im2col, decomposed
  /// into 1-D convolutions; see tuner/Analysis/Convolution.h) as a
  /// parameter, and the vectorization its rewrites make possible.
  bool convolution = true;
  std::vector<int64_t> unrollFactors = {1, 2, 4, 8};
  /// At most this many tile-size candidates per loop (divisors of the
  /// extent, spread evenly in log scale, always including 1 and the extent).
  unsigned maxTileCandidates = 10;
};

/// At most `limit` of `sorted` (ascending, starting at 1), spread evenly in
/// log scale up to the last one (the first and the last kept); all of them
/// when there are no more than `limit`. The tile sizes of CPU and GPU
/// spaces are picked so.
std::vector<int64_t> spreadInLogScale(std::vector<int64_t> sorted,
                                      unsigned limit);

/// Integer parameter values.
std::vector<ParamValue> integerValues(llvm::ArrayRef<int64_t> values);

/// The first loop of the band of `nest` that runs zero times, if any: such a
/// nest never runs, has nothing to tune and gets no parameter in the space.
std::optional<int> zeroTripLoop(const ProgramTree &tree, const LoopNest &nest);

/// Builds the space. Fails when the tree has no loop nest to tune.
llvm::Expected<Space> buildSpace(const ProgramTree &tree, const Target &target,
                                 const SpaceOptions &options = {});

} // namespace tuner

#endif // TUNER_SPACE_SPACEBUILDER_H
