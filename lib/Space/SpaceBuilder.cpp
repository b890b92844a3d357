//===- SpaceBuilder.cpp - The schedule space of a program -----------------===//

#include "tuner/Space/SpaceBuilder.h"
#include "tuner/Analysis/Convolution.h"
#include "tuner/Space/GpuSpace.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <cmath>
#include <map>
#include <set>
#include <numeric>

using namespace tuner;

namespace {

/// Largest band for which every loop order is offered; longer bands (e.g.
/// 7-D convolutions, 5040 orders) offer the identity and every interchange of
/// two loops, as in the Tiramisu search space.
constexpr size_t kMaxFullPermutationDepth = 5;

/// Register tiles larger than this per loop never fit in registers.
constexpr int64_t kMaxRegisterTile = 64;

std::vector<int64_t> divisorsOf(int64_t n) {
  std::vector<int64_t> small, large;
  for (int64_t d = 1; d * d <= n; ++d) {
    if (n % d)
      continue;
    small.push_back(d);
    if (d != n / d)
      large.push_back(n / d);
  }
  small.insert(small.end(), large.rbegin(), large.rend());
  return small;
}

/// At most `limit` divisors of `extent` (and, with `powersOfTwo`, powers of
/// two below it: tiles that do not divide the extent, whose partial tiles the
/// schedule peels), spread evenly in log scale, always including 1 and the
/// extent. For a power-of-two extent both sets are the same.
std::vector<int64_t> tileCandidates(int64_t extent, unsigned limit,
                                    bool powersOfTwo) {
  std::vector<int64_t> divisors = divisorsOf(extent);
  if (powersOfTwo) {
    for (int64_t p = 2; p < extent; p *= 2)
      divisors.push_back(p);
    llvm::sort(divisors);
    divisors.erase(std::unique(divisors.begin(), divisors.end()),
                   divisors.end());
  }
  return spreadInLogScale(std::move(divisors), limit);
}

/// Tile sizes for an inner loop of a skewed band, whose tiles are
/// parallelograms of the original loops (so dividing the extent buys
/// nothing): powers of two from 4 below the extent, and the extent ("not
/// tiled"); beyond `limit`, the smallest go first.
std::vector<int64_t> skewedTileCandidates(int64_t extent, unsigned limit) {
  std::vector<int64_t> candidates;
  for (int64_t p = 4; p < extent; p *= 2)
    candidates.push_back(p);
  if (candidates.size() + 1 > limit)
    candidates.erase(candidates.begin(),
                     candidates.begin() + (candidates.size() + 1 - limit));
  candidates.push_back(extent);
  return candidates;
}


std::vector<ParamValue::Permutation> identityAndSwaps(size_t depth) {
  std::vector<ParamValue::Permutation> result;
  ParamValue::Permutation identity(depth);
  std::iota(identity.begin(), identity.end(), 0);
  result.push_back(identity);
  for (size_t i = 0; i < depth; ++i)
    for (size_t j = i + 1; j < depth; ++j) {
      ParamValue::Permutation swapped = identity;
      std::swap(swapped[i], swapped[j]);
      result.push_back(swapped);
    }
  return result;
}

/// Builds the parameters and constraints of one space, in a fixed order.
class Builder {
public:
  Builder(const ProgramTree &tree, const Target &target,
          const SpaceOptions &options)
      : tree(tree), target(target), options(options) {}

  llvm::Expected<Space> build() {
    if (tree.nests.empty())
      return llvm::createStringError(
          "function @" + tree.functionName +
          " has no loop nest to tune (no linalg op, no affine.for)");
    space.attributes["function"] = tree.functionName;
    space.attributes["target"] = target.fingerprint();
    for (const LoopNest &nest : tree.nests)
      if (auto err = addNest(nest))
        return std::move(err);
    if (options.fuse)
      if (auto err = addFusion())
        return std::move(err);
    if (auto err = addConvolutionConstraints())
      return std::move(err);
    return std::move(space);
  }

private:
  /// Element size of the data a nest writes (for vector lanes).
  /// The nest named `name`, or null.
  const LoopNest *nestNamed(llvm::StringRef name) const {
    for (const LoopNest &nest : tree.nests)
      if (nest.name == name)
        return &nest;
    return nullptr;
  }

  unsigned elementBytes(const LoopNest &nest) const {
    unsigned bytes = 0;
    for (int id : nest.computationIds)
      bytes = std::max(bytes,
                       elementTypeBytes(tree.computations[id].elementType));
    return bytes ? bytes : 4;
  }

  /// Whether the vectorizer can take the nest for some tiles. It cannot with
  /// elements that are not scalars a vector may hold (complex numbers,
  /// tuples), which upstream's vectorizer refuses ("no linalg op inside
  /// could be vectorized"); or a contraction with no parallel loop (a dot
  /// product into a 0-d result), which vectorizes to a vector.contract with
  /// a scalar accumulator that the contraction lowerings do not take.
  bool vectorizable(const LoopNest &nest,
                    const std::vector<bool> &parallelLoop) const {
    for (int id : nest.computationIds) {
      const Computation &comp = tree.computations[id];
      if (comp.elementType == ElementType::Other)
        return false;
      for (const Access &access : comp.accesses)
        if (access.bufferId >= 0 &&
            size_t(access.bufferId) < tree.buffers.size() &&
            tree.buffers[access.bufferId].elementType == ElementType::Other)
          return false;
    }
    bool contraction = llvm::any_of(nest.computationIds, [&](int id) {
      const OpCounts &ops = tree.computations[id].opCounts;
      return ops.mul > 0 && ops.add > 0;
    });
    return !contraction || llvm::is_contained(parallelLoop, true);
  }

  /// Whether every access of the nest indexes each dimension by one loop
  /// (coefficient 1) or by nothing, with no constant offset.
  bool hasPlainAccesses(const LoopNest &nest) const {
    for (int id : nest.computationIds)
      for (const Access &access : tree.computations[id].accesses) {
        if (!access.isAffine)
          return false;
        for (const std::vector<int64_t> &row : access.matrix) {
          if (row.empty() || row.back() != 0)
            return false;
          int nonZero = 0;
          for (size_t c = 0; c + 1 < row.size(); ++c) {
            if (row[c] == 0)
              continue;
            if (row[c] != 1)
              return false;
            ++nonZero;
          }
          if (nonZero > 1)
            return false;
        }
      }
    return true;
  }

