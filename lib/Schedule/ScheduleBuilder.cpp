//===- ScheduleBuilder.cpp - Config -> Transform-dialect script -----------===//
//
// The script, per linalg nest that is not fused into another one:
//   1. cache tiles: tile_using_forall over the parallel dims when the nest is
//      parallel, then tile_using_for over the remaining dims in the chosen
//      loop order;
//   2. fusion: each producer fused into this nest (and, transitively, the
//      producers fused into those) is fused into the tile loops, outermost
//      first, up to the first loop over a reduction dim;
//   3. register tiles: tile_using_for on the cache-tiled op;
//   4. vectorized nests: transform.tuner.vectorize_tiles on the outermost
//      generated loop peels partial tiles, vectorizes the tiles, hoists the
//      accumulators out of the reduction loops, lowers the contractions and
//      unrolls the innermost loops;
//   5. otherwise, unroll the innermost generated scf.for.
// A convolution nest computed by im2col is first rewritten into its im2col
// copy and a contraction, which is then scheduled like the nest (its loops
// the merged loops of the convolution) with the copy fused into its tile
// loops; one computed as 1-D convolutions gets the loops
// ConvolutionInfo::decomposeUnitLoops cut to size 1 inside its register
// tiles and is decomposed before step 4.
// Per affine nest: interchange, tile, unroll the innermost loop, parallelize
// the outermost one; or, skewed (time tiling), fuse the nests inside the band
// with shifts, skew the band, and tile it, as a wavefront when parallel.
// Cleanup patterns run once at the end.
//
//===----------------------------------------------------------------------===//

#include "tuner/Schedule/ScheduleBuilder.h"
#include "tuner/Schedule/GpuSchedule.h"
#include "tuner/Schedule/SchedulePlan.h"
#include "tuner/Space/GpuSpace.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

#include <map>

using namespace tuner;

