//===- SchedulePlan.h - What a Config says about each loop nest -*- C++ -*-===//
//
// Reads a Config of a space built by SpaceBuilder (whose parameters carry
// a typed role and target, see ParamRole and SpaceBuilder.h) into a
// plain per-nest plan: tile and register tile sizes, loop order, unroll
// factor, vectorize and parallelize switches, and which nest is fused into
// which. The schedule builder turns a plan into a Transform-dialect script;
// the cost model turns it into per-loop transformation tags; the search
// hashes it so that no schedule is scored or measured twice. No MLIR here.
//
//===----------------------------------------------------------------------===//

#ifndef TUNER_SCHEDULE_SCHEDULEPLAN_H
#define TUNER_SCHEDULE_SCHEDULEPLAN_H

#include "tuner/Analysis/Convolution.h"
#include "tuner/Analysis/ProgramTree.h"
#include "tuner/Space/Space.h"

#include "llvm/Support/Error.h"

#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

namespace tuner {

/// What a config says about one loop nest. Vectors are indexed by band
/// position (see ProgramTree::bandOf), outermost first.
struct NestPlan {
  /// Index of the nest in ProgramTree::nests.
  int nestId = -1;
  NestSource source = NestSource::Linalg;
  /// Loop ids of the band.
  std::vector<int> band;
  std::vector<int64_t> extents;
  std::vector<bool> isReduction;
  /// Cache tile sizes; 0: not tiled (a size equal to the extent reads as 0).
  std::vector<int64_t> tile;
  /// Register tile sizes; 0: not tiled again (a size equal to the cache tile,
  /// or to the extent when not cache-tiled, reads as 0).
  std::vector<int64_t> rtile;
  /// Loop order: position i holds band loop order[i].
  std::vector<int64_t> order;
  int64_t unroll = 1;
  bool vectorize = false;
  /// How a vectorized nest's contractions are lowered: "outerproduct"
  /// (broadcast + FMA per reduction step), "dot" or "parallelarith".
  std::string lowering = "outerproduct";
  bool parallel = false;
  /// A parallel linalg nest distributes only its outermost tiled parallel
  /// loop (in loop order) over the cores, not all of them.
  bool distributeOuter = false;
  /// The partial tiles of the scf.forall of a vectorized parallel nest are
  /// padded with zeros to full tiles (the `partial` parameter: "pad"),
  /// rather than cut into static slices ("peel").
  bool padPartial = false;
  /// Whether padPartial changes the schedule: the nest is vectorized and
  /// parallel, and some tile size of its scf.forall does not divide the
  /// extent.
  bool padsPartialTiles() const;
  /// Whether the vectorized nest has remainder tiles: some tile size does
  /// not divide its extent, or some register tile size its cache tile. Their
  /// contractions' remainder columns are padded to a power of two
  /// (`vectorize_tiles ... {pad_remainders = true}`).
  bool hasRemainderTiles() const;
  /// Nests fused into this one (nest indices, sorted).
  std::vector<int> producers;
  /// The nest this one is fused into (-1: none).
  int fusedInto = -1;
  /// The fuse parameter that fused this nest (for error messages).
  std::string fuseParameter;
  /// Time tiling (affine nests with a skew band, see LoopNest::skewBand):
  /// the sibling nests inside the band are fused (shifted), the band is
  /// skewed so that it is fully permutable, tiled by `skewTile`, and, when
  /// `parallel`, its tiles run as a wavefront (those of one wavefront in
  /// parallel). `tile` then holds the skewed band's sizes of the band's
  /// positions.
  bool skew = false;
  /// Loop ids, extents and tile sizes (0: not tiled) of the skew band,
  /// outermost first: the band's loops, then the fused nests' loops (see
  /// fusedDepth()). Empty for a nest without a skew band; its tile sizes
  /// mirror `tile` on the band's positions.
  std::vector<int> skewBand;
  std::vector<int64_t> skewExtents;
  std::vector<int64_t> skewTile;
  /// How a convolution nest is computed (the `conv` parameter): as it is,
  /// as an im2col copy and a contraction (whose loops, see
  /// im2colContraction(), the tile sizes and order then describe), or as
  /// 1-D convolutions (the loops ConvolutionInfo::decomposeUnitLoops cut
  /// to size 1 inside the register tiles).
  ConvolutionStrategy convolution = ConvolutionStrategy::Direct;

  bool isTiled() const;
  bool isRegisterTiled() const;
  bool isInterchanged() const;

  // The loops a linalg nest's schedule generates (band positions, outermost
  // first). The schedule builder emits exactly these loops.