  /// For a convolution-shaped linalg nest (every index is one loop, a
  /// constant, or the sum of two loops: a window), the band positions of
  /// each windowed index's two loops, in the order of the first access that
  /// has them; nullopt when some index is anything else, or when the nest
  /// has no window.
  std::optional<std::vector<std::pair<size_t, size_t>>>
  windowedLoops(const LoopNest &nest, llvm::ArrayRef<int> band) const {
    std::vector<std::pair<size_t, size_t>> windows;
    for (int id : nest.computationIds) {
      const Computation &comp = tree.computations[id];
      for (const Access &access : comp.accesses) {
        if (!access.isAffine)
          return std::nullopt;
        for (const std::vector<int64_t> &row : access.matrix) {
          std::vector<size_t> loops;
          for (size_t c = 0; c + 1 < row.size(); ++c) {
            if (row[c] == 0)
              continue;
            if (row[c] != 1 || c >= comp.loopIds.size())
              return std::nullopt;
            auto it = llvm::find(band, comp.loopIds[c]);
            if (it == band.end())
              return std::nullopt;
            loops.push_back(size_t(it - band.begin()));
          }
          if (loops.size() > 2)
            return std::nullopt;
          if (loops.size() == 2 &&
              !llvm::is_contained(windows,
                                  std::make_pair(loops[0], loops[1])))
            windows.push_back({loops[0], loops[1]});
        }
      }
    }
    if (windows.empty())
      return std::nullopt;
    return windows;
  }

  /// Whether the nest is one linalg.generic whose reads index each
  /// dimension by one loop plus a nonnegative constant, or by a constant
  /// (a stencil's shifted neighbours, a channel of an image), and whose
  /// writes are plain: vectorize_tiles reads the shifted operands through
  /// windows (tensor.extract_slice) at those offsets.
  bool hasShiftedAccesses(const LoopNest &nest) const {
    for (int id : nest.computationIds) {
      const Computation &comp = tree.computations[id];
      if (comp.opName != "linalg.generic")
        return false;
      for (const Access &access : comp.accesses) {
        if (!access.isAffine)
          return false;
        for (const std::vector<int64_t> &row : access.matrix) {
          if (row.empty() || row.back() < 0 ||
              (access.isWrite && row.back() != 0))
            return false;
          int nonZero = 0;
          for (size_t c = 0; c + 1 < row.size(); ++c) {
            if (row[c] == 0)
              continue;
            if (row[c] != 1)
              return false;
            ++nonZero;
          }
          if (nonZero > 1)
            return false;
        }
      }
    }
    return true;
  }

  /// The convolution strategies nest `nest` may choose from (nullopt: none
  /// but the direct one).
  std::optional<ConvolutionInfo> convolutionOf(const LoopNest &nest) const {
    if (!options.convolution || nest.source != NestSource::Linalg ||
        nest.computationIds.size() != 1)
      return std::nullopt;
    const Computation &computation =
        tree.computations[nest.computationIds.front()];
    std::optional<ConvolutionInfo> info = convolutionInfo(computation.opName);
    // A strided or dilated convolution (a loop coefficient above 1 in an
    // index) is not decomposed: transform.structured.decompose refused its
    // tiles in the space's property test (scripts/check-space.sh).
    bool strided = llvm::any_of(computation.accesses, [](const Access &a) {
      return llvm::any_of(a.matrix, [](const std::vector<int64_t> &row) {
        return row.size() > 1 &&
               llvm::any_of(llvm::ArrayRef<int64_t>(row).drop_back(),
                            [](int64_t c) { return c > 1 || c < -1; });
      });
    });
    if (info && strided)
      info->decomposeUnitLoops.clear();
    // On buffers only the direct form: MLIR 22's convert_conv2d_to_img2col
    // and decompose rewrite tensors only (they refused every such config in
    // the property test). vectorize_tiles decomposes and vectorizes the
    // direct form's tiles on buffers itself (the window rule).
    bool onBuffers = llvm::any_of(computation.accesses, [&](const Access &a) {
      return a.bufferId >= 0 && size_t(a.bufferId) < tree.buffers.size() &&
             !tree.buffers[a.bufferId].isTensor;
    });
    if (info && onBuffers) {
      info->decomposeUnitLoops.clear();
      info->im2colLoops.clear();
    }
    if (!info || info->strategies().size() < 2 ||
        (!info->im2colLoops.empty() &&
         info->im2colLoops.back().back() >= tree.bandOf(nest.id).size()))
      return std::nullopt;
    return info;
  }

  llvm::Error add(Parameter parameter, const LoopNest *nest, ParamRole role,
                  int loop = -1) {
    parameter.role = role;
    if (nest)
      parameter.nest = nest->name;
    parameter.loop = loop;
    return space.addParameter(std::move(parameter));
  }