namespace {

llvm::Error error(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

std::string list(llvm::ArrayRef<int64_t> values) {
  return "[" +
         llvm::join(llvm::map_range(
                        values, [](int64_t v) { return std::to_string(v); }),
                    ", ") +
         "]";
}

bool isIdentity(llvm::ArrayRef<int64_t> order) {
  for (auto [i, v] : llvm::enumerate(order))
    if (v != int64_t(i))
      return false;
  return true;
}

/// "(!transform.any_op, ...)" with `n` handles; a single one unparenthesized.
std::string handleTypes(size_t n) {
  if (n == 1)
    return "!transform.any_op";
  std::vector<std::string> types(n, "!transform.any_op");
  return "(" + llvm::join(types, ", ") + ")";
}

std::string signature(size_t operands, size_t results) {
  return "(" +
         llvm::join(std::vector<std::string>(operands, "!transform.any_op"),
                    ", ") +
         ") -> " + handleTypes(results);
}

/// A group of `count` handles named `name` (`%name:count`, or `%name`).
struct Group {
  std::string name;
  size_t count = 0;
  std::string def() const {
    return count == 1 ? "%" + name : "%" + name + ":" + std::to_string(count);
  }
  std::string operator[](size_t i) const {
    return count == 1 ? "%" + name : "%" + name + "#" + std::to_string(i);
  }
};

/// A loop handle of a linalg nest and whether it iterates a reduction dim.
struct LoopHandle {
  std::string ref;
  bool isReduction = false;
};

class ScriptBuilder {
public:
  explicit ScriptBuilder(const ProgramTree &tree) : tree(tree) {}

  llvm::Expected<std::string> build(SchedulePlan plan) {
    schedule = std::move(plan);
    nameHandles();
    return emit();
  }

private:
  /// A handle name stem per nest that the parser accepts and no other nest
  /// has.
  void nameHandles() {
    llvm::StringSet<> used = {"root", "func", "linalg_ops"};
    for (const LoopNest &nest : tree.nests) {
      std::string stem;
      for (char c : nest.name)
        stem.push_back(llvm::isAlnum(c) || c == '_' ? c : '_');
      if (stem.empty() || llvm::isDigit(stem.front()))
        stem = "nest_" + stem;
      if (used.contains(stem))
        stem += "_" + std::to_string(nest.id);
      used.insert(stem);
      handles.push_back(stem);
    }
  }

  const LoopNest &nestOf(const NestPlan &plan) const {
    return tree.nests[plan.nestId];
  }
  const std::string &handleOf(const NestPlan &plan) const {
    return handles[plan.nestId];
  }

  //===--------------------------------------------------------------------===//
  // Emission
  //===--------------------------------------------------------------------===//

  void line(const llvm::Twine &text) { os << "    " << text << "\n"; }

  std::string fresh(const std::string &stem) {
    unsigned &n = counters[stem];
    std::string name = n == 0 ? stem : stem + "_" + std::to_string(n);
    ++n;
    return name;
  }

  llvm::Expected<std::string> emit() {
    bool usesTunerOps = llvm::any_of(plans, [](const NestPlan &plan) {
      return plan.source == NestSource::Affine ||
             (plan.vectorize && plan.fusedInto < 0);
    });
    os << "// Schedule of @" << tree.functionName
       << " written by the tuner; replay it with\n"
       << "//   mlir-opt "
       << (usesTunerOps ? "--load-dialect-plugin=TunerPlugin.so " : "")
       << "--transform-preload-library=transform-library-paths=<this file> "
          "--transform-interpreter\n"
          "// Tile sizes are listed by loop, 0 meaning not tiled.\n";
    os << "module attributes {transform.with_named_sequence} {\n";
    os << "  transform.named_sequence @__transform_main(%root: "
          "!transform.any_op {transform.readonly}) {\n";
    std::string name;
    llvm::raw_string_ostream nameStream(name);
    nameStream << '"';
    llvm::printEscapedString(tree.functionName, nameStream);
    nameStream << '"';
    line("%func = transform.structured.match ops{[\"func.func\"]} "
         "attributes{sym_name = " +
         name + "} in %root : " + signature(1, 1));

    // Handles to every nest, before anything moves.
    std::map<int, const NestPlan *> linalgByIndex;
    for (const NestPlan &plan : plans) {
      if (plan.source == NestSource::Linalg) {
        if (nestOf(plan).opIndex < 0 ||
            !linalgByIndex.emplace(nestOf(plan).opIndex, &plan).second)
          return error("nest '" + nestOf(plan).name +
                       "' has an invalid or duplicate op index " +
                       llvm::Twine(nestOf(plan).opIndex));
        continue;
      }
      line("%" + handleOf(plan) +
           " = transform.tuner.affine_nest %func index = " +
           llvm::Twine(nestOf(plan).opIndex) + " : " + signature(1, 1));
    }
    if (!linalgByIndex.empty()) {
      size_t count = linalgByIndex.rbegin()->first + 1;
      std::string matched =
          count == 1 ? handleOf(*linalgByIndex.begin()->second) : "linalg_ops";
      line("%" + matched +
           " = transform.structured.match interface{LinalgOp} in %func : " +
           signature(1, 1));
      if (count > 1) {
        std::vector<std::string> names;
        for (size_t i = 0; i < count; ++i) {
          auto it = linalgByIndex.find(i);
          names.push_back(it == linalgByIndex.end()
                              ? "%linalg_" + std::to_string(i)
                              : "%" + handleOf(*it->second));
        }
        line(llvm::join(names, ", ") +
             " = transform.split_handle %linalg_ops : " + signature(1, count));
      }
    }

    for (const NestPlan &plan : plans) {
      if (plan.fusedInto >= 0)
        continue;
      llvm::Error err =
          plan.source != NestSource::Linalg ? emitAffine(plan)
          : plan.convolution != ConvolutionStrategy::Direct
              ? emitConvolution(plan)
              : emitLinalg(plan);
      if (err)
        return std::move(err);
    }

    if (transformed) {
      os << "    // Cleanup.\n";
      line("transform.apply_patterns to %func {");
      line("  transform.apply_patterns.linalg.tiling_canonicalization");
      line("  transform.apply_patterns.scf.for_loop_canonicalization");
      line("  transform.apply_patterns.canonicalization");
      line("} : !transform.any_op");
      line("transform.apply_cse to %func : !transform.any_op");
    }
    line("transform.yield");
    os << "  }\n}\n";
    return os.str();
  }

  /// One comment line describing what the config chose for `plan`.
  void describe(const NestPlan &plan) {
    std::string text = "// " + nestOf(plan).name + ": tile " +
                       list(plan.skew ? plan.skewTile : plan.tile);
    if (!isIdentity(plan.order))
      text += ", order " + list(plan.order);
    if (plan.skew)
      text += plan.fusedDepth() > 0 ? ", skew (nests fused)" : ", skew";
    if (llvm::any_of(plan.rtile, [](int64_t s) { return s != 0; }))
      text += ", register tile " + list(plan.rtile);
    if (!plan.producers.empty()) {
      std::vector<std::string> names;
      collectFused(plan, names);
      text += ", fuse " + llvm::join(names, ", ");
    }
    if (plan.convolution != ConvolutionStrategy::Direct)
      text += ", " + stringifyConvolutionStrategy(plan.convolution).str();
    if (plan.vectorize) {
      text += ", vectorize";
      if (plan.lowering != "outerproduct")
        text += " (" + plan.lowering + " lowering)";
    }
    if (plan.unroll > 1)
      text += ", unroll " + std::to_string(plan.unroll);
    if (plan.parallel)
      text += plan.distributeOuter && plan.source == NestSource::Linalg
                  ? ", parallel (outer loop)"
              : plan.skew ? ", parallel (wavefront)"
                          : ", parallel";
    if (plan.padPartial && plan.padsPartialTiles())
      text += ", partial tiles padded";
    os << "    " << text << "\n";
  }

  void collectFused(const NestPlan &plan, std::vector<std::string> &names) {
    for (int producer : plan.producers) {
      names.push_back(nestOf(plans[producer]).name);
      if (plans[producer].convolution != ConvolutionStrategy::Direct)
        names.back() += " (" +
                        stringifyConvolutionStrategy(
                            plans[producer].convolution)
                            .str() +
                        ")";
      collectFused(plans[producer], names);
    }
  }

  /// Emits `tile_using_for` of `target` with `sizes` in `plan`'s loop order;
  /// returns the tiled op and appends the loops to `loops`.
  std::string tileFor(const NestPlan &plan, const std::string &target,
                      llvm::ArrayRef<int64_t> sizes, llvm::StringRef stem,
                      std::vector<LoopHandle> &loops) {
    Group group{fresh(handleOf(plan) + "_" + stem.str() + "_loops"), 0};
    std::vector<bool> loopIsReduction;
    for (int64_t dim : plan.order)
      if (sizes[dim] != 0)
        loopIsReduction.push_back(plan.isReduction[dim]);
    group.count = loopIsReduction.size();
    std::string tiled = fresh(handleOf(plan) + "_" + stem.str());
    std::string text = "%" + tiled + ", " + group.def() +
                       " = transform.structured.tile_using_for " + target +
                       " tile_sizes " + list(sizes);
    if (!isIdentity(plan.order))
      text += " interchange = " + list(plan.order);
    line(text + " : " + signature(1, 1 + group.count));
    for (size_t i = 0; i < group.count; ++i)
      loops.push_back({group[i], loopIsReduction[i]});
    return "%" + tiled;
  }

  /// Step 1 of a linalg nest: the cache tiles of `sizes` (the plan whose
  /// loops are tiled: the nest's own, or the contraction an im2col
  /// convolution becomes), an scf.forall over the distributed parallel dims
  /// first when parallel. Appends the tile loops to `loops` (counting the
  /// scf.forall in `forallLoops`) and returns the tiled op's handle.
  llvm::Expected<std::string> emitCacheTiles(const NestPlan &plan,
                                             const NestPlan &sizes,
                                             std::string op,
                                             std::vector<LoopHandle> &loops,
                                             size_t &forallLoops) {
    std::vector<int64_t> forSizes = sizes.tile;
    if (sizes.parallel) {
      std::vector<int64_t> forallSizes(sizes.extents.size(), 0);
      for (size_t d : sizes.forallPositions()) {
        forallSizes[d] = sizes.tile[d];
        forSizes[d] = 0;
      }
      if (llvm::all_of(forallSizes, [](int64_t s) { return s == 0; }))
        return error("nest '" + nestOf(plan).name +
                     "' is parallel but none of its parallel loops is tiled: "
                     "there are no tiles to distribute");
      std::string tiled = fresh(handleOf(plan) + "_tiled");
      std::string forall = fresh(handleOf(plan) + "_forall");
      line("%" + tiled + ", %" + forall +
           " = transform.structured.tile_using_forall " + op + " tile_sizes " +
           list(forallSizes) + " : " + signature(1, 2));
      op = "%" + tiled;
      // The induction variables in the plan's loop order (the forall has
      // them in the op's), which is the order the cores run the tiles in.
      std::vector<size_t> positions = sizes.forallPositions();
      std::vector<int64_t> permutation;
      for (int64_t p : sizes.order) {
        auto it = llvm::find(positions, size_t(p));
        if (it != positions.end())
          permutation.push_back(int64_t(it - positions.begin()));
      }
      if (permutation.size() == positions.size() && !isIdentity(permutation)) {
        line("transform.tuner.interchange_forall %" + forall +
             " permutation = " + list(permutation) + " : !transform.any_op");
      }
      loops.push_back({"%" + forall, false});
      forallLoops = 1;
    }
    if (llvm::any_of(forSizes, [](int64_t s) { return s != 0; }))
      op = tileFor(sizes, op, forSizes, "tiled", loops);
    return op;
  }

  /// The last steps of a linalg nest, after its tiles (`loops`: cache,
  /// `registerLoops`: register, `unitLoops`: a decomposition's unit tiles;
  /// `forallLoops` of `loops` are scf.forall):
  /// 4. vectorization into a micro-kernel: partial tiles peeled, the tiles
  ///    vectorized, the accumulators hoisted out of the reduction loops,
  ///    the contractions lowered and the innermost loops unrolled, all by one
  ///    op on the outermost generated loop (which every one of them is
  ///    inside), or on the op itself when nothing is tiled;
  /// 5. otherwise, unrolling of the innermost scf.for.
  llvm::Error emitVectorizeOrUnroll(const NestPlan &plan, const std::string &op,
                                    const std::vector<LoopHandle> &loops,
                                    const std::vector<LoopHandle> &registerLoops,
                                    const std::vector<LoopHandle> &unitLoops,
                                    size_t forallLoops) {
    if (plan.vectorize) {
      std::string target = !loops.empty()           ? loops.front().ref
                           : !registerLoops.empty() ? registerLoops.front().ref
                           : !unitLoops.empty()     ? unitLoops.front().ref
                                                    : op;
      std::string attributes = "lowering = \"" + plan.lowering + "\"";
      if (plan.unroll > 1)
        attributes += ", unroll = " + std::to_string(plan.unroll);
      // (The partial scf.forall tiles are the target's.)
      if (plan.padPartial && plan.padsPartialTiles() &&
          target == loops.front().ref && forallLoops > 0)
        attributes += ", partial = \"pad\"";
      // (Remainder columns padded to full vectors.)
      if (plan.hasRemainderTiles())
        attributes += ", pad_remainders = true";
      line("transform.tuner.vectorize_tiles " + target + " {" + attributes +
           "} : !transform.any_op");
      return llvm::Error::success();
    }
    if (plan.unroll > 1) {
      const LoopHandle *innermost = nullptr;
      if (!unitLoops.empty())
        innermost = &unitLoops.back();
      else if (!registerLoops.empty())
        innermost = &registerLoops.back();
      else if (loops.size() > forallLoops)
        innermost = &loops.back();
      if (!innermost)
        return error("nest '" + nestOf(plan).name + "' is unrolled by " +
                     llvm::Twine(plan.unroll) +
                     " but has no scf.for loop to unroll (no loop is tiled "
                     "outside the scf.forall)");
      line("transform.loop.unroll " + innermost->ref +
           " {factor = " + llvm::Twine(plan.unroll) + "} : !transform.any_op");
    }
    return llvm::Error::success();
  }

  /// Whether nest `consumer` reads nest `producer` through windows.
  bool readsThroughWindows(const NestPlan &producer,
                           const NestPlan &consumer) const {
    return llvm::any_of(tree.edges, [&](const ProducerConsumerEdge &edge) {
      return edge.throughWindows &&
             tree.computations[edge.producer].nestId == producer.nestId &&
             tree.computations[edge.consumer].nestId == consumer.nestId;
    });
  }

  /// Fuses the producers of `consumer` (recursively) into `loops`, the first
  /// `fusible` tile loops of `host`.
  void fuseProducers(const NestPlan &host, const NestPlan &consumer,
                     std::vector<LoopHandle> &loops, size_t fusible) {
    for (int id : consumer.producers) {
      const NestPlan &producer = plans[id];
      std::string current = "%" + handleOf(producer);
      // A consumer that reads the producer through windows gets the union
      // of its windows computed per tile.
      // (It computes the producer next to the slices, in the innermost tile
      // loop, once: fusing it into the outermost loop is enough.)
      bool windows = readsThroughWindows(producer, consumer);
      const char *fuseOp = windows
                               ? "transform.tuner.fuse_window_producer "
                               : "transform.structured.fuse_into_containing_op ";
      for (size_t i = 0; i < (windows ? std::min<size_t>(fusible, 1) : fusible);
           ++i) {
        std::string fused = fresh(handleOf(producer) + "_fused");
        std::string loop = fresh(handleOf(host) + "_loop");
        line("%" + fused + ", %" + loop + " = " + fuseOp + current + " into " +
             loops[i].ref + " : " + signature(2, 2));
        current = "%" + fused;
        loops[i].ref = "%" + loop;
      }
      // The box of a vectorized host is cut into its register tiles, so
      // that it is vectorized a register tile at a time too.
      if (windows && host.vectorize && host.isRegisterTiled() &&
          producer.extents.size() == host.rtile.size()) {
        size_t count =
            llvm::count_if(host.rtile, [](int64_t s) { return s != 0; });
        std::string tiled = fresh(handleOf(producer) + "_rtiled");
        Group group{fresh(handleOf(producer) + "_rtiled_loops"), count};
        line("%" + tiled + ", " + group.def() +
             " = transform.structured.tile_using_for " + current +
             " tile_sizes " + list(host.rtile) + " : " +
             signature(1, 1 + count));
        current = "%" + tiled;
      }
      if (producer.convolution == ConvolutionStrategy::Decompose)
        decomposeFused(producer, current);
      fuseProducers(host, producer, loops, fusible);
    }
  }

  /// The convolution op table's entry for `plan`'s op.
  std::optional<ConvolutionInfo> convolutionOf(const NestPlan &plan) const {
    const LoopNest &nest = nestOf(plan);
    if (nest.computationIds.size() != 1)
      return std::nullopt;
    return convolutionInfo(
        tree.computations[nest.computationIds.front()].opName);
  }

  /// A convolution fused into its consumer's tile loops and computed as
  /// 1-D convolutions: its unit loops cut to size 1 and its vector loop to
  /// at most 64 (the host's tile is its tile), parallel loops outside the
  /// reductions, then decomposed; the host's vectorize_tiles vectorizes it.
  void decomposeFused(const NestPlan &producer, const std::string &handle) {
    std::optional<ConvolutionInfo> info = convolutionOf(producer);
    if (!info || !info->supports(ConvolutionStrategy::Decompose))
      return;
    std::vector<int64_t> sizes(producer.extents.size(), 0);
    for (size_t p : info->decomposeUnitLoops)
      if (p < sizes.size() && producer.extents[p] > 1)
        sizes[p] = 1;
    size_t vector = info->decomposeVectorLoop;
    if (vector < sizes.size() && producer.extents[vector] > 64)
      sizes[vector] = 64;
    NestPlan order = producer;
    order.order.clear();
    for (bool first : {true, false})
      for (size_t p = 0; p < sizes.size(); ++p)
        if ((sizes[p] != 0 && !producer.isReduction[p]) == first)
          order.order.push_back(p);
    std::string op = handle;
    std::vector<LoopHandle> unitLoops;
    if (llvm::any_of(sizes, [](int64_t s) { return s != 0; }))
      op = tileFor(order, op, sizes, "unit", unitLoops);
    std::string decomposed = fresh(handleOf(producer) + "_1d");
    line("%" + decomposed + " = transform.structured.decompose " + op +
         " : " + signature(1, 1));
  }

  llvm::Error emitLinalg(const NestPlan &plan) {
    const std::string &n = nestOf(plan).name;
    bool tiles = llvm::any_of(plan.tile, [](int64_t s) { return s != 0; });
    bool rtiles = llvm::any_of(plan.rtile, [](int64_t s) { return s != 0; });
    if (!tiles && !rtiles && !plan.vectorize && plan.unroll == 1 &&
        plan.producers.empty())
      return llvm::Error::success();
    transformed = true;
    describe(plan);

    std::vector<LoopHandle> loops;
    // 1. Cache tiles (forall over the parallel dims first when parallel).
    size_t forallLoops = 0;
    llvm::Expected<std::string> tiledOp = emitCacheTiles(
        plan, plan, "%" + handleOf(plan), loops, forallLoops);
    if (!tiledOp)
      return tiledOp.takeError();
    std::string op = *tiledOp;

    // 2. Fusion into the tile loops outside the first reduction loop.
    if (!plan.producers.empty()) {
      // Into the scf.forall of a parallel nest (as NestPlan::fusionPositions
      // says), else the leading tile loops over parallel dims.
      size_t fusible = 0;
      if (plan.parallel)
        fusible = forallLoops;
      else
        while (fusible < loops.size() && !loops[fusible].isReduction)
          ++fusible;
      if (fusible == 0) {
        const NestPlan &first = plans[plan.producers.front()];
        return error("parameter '" + first.fuseParameter + "' = true: nest '" +
                     n +
                     "' has no tile loop over a parallel dim outside its "
                     "reduction loops to fuse into");
      }
      fuseProducers(plan, plan, loops, fusible);
    }

    // 3. Register tiles.
    std::vector<LoopHandle> registerLoops;
    if (rtiles)
      op = tileFor(plan, op, plan.rtile, "rtiled", registerLoops);

    // 4.-5. Vectorization into a micro-kernel, or unrolling.
    return emitVectorizeOrUnroll(plan, op, loops, registerLoops, {},
                                 forallLoops);
  }

  /// A skewed affine nest: fuse the nests inside its band (shifted), skew
  /// the band, tile it, as a wavefront when parallel.
  llvm::Error emitSkewed(const NestPlan &plan) {
    size_t depth = plan.skewTile.size();
    size_t tiled = llvm::count_if(plan.skewTile, [](int64_t s) { return s; });
    if (depth < 2 || tiled == 0)
      return error("nest '" + nestOf(plan).name +
                   "' is skewed but none of its loops is tiled");
    if (plan.parallel && tiled < 2)
      return error("nest '" + nestOf(plan).name +
                   "' runs its tiles as a wavefront but tiles fewer than two "
                   "loops");
    if (plan.unroll > 1 || plan.isInterchanged())
      return error("nest '" + nestOf(plan).name +
                   "' is skewed: it keeps its loop order and is not unrolled");
    transformed = true;
    describe(plan);
    std::string root = "%" + handleOf(plan);
    if (size_t fused = plan.fusedDepth()) {
      std::string next = fresh(handleOf(plan) + "_fused");
      line("%" + next + " = transform.tuner.affine_shift_fuse " + root +
           " depth = " + llvm::Twine(fused) + " : " + signature(1, 1));
      root = "%" + next;
    }
    std::string skewed = fresh(handleOf(plan) + "_skewed");
    line("%" + skewed + " = transform.tuner.affine_skew " + root +
         " depth = " + llvm::Twine(depth) + " : " + signature(1, 1));
    Group loops{fresh(handleOf(plan) + "_loops"), depth + tiled};
    line(loops.def() + " = transform.tuner.affine_tile %" + skewed +
         " tile_sizes " + list(plan.skewTile) +
         (plan.parallel ? " wavefront" : "") + " : " +
         signature(1, loops.count));
    return llvm::Error::success();
  }

  /// A convolution nest computed by im2col or as 1-D convolutions (see the
  /// file comment): the steps of emitLinalg around the rewrite.
  llvm::Error emitConvolution(const NestPlan &plan) {
    const LoopNest &nest = nestOf(plan);
    const std::string &n = nest.name;
    std::optional<ConvolutionInfo> info;
    if (nest.computationIds.size() == 1)
      info = convolutionInfo(
          tree.computations[nest.computationIds.front()].opName);
    if (!info || !info->supports(plan.convolution))
      return error("nest '" + n + "' cannot be computed by " +
                   stringifyConvolutionStrategy(plan.convolution));
    transformed = true;
    describe(plan);
    bool im2col = plan.convolution == ConvolutionStrategy::Im2col;

    // The op whose loops are tiled: the convolution, or the contraction
    // that im2col turns it into.
    std::string op = "%" + handleOf(plan);
    NestPlan loopsPlan = plan;
    std::string copy;
    if (im2col) {
      copy = "%" + fresh(handleOf(plan) + "_im2col");
      std::string expanded = fresh(handleOf(plan) + "_expanded");
      std::string contraction = fresh(handleOf(plan) + "_contraction");
      line(copy + ", %" + expanded +
           " = transform.structured.convert_conv2d_to_img2col " + op + " : " +
           signature(1, 2));
      line("%" + contraction + " = transform.get_producer_of_operand %" +
           expanded + "[0] : " + signature(1, 1));
      op = "%" + contraction;
      loopsPlan = plan.im2colContraction(*info);
    }
    const NestPlan &lp = loopsPlan;

    // 1. Cache tiles.
    std::vector<LoopHandle> loops;
    size_t forallLoops = 0;
    llvm::Expected<std::string> tiledOp =
        emitCacheTiles(plan, lp, op, loops, forallLoops);
    if (!tiledOp)
      return tiledOp.takeError();
    op = *tiledOp;

    // 2. Fusion: the producers, or the im2col copy, into the tile loops
    // outside the first reduction loop.
    size_t fusible = 0;
    if (lp.parallel)
      fusible = forallLoops;
    else
      while (fusible < loops.size() && !loops[fusible].isReduction)
        ++fusible;
    if (!plan.producers.empty()) {
      if (im2col || fusible == 0) {
        const NestPlan &first = plans[plan.producers.front()];
        return error("parameter '" + first.fuseParameter + "' = true: nest '" +
                     n +
                     (im2col ? "' is computed by im2col, whose contraction "
                               "accumulates into a reshaped tensor"
                             : "' has no tile loop over a parallel dim "
                               "outside its reduction loops to fuse into"));
      }
      fuseProducers(plan, plan, loops, fusible);
    }
    if (im2col)
      for (size_t i = 0; i < fusible; ++i) {
        std::string fused = fresh(handleOf(plan) + "_im2col_fused");
        std::string loop = fresh(handleOf(plan) + "_loop");
        line("%" + fused + ", %" + loop +
             " = transform.structured.fuse_into_containing_op " + copy +
             " into " + loops[i].ref + " : " + signature(2, 2));
        copy = "%" + fused;
        loops[i].ref = "%" + loop;
      }

    // 3. Register tiles.
    std::vector<LoopHandle> registerLoops;
    if (lp.isRegisterTiled())
      op = tileFor(lp, op, lp.rtile, "rtiled", registerLoops);

    // Decomposition: unit tiles, then 1-D convolutions.
    std::vector<LoopHandle> unitLoops;
    if (plan.convolution == ConvolutionStrategy::Decompose) {
      std::vector<int64_t> units = plan.decomposeUnitTiles(*info);
      // The unit loops over parallel dims outside those over reductions,
      // so that each accumulator row stays in registers across all the
      // reductions.
      NestPlan unitOrder = plan;
      unitOrder.order.clear();
      for (bool first : {true, false})
        for (int64_t p : plan.order)
          if ((units[p] != 0 && !plan.isReduction[p]) == first)
            unitOrder.order.push_back(p);
      if (llvm::any_of(units, [](int64_t s) { return s != 0; }))
        op = tileFor(unitOrder, op, units, "unit", unitLoops);
      std::string decomposed = fresh(handleOf(plan) + "_1d");
      line("%" + decomposed + " = transform.structured.decompose " + op +
           " : " + signature(1, 1));
      op = "%" + decomposed;
    }

    // 4.-5. Vectorization, or unrolling.
    return emitVectorizeOrUnroll(plan, op, loops, registerLoops, unitLoops,
                                 forallLoops);
  }

  llvm::Error emitAffine(const NestPlan &plan) {
    if (plan.skew)
      return emitSkewed(plan);
    size_t depth = plan.extents.size();
    bool tiles = llvm::any_of(plan.tile, [](int64_t s) { return s != 0; });
    bool interchange = !isIdentity(plan.order);
    if (!tiles && !interchange && plan.unroll == 1 && !plan.parallel)
      return llvm::Error::success();
    transformed = true;
    describe(plan);

    std::string root = "%" + handleOf(plan);
    if (interchange) {
      std::string next = fresh(handleOf(plan) + "_interchanged");
      line("%" + next + " = transform.tuner.affine_interchange " + root +
           " permutation = " + list(plan.order) + " : " + signature(1, 1));
      root = "%" + next;
    }
    if (!tiles && plan.unroll == 1) {
      // Only the outermost loop is needed.
      if (plan.parallel)
        line("transform.tuner.affine_parallelize " + root + " : " +
             signature(1, 1));
      return llvm::Error::success();
    }
    // Tile sizes follow the loops to their new positions.
    std::vector<int64_t> sizes(depth);
    for (size_t position = 0; position < depth; ++position)
      sizes[position] = plan.tile[plan.order[position]];
    Group loops{fresh(handleOf(plan) + "_loops"), 0};
    loops.count = depth + llvm::count_if(sizes, [](int64_t s) { return s; });
    line(loops.def() + " = transform.tuner.affine_tile " + root +
         " tile_sizes " + list(sizes) + " : " + signature(1, loops.count));
    if (plan.unroll > 1) {
      if (plan.parallel && loops.count == 1)
        return error("nest '" + nestOf(plan).name +
                     "' has a single loop: it cannot be both unrolled and "
                     "parallelized");
      // (tuner.affine_unroll also takes a partial tile's point loop, whose
      // upper bound is a min when the loop's trip count is not known.)
      line("transform.tuner.affine_unroll " + loops[loops.count - 1] +
           " factor = " + llvm::Twine(plan.unroll) + " : !transform.any_op");
    }
    if (plan.parallel)
      line("transform.tuner.affine_parallelize " + loops[0] + " : " +
           signature(1, 1));
    return llvm::Error::success();
  }

  const ProgramTree &tree;
  SchedulePlan schedule;
  std::vector<NestPlan> &plans = schedule.nests;
  std::vector<std::string> handles;
  std::map<std::string, unsigned> counters;
  std::string scriptText;
  llvm::raw_string_ostream os{scriptText};
  bool transformed = false;
};

} // namespace

llvm::Expected<std::string> tuner::buildTransformScript(const ProgramTree &tree,
                                                        const Space &space,
                                                        const Config &config) {
  if (isGpuSpace(space))
    return buildGpuTransformScript(tree, space, config);
  llvm::Expected<SchedulePlan> plan = planSchedule(tree, space, config);
  if (!plan)
    return plan.takeError();
  return buildTransformScript(tree, *plan);
}

llvm::Expected<std::string>
tuner::buildTransformScript(const ProgramTree &tree,
                            const SchedulePlan &plan) {
  return ScriptBuilder(tree).build(plan);
}