  /// Positions tiled by the scf.forall of a parallel nest: its tiled parallel
  /// loops, or only the first of them in loop order when `distributeOuter`
  /// (empty when not parallel).
  std::vector<size_t> forallPositions() const;
  /// Positions of the cache-level scf.for tile loops, in loop order: the
  /// tiled loops not distributed by the scf.forall.
  std::vector<size_t> tileLoopPositions() const;
  /// Positions of the register-level scf.for tile loops, in loop order.
  std::vector<size_t> registerLoopPositions() const;
  /// Positions of the tile loops that fused producers run inside: the
  /// scf.forall's positions when parallel, else the leading tile loops up to
  /// the first reduction loop.
  std::vector<size_t> fusionPositions() const;
  /// The position whose generated loop is unrolled when unroll > 1 (linalg:
  /// the innermost register or cache scf.for; affine: the innermost point
  /// loop), or -1 when there is none.
  int unrolledPosition() const;
  /// The position whose generated loop runs in parallel when `parallel`
  /// (affine: the outermost loop after tiling; linalg nests distribute all of
  /// forallPositions()), or -1.
  int parallelPosition() const;
  /// Whether the schedule leaves this nest as it is (nothing is emitted for
  /// it; a fused nest is not untouched).
  bool isUntouched() const;
  /// How many loops of the sibling nests inside the band the skew band
  /// fuses (0 for a perfect band).
  size_t fusedDepth() const {
    return skewBand.size() > band.size() ? skewBand.size() - band.size() : 0;
  }

  /// For a convolution computed by im2col: the plan of the contraction it
  /// becomes, one loop per group of `info.im2colLoops` (extent, cache and
  /// register tile: the products of the group's; a reduction when the
  /// group is; ordered by the first of its loops in `order`), with the same
  /// unroll, vectorization, lowering and parallelization, and no producers
  /// (fusion into it is not possible: its accumulator is a reshaped
  /// tensor).
  NestPlan im2colContraction(const ConvolutionInfo &info) const;
  /// For a convolution computed by decomposition: the unit tile sizes cut
  /// inside the register tiles (1 on each loop of
  /// `info.decomposeUnitLoops` whose innermost tile is larger, 0
  /// elsewhere).
  std::vector<int64_t> decomposeUnitTiles(const ConvolutionInfo &info) const;
  /// Size of the innermost tile of band position `p`: its register tile,
  /// else its cache tile, else its extent.
  int64_t innermostTile(size_t p) const;
};

/// What a config says about every nest of a program.
struct SchedulePlan {
  /// One plan per nest, indexed like ProgramTree::nests.
  std::vector<NestPlan> nests;

  /// The nest that nest `nestId` ends up in after all fusions (itself when it
  /// is not fused).
  int hostOf(int nestId) const;

  /// Structural hash of the schedule the plan stands for, stable across runs.
  /// Configs that mean the same schedule hash equal: besides tile sizes equal
  /// to the extent and register tiles equal to the cache tile (already
  /// normalized in the plan), the order among untiled loops of a linalg nest,
  /// the settings of a nest fused into another one, and the parallel switch
  /// of an untouched linalg nest make no difference.
  uint64_t hash() const;
};

/// Reads `config` (which must be in `space`: checked, with an error naming
/// the parameter and value otherwise) into a plan. Fails, naming the
/// parameter, on a parameter without a known role, one naming a nest the
/// tree does not have, a value of the wrong kind, a tile size outside the
/// loop, a register tile or vectorization of an affine nest, a fusion of a
/// non-linalg nest, a nest fused twice or into itself, and fusion cycles.
llvm::Expected<SchedulePlan>
planSchedule(const ProgramTree &tree, const Space &space, const Config &config);

/// The plans of one program's configs, each computed once: the search's
/// schedule hash, the cost model's features and the schedule builder of one
/// tuning run share them (a config is planned once, not once per stage).
/// Not thread-safe; `tree` and `space` must outlive it.
class PlanCache {
public:
  PlanCache(const ProgramTree &tree, const Space &space)
      : tree(tree), space(space) {}

  /// The plan of `config` (planSchedule's error when it has none, which is
  /// not kept).
  llvm::Expected<std::shared_ptr<const SchedulePlan>>
  get(const Config &config);

  /// Configs planned, and plans found planned before.
  size_t planned() const { return misses; }
  size_t reused() const { return hits; }

private:
  const ProgramTree &tree;
  const Space &space;
  std::unordered_map<uint64_t,
                     std::pair<Config, std::shared_ptr<const SchedulePlan>>>
      plans;
  size_t misses = 0, hits = 0;
};

} // namespace tuner

#endif // TUNER_SCHEDULE_SCHEDULEPLAN_H