  llvm::Error addNest(const LoopNest &nest) {
    std::vector<int> band = tree.bandOf(nest.id);
    // A nest that never runs has nothing to tune: it keeps no parameter
    // (and no constraint such as an unroll factor bounded by zero trips).
    if (band.empty() || zeroTripLoop(tree, nest))
      return llvm::Error::success();
    const bool isLinalg = nest.source == NestSource::Linalg;
    const std::string &n = nest.name;
    // Per band position: the tile parameters' names ("" when the loop has
    // none), the extents and the iterator kinds.
    std::vector<std::string> tileNames(band.size()), rtileNames(band.size());
    std::vector<int64_t> extents;
    std::vector<bool> parallelLoop;
    // Time tiling: an affine band that is not fully permutable may be skewed
    // (see LoopNest::skewBand), which lets every loop of the skew band be
    // tiled.
    const bool offersSkew =
        !isLinalg && options.skew && options.tile && nest.skewBand.size() > 1;

    for (auto [position, loopId] : llvm::enumerate(band)) {
      const Loop &loop = tree.loops[loopId];
      extents.push_back(loop.extent);
      parallelLoop.push_back(!loop.isReduction);
      if (!options.tile || loop.extent <= 1)
        continue;
      // Tiling hoists a tile loop above the loops outside it: in a band that
      // is not fully permutable, only the outermost loop may be tiled
      // (strip-mined in place).
      if (!nest.fullyPermutable && position > 0 && !offersSkew)
        continue;
      // The tiles of a skewed band are not aligned with its loops anyway:
      // its inner loops get powers of two.
      bool skewedTiles = offersSkew && !nest.fullyPermutable && position > 0;
      std::vector<int64_t> candidates =
          skewedTiles
              ? skewedTileCandidates(loop.extent, options.maxTileCandidates)
              : tileCandidates(loop.extent, options.maxTileCandidates,
                               /*powersOfTwo=*/isLinalg &&
                                   options.partialTiles);
      std::string tileName = llvm::formatv("{0}.tile.l{1}", n, position);
      Parameter tile = Parameter::ordinal(tileName, integerValues(candidates),
                                          /*logScale=*/true);
      tile.defaultValue = ParamValue::integer(loop.extent);
      tile.description = llvm::formatv(
          "cache-level tile size of loop {0} (extent {1}, {2}); the extent "
          "means not tiled",
          loop.name, loop.extent, loop.isReduction ? "reduction" : "parallel");
      if (auto err = add(std::move(tile), &nest, ParamRole::Tile, position))
        return err;
      tileNames[position] = tileName;

      if (!options.registerTile || !isLinalg)
        continue;
      // Register tiles: small sizes, and multiples of the vector width up to
      // 4 registers, so that micro-kernels shaped for the register file
      // (6x16, 4x24, 3x32 on AVX2; 8x32, 14x32 or 6x64 with AVX-512) are in
      // the space; sizes that do not divide the cache tile are peeled.
      std::vector<int64_t> small;
      if (options.partialTiles) {
        int64_t lanes = target.vectorLanes(elementBytes(nest));
        small = {1, 2, 3, 4, 6, 8, 12, 14, 16};
        for (int64_t k = 1; k <= 4; ++k)
          small.push_back(k * lanes);
        llvm::erase_if(small, [&](int64_t c) {
          return c >= loop.extent || c > kMaxRegisterTile;
        });
        small.push_back(loop.extent);
        llvm::sort(small);
        small.erase(std::unique(small.begin(), small.end()), small.end());
      } else {
        for (int64_t c : candidates)
          if (c <= kMaxRegisterTile || c == loop.extent)
            small.push_back(c);
      }
      std::string rtileName = llvm::formatv("{0}.rtile.l{1}", n, position);
      Parameter rtile = Parameter::ordinal(rtileName, integerValues(small), true);
      rtile.defaultValue = ParamValue::integer(loop.extent);
      rtile.description =
          options.partialTiles
              ? llvm::formatv("register-level tile size of loop {0}; at most "
                              "its cache tile",
                              loop.name)
              : llvm::formatv("register-level tile size of loop {0}; must "
                              "divide its cache tile",
                              loop.name);
      if (auto err =
              add(std::move(rtile), &nest, ParamRole::RegisterTile, position))
        return err;
      // The extent means "no register tiling" whatever the cache tile, so
      // that a config may leave the register tiles at their defaults.
      if (auto err = space.addConstraint(
              llvm::formatv(options.partialTiles
                                ? "{1} == {2} || {1} <= {0}"
                                : "{1} == {2} || {0} % {1} == 0",
                            tileName, rtileName, loop.extent)
                  .str()))
        return err;
      rtileNames[position] = rtileName;
    }
    // Time tiling: the skew switch, the tiles of the skew band's loops
    // beyond the band (the fused sibling nests' rows), and the rules that
    // tie the inner tiles to the switch.
    std::string skewName;
    if (offersSkew) {
      skewName = n + ".skew";
      if (auto err = addSkew(nest, band, skewName, tileNames, extents))
        return err;
    }
    auto tileOf = [&](size_t position) { return tileNames[position]; };
    auto rtileOf = [&](size_t position) { return rtileNames[position]; };
    // "Some loop of `positions` is tiled": a disjunction over tile params.
    auto someTiled = [&](llvm::function_ref<bool(size_t)> filter) {
      std::vector<std::string> terms;
      for (size_t p = 0; p < band.size(); ++p)
        if (filter(p) && !tileOf(p).empty())
          terms.push_back(
              llvm::formatv("{0} < {1}", tileOf(p), extents[p]).str());
      return terms.empty() ? std::string("false") : llvm::join(terms, " || ");
    };

    // Loop order.
    if (options.interchange && band.size() > 1) {
      std::string name = n + ".order";
      Parameter order;
      if (!isLinalg) {
        order = Parameter::permutation(name, band.size(), nest.legalOrders);
      } else if (band.size() > kMaxFullPermutationDepth) {
        order = Parameter::permutation(name, band.size(),
                                       identityAndSwaps(band.size()));
      } else {
        order = Parameter::permutation(name, band.size());
      }
      ParamValue::Permutation identity(band.size());
      std::iota(identity.begin(), identity.end(), 0);
      order.defaultValue = ParamValue::permutation(identity);
      order.description = isLinalg
                              ? "order of the tile loops, outermost first"
                              : "order of the band's loops (legal orders "
                                "only, by dependence analysis)";
      bool onlyIdentity = !isLinalg && nest.legalOrders.size() <= 1;
      if (!onlyIdentity)
        if (auto err = add(std::move(order), &nest, ParamRole::Order))
          return err;
      // A skewed band keeps its order.
      if (!onlyIdentity && offersSkew) {
        std::vector<std::string> identity;
        for (size_t p = 0; p < band.size(); ++p)
          identity.push_back(llvm::formatv("{0}.order[{1}] == {1}", n, p));
        if (auto err =
                space.addConstraint(llvm::formatv("!{0} || ({1})", skewName,
                                                  llvm::join(identity, " && "))
                                        .str()))
          return err;
      }
      // The strip-mined loop of a band that is not fully permutable must
      // stay outermost.
      if (!onlyIdentity && !nest.fullyPermutable && !tileOf(0).empty())
        if (auto err = space.addConstraint(
                llvm::formatv("{0} == {1} || {2}.order[0] == 0", tileOf(0),
                              extents[0], n)
                    .str()))
          return err;
    }

    // Unrolling of the innermost loop.
    if (options.unroll && options.unrollFactors.size() > 1) {
      std::vector<int64_t> factors = options.unrollFactors;
      llvm::sort(factors);
      factors.erase(std::unique(factors.begin(), factors.end()),
                    factors.end());
      if (factors.front() != 1)
        factors.insert(factors.begin(), 1);
      std::string name = n + ".unroll";
      Parameter unroll = Parameter::ordinal(name, integerValues(factors), true);
      unroll.defaultValue = ParamValue::integer(1);
      unroll.description = "unroll factor of the innermost loop";
      if (auto err = add(std::move(unroll), &nest, ParamRole::Unroll))
        return err;
      if (isLinalg) {
        // Without tiling there is no loop to unroll.
        if (auto err = space.addConstraint(
                llvm::formatv("{0} == 1 || {1}", name,
                              someTiled([](size_t) { return true; }))
                    .str()))
          return err;
      } else {
        // Affine unrolling needs at least `factor` iterations in the
        // innermost loop, whichever loop ends up there.
        std::vector<std::string> trips;
        int64_t shortest = INT64_MAX;
        for (size_t p = 0; p < band.size(); ++p) {
          if (tileOf(p).empty())
            shortest = std::min(shortest, extents[p]);
          else
            trips.push_back(tileOf(p));
        }
        if (shortest != INT64_MAX)
          trips.push_back(std::to_string(shortest));
        std::string bound = trips.back();
        for (size_t t = trips.size() - 1; t-- > 0;)
          bound = "min(" + trips[t] + ", " + bound + ")";
        if (auto err = space.addConstraint(
                llvm::formatv("{0} <= {1}", name, bound).str()))
          return err;
        // The point loops of a skewed band have max/min bounds, which
        // affine unrolling does not take.
        if (offersSkew)
          if (auto err = space.addConstraint(
                  llvm::formatv("!{0} || {1} == 1", skewName, name).str()))
            return err;
      }
    }

    // How a convolution is computed: as it is, by im2col (a copy of the
    // input's windows and a contraction) or as 1-D convolutions.
    std::optional<ConvolutionInfo> convolution = convolutionOf(nest);
    std::string convName = n + ".conv";
    if (convolution)
      if (auto err = addConvolution(nest, *convolution, tileNames, extents,
                                    parallelLoop))
        return err;

    // Vectorization of the innermost tile (linalg only), offered where the
    // vectorizer can read every operand with plain vector transfers: each
    // index is one loop or a constant 0, or (a linalg.generic's reads) one
    // loop plus a constant or a constant, which vectorize_tiles reads
    // through windows; for convolutions computed by im2col or as 1-D
    // convolutions; and for convolution tiles (a window: the sum of two
    // loops) that are 1-D convolutions already (the window rule below),
    // which vectorize_tiles decomposes and vectorizes as they are.
    std::optional<std::vector<std::pair<size_t, size_t>>> windows;
    if (isLinalg && !hasPlainAccesses(nest))
      windows = windowedLoops(nest, band);
    // Two ways to vectorize a convolution tile directly (vectorize_tiles
    // picks by the tile's shape): every window's reduction loop (kh, kw) cut
    // to size 1, vectorized along the output's contiguous dimension; or
    // every window but the last cut to size 1 in both its loops (a 1-D
    // convolution), vectorized along the channels.
    std::vector<size_t> widthUnits, channelUnits;
    // A window is an output loop plus a reduction (kernel) loop; upstream's
    // 1-D convolution path needs a named convolution op.
    bool namedConvolution = llvm::all_of(nest.computationIds, [&](int id) {
      llvm::StringRef op = tree.computations[id].opName;
      return op.starts_with("linalg.conv") ||
             op.starts_with("linalg.depthwise_conv");
    });
    if (windows && llvm::any_of(*windows, [&](std::pair<size_t, size_t> w) {
          return parallelLoop[w.first] == parallelLoop[w.second];
        }))
      windows.reset();
    if (windows) {
      for (auto [w, window] : llvm::enumerate(*windows)) {
        for (size_t p : {window.first, window.second}) {
          if (!parallelLoop[p])
            widthUnits.push_back(p);
          if (w + 1 < windows->size())
            channelUnits.push_back(p);
        }
      }
    }
    auto cuttable = [&](llvm::ArrayRef<size_t> positions) {
      return llvm::all_of(positions, [&](size_t p) {
        return extents[p] <= 1 || !tileOf(p).empty();
      });
    };
    bool channelsPossible = namedConvolution && cuttable(channelUnits);
    // Whether the window rule can hold for some tiles.
    bool windowRule = windows && (cuttable(widthUnits) || channelsPossible);
    if (options.vectorize && isLinalg &&
        vectorizable(nest, parallelLoop) &&
        (hasPlainAccesses(nest) || hasShiftedAccesses(nest) || convolution ||
         windowRule)) {
      std::string name = n + ".vectorize";
      Parameter vectorize = Parameter::boolean(name);
      vectorize.defaultValue = ParamValue::boolean(false);
      vectorize.description = "vectorize the innermost (register) tile";
      if (auto err = add(std::move(vectorize), &nest, ParamRole::Vectorize))
        return err;
      // The vectorized tile must fit the register file: accumulators (the
      // parallel loops) within the registers, the whole tile within 4x.
      int64_t lanes = target.vectorLanes(elementBytes(nest));
      int64_t budget = int64_t(target.numVectorRegisters) * lanes;
      // Whether the innermost tile fits, the loops at `unit` cut to size 1
      // (those of a decomposed convolution).
      auto fits = [&](llvm::ArrayRef<size_t> unit) {
        std::vector<std::string> all, parallel;
        int64_t constantAll = 1, constantParallel = 1;
        for (size_t p = 0; p < band.size(); ++p) {
          if (llvm::is_contained(unit, p))
            continue;
          // The innermost tile: the register tile when it tiles again.
          std::string inner =
              rtileOf(p).empty()
                  ? tileOf(p)
                  : llvm::formatv("min({0}, {1})", tileOf(p), rtileOf(p))
                        .str();
          if (inner.empty()) {
            constantAll *= extents[p];
            if (parallelLoop[p])
              constantParallel *= extents[p];
            continue;
          }
          all.push_back(inner);
          if (parallelLoop[p])
            parallel.push_back(inner);
        }
        auto product = [](std::vector<std::string> factors, int64_t constant) {
          if (constant != 1 || factors.empty())
            factors.push_back(std::to_string(constant));
          return llvm::join(factors, " * ");
        };
        return llvm::formatv("({0} <= {1} && {2} <= {3})",
                             product(parallel, constantParallel), budget,
                             product(all, constantAll), 4 * budget)
            .str();
      };
      std::string rule = "!" + name + " || " + fits({});
      if (convolution && convolution->supports(ConvolutionStrategy::Decompose))
        rule = llvm::formatv("!{0} || ({1} == \"decompose\" && {2}) || ({1} "
                             "!= \"decompose\" && {3})",
                             name, convName,
                             fits(convolution->decomposeUnitLoops), fits({}))
                   .str();
      if (auto err = space.addConstraint(rule))
        return err;
      // The window rule: a convolution tile is vectorized as it is (conv
      // "direct", or a nest without a conv parameter) only when it is a 1-D
      // convolution already.
      std::string window = "true";
      if (windowRule) {
        // "The loops at `positions` have an innermost tile of 1".
        auto unitTiles = [&](llvm::ArrayRef<size_t> positions) {
          if (!cuttable(positions))
            return std::string("false");
          std::vector<std::string> unit;
          for (size_t p : positions) {
            if (extents[p] <= 1)
              continue;
            unit.push_back(
                rtileOf(p).empty()
                    ? llvm::formatv("{0} == 1", tileOf(p)).str()
                    : llvm::formatv("({0} == 1 || {1} == 1)", tileOf(p),
                                    rtileOf(p))
                          .str());
          }
          return unit.empty() ? std::string("true")
                              : "(" + llvm::join(unit, " && ") + ")";
        };
        std::string width = unitTiles(widthUnits);
        std::string channels =
            channelsPossible ? unitTiles(channelUnits) : std::string("false");
        window = width == "true" || channels == "true"
                     ? std::string("true")
                     : width + " || " + channels;
      } else if (windows || convolution) {
        window = "false";
      }
      if (!convolution && window != "true")
        if (auto err = space.addConstraint(
                llvm::formatv("!{0} || {1}", name, window).str()))
          return err;
      // A convolution with a conv parameter is vectorized directly only by
      // the window rule, otherwise once rewritten, and is rewritten only to
      // be vectorized; its vectors hold at least one register's worth of
      // lanes (or the whole dim when it is shorter).
      if (convolution) {
        if (window != "true")
          if (auto err = space.addConstraint(
                  llvm::formatv("!{0} || {1} != \"direct\"{2}", name, convName,
                                window == "false" ? std::string()
                                                  : " || " + window)
                      .str()))
            return err;
        // (Unless the convolution is fused into its consumer, whose tiles
        // and vectorization it then takes: added with the fusion
        // parameters.)
        unlessFused[n].push_back(
            llvm::formatv("{0} || {1} == \"direct\"", name, convName));
        // The product of the innermost tiles of `loops`, and of their extents.
        auto inner = [&](llvm::ArrayRef<size_t> loops) {
          std::vector<std::string> factors;
          int64_t constant = 1, extent = 1;
          for (size_t p : loops) {
            extent *= extents[p];
            if (tileOf(p).empty())
              constant *= extents[p];
            else if (rtileOf(p).empty())
              factors.push_back(tileOf(p));
            else
              factors.push_back(
                  llvm::formatv("min({0}, {1})", tileOf(p), rtileOf(p)));
          }
          if (constant != 1 || factors.empty())
            factors.push_back(std::to_string(constant));
          return std::make_pair(llvm::join(factors, " * "), extent);
        };
        for (ConvolutionStrategy strategy :
             {ConvolutionStrategy::Decompose, ConvolutionStrategy::Im2col}) {
          if (!convolution->supports(strategy))
            continue;
          std::vector<size_t> loops =
              strategy == ConvolutionStrategy::Decompose
                  ? std::vector<size_t>{convolution->decomposeVectorLoop}
                  : convolution->im2colLoops[convolution->im2colVectorGroup];
          auto [length, extent] = inner(loops);
          unlessFused[n].push_back(
              llvm::formatv("{0} != \"{1}\" || {2} >= {3}", convName,
                            stringifyConvolutionStrategy(strategy), length,
                            std::min(lanes, extent)));
        }
      }

      // How a contraction's micro-kernel is lowered.
      bool contraction = llvm::is_contained(parallelLoop, false) &&
                         !convolution && !windows;
      if (options.contractionLowering && contraction) {
        std::string lowering = n + ".lowering";
        Parameter choice = Parameter::categorical(
            lowering, {"outerproduct", "dot", "parallelarith"});
        choice.defaultValue = ParamValue::string("outerproduct");
        choice.description =
            "how the vectorized contraction is lowered: broadcasts and FMAs "
            "per reduction step (outerproduct), horizontal dot products "
            "(dot) or elementwise arithmetic (parallelarith)";
        if (auto err = add(std::move(choice), &nest, ParamRole::Lowering))
          return err;
        if (auto err = space.addConstraint(
                llvm::formatv("{0} || {1} == \"outerproduct\"", name,
                              lowering)
                    .str()))
          return err;
      }
    }

    // Parallelization of the outer tile loops.
    bool canParallelize = isLinalg ? llvm::is_contained(parallelLoop, true)
                                   : nest.outerLoopParallel || offersSkew;
    if (options.parallelize && target.cores > 1 && canParallelize) {
      std::string name = n + ".parallel";
      Parameter parallel = Parameter::boolean(name);
      parallel.defaultValue = ParamValue::boolean(false);
      parallel.description =
          isLinalg     ? "distribute the tiles of the parallel loops over the "
                         "cores"
          : offersSkew ? "run the outermost loop in parallel; skewed, run "
                         "the tiles as a wavefront (those of one wavefront "
                         "in parallel)"
                       : "run the outermost loop in parallel";
      if (auto err = add(std::move(parallel), &nest, ParamRole::Parallel))
        return err;
      // For affine nests, the loop found parallel must stay outermost, and
      // unrolling (whose copies index through affine.apply) hides from the
      // dependence check that the parallelization repeats.
      if (!isLinalg && space.indexOf(n + ".order"))
        if (auto err = space.addConstraint(
                llvm::formatv("!{0} || {1}.order[0] == 0", name, n).str()))
          return err;
      // Affine tiling puts every tile loop outside the point loops, and an
      // untiled loop's single-iteration tile loop is folded away: with the
      // first loop untiled but an inner one tiled, the outermost loop would
      // be that inner loop's tile loop, which the dependence check was not
      // run for (and which carries the dependence when it is a reduction).
      std::string innerTiled =
          someTiled([](size_t position) { return position > 0; });
      if (!isLinalg && innerTiled != "false") {
        std::string outerTiled =
            tileOf(0).empty()
                ? std::string("false")
                : llvm::formatv("{0} < {1}", tileOf(0), extents[0]).str();
        // (A wavefront of tiles needs no tiled outermost loop.)
        if (offersSkew)
          outerTiled = skewName + " || " + outerTiled;
        if (auto err = space.addConstraint(
                llvm::formatv("!{0} || {1} || !({2})", name, outerTiled,
                              innerTiled)
                    .str()))
          return err;
      }
      if (offersSkew)
        if (auto err = addWavefront(nest, name, skewName, tileNames, extents))
          return err;
      if (!isLinalg && space.indexOf(n + ".unroll"))
        if (auto err = space.addConstraint(
                llvm::formatv("!{0} || {1}.unroll == 1", name, n).str()))
          return err;
      if (isLinalg)
        if (auto err = space.addConstraint(
                llvm::formatv("!{0} || {1}", name,
                              someTiled([&](size_t p) {
                                return bool(parallelLoop[p]);
                              }))
                    .str()))
          return err;
      // Which of the tiled parallel loops the cores share: all of them (one
      // scf.forall over their tiles) or the outermost one in loop order
      // (the others stay sequential inside each core's share).
      size_t parallelLoops = llvm::count(parallelLoop, true);
      if (isLinalg && options.distribution && parallelLoops > 1) {
        std::string distribute = n + ".distribute";
        Parameter choice =
            Parameter::categorical(distribute, {"all", "outer"});
        choice.defaultValue = ParamValue::string("all");
        choice.description =
            "which tiled parallel loops run on all cores: all of them, or "
            "only the outermost in loop order";
        if (auto err = add(std::move(choice), &nest, ParamRole::Distribute))
          return err;
        if (auto err = space.addConstraint(
                llvm::formatv("{0} || {1} == \"all\"", name, distribute)
                    .str()))
          return err;
      }
      // How the partial tiles of the scf.forall are computed, where a tile
      // size offered for a parallel loop does not divide its extent, for a
      // vectorized nest whose body divides nothing (padded rows compute on
      // zeros; their results are dropped).
      std::string vectorizeName = n + ".vectorize";
      bool divides = true;
      for (size_t p = 0; p < band.size(); ++p) {
        if (!parallelLoop[p] || tileOf(p).empty())
          continue;
        if (std::optional<size_t> index = space.indexOf(tileOf(p)))
          for (const ParamValue &value :
               space.getParameters()[*index].values)
            if (value.isInteger() && value.getInteger() > 0 &&
                extents[p] % value.getInteger() != 0)
              divides = false;
      }
      bool dividesData = llvm::any_of(nest.computationIds, [&](int id) {
        return tree.computations[id].opCounts.div != 0;
      });
      if (isLinalg && options.partialTiles && !divides && !dividesData &&
          space.indexOf(vectorizeName)) {
        std::string partial = n + ".partial";
        Parameter choice = Parameter::categorical(partial, {"peel", "pad"});
        choice.defaultValue = ParamValue::string("peel");
        choice.description =
            "how the partial tiles of the distributed loops are computed: "
            "cut into static slices (peel) or padded with zeros to full "
            "tiles that run the full micro-kernel (pad)";
        if (auto err = add(std::move(choice), &nest, ParamRole::Partial))
          return err;
        if (auto err = space.addConstraint(
                llvm::formatv("({0} && {1}) || {2} == \"peel\"", name,
                              vectorizeName, partial)
                    .str()))
          return err;
      }
      // The parallel dims' tile loops become one scf.forall: unrolling needs
      // an scf.for left, over a tiled reduction dim or a register tile.
      std::string unrollName = n + ".unroll";
      if (isLinalg && space.indexOf(unrollName)) {
        std::vector<std::string> loops;
        std::string reductions = someTiled([&](size_t p) {
          return !bool(parallelLoop[p]);
        });
        if (reductions != "false")
          loops.push_back(reductions);
        for (size_t p = 0; p < band.size(); ++p)
          if (!rtileOf(p).empty())
            loops.push_back(llvm::formatv("({0} < {1} && {0} < {2})",
                                          rtileOf(p), tileOf(p), extents[p]));
        loops.push_back(unrollName + " == 1");
        if (auto err = space.addConstraint(
                llvm::formatv("!{0} || {1}", name, llvm::join(loops, " || "))
                    .str()))
          return err;
      }
    }
    return llvm::Error::success();
  }

  /// The skew switch of an affine nest with a skew band, the tile
  /// parameters of the skew band's loops beyond the band (appended to
  /// `tileNames` and `extents`), and the rules: an inner loop of the skew
  /// band is tiled only when skewed, and a skewed band tiles some inner
  /// loop (otherwise skewing changes nothing but the bounds).
  llvm::Error addSkew(const LoopNest &nest, const std::vector<int> &band,
                      const std::string &skewName,
                      std::vector<std::string> &tileNames,
                      std::vector<int64_t> &extents) {
    const std::string &n = nest.name;
    Parameter skew = Parameter::boolean(skewName);
    skew.defaultValue = ParamValue::boolean(false);
    skew.description =
        nest.skewBand.size() > band.size()
            ? "fuse the nests inside the band (shifted) and skew the band so "
              "that it is fully permutable: the tile sizes apply to the "
              "skewed band"
            : "skew the band so that it is fully permutable: the tile sizes "
              "apply to the skewed band";
    if (auto err = add(std::move(skew), &nest, ParamRole::Skew))
      return err;
    for (size_t position = band.size(); position < nest.skewBand.size();
         ++position) {
      const Loop &loop = tree.loops[nest.skewBand[position]];
      extents.push_back(loop.extent);
      tileNames.emplace_back();
      if (loop.extent <= 1)
        continue;
      std::string tileName = llvm::formatv("{0}.tile.l{1}", n, position);
      Parameter tile =
          Parameter::ordinal(tileName,
                             integerValues(skewedTileCandidates(
                                 loop.extent, options.maxTileCandidates)),
                             /*logScale=*/true);
      tile.defaultValue = ParamValue::integer(loop.extent);
      tile.description = llvm::formatv(
          "tile size of loop {0} (extent {1}) of the fused nests, skewed; the "
          "extent means not tiled",
          loop.name, loop.extent);
      if (auto err = add(std::move(tile), &nest, ParamRole::Tile, position))
        return err;
      tileNames.back() = tileName;
    }
    std::vector<std::string> innerTiled;
    for (size_t position = 1; position < tileNames.size(); ++position) {
      if (tileNames[position].empty())
        continue;
      std::string tiled =
          llvm::formatv("{0} < {1}", tileNames[position], extents[position]);
      innerTiled.push_back(tiled);
      if (auto err = space.addConstraint(
              llvm::formatv("{0} || !({1})", skewName, tiled).str()))
        return err;
    }
    return space.addConstraint(
        llvm::formatv("!{0} || {1}", skewName,
                      innerTiled.empty() ? std::string("false")
                                         : llvm::join(innerTiled, " || "))
            .str());
  }

  /// The rules of a parallel affine nest that may be skewed: a parallel
  /// band that is not skewed needs its outermost loop parallel, and a
  /// skewed one runs a wavefront over its first two tiled loops, so it
  /// needs two tiled loops.
  llvm::Error addWavefront(const LoopNest &nest, const std::string &parallel,
                           const std::string &skewName,
                           const std::vector<std::string> &tileNames,
                           const std::vector<int64_t> &extents) {
    if (!nest.outerLoopParallel)
      if (auto err = space.addConstraint(
              llvm::formatv("!{0} || {1}", parallel, skewName).str()))
        return err;
    std::vector<std::string> pairs;
    for (size_t a = 0; a < tileNames.size(); ++a)
      for (size_t b = a + 1; b < tileNames.size(); ++b)
        if (!tileNames[a].empty() && !tileNames[b].empty())
          pairs.push_back(llvm::formatv("({0} < {1} && {2} < {3})",
                                        tileNames[a], extents[a], tileNames[b],
                                        extents[b]));
    return space.addConstraint(
        llvm::formatv("!({0} && {1}) || {2}", parallel, skewName,
                      pairs.empty() ? std::string("false")
                                    : llvm::join(pairs, " || "))
            .str());
  }

  /// The `conv` parameter of a convolution nest and what im2col needs: a
  /// tile loop over a parallel dim that the im2col copy is fused into (so
  /// that it is built a tile at a time), and tiles of merged loops that do
  /// not wrap around an inner loop (see checkConvolutions in
  /// SchedulePlan.cpp).
  llvm::Error addConvolution(const LoopNest &nest, const ConvolutionInfo &info,
                             llvm::ArrayRef<std::string> tileNames,
                             llvm::ArrayRef<int64_t> extents,
                             const std::vector<bool> &parallelLoop) {
    const std::string &n = nest.name;
    std::string name = n + ".conv";
    std::vector<std::string> values;
    for (ConvolutionStrategy strategy : info.strategies())
      values.push_back(stringifyConvolutionStrategy(strategy).str());
    Parameter choice = Parameter::categorical(name, values);
    choice.defaultValue = ParamValue::string("direct");
    choice.description =
        "how the convolution is computed: as it is (direct), as an im2col "
        "copy of the input and a contraction (im2col), or as 1-D "
        "convolutions along the output width (decompose)";
    if (auto err = add(std::move(choice), &nest, ParamRole::Convolution))
      return err;
    convolutionNests.push_back(n);
    if (info.supports(ConvolutionStrategy::Decompose))
      decomposeVectorLoop[n] = info.decomposeVectorLoop;
    if (!info.supports(ConvolutionStrategy::Im2col))
      return llvm::Error::success();
    std::string im2col = name + " != \"im2col\"";
    // "Loop p has tile `value`" (true when p has no tile parameter and its
    // extent is `value`).
    auto tileIs = [&](size_t p, int64_t value) {
      if (tileNames[p].empty())
        return std::string(extents[p] == value ? "true" : "false");
      return llvm::formatv("{0} == {1}", tileNames[p], value).str();
    };
    for (const std::vector<size_t> &group : info.im2colLoops) {
      if (group.size() < 2)
        continue;
      // Member i is the innermost tiled one (i = 0: the outermost, or none
      // is tiled): the members inside it are not tiled, and unless it is
      // the outermost, its tile divides its extent and those outside it
      // have tiles of 1.
      std::vector<std::string> cases;
      for (size_t i = 0; i < group.size(); ++i) {
        std::vector<std::string> terms;
        for (size_t j = i + 1; j < group.size(); ++j)
          terms.push_back(tileIs(group[j], extents[group[j]]));
        if (i > 0) {
          size_t inner = group[i];
          if (!tileNames[inner].empty())
            terms.push_back(llvm::formatv("{0} % {1} == 0", extents[inner],
                                          tileNames[inner]));
          for (size_t j = 0; j < i; ++j)
            terms.push_back(tileIs(group[j], 1));
        }
        llvm::erase_if(terms, [](const std::string &t) { return t == "true"; });
        if (llvm::is_contained(terms, "false"))
          continue;
        cases.push_back(terms.empty() ? std::string("true")
                                      : "(" + llvm::join(terms, " && ") + ")");
      }
      if (cases.empty() || llvm::is_contained(cases, "true"))
        continue;
      if (auto err = space.addConstraint(
              im2col + " || " + llvm::join(cases, " || ")))
        return err;
    }
    // A tile loop for the im2col copy: the scf.forall of a parallel nest
    // (added with the parallel parameter), or a tiled parallel loop first.
    std::vector<std::string> hosts;
    std::string order = n + ".order";
    for (size_t p = 0; p < tileNames.size(); ++p) {
      if (!parallelLoop[p] || tileNames[p].empty())
        continue;
      std::string first =
          space.indexOf(order)
              ? llvm::formatv("{0}[0] == {1}", order, p).str()
              : (p == 0 ? "true" : "false");
      if (first != "false")
        hosts.push_back(llvm::formatv("({0} && {1} < {2})", first,
                                      tileNames[p], extents[p]));
    }
    im2colHosts[n] = hosts;
    return llvm::Error::success();
  }

  /// Constraints of convolution nests that read parameters added after
  /// them: the parallel switch hosts an im2col copy too, and nothing is
  /// fused into an im2col contraction (its accumulator is a reshaped
  /// tensor).
  llvm::Error addConvolutionConstraints() {
    for (auto &[nest, hosts] : im2colHosts) {
      std::string name = nest + ".conv";
      std::vector<std::string> rule = hosts;
      if (space.indexOf(nest + ".parallel"))
        rule.push_back(nest + ".parallel");
      if (auto err = space.addConstraint(
              llvm::formatv("{0} != \"im2col\" || {1}", name,
                            rule.empty() ? std::string("false")
                                         : llvm::join(rule, " || "))
                  .str()))
        return err;
      for (size_t i = 0; i < space.size(); ++i)
        if (space[i].role == ParamRole::Fuse && space[i].consumer == nest)
          if (auto err = space.addConstraint(
                  llvm::formatv("!{0} || {1} != \"im2col\"", space[i].name,
                                name)
                      .str()))
            return err;
    }
    // A convolution fused into its consumer is computed there directly, or
    // decomposed into 1-D convolutions that the consumer's vectorization
    // vectorizes (im2col is not applied inside another nest's tiles).
    for (const std::string &nest : convolutionNests) {
      std::string name = nest + ".conv";
      std::vector<std::string> fused;
      for (size_t i = 0; i < space.size(); ++i)
        if (space[i].role == ParamRole::Fuse && space[i].producer == nest)
          fused.push_back(space[i].name);
      for (const std::string &rule : unlessFused[nest])
        if (auto err = space.addConstraint(
                fused.empty() ? rule
                              : rule + " || " + llvm::join(fused, " || ")))
          return err;
      for (size_t i = 0; i < space.size(); ++i) {
        if (space[i].role != ParamRole::Fuse || space[i].producer != nest)
          continue;
        std::string vectorize = space[i].consumer + ".vectorize";
        // Decomposed inside the consumer's tiles, the 1-D convolutions'
        // vectors are the consumer's innermost tile along the output dim
        // the convolution vectorizes (cut at 64): at least a register's
        // lanes, or the whole dim when it is shorter.
        auto vectorLoop = decomposeVectorLoop.find(nest);
        const LoopNest *consumer = nestNamed(space[i].consumer);
        if (vectorLoop != decomposeVectorLoop.end() && consumer) {
          std::vector<int> band = tree.bandOf(consumer->id);
          size_t p = vectorLoop->second;
          if (p < band.size()) {
            int64_t extent = tree.loops[band[p]].extent;
            std::string tile =
                llvm::formatv("{0}.tile.l{1}", consumer->name, p).str();
            std::string rtile =
                llvm::formatv("{0}.rtile.l{1}", consumer->name, p).str();
            std::string length =
                !space.indexOf(tile) ? std::to_string(extent)
                : !space.indexOf(rtile)
                    ? tile
                    : llvm::formatv("min({0}, {1})", tile, rtile).str();
            int64_t lanes =
                target.vectorLanes(elementBytes(*consumer));
            if (auto err = space.addConstraint(
                    llvm::formatv("!{0} || {1} != \"decompose\" || {2} >= {3}",
                                  space[i].name, name, length,
                                  std::min(lanes, extent))
                        .str()))
              return err;
          }
        }
        if (auto err = space.addConstraint(
                llvm::formatv("!{0} || {1} == \"direct\"{2}", space[i].name,
                              name,
                              space.indexOf(vectorize)
                                  ? " || (" + name +
                                        " == \"decompose\" && " + vectorize +
                                        ")"
                                  : std::string())
                    .str()))
          return err;
      }
    }
    return llvm::Error::success();
  }

  llvm::Error addFusion() {
    /// One fuse parameter and where the fusion is possible.
    struct Fusion {
      std::string name;
      int consumer = 0;
      bool accumulator = false;
      /// The consumer's own tile loops that can host the producer.
      std::string hosts;
    };
    std::vector<Fusion> fusions;
    // Fuse parameters of each producer nest.
    std::map<int, std::vector<std::string>> byProducer;
    std::set<std::pair<int, int>> seen;
    // Per nest: the other nests that read what it writes.
    std::map<int, std::set<int>> readers;
    // Per nest: the other nests that read its tensor results.
    std::map<int, std::set<int>> tensorReaders;
    for (const ProducerConsumerEdge &edge : tree.edges) {
      int producer = tree.computations[edge.producer].nestId;
      int consumer = tree.computations[edge.consumer].nestId;
      if (producer == consumer)
        continue;
      readers[producer].insert(consumer);
      if (edge.viaTensor)
        tensorReaders[producer].insert(consumer);
    }
    for (const ProducerConsumerEdge &edge : tree.edges) {
      if (!edge.viaTensor)
        continue;
      int producer = tree.computations[edge.producer].nestId;
      int consumer = tree.computations[edge.consumer].nestId;
      const LoopNest &p = tree.nests[producer];
      const LoopNest &c = tree.nests[consumer];
      if (producer == consumer || p.source != NestSource::Linalg ||
          c.source != NestSource::Linalg || zeroTripLoop(tree, p) ||
          zeroTripLoop(tree, c) ||
          !seen.insert({producer, consumer}).second)
        continue;
      // A producer that accumulates (has a reduction loop) is fused only
      // when this consumer is its one reader: otherwise the fused copies
      // and the producer kept for the other readers write the same
      // accumulator, and MLIR 22's fusion and bufferization then return
      // wrong values (or crash), as random programs showed.
      bool accumulates = llvm::any_of(tree.bandOf(producer), [&](int loop) {
        return tree.loops[loop].isReduction;
      });
      if (accumulates && readers[producer].size() > 1)
        continue;
      // A producer whose tensor result has several readers is fused only
      // into its last one (the others read the producer kept in full): MLIR 22's
      // fuse_into_containing_op segfaults on some schedules that fuse it
      // into an earlier reader (all 11 crashes of the space's property test,
      // scripts/check-space.sh, were of that kind; none fused into the last).
      const std::set<int> &tensorUses = tensorReaders[producer];
      if (tensorUses.size() > 1 && consumer != *tensorUses.rbegin())
        continue;
      // Read through windows, the producer is computed for the union of
      // the windows a tile reads (halos recomputed by neighbouring tiles):
      // only for producers without reduction loops.
      bool windows = llvm::any_of(tree.edges, [&](const ProducerConsumerEdge &e) {
        return e.throughWindows && e.producer == edge.producer &&
               e.consumer == edge.consumer;
      });
      if (windows && accumulates)
        continue;
      // The producer is fused into the consumer's tile loops outside its
      // reduction loops: into its scf.forall when the consumer is parallel,
      // else the outermost loop of the chosen order must be a tiled
      // parallel loop.
      std::vector<std::string> hosts;
      std::vector<int> band = tree.bandOf(consumer);
      std::string order = c.name + ".order";
      for (size_t position = 0; position < band.size(); ++position) {
        const Loop &loop = tree.loops[band[position]];
        std::string tile =
            llvm::formatv("{0}.tile.l{1}", c.name, position).str();
        if (loop.isReduction || !space.indexOf(tile))
          continue;
        std::string first =
            space.indexOf(order)
                ? llvm::formatv("{0}[0] == {1}", order, position).str()
                : (position == 0 ? "true" : "false");
        hosts.push_back(
            llvm::formatv("({0} && {1} < {2})", first, tile, loop.extent));
      }
      std::string parallel = c.name + ".parallel";
      // A producer that writes the consumer's accumulator (fill -> matmul)
      // fuses only into scf.forall tiles: its result is the shared output.
      bool accumulator = edge.intoInit;
      if (accumulator)
        hosts.clear();
      if (space.indexOf(parallel))
        hosts.push_back(parallel);
      if (hosts.empty())
        continue;
      std::string name = llvm::formatv("fuse.{0}.{1}", p.name, c.name);
      Parameter fuse = Parameter::boolean(name);
      fuse.defaultValue = ParamValue::boolean(false);
      fuse.description = llvm::formatv(
          windows ? "fuse {0} into the tile loops of its consumer {1}, which "
                    "reads it through windows (each tile computes the union "
                    "of its windows)"
                  : "fuse {0} into the tile loops of its consumer {1}",
          p.name, c.name);
      fuse.role = ParamRole::Fuse;
      fuse.producer = p.name;
      fuse.consumer = c.name;
      if (auto err = space.addParameter(std::move(fuse)))
        return err;
      fusions.push_back({name, consumer, accumulator, llvm::join(hosts, " || ")});
      byProducer[producer].push_back(name);
    }
    for (const Fusion &fusion : fusions) {
      // ... or the consumer is itself fused into its own consumer's tile
      // loops, which then host the producer too.
      std::string rule = fusion.hosts;
      auto outgoing = byProducer.find(fusion.consumer);
      if (outgoing != byProducer.end())
        rule += " || " + llvm::join(outgoing->second, " || ");
      if (auto err = space.addConstraint(
              llvm::formatv("!{0} || {1}", fusion.name, rule).str()))
        return err;
    }
    // A producer is fused into at most one consumer.
    for (auto &[producer, names] : byProducer)
      if (names.size() > 1)
        if (auto err = space.addConstraint(
                llvm::formatv("{0} <= 1", llvm::join(names, " + ")).str()))
          return err;
    return llvm::Error::success();
  }

  const ProgramTree &tree;
  const Target &target;
  const SpaceOptions &options;
  Space space;
  /// Per convolution nest that may use im2col, the terms that give its
  /// copy a tile loop besides the parallel switch.
  std::map<std::string, std::vector<std::string>> im2colHosts;
  /// The nests with a conv parameter.
  std::vector<std::string> convolutionNests;
  /// The loop a decomposed convolution nest vectorizes along (its output
  /// dim of the same position).
  std::map<std::string, size_t> decomposeVectorLoop;
  /// Per convolution nest, the constraints on its own vectorization that
  /// do not apply when it is fused into its consumer.
  std::map<std::string, std::vector<std::string>> unlessFused;
};

} // namespace

std::optional<int> tuner::zeroTripLoop(const ProgramTree &tree,
                                       const LoopNest &nest) {
  for (int id : tree.bandOf(nest.id))
    if (tree.loops[id].extent <= 0)
      return id;
  return std::nullopt;
}

llvm::Expected<Space> tuner::buildSpace(const ProgramTree &tree,
                                        const Target &target,
                                        const SpaceOptions &options) {
  if (options.maxTileCandidates < 2)
    return llvm::createStringError(
        "max-tile-candidates must be at least 2 (got " +
        llvm::Twine(options.maxTileCandidates) + ")");
  for (int64_t factor : options.unrollFactors)
    if (factor < 1)
      return llvm::createStringError("unroll factors must be positive (got " +
                                     llvm::Twine(factor) + ")");
  if (target.isGpu())
    return buildGpuSpace(tree, target, options);
  return Builder(tree, target, options).build();
}

std::vector<int64_t> tuner::spreadInLogScale(std::vector<int64_t> sorted,
                                             unsigned limit) {
  if (sorted.size() <= limit || limit < 2)
    return sorted;
  std::vector<int64_t> picked;
  double top = std::log(double(sorted.back()));
  for (unsigned i = 0; i < limit; ++i) {
    double goal = top * i / (limit - 1);
    // The value closest to the goal in log scale, not yet picked.
    int64_t best = -1;
    double bestDistance = 0;
    for (int64_t d : sorted) {
      if (llvm::is_contained(picked, d))
        continue;
      double distance = std::fabs(std::log(double(d)) - goal);
      if (best < 0 || distance < bestDistance) {
        best = d;
        bestDistance = distance;
      }
    }
    if (best > 0)
      picked.push_back(best);
  }
  llvm::sort(picked);
  return picked;
}

std::vector<ParamValue> tuner::integerValues(llvm::ArrayRef<int64_t> values) {
  std::vector<ParamValue> result;
  for (int64_t v : values)
    result.push_back(ParamValue::integer(v));
  return result;
}
