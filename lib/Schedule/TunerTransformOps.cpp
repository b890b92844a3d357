//===- TunerTransformOps.cpp - The tuner's transform ops ------------------===//

#include "tuner/Schedule/TunerTransformOps.h"
#include "tuner/Analysis/AffineDependences.h"
#include "tuner/Schedule/TransformExtension.h"
#include "tuner/Schedule/WindowTransforms.h"

#include "mlir/Analysis/FlatLinearValueConstraints.h"

#include "mlir/Dialect/Affine/Analysis/AffineAnalysis.h"
#include "mlir/Dialect/Affine/Analysis/LoopAnalysis.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Affine/IR/AffineValueMap.h"
#include "mlir/Dialect/Affine/LoopUtils.h"
#include "mlir/Dialect/Affine/Utils.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Hoisting.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/Patterns.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/Dialect/SCF/Transforms/Transforms.h"
#include "mlir/Dialect/SCF/Utils/Utils.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tensor/Utils/Utils.h"
#include "mlir/Dialect/Transform/IR/TransformDialect.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/Vector/Transforms/LoweringPatterns.h"
#include "mlir/Dialect/Vector/Transforms/VectorTransforms.h"
#include "mlir/IR/Dominance.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/IntegerSet.h"
#include "mlir/Transforms/CSE.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "mlir/Transforms/LoopInvariantCodeMotionUtils.h"
#include "llvm/ADT/SetVector.h"

#include "llvm/Support/InterleavedRange.h"

using namespace mlir;
using namespace mlir::transform;

/// The first `size` loops of the perfect band rooted at `target`, or a
/// silenceable failure naming what is wrong.
static DiagnosedSilenceableFailure
getBand(Operation *op, Operation *target, size_t size,
        SmallVectorImpl<affine::AffineForOp> &band) {
  auto root = dyn_cast<affine::AffineForOp>(target);
  if (!root)
    return emitSilenceableFailure(op->getLoc())
           << "expected an affine.for, got '" << target->getName() << "'";
  SmallVector<affine::AffineForOp> nest;
  affine::getPerfectlyNestedLoops(nest, root);
  if (nest.size() < size) {
    DiagnosedSilenceableFailure diag = emitSilenceableFailure(op->getLoc())
                                       << "expected a perfect band of at "
                                          "least "
                                       << size << " loops, found "
                                       << nest.size();
    diag.attachNote(target->getLoc()) << "band root";
    return diag;
  }
  band.assign(nest.begin(), nest.begin() + size);
  return DiagnosedSilenceableFailure::success();
}

static LogicalResult verifyPermutation(Operation *op,
                                       ArrayRef<int64_t> permutation) {
  SmallVector<bool> seen(permutation.size(), false);
  for (int64_t p : permutation) {
    if (p < 0 || p >= int64_t(permutation.size()) || seen[p])
      return op->emitOpError()
             << "expects a permutation of 0.." << permutation.size() - 1;
    seen[p] = true;
  }
  return success();
}

static DiagnosedSilenceableFailure
tileSkewedBand(Operation *op, RewriterBase &rewriter,
               MutableArrayRef<affine::AffineForOp> band,
               ArrayRef<int64_t> sizes, bool wavefront,
               ApplyToEachResultList &results);

/// Whether no bound of a loop of `band` depends on the induction variable
/// of another: a hyper-rectangular band, which tiles into rectangles
/// whatever its bounds (constants, or affine functions of values defined
/// outside it, such as a memref's dynamic size).
static bool isHyperRectangular(ArrayRef<affine::AffineForOp> band) {
  llvm::SmallPtrSet<Value, 8> ivs;
  for (affine::AffineForOp loop : band)
    ivs.insert(loop.getInductionVar());
  return llvm::none_of(band, [&](affine::AffineForOp loop) {
    return llvm::any_of(llvm::concat<Value>(loop.getLowerBoundOperands(),
                                            loop.getUpperBoundOperands()),
                        [&](Value v) { return ivs.contains(v); });
  });
}

/// The upper bound of the point loop of a tile that starts at `origin` and
/// spans `span` (iterations times step) of `loop`: min(origin + span, the
/// upper bound of `loop`). The map's operands are put in `operands`.
static AffineMap pointUpperBound(affine::AffineForOp loop, Value origin,
                                 int64_t span,
                                 SmallVectorImpl<Value> &operands) {
  MLIRContext *context = loop.getContext();
  AffineMap upper = loop.getUpperBoundMap();
  SmallVector<AffineExpr> results = {getAffineDimExpr(0, context) + span};
  for (AffineExpr result : upper.getResults())
    results.push_back(result.shiftDims(upper.getNumDims(), 1));
  AffineMap map = AffineMap::get(upper.getNumDims() + 1, upper.getNumSymbols(),
                                 results, context);
  operands.assign({origin});
  llvm::append_range(operands, loop.getUpperBoundOperands());
  affine::canonicalizeMapAndOperands(&map, &operands);
  return simplifyAffineMap(map);
}

/// Tiles a hyper-rectangular band whose bounds are not all constant (their
/// trip counts are not known): for each loop with a non-zero size, in band
/// order, a tile loop over the loop's own bounds with its step times the
/// size, around the band; each tiled loop then runs from its tile loop's
/// value to min(that value + size * step, its upper bound). Loops of size 0
/// stay as they are, so that, as with constant bounds, the result is the
/// tile loops of the tiled loops around every loop of the band. Results as
/// AffineTileOp's.
static void tileSymbolicBand(RewriterBase &rewriter,
                             MutableArrayRef<affine::AffineForOp> band,
                             ArrayRef<int64_t> sizes,
                             ApplyToEachResultList &results) {
  OpBuilder::InsertionGuard guard(rewriter);
  affine::AffineForOp root = band.front();
  rewriter.setInsertionPoint(root);
  SmallVector<std::pair<affine::AffineForOp, affine::AffineForOp>> tiled;
  for (auto [loop, size] : llvm::zip_equal(band, sizes)) {
    if (size == 0)
      continue;
    auto tile = affine::AffineForOp::create(
        rewriter, loop.getLoc(), loop.getLowerBoundOperands(),
        loop.getLowerBoundMap(), loop.getUpperBoundOperands(),
        loop.getUpperBoundMap(), loop.getStepAsInt() * size);
    tiled.push_back({tile, loop});
    rewriter.setInsertionPointToStart(tile.getBody());
  }
  rewriter.moveOpBefore(root, tiled.back().first.getBody()->getTerminator());
  for (auto &pair : tiled) {
    affine::AffineForOp tile = pair.first, loop = pair.second;
    Value origin = tile.getInductionVar();
    SmallVector<Value> upperOperands;
    AffineMap upper =
        pointUpperBound(loop, origin, tile.getStepAsInt(), upperOperands);
    rewriter.modifyOpInPlace(loop, [&] {
      loop.setLowerBound(
          origin, AffineMap::getMultiDimIdentityMap(1, loop.getContext()));
      loop.setUpperBound(upperOperands, upper);
    });
  }
  for (auto [tile, loop] : tiled)
    results.push_back(tile);
  for (affine::AffineForOp loop : band)
    results.push_back(loop);
}

/// Tiles `band` (some loop carrying iter_args) by `sizes[0]` in its
/// outermost loop only: a tile loop over the chunks of the outermost loop,
/// carrying its values, around the original loop, which runs one chunk
/// (clamped to its upper bound when the size may not divide the trip
/// count). Results as AffineTileOp's: the tile loop, then the band.
static DiagnosedSilenceableFailure
stripMineCarrying(Operation *op, RewriterBase &rewriter,
                  MutableArrayRef<affine::AffineForOp> band,
                  ArrayRef<int64_t> sizes, ApplyToEachResultList &results) {
  if (llvm::any_of(sizes.drop_front(), [](int64_t s) { return s != 0; })) {
    DiagnosedSilenceableFailure diag =
        emitSilenceableFailure(op->getLoc())
        << "only the outermost loop of a band whose loops carry iter_args "
           "can be tiled (tiling another would reorder the values they "
           "carry)";
    diag.attachNote(band.front().getLoc()) << "band root";
    return diag;
  }
  affine::AffineForOp loop = band.front();
  int64_t step = loop.getStepAsInt();
  int64_t chunk = sizes.front() * step;
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(loop);
  Location loc = loop.getLoc();
  auto tile = affine::AffineForOp::create(
      rewriter, loc, loop.getLowerBoundOperands(), loop.getLowerBoundMap(),
      loop.getUpperBoundOperands(), loop.getUpperBoundMap(), chunk,
      loop.getInits(), [](OpBuilder &, Location, Value, ValueRange) {});
  rewriter.replaceAllUsesWith(loop.getResults(), tile.getResults());
  Block *body = tile.getBody();
  rewriter.moveOpBefore(loop, body, body->end());
  rewriter.setInsertionPointToEnd(body);
  affine::AffineYieldOp::create(rewriter, loc, loop.getResults());
  MLIRContext *context = rewriter.getContext();
  AffineExpr origin = getAffineDimExpr(0, context);
  Value iv = tile.getInductionVar();
  SmallVector<Value> upperOperands = {iv};
  AffineMap upper;
  if (loop.hasConstantBounds()) {
    int64_t lb = loop.getConstantLowerBound();
    int64_t ub = loop.getConstantUpperBound();
    SmallVector<AffineExpr> terms = {origin + chunk};
    // The last chunk is partial when the size does not divide the trip
    // count.
    if ((ub - lb) % chunk != 0)
      terms.push_back(getAffineConstantExpr(ub, context));
    upper = AffineMap::get(1, 0, terms, context);
  } else {
    upper = pointUpperBound(loop, iv, chunk, upperOperands);
  }
  rewriter.modifyOpInPlace(loop, [&] {
    loop.setLowerBound(iv, AffineMap::get(1, 0, origin));
    loop.setUpperBound(upperOperands, upper);
    loop.getInitsMutable().assign(tile.getRegionIterArgs());
  });
  results.push_back(tile);
  for (affine::AffineForOp point : band)
    results.push_back(point);
  return DiagnosedSilenceableFailure::success();
}

//===----------------------------------------------------------------------===//
// AffineNestOp
//===----------------------------------------------------------------------===//

DiagnosedSilenceableFailure tuner::transform::AffineNestOp::applyToOne(
    TransformRewriter &rewriter, Operation *target,
    ApplyToEachResultList &results, TransformState &state) {
  SmallVector<Operation *> outermost;
  target->walk<WalkOrder::PreOrder>([&](affine::AffineForOp loop) {
    outermost.push_back(loop);
    return WalkResult::skip();
  });
  uint64_t index = getIndex();
  if (index >= outermost.size()) {
    DiagnosedSilenceableFailure diag =
        emitSilenceableError() << "asked for outermost affine.for #" << index
                               << " but the target has " << outermost.size();
    diag.attachNote(target->getLoc()) << "target";
    return diag;
  }
  results.push_back(outermost[index]);
  return DiagnosedSilenceableFailure::success();
}

//===----------------------------------------------------------------------===//
// AffineInterchangeOp
//===----------------------------------------------------------------------===//

LogicalResult tuner::transform::AffineInterchangeOp::verify() {
  return verifyPermutation(*this, getPermutation());
}

DiagnosedSilenceableFailure tuner::transform::AffineInterchangeOp::applyToOne(
    TransformRewriter &rewriter, Operation *target,
    ApplyToEachResultList &results, TransformState &state) {
  ArrayRef<int64_t> permutation = getPermutation();
  SmallVector<affine::AffineForOp> band;
  DiagnosedSilenceableFailure found =
      getBand(*this, target, permutation.size(), band);
  if (!found.succeeded())
    return found;
  // permuteLoops wants, for each loop, its new position.
  SmallVector<unsigned> newPosition(permutation.size());
  for (auto [position, loop] : llvm::enumerate(permutation))
    newPosition[loop] = position;
  // The test the analysis used to list the legal orders of the space.
  if (!BandOrderLegality(band).isLegal(permutation)) {
    DiagnosedSilenceableFailure diag =
        emitSilenceableError()
        << "interchange [" << llvm::interleaved(permutation)
        << "] violates a dependence of the loop nest";
    diag.attachNote(target->getLoc()) << "loop nest";
    return diag;
  }
  unsigned outermost = affine::permuteLoops(band, newPosition);
  results.push_back(band[outermost]);
  return DiagnosedSilenceableFailure::success();
}

//===----------------------------------------------------------------------===//
// AffineTileOp
//===----------------------------------------------------------------------===//

LogicalResult tuner::transform::AffineTileOp::verify() {
  ArrayRef<int64_t> sizes = getTileSizes();
  if (llvm::any_of(sizes, [](int64_t s) { return s < 0; }))
    return emitOpError() << "expects non-negative tile sizes";
  size_t expected =
      sizes.size() + llvm::count_if(sizes, [](int64_t s) { return s != 0; });
  if (getNumResults() != expected)
    return emitOpError() << "expects " << expected
                         << " results (one per tiled loop, then one per band "
                            "loop), got "
                         << getNumResults();
  return success();
}

DiagnosedSilenceableFailure tuner::transform::AffineTileOp::applyToOne(
    TransformRewriter &rewriter, Operation *target,
    ApplyToEachResultList &results, TransformState &state) {
  ArrayRef<int64_t> sizes = getTileSizes();
  SmallVector<affine::AffineForOp> band;
  DiagnosedSilenceableFailure found =
      getBand(*this, target, sizes.size(), band);
  if (!found.succeeded())
    return found;
  if (llvm::all_of(sizes, [](int64_t s) { return s == 0; })) {
    for (affine::AffineForOp loop : band)
      results.push_back(loop);
    return DiagnosedSilenceableFailure::success();
  }
  // A skewed band gets tiles of the skewed space, and so does a band whose
  // tiles run as a wavefront.
  if (getWavefront()) {
    if (llvm::count_if(sizes, [](int64_t s) { return s != 0; }) < 2)
      return emitSilenceableError()
             << "a wavefront of tiles needs at least two tiled loops";
    return tileSkewedBand(*this, rewriter, band, sizes, /*wavefront=*/true,
                          results);
  }
  bool constant = llvm::all_of(
      band, [](affine::AffineForOp loop) { return loop.hasConstantBounds(); });
  if (!constant && !isHyperRectangular(band))
    return tileSkewedBand(*this, rewriter, band, sizes, /*wavefront=*/false,
                          results);
  // A band whose loops carry iter_args (which affine::tilePerfectlyNested
  // does not take) is strip-mined in its outermost loop, the only tiling
  // that keeps the order in which the values are carried.
  if (llvm::any_of(band, [](affine::AffineForOp loop) {
        return loop.getNumIterOperands() != 0;
      }))
    return stripMineCarrying(*this, rewriter, band, sizes, results);
  // Bounds that depend on values (a dynamic size): trip counts are unknown,
  // and untiled loops have no trip count to be tiled by.
  if (!constant) {
    tileSymbolicBand(rewriter, band, sizes, results);
    return DiagnosedSilenceableFailure::success();
  }
  // Untiled loops are tiled by their trip count, then promoted away.
  SmallVector<unsigned> actual;
  for (auto [loop, size] : llvm::zip_equal(band, sizes)) {
    if (size != 0) {
      actual.push_back(size);
      continue;
    }
    std::optional<uint64_t> tripCount = affine::getConstantTripCount(loop);
    if (!tripCount || *tripCount == 0) {
      DiagnosedSilenceableFailure diag =
          emitSilenceableError()
          << "a loop left untiled (size 0) needs a constant, non-zero trip "
             "count";
      diag.attachNote(loop.getLoc()) << "loop";
      return diag;
    }
    actual.push_back(*tripCount);
  }
  SmallVector<affine::AffineForOp> tiled;
  if (failed(affine::tilePerfectlyNested(band, actual, &tiled))) {
    DiagnosedSilenceableFailure diag =
        emitSilenceableError() << "cannot tile the band (it must be "
                                  "hyper-rectangular with affine bounds)";
    diag.attachNote(target->getLoc()) << "band root";
    return diag;
  }
  for (auto [i, size] : llvm::enumerate(sizes)) {
    if (size != 0) {
      results.push_back(tiled[i]);
      continue;
    }
    if (failed(affine::promoteIfSingleIteration(tiled[i])))
      return emitDefiniteFailure()
             << "could not promote the single-iteration tile loop of an "
                "untiled loop";
  }
  for (size_t i = sizes.size(); i < tiled.size(); ++i)
    results.push_back(tiled[i]);
  return DiagnosedSilenceableFailure::success();
}

//===----------------------------------------------------------------------===//
// AffineUnrollOp
//===----------------------------------------------------------------------===//

/// Versions `loop`, whose single lower bound is `lb` and whose upper bound
/// is min(u_0, ..., u_n), by whether the term u_j that lies a constant
/// number of iterations after `lb` (a full tile) is the smallest: the then
/// branch of an affine.if runs a copy of `loop` bounded by u_j alone, the
/// else branch `loop` bounded by the other terms. Returns the two loops;
/// fails, leaving `loop` as it is, when it has no such term.
static FailureOr<std::pair<affine::AffineForOp, affine::AffineForOp>>
versionFullTile(RewriterBase &rewriter, affine::AffineForOp loop) {
  AffineMap upper = loop.getUpperBoundMap();
  if (loop.getLowerBoundMap().getNumResults() != 1 || upper.getNumResults() < 2)
    return failure();
  SmallVector<Value> upperOperands(loop.getUpperBoundOperands());
  affine::AffineValueMap lower(loop.getLowerBoundMap(),
                               loop.getLowerBoundOperands());
  std::optional<unsigned> full;
  for (unsigned j = 0; j < upper.getNumResults() && !full; ++j) {
    affine::AffineValueMap term(upper.getSubMap({j}), upperOperands), span;
    affine::AffineValueMap::difference(term, lower, &span);
    if (isa<AffineConstantExpr>(span.getResult(0)))
      full = j;
  }
  if (!full)
    return failure();
  SmallVector<AffineExpr> conditions;
  SmallVector<unsigned> others;
  for (unsigned m = 0; m < upper.getNumResults(); ++m) {
    if (m == *full)
      continue;
    others.push_back(m);
    conditions.push_back(upper.getResult(m) - upper.getResult(*full));
  }
  IntegerSet set =
      IntegerSet::get(upper.getNumDims(), upper.getNumSymbols(), conditions,
                      SmallVector<bool>(conditions.size(), false));
  SmallVector<Value> setOperands = upperOperands;
  affine::canonicalizeSetAndOperands(&set, &setOperands);

  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(loop);
  Location loc = loop.getLoc();
  auto version = affine::AffineIfOp::create(
      rewriter, loc, loop.getResultTypes(), set, setOperands,
      /*withElseRegion=*/true);
  rewriter.replaceAllUsesWith(loop.getResults(), version.getResults());
  auto setUpper = [&](affine::AffineForOp target, ArrayRef<unsigned> terms) {
    SmallVector<Value> operands = upperOperands;
    AffineMap map = upper.getSubMap(terms);
    affine::canonicalizeMapAndOperands(&map, &operands);
    rewriter.modifyOpInPlace(target,
                             [&] { target.setUpperBound(operands, map); });
  };
  Block *thenBlock = version.getThenBlock();
  Block *elseBlock = version.getElseBlock();
  rewriter.setInsertionPointToEnd(thenBlock);
  if (!thenBlock->empty())
    rewriter.setInsertionPoint(thenBlock->getTerminator());
  auto fullLoop = cast<affine::AffineForOp>(rewriter.clone(*loop));
  setUpper(fullLoop, {*full});
  if (loop.getNumResults() != 0)
    affine::AffineYieldOp::create(rewriter, loc, fullLoop.getResults());
  if (elseBlock->empty())
    rewriter.moveOpBefore(loop, elseBlock, elseBlock->end());
  else
    rewriter.moveOpBefore(loop, elseBlock->getTerminator());
  setUpper(loop, others);
  if (loop.getNumResults() != 0) {
    rewriter.setInsertionPointToEnd(elseBlock);
    affine::AffineYieldOp::create(rewriter, loc, loop.getResults());
  }
  return std::make_pair(fullLoop, loop);
}

DiagnosedSilenceableFailure tuner::transform::AffineUnrollOp::applyToOne(
    TransformRewriter &rewriter, Operation *target,
    ApplyToEachResultList &results, TransformState &state) {
  auto loop = dyn_cast<affine::AffineForOp>(target);
  if (!loop)
    return emitSilenceableError()
           << "expected an affine.for, got '" << target->getName() << "'";
  uint64_t factor = getFactor();
  if (factor == 1)
    return DiagnosedSilenceableFailure::success();
  // loopUnrollByFactor takes a min upper bound only when the constant trip
  // count is a multiple of the factor.
  std::optional<uint64_t> trips = affine::getConstantTripCount(loop);
  bool direct = loop.getLowerBoundMap().getNumResults() == 1 &&
                loop.getUpperBoundMap().getNumResults() == 1;
  if (!direct && !(trips && *trips % factor == 0)) {
    FailureOr<std::pair<affine::AffineForOp, affine::AffineForOp>> versions =
        versionFullTile(rewriter, loop);
    if (succeeded(versions)) {
      if (failed(affine::loopUnrollByFactor(versions->first, factor))) {
        DiagnosedSilenceableFailure diag =
            emitSilenceableError()
            << "cannot unroll the full tiles of the loop by " << factor;
        diag.attachNote(versions->first.getLoc()) << "loop";
        return diag;
      }
      // The partial tiles: unrolled when their bounds allow it (a single
      // remaining term), else left rolled.
      if (versions->second.getUpperBoundMap().getNumResults() == 1)
        (void)affine::loopUnrollByFactor(versions->second, factor);
      return DiagnosedSilenceableFailure::success();
    }
  }
  if (failed(affine::loopUnrollByFactor(loop, factor))) {
    DiagnosedSilenceableFailure diag =
        emitSilenceableError()
        << "cannot unroll the loop by " << factor
        << " (a constant trip count below the factor, or bounds that are a "
           "max or a min without a full tile to version)";
    diag.attachNote(loop.getLoc()) << "loop";
    return diag;
  }
  return DiagnosedSilenceableFailure::success();
}

//===----------------------------------------------------------------------===//
// AffineParallelizeOp
//===----------------------------------------------------------------------===//

DiagnosedSilenceableFailure tuner::transform::AffineParallelizeOp::applyToOne(
    TransformRewriter &rewriter, Operation *target,
    ApplyToEachResultList &results, TransformState &state) {
  auto loop = dyn_cast<affine::AffineForOp>(target);
  if (!loop)
    return emitSilenceableError()
           << "expected an affine.for, got '" << target->getName() << "'";
  if (!affine::isLoopParallel(loop)) {
    DiagnosedSilenceableFailure diag =
        emitSilenceableError()
        << "the loop carries a dependence and cannot run in parallel";
    diag.attachNote(loop.getLoc()) << "loop";
    return diag;
  }
  affine::AffineParallelOp parallel;
  if (failed(affine::affineParallelize(loop, {}, &parallel))) {
    DiagnosedSilenceableFailure diag =
        emitSilenceableError() << "affineParallelize failed on the loop";
    diag.attachNote(loop.getLoc()) << "loop";
    return diag;
  }
  results.push_back(parallel);
  return DiagnosedSilenceableFailure::success();
}

//===----------------------------------------------------------------------===//
// Skewed bands: shared helpers
//===----------------------------------------------------------------------===//

/// Coefficients of `expr` (over `numDims` dims and `numSymbols` symbols)
/// followed by its constant, or nullopt when it is not linear (floordiv,
/// mod, ...).
static std::optional<SmallVector<int64_t>>
linearCoefficients(AffineExpr expr, unsigned numDims, unsigned numSymbols) {
  SmallVector<int64_t> flat;
  if (failed(getFlattenedAffineExpr(expr, numDims, numSymbols, &flat)) ||
      flat.size() != numDims + numSymbols + 1)
    return std::nullopt;
  return flat;
}

/// A bound of a band loop as a linear function of the outer band loops:
/// value = constant + sum over l of coefficients[l] * iv_l.
struct LinearBound {
  SmallVector<int64_t> coefficients;
  int64_t constant = 0;
};

/// The single-result bound `map(operands)` of band loop `k` as a linear
/// function of the band loops 0 .. k-1, or nullopt.
static std::optional<LinearBound>
linearBound(AffineMap map, ValueRange operands,
            ArrayRef<affine::AffineForOp> band, size_t k) {
  if (map.getNumResults() != 1)
    return std::nullopt;
  std::optional<SmallVector<int64_t>> flat = linearCoefficients(
      map.getResult(0), map.getNumDims(), map.getNumSymbols());
  if (!flat)
    return std::nullopt;
  LinearBound bound;
  bound.coefficients.assign(k, 0);
  bound.constant = flat->back();
  for (auto [index, value] : llvm::enumerate(operands)) {
    int64_t coefficient = (*flat)[index];
    if (coefficient == 0)
      continue;
    Value operand = value;
    auto outer = llvm::find_if(band.take_front(k), [&](affine::AffineForOp l) {
      return l.getInductionVar() == operand;
    });
    if (outer == band.take_front(k).end())
      return std::nullopt;
    bound.coefficients[outer - band.begin()] += coefficient;
  }
  return bound;
}

/// The expression constant + sum of coefficients[l] * d_l.
static AffineExpr toExpr(const LinearBound &bound, MLIRContext *context) {
  AffineExpr expr = getAffineConstantExpr(bound.constant, context);
  for (auto [l, c] : llvm::enumerate(bound.coefficients))
    if (c != 0)
      expr = expr + getAffineDimExpr(l, context) * c;
  return expr;
}

/// A loop bound map of `numDims` dims over `results` (the max of them for a
/// lower bound, the min for an upper one), simplified: constant results
/// folded into one, duplicates dropped.
static AffineMap boundMap(unsigned numDims, ArrayRef<AffineExpr> results,
                          bool isUpper, MLIRContext *context) {
  SmallVector<AffineExpr> kept;
  std::optional<int64_t> constant;
  for (AffineExpr result : results) {
    result = simplifyAffineExpr(result, numDims, 0);
    if (auto c = dyn_cast<AffineConstantExpr>(result)) {
      int64_t v = c.getValue();
      constant = !constant ? v
                 : isUpper ? std::min(*constant, v)
                           : std::max(*constant, v);
      continue;
    }
    if (!llvm::is_contained(kept, result))
      kept.push_back(result);
  }
  if (constant)
    kept.push_back(getAffineConstantExpr(*constant, context));
  return AffineMap::get(numDims, 0, kept, context);
}

/// Folds the affine.apply ops among the operands of `guard` into its
/// condition, so that the condition reads loop variables (which the
/// dependence analysis relates to the iterations; the result of an
/// affine.apply would be a free variable to it).
static void composeGuardOperands(RewriterBase &rewriter,
                                 affine::AffineIfOp guard) {
  IntegerSet set = guard.getIntegerSet();
  if (set.getNumSymbols() != 0 ||
      llvm::none_of(guard.getOperands(), [](Value v) {
        return v.getDefiningOp<affine::AffineApplyOp>();
      }))
    return;
  MLIRContext *context = rewriter.getContext();
  SmallVector<Value> operands;
  auto dimOf = [&](Value v) {
    auto it = llvm::find(operands, v);
    if (it == operands.end()) {
      operands.push_back(v);
      return getAffineDimExpr(operands.size() - 1, context);
    }
    return getAffineDimExpr(it - operands.begin(), context);
  };
  SmallVector<AffineExpr> replacements;
  for (Value operand : guard.getOperands()) {
    auto apply = operand.getDefiningOp<affine::AffineApplyOp>();
    if (!apply || apply.getAffineMap().getNumSymbols() != 0) {
      replacements.push_back(dimOf(operand));
      continue;
    }
    SmallVector<AffineExpr> inner;
    for (Value applyOperand : apply.getMapOperands())
      inner.push_back(dimOf(applyOperand));
    replacements.push_back(
        apply.getAffineMap().getResult(0).replaceDimsAndSymbols(inner, {}));
  }
  SmallVector<AffineExpr> constraints;
  for (AffineExpr constraint : set.getConstraints())
    constraints.push_back(simplifyAffineExpr(
        constraint.replaceDimsAndSymbols(replacements, {}), operands.size(),
        0));
  IntegerSet composed = IntegerSet::get(operands.size(), 0, constraints,
                                        set.getEqFlags());
  rewriter.modifyOpInPlace(guard,
                           [&] { guard.setConditional(composed, operands); });
}

/// The dependences of `band` (with fused siblings when `fusedDepth` > 0),
/// or a silenceable failure at `op` saying why they cannot be measured.
static DiagnosedSilenceableFailure
measureDependences(Operation *op, const tuner::AffineBand &band,
                   std::vector<tuner::BandDependence> &dependences) {
  std::string why;
  FailureOr<std::vector<tuner::BandDependence>> measured =
      tuner::getBandDependences(band, why);
  if (failed(measured)) {
    DiagnosedSilenceableFailure diag =
        emitSilenceableFailure(op->getLoc())
        << "cannot measure the dependences of the band: " << why;
    affine::AffineForOp root = band.loops.front();
    diag.attachNote(root.getLoc()) << "band root";
    return diag;
  }
  dependences = std::move(*measured);
  return DiagnosedSilenceableFailure::success();
}

/// The first dependence that is negative (or unbounded below) on some loop
/// of a band of `depth` loops, or null.
static const tuner::BandDependence *
firstBackwardDependence(const std::vector<tuner::BandDependence> &dependences,
                        size_t depth) {
  for (const tuner::BandDependence &dependence : dependences)
    if (!tuner::isFullyPermutable({dependence}, depth))
      return &dependence;
  return nullptr;
}

/// Checks that the loops of `band` have constant bounds and step 1.
static DiagnosedSilenceableFailure
checkConstantUnitLoops(Operation *op, ArrayRef<affine::AffineForOp> band) {
  for (affine::AffineForOp loop : band) {
    if (loop.hasConstantBounds() && loop.getStepAsInt() == 1 &&
        loop.getNumIterOperands() == 0)
      continue;
    DiagnosedSilenceableFailure diag =
        emitSilenceableFailure(op->getLoc())
        << "expected loops with constant bounds, step 1 and no iteration "
           "arguments";
    diag.attachNote(loop.getLoc()) << "loop";
    return diag;
  }
  return DiagnosedSilenceableFailure::success();
}

//===----------------------------------------------------------------------===//
// AffineShiftFuseOp
//===----------------------------------------------------------------------===//

DiagnosedSilenceableFailure tuner::transform::AffineShiftFuseOp::applyToOne(
    TransformRewriter &rewriter, Operation *target,
    ApplyToEachResultList &results, TransformState &state) {
  auto root = dyn_cast<affine::AffineForOp>(target);
  if (!root)
    return emitSilenceableError()
           << "expected an affine.for, got '" << target->getName() << "'";
  SmallVector<affine::AffineForOp> chain;
  affine::getPerfectlyNestedLoops(chain, root);
  unsigned depth = getDepth();
  std::string why;
  FailureOr<tuner::AffineBand> band =
      tuner::getAffineBand(root, chain.size(), depth, why);
  if (failed(band)) {
    DiagnosedSilenceableFailure diag =
        emitSilenceableError() << "cannot fuse the nests of the band: " << why;
    diag.attachNote(target->getLoc()) << "band root";
    return diag;
  }
  // The fused loops of every sibling, outermost first.
  SmallVector<SmallVector<affine::AffineForOp>> fused;
  for (affine::AffineForOp sibling : band->siblings) {
    SmallVector<affine::AffineForOp> loops;
    affine::getPerfectlyNestedLoops(loops, sibling);
    loops.resize(depth);
    DiagnosedSilenceableFailure unit = checkConstantUnitLoops(*this, loops);
    if (!unit.succeeded())
      return unit;
    fused.push_back(std::move(loops));
  }

  std::vector<tuner::BandDependence> dependences;
  DiagnosedSilenceableFailure measured =
      measureDependences(*this, *band, dependences);
  if (!measured.succeeded())
    return measured;
  size_t fusedFrom = band->loops.size();
  std::vector<std::vector<int64_t>> shifts;
  if (std::optional<ArrayRef<int64_t>> given = getShifts()) {
    if (given->size() != fused.size() * depth)
      return emitSilenceableError()
             << "expected " << fused.size() * depth << " shifts (" << depth
             << " for each of the " << fused.size() << " nests), got "
             << given->size();
    for (size_t s = 0; s < fused.size(); ++s)
      shifts.emplace_back(given->begin() + s * depth,
                          given->begin() + (s + 1) * depth);
    if (llvm::Error err = tuner::verifyFusionShifts(
            dependences, shifts, fusedFrom, fusedFrom + depth)) {
      DiagnosedSilenceableFailure diag = emitSilenceableError()
                                         << llvm::toString(std::move(err));
      diag.attachNote(target->getLoc()) << "band root";
      return diag;
    }
  } else {
    llvm::Expected<std::vector<std::vector<int64_t>>> computed =
        tuner::computeFusionShifts(dependences, fused.size(), fusedFrom,
                                   fusedFrom + depth);
    if (!computed) {
      DiagnosedSilenceableFailure diag =
          emitSilenceableError() << llvm::toString(computed.takeError());
      diag.attachNote(target->getLoc()) << "band root";
      return diag;
    }
    shifts = std::move(*computed);
  }

  // The fused loops run over the union of the shifted ranges.
  MLIRContext *context = getContext();
  Location loc = band->siblings.front().getLoc();
  SmallVector<int64_t> lower(depth, INT64_MAX), upper(depth, INT64_MIN);
  for (auto [s, loops] : llvm::enumerate(fused))
    for (unsigned p = 0; p < depth; ++p) {
      lower[p] =
          std::min(lower[p], loops[p].getConstantLowerBound() + shifts[s][p]);
      upper[p] =
          std::max(upper[p], loops[p].getConstantUpperBound() + shifts[s][p]);
    }
  rewriter.setInsertionPoint(band->siblings.front());
  SmallVector<Value> ivs;
  affine::AffineForOp outermost;
  for (unsigned p = 0; p < depth; ++p) {
    auto loop =
        affine::AffineForOp::create(rewriter, loc, lower[p], upper[p], 1);
    if (!outermost)
      outermost = loop;
    ivs.push_back(loop.getInductionVar());
    rewriter.setInsertionPointToStart(loop.getBody());
  }
  Block *body = rewriter.getInsertionBlock();
  for (auto [s, loops] : llvm::enumerate(fused)) {
    rewriter.setInsertionPoint(body->getTerminator());
    // A guard where the sibling's range is smaller than the union.
    SmallVector<AffineExpr> constraints;
    SmallVector<bool> isEquality;
    for (unsigned p = 0; p < depth; ++p) {
      int64_t lb = loops[p].getConstantLowerBound() + shifts[s][p];
      int64_t ub = loops[p].getConstantUpperBound() + shifts[s][p];
      AffineExpr d = getAffineDimExpr(p, context);
      if (lb > lower[p]) {
        constraints.push_back(d - lb);
        isEquality.push_back(false);
      }
      if (ub < upper[p]) {
        constraints.push_back(-d + (ub - 1));
        isEquality.push_back(false);
      }
    }
    if (!constraints.empty()) {
      auto guard = affine::AffineIfOp::create(
          rewriter, loops.front().getLoc(),
          IntegerSet::get(depth, 0, constraints, isEquality), ivs,
          /*withElseRegion=*/false);
      rewriter.setInsertionPoint(guard.getThenBlock()->getTerminator());
    }
    // The sibling's iteration x runs at x + shift.
    IRMapping mapping;
    for (unsigned p = 0; p < depth; ++p) {
      Value original = ivs[p];
      if (shifts[s][p] != 0)
        original = affine::AffineApplyOp::create(
            rewriter, loops[p].getLoc(),
            AffineMap::get(1, 0, getAffineDimExpr(0, context) - shifts[s][p]),
            ValueRange{ivs[p]});
      mapping.map(loops[p].getInductionVar(), original);
    }
    for (Operation &op : loops.back().getBody()->without_terminator()) {
      Operation *copy = rewriter.clone(op, mapping);
      copy->walk([&](affine::AffineIfOp guard) {
        composeGuardOperands(rewriter, guard);
      });
    }
  }
  for (affine::AffineForOp sibling : band->siblings)
    rewriter.eraseOp(sibling);
  results.push_back(root);
  return DiagnosedSilenceableFailure::success();
}

//===----------------------------------------------------------------------===//
// AffineSkewOp
//===----------------------------------------------------------------------===//

/// The matrix of a skew map, or nullopt when it is not one (see
/// AffineSkewOp's description).
static std::optional<tuner::SkewMatrix> skewMatrixOf(AffineMap map,
                                                     size_t depth) {
  if (map.getNumDims() != depth || map.getNumSymbols() != 0 ||
      map.getNumResults() != depth)
    return std::nullopt;
  tuner::SkewMatrix matrix;
  for (AffineExpr result : map.getResults()) {
    std::optional<SmallVector<int64_t>> flat =
        linearCoefficients(result, depth, 0);
    if (!flat || flat->back() != 0)
      return std::nullopt;
    matrix.emplace_back(flat->begin(), flat->end() - 1);
  }
  if (!tuner::isSkewMatrix(matrix, depth))
    return std::nullopt;
  return matrix;
}

/// The skew map of `matrix`.
static AffineMap skewMapOf(const tuner::SkewMatrix &matrix,
                           MLIRContext *context) {
  SmallVector<AffineExpr> results;
  for (const std::vector<int64_t> &row : matrix) {
    AffineExpr expr = getAffineConstantExpr(0, context);
    for (auto [l, c] : llvm::enumerate(row))
      if (c != 0)
        expr = expr + getAffineDimExpr(l, context) * c;
    results.push_back(expr);
  }
  return AffineMap::get(matrix.size(), 0, results, context);
}

LogicalResult tuner::transform::AffineSkewOp::verify() {
  std::optional<AffineMap> skew = getSkew();
  if (skew && !skewMatrixOf(*skew, getDepth()))
    return emitOpError()
           << "expects a skew of " << getDepth()
           << " dims and results, result k being d_k plus an integer "
              "combination of d_0 .. d_{k-1} (unit lower-triangular), got "
           << AffineMapAttr::get(*skew);
  return success();
}

/// Skews the band by `matrix` (see AffineSkewOp): loop k runs over its
/// range shifted by sum over l < k of M[k][l] * x_l, and the body reads
/// x = M^-1 y.
static void skewBand(RewriterBase &rewriter,
                     MutableArrayRef<affine::AffineForOp> band,
                     const tuner::SkewMatrix &matrix) {
  size_t depth = band.size();
  MLIRContext *context = rewriter.getContext();
  tuner::SkewMatrix inverse = tuner::invertSkew(matrix);
  // The original iteration in terms of the skewed one.
  auto original = [&](size_t k) {
    LinearBound x;
    x.coefficients.assign(inverse[k].begin(), inverse[k].begin() + k + 1);
    return x;
  };
  SmallVector<int64_t> lower, upper;
  for (affine::AffineForOp loop : band) {
    lower.push_back(loop.getConstantLowerBound());
    upper.push_back(loop.getConstantUpperBound());
  }
  for (size_t k = 1; k < depth; ++k) {
    // shift_k(y) = sum over l < k of M[k][l] * x_l(y).
    LinearBound shift;
    shift.coefficients.assign(k, 0);
    for (size_t l = 0; l < k; ++l)
      for (size_t m = 0; m <= l; ++m)
        shift.coefficients[m] += matrix[k][l] * inverse[l][m];
    if (llvm::all_of(shift.coefficients, [](int64_t c) { return c == 0; }))
      continue;
    SmallVector<Value> operands;
    for (size_t l = 0; l < k; ++l)
      operands.push_back(band[l].getInductionVar());
    LinearBound lb = shift, ub = shift;
    lb.constant = lower[k];
    ub.constant = upper[k];
    rewriter.modifyOpInPlace(band[k], [&] {
      band[k].setLowerBound(operands,
                            AffineMap::get(k, 0, toExpr(lb, context)));
      band[k].setUpperBound(operands,
                            AffineMap::get(k, 0, toExpr(ub, context)));
    });
  }
  // The body reads the original variables back.
  Block *body = band.back().getBody();
  rewriter.setInsertionPointToStart(body);
  SmallVector<std::pair<Value, Value>> replacements;
  SmallPtrSet<Operation *, 8> applies;
  for (size_t k = 1; k < depth; ++k) {
    LinearBound x = original(k);
    if (llvm::all_of(llvm::ArrayRef(x.coefficients).drop_back(),
                     [](int64_t c) { return c == 0; }))
      continue;
    SmallVector<Value> operands;
    for (size_t l = 0; l <= k; ++l)
      operands.push_back(band[l].getInductionVar());
    auto apply = affine::AffineApplyOp::create(
        rewriter, band[k].getLoc(),
        AffineMap::get(k + 1, 0, toExpr(x, context)), operands);
    applies.insert(apply);
    replacements.push_back({band[k].getInductionVar(), apply.getResult()});
  }
  for (auto [iv, value] : replacements)
    rewriter.replaceUsesWithIf(iv, value, [&](OpOperand &use) {
      Operation *owner = use.getOwner();
      return !applies.contains(owner) && body->findAncestorOpInBlock(*owner);
    });
  body->walk(
      [&](affine::AffineIfOp guard) { composeGuardOperands(rewriter, guard); });
}

DiagnosedSilenceableFailure tuner::transform::AffineSkewOp::applyToOne(
    TransformRewriter &rewriter, Operation *target,
    ApplyToEachResultList &results, TransformState &state) {
  size_t depth = getDepth();
  SmallVector<affine::AffineForOp> loops;
  DiagnosedSilenceableFailure found = getBand(*this, target, depth, loops);
  if (!found.succeeded())
    return found;
  DiagnosedSilenceableFailure unit = checkConstantUnitLoops(*this, loops);
  if (!unit.succeeded())
    return unit;
  tuner::AffineBand band;
  band.loops = loops;

  tuner::SkewMatrix matrix;
  if (std::optional<AffineMap> skew = getSkew()) {
    matrix = *skewMatrixOf(*skew, depth);
  } else {
    std::vector<tuner::BandDependence> dependences;
    DiagnosedSilenceableFailure measured =
        measureDependences(*this, band, dependences);
    if (!measured.succeeded())
      return measured;
    llvm::Expected<tuner::SkewMatrix> computed =
        tuner::computeSkew(dependences, depth);
    if (!computed) {
      DiagnosedSilenceableFailure diag =
          emitSilenceableError() << llvm::toString(computed.takeError());
      diag.attachNote(target->getLoc()) << "band root";
      return diag;
    }
    matrix = std::move(*computed);
  }
  skewBand(rewriter, loops, matrix);

  // Legal by construction; what is checked is the point of skewing: a fully
  // permutable band.
  std::vector<tuner::BandDependence> dependences;
  DiagnosedSilenceableFailure measured =
      measureDependences(*this, band, dependences);
  if (!measured.succeeded())
    return measured;
  if (const tuner::BandDependence *backward =
          firstBackwardDependence(dependences, depth)) {
    DiagnosedSilenceableFailure diag =
        emitSilenceableError()
        << "the band skewed by "
        << AffineMapAttr::get(skewMapOf(matrix, getContext()))
        << " is not fully permutable: dependence " << backward->str()
        << " has a negative or unknown distance";
    diag.attachNote(target->getLoc()) << "band root";
    return diag;
  }
  results.push_back(target);
  return DiagnosedSilenceableFailure::success();
}

//===----------------------------------------------------------------------===//
// AffineTileOp on a skewed band
//===----------------------------------------------------------------------===//

/// Tiles a band whose loops run between single linear functions of the
/// outer band loops (see AffineTileOp): tile loops over the tile origins,
/// point loops clamped to both their tile and their own bounds.
static FailureOr<std::pair<affine::AffineForOp, affine::AffineParallelOp>>
buildWavefront(RewriterBase &rewriter, affine::AffineForOp outer,
               affine::AffineForOp inner, std::string &why);

static DiagnosedSilenceableFailure
tileSkewedBand(Operation *op, RewriterBase &rewriter,
               MutableArrayRef<affine::AffineForOp> band,
               ArrayRef<int64_t> sizes, bool wavefront,
               ApplyToEachResultList &results) {
  size_t depth = band.size();
  MLIRContext *context = rewriter.getContext();
  SmallVector<LinearBound> lbs, ubs;
  for (auto [k, loop] : llvm::enumerate(band)) {
    std::optional<LinearBound> lb = linearBound(
        loop.getLowerBoundMap(), loop.getLowerBoundOperands(), band, k);
    std::optional<LinearBound> ub = linearBound(
        loop.getUpperBoundMap(), loop.getUpperBoundOperands(), band, k);
    if (!lb || !ub || loop.getStepAsInt() != 1 ||
        loop.getNumIterOperands() != 0) {
      DiagnosedSilenceableFailure diag =
          emitSilenceableFailure(op->getLoc())
          << "cannot tile the band: it is not hyper-rectangular, and this "
             "loop's bounds are not single linear functions of the outer "
             "band loops with step 1";
      diag.attachNote(loop.getLoc()) << "loop";
      return diag;
    }
    lbs.push_back(*lb);
    ubs.push_back(*ub);
  }
  // Rectangular tiles of a skewed space need every distance non-negative.
  tuner::AffineBand affineBand;
  affineBand.loops.assign(band.begin(), band.end());
  std::vector<tuner::BandDependence> dependences;
  DiagnosedSilenceableFailure measured =
      measureDependences(op, affineBand, dependences);
  if (!measured.succeeded())
    return measured;
  if (const tuner::BandDependence *backward =
          firstBackwardDependence(dependences, depth)) {
    DiagnosedSilenceableFailure diag =
        emitSilenceableFailure(op->getLoc())
        << "tiling would reverse dependence " << backward->str()
        << ": the band is not fully permutable (skew it first)";
    diag.attachNote(band.front().getLoc()) << "band root";
    return diag;
  }

  // The range of each loop over the whole band (interval arithmetic).
  SmallVector<int64_t> boxLow(depth), boxHigh(depth);
  for (size_t k = 0; k < depth; ++k) {
    int64_t low = lbs[k].constant, high = ubs[k].constant - 1;
    for (size_t l = 0; l < k; ++l) {
      int64_t a = lbs[k].coefficients[l], b = ubs[k].coefficients[l];
      low += a * (a >= 0 ? boxLow[l] : boxHigh[l]);
      high += b * (b >= 0 ? boxHigh[l] : boxLow[l]);
    }
    boxLow[k] = low;
    boxHigh[k] = high;
  }

  Location loc = band.front().getLoc();
  rewriter.setInsertionPoint(band.front());
  // Tile loops: dims are the tile loops created so far.
  SmallVector<Value> tileIvs;
  SmallVector<int> tileDim(depth, -1);
  SmallVector<affine::AffineForOp> tileLoops;
  for (size_t k = 0; k < depth; ++k) {
    int64_t size = sizes[k];
    if (size == 0)
      continue;
    unsigned numDims = tileIvs.size();
    // The smallest and largest value of band loop l within the current
    // outer tiles.
    auto lowest = [&](size_t l) -> AffineExpr {
      if (tileDim[l] < 0)
        return getAffineConstantExpr(boxLow[l], context);
      return getAffineDimExpr(tileDim[l], context) * sizes[l];
    };
    auto highest = [&](size_t l) -> AffineExpr {
      if (tileDim[l] < 0)
        return getAffineConstantExpr(boxHigh[l], context);
      return getAffineDimExpr(tileDim[l], context) * sizes[l] + (sizes[l] - 1);
    };
    AffineExpr low = getAffineConstantExpr(lbs[k].constant, context);
    AffineExpr high = getAffineConstantExpr(ubs[k].constant - 1, context);
    for (size_t l = 0; l < k; ++l) {
      int64_t a = lbs[k].coefficients[l], b = ubs[k].coefficients[l];
      if (a != 0)
        low = low + (a > 0 ? lowest(l) : highest(l)) * a;
      if (b != 0)
        high = high + (b > 0 ? highest(l) : lowest(l)) * b;
    }
    AffineMap lowerMap =
        boundMap(numDims, {low.floorDiv(size)}, /*isUpper=*/false, context);
    AffineMap upperMap =
        boundMap(numDims,
                 {high.floorDiv(size) + 1,
                  getAffineConstantExpr(
                      llvm::divideFloorSigned(boxHigh[k], size) + 1, context)},
                 /*isUpper=*/true, context);
    auto tileLoop = affine::AffineForOp::create(
        rewriter, band[k].getLoc(), tileIvs, lowerMap, tileIvs, upperMap, 1);
    tileDim[k] = numDims;
    tileIvs.push_back(tileLoop.getInductionVar());
    tileLoops.push_back(tileLoop);
    rewriter.setInsertionPointToStart(tileLoop.getBody());
  }
  // Point loops: dims are the outer point loops, then the tile origin.
  SmallVector<Value> pointIvs;
  SmallVector<affine::AffineForOp> pointLoops;
  for (size_t k = 0; k < depth; ++k) {
    SmallVector<Value> operands(pointIvs);
    SmallVector<AffineExpr> lower{toExpr(lbs[k], context)};
    SmallVector<AffineExpr> upper{toExpr(ubs[k], context)};
    if (sizes[k] != 0) {
      AffineExpr origin = getAffineDimExpr(k, context) * sizes[k];
      operands.push_back(tileIvs[tileDim[k]]);
      lower.push_back(origin);
      upper.push_back(origin + sizes[k]);
    }
    unsigned numDims = operands.size();
    auto pointLoop = affine::AffineForOp::create(
        rewriter, band[k].getLoc(), operands,
        boundMap(numDims, lower, /*isUpper=*/false, context), operands,
        boundMap(numDims, upper, /*isUpper=*/true, context), 1);
    pointIvs.push_back(pointLoop.getInductionVar());
    pointLoops.push_back(pointLoop);
    rewriter.setInsertionPointToStart(pointLoop.getBody());
  }
  (void)loc;
  // The body moves into the innermost point loop.
  Block *source = band.back().getBody();
  Block *destination = pointLoops.back().getBody();
  for (Operation &bodyOp :
       llvm::make_early_inc_range(source->without_terminator()))
    rewriter.moveOpBefore(&bodyOp, destination->getTerminator());
  for (size_t k = 0; k < depth; ++k)
    rewriter.replaceAllUsesWith(band[k].getInductionVar(), pointIvs[k]);
  rewriter.eraseOp(band.front());
  SmallVector<Operation *> tileOps(tileLoops.begin(), tileLoops.end());
  if (wavefront) {
    std::string why;
    auto built = buildWavefront(rewriter, tileLoops[0], tileLoops[1], why);
    if (failed(built))
      return emitDefiniteFailure(op->getLoc())
             << "could not run the tiles as a wavefront: " << why;
    tileOps[0] = built->first;
    tileOps[1] = built->second;
  }
  for (Operation *loop : tileOps)
    results.push_back(loop);
  for (affine::AffineForOp loop : pointLoops)
    results.push_back(loop);
  return DiagnosedSilenceableFailure::success();
}

/// The largest number of iterations of the outer tile loop that a
/// wavefront enumerates to find the range of the inner one.
constexpr int64_t kMaxWavefrontTrips = 1 << 16;

/// Rewrites tile loop `outer` (constant bounds, step 1) and the tile loop
/// `inner` directly and only nested in it (bounds that are affine functions
/// of `outer`'s variable, step 1) into a sequential loop over wavefronts
/// w = a + b and, inside it, an affine.parallel over the values of a on that
/// wavefront, with b = w - a under a guard that keeps b within its bounds.
/// The caller has checked that every dependence has a non-negative distance
/// on both loops, so that two tiles on one wavefront are independent.
/// Returns the two new loops, or a message.
static FailureOr<std::pair<affine::AffineForOp, affine::AffineParallelOp>>
buildWavefront(RewriterBase &rewriter, affine::AffineForOp outer,
               affine::AffineForOp inner, std::string &why) {
  Value outerIv = outer.getInductionVar();
  AffineMap lbMap = inner.getLowerBoundMap(), ubMap = inner.getUpperBoundMap();
  auto onlyOuter = [&](ValueRange operands) {
    return llvm::all_of(operands, [&](Value v) { return v == outerIv; });
  };
  if (!outer.hasConstantBounds() || outer.getStepAsInt() != 1 ||
      inner.getStepAsInt() != 1 || !onlyOuter(inner.getLowerBoundOperands()) ||
      !onlyOuter(inner.getUpperBoundOperands())) {
    why = "the tile loops do not have the expected bounds";
    return failure();
  }
  int64_t outerLow = outer.getConstantLowerBound();
  int64_t trips = outer.getConstantUpperBound() - outerLow;
  if (trips <= 0 || trips > kMaxWavefrontTrips) {
    why = "the outer tile loop has no or too many iterations";
    return failure();
  }
  // The range of b over all iterations of a.
  auto evaluate = [&](AffineMap map, ValueRange operands, int64_t value,
                      bool isUpper) {
    SmallVector<int64_t> dims(operands.size(), value);
    SmallVector<int64_t> values = map.compose(dims);
    return isUpper ? *llvm::min_element(values) : *llvm::max_element(values);
  };
  std::optional<int64_t> lowest, highest;
  for (int64_t a = outerLow; a < outerLow + trips; ++a) {
    int64_t lb = evaluate(lbMap, inner.getLowerBoundOperands(), a, false);
    int64_t ub = evaluate(ubMap, inner.getUpperBoundOperands(), a, true);
    if (ub <= lb)
      continue;
    lowest = std::min(lowest.value_or(lb), lb);
    highest = std::max(highest.value_or(ub - 1), ub - 1);
  }
  if (!lowest) {
    why = "the inner tile loop has no iteration";
    return failure();
  }

  MLIRContext *context = rewriter.getContext();
  Location loc = outer.getLoc();
  AffineExpr w = getAffineDimExpr(0, context);
  rewriter.setInsertionPoint(outer);
  auto wavefront =
      affine::AffineForOp::create(rewriter, loc, outerLow + *lowest,
                                  outerLow + trips - 1 + *highest + 1, 1);
  rewriter.setInsertionPointToStart(wavefront.getBody());
  Value wIv = wavefront.getInductionVar();
  // a in [max(outerLow, w - highest), min(outerLow + trips - 1, w - lowest)].
  AffineMap lower =
      boundMap(1, {getAffineConstantExpr(outerLow, context), w - *highest},
               /*isUpper=*/false, context);
  AffineMap upper = boundMap(
      1, {getAffineConstantExpr(outerLow + trips, context), w - *lowest + 1},
      /*isUpper=*/true, context);
  auto across = affine::AffineForOp::create(rewriter, loc, ValueRange{wIv},
                                            lower, ValueRange{wIv}, upper, 1);
  rewriter.setInsertionPointToStart(across.getBody());
  Value aIv = across.getInductionVar();
  Value bValue = affine::AffineApplyOp::create(
      rewriter, inner.getLoc(),
      AffineMap::get(2, 0, w - getAffineDimExpr(1, context), context),
      ValueRange{wIv, aIv});
  // Guard: every lower bound <= b < every upper bound.
  AffineExpr b = getAffineDimExpr(1, context);
  SmallVector<AffineExpr> conditions;
  auto addBounds = [&](AffineMap map, ValueRange operands, bool isUpper) {
    SmallVector<AffineExpr> replacements(operands.size(),
                                         getAffineDimExpr(0, context));
    for (AffineExpr bound : map.getResults()) {
      bound = bound.replaceDimsAndSymbols(replacements, {});
      conditions.push_back(isUpper ? bound - 1 - b : b - bound);
    }
  };
  addBounds(lbMap, inner.getLowerBoundOperands(), false);
  addBounds(ubMap, inner.getUpperBoundOperands(), true);
  auto guard = affine::AffineIfOp::create(
      rewriter, inner.getLoc(),
      IntegerSet::get(2, 0, conditions,
                      SmallVector<bool>(conditions.size(), false)),
      ValueRange{aIv, bValue}, /*withElseRegion=*/false);
  Block *destination = guard.getThenBlock();
  for (Operation &bodyOp :
       llvm::make_early_inc_range(inner.getBody()->without_terminator()))
    rewriter.moveOpBefore(&bodyOp, destination->getTerminator());
  rewriter.replaceAllUsesWith(inner.getInductionVar(), bValue);
  rewriter.replaceAllUsesWith(outerIv, aIv);
  rewriter.eraseOp(outer);
  affine::AffineParallelOp parallel;
  if (failed(affine::affineParallelize(across, {}, &parallel))) {
    why = "affineParallelize failed on the loop over one wavefront";
    return failure();
  }
  return std::make_pair(wavefront, parallel);
}

//===----------------------------------------------------------------------===//
// InterchangeForallOp
//===----------------------------------------------------------------------===//

LogicalResult tuner::transform::InterchangeForallOp::verify() {
  return verifyPermutation(*this, getPermutation());
}

void tuner::transform::InterchangeForallOp::getEffects(
    SmallVectorImpl<MemoryEffects::EffectInstance> &effects) {
  onlyReadsHandle(getTargetMutable(), effects);
  modifiesPayload(effects);
}

DiagnosedSilenceableFailure tuner::transform::InterchangeForallOp::applyToOne(
    TransformRewriter &rewriter, Operation *target,
    ApplyToEachResultList &results, TransformState &state) {
  ArrayRef<int64_t> permutation = getPermutation();
  auto forall = dyn_cast<scf::ForallOp>(target);
  if (!forall) {
    DiagnosedSilenceableFailure diag = emitSilenceableError()
                                       << "expects an scf.forall";
    diag.attachNote(target->getLoc()) << "target";
    return diag;
  }
  size_t rank = forall.getRank();
  if (permutation.size() != rank) {
    DiagnosedSilenceableFailure diag =
        emitSilenceableError()
        << "permutation of " << permutation.size()
        << " induction variables for an scf.forall with " << rank;
    diag.attachNote(target->getLoc()) << "target";
    return diag;
  }
  auto permute = [&](ArrayRef<OpFoldResult> values) {
    return llvm::map_to_vector(permutation,
                               [&](int64_t p) { return values[p]; });
  };
  SmallVector<OpFoldResult> lower = permute(forall.getMixedLowerBound());
  SmallVector<OpFoldResult> upper = permute(forall.getMixedUpperBound());
  SmallVector<OpFoldResult> steps = permute(forall.getMixedStep());
  SmallVector<int64_t> lowerStatic, upperStatic, stepStatic;
  SmallVector<Value> lowerDynamic, upperDynamic, stepDynamic;
  dispatchIndexOpFoldResults(lower, lowerDynamic, lowerStatic);
  dispatchIndexOpFoldResults(upper, upperDynamic, upperStatic);
  dispatchIndexOpFoldResults(steps, stepDynamic, stepStatic);
  // Induction variable k now runs over the range of the one that was at
  // permutation[k], so that one's uses take it.
  Block *body = forall.getBody();
  SmallVector<SmallVector<OpOperand *>> uses(rank);
  for (size_t i = 0; i < rank; ++i)
    for (OpOperand &use : body->getArgument(i).getUses())
      uses[i].push_back(&use);
  rewriter.modifyOpInPlace(forall, [&] {
    forall.getDynamicLowerBoundMutable().assign(lowerDynamic);
    forall.getDynamicUpperBoundMutable().assign(upperDynamic);
    forall.getDynamicStepMutable().assign(stepDynamic);
    forall.setStaticLowerBound(lowerStatic);
    forall.setStaticUpperBound(upperStatic);
    forall.setStaticStep(stepStatic);
    if (std::optional<ArrayAttr> mapping = forall.getMapping())
      forall.setMappingAttr(rewriter.getArrayAttr(
          llvm::map_to_vector(permutation, [&](int64_t p) -> Attribute {
            return (*mapping)[p];
          })));
  });
  for (size_t k = 0; k < rank; ++k)
    for (OpOperand *use : uses[permutation[k]])
      rewriter.modifyOpInPlace(use->getOwner(),
                               [&] { use->set(body->getArgument(k)); });
  return DiagnosedSilenceableFailure::success();
}

//===----------------------------------------------------------------------===//
// VectorizeTilesOp
//===----------------------------------------------------------------------===//

LogicalResult tuner::transform::VectorizeTilesOp::verify() {
  if (!vector::symbolizeVectorContractLowering(getLowering()))
    return emitOpError() << "unknown contraction lowering '" << getLowering()
                         << "' (expected dot, llvmintr, outerproduct or "
                            "parallelarith)";
  if (getUnroll() < 1)
    return emitOpError() << "expects a positive unroll factor, got "
                         << getUnroll();
  if (getPartial() != "peel" && getPartial() != "pad")
    return emitOpError() << "unknown partial-tile handling '" << getPartial()
                         << "' (expected peel or pad)";
  return success();
}

/// Applies `patterns` greedily to the regions of each of `roots`, reporting
/// rewrites to `rewriter`'s listener (which keeps other handles current).
static void applyInside(TransformRewriter &rewriter,
                        ArrayRef<Operation *> roots,
                        const FrozenRewritePatternSet &patterns) {
  GreedyRewriteConfig config;
  config.setListener(
      static_cast<RewriterBase::Listener *>(rewriter.getListener()));
  for (Operation *root : roots)
    // Not converging within the iteration limit leaves correct IR behind.
    (void)applyPatternsGreedily(root, patterns, config);
}

/// Ops with more iteration points than this stay scalar: a producer fused
/// into a micro-kernel's loops may be far larger than the tile the space
/// sized for the registers (a whole reduction, say).
constexpr int64_t kMaxVectorizedPoints = 4096;

/// Ops whose vectors would hold more 1-D vectors than this stay scalar too.
/// The lowering to LLVM unrolls an n-D vector into its 1-D vectors along
/// the innermost dimension, one op each: a producer fused into a stencil's
/// tile loops, vectorized over the whole cache tile with an innermost loop
/// of 1 (vector<8x511x1xf32>: 4,088 vectors of one lane), is under the
/// point limit but makes the lowering take minutes. A tile the space sized
/// for the registers (at most four register files: 2,048 f32 elements on
/// AVX-512) exceeds this only with an innermost loop of 1, whose vectors
/// have one lane: scalar code either way.
constexpr int64_t kMaxVectorizedRows = 1024;

/// Whether an op of static loop ranges `ranges` is small enough to
/// vectorize: at most kMaxVectorizedPoints points, and at most
/// kMaxVectorizedRows 1-D vectors per value (the points over the innermost
/// loop's range).
static bool withinVectorLimits(ArrayRef<int64_t> ranges) {
  int64_t points = 1;
  for (int64_t range : ranges)
    points *= range;
  int64_t rows = ranges.empty() || ranges.back() <= 0
                     ? points
                     : points / ranges.back();
  return points <= kMaxVectorizedPoints && rows <= kMaxVectorizedRows;
}

/// Whether every operand and result of `op` has a static shape.
static bool hasStaticShapes(linalg::LinalgOp op) {
  auto isStatic = [](Type type) {
    auto shaped = dyn_cast<ShapedType>(type);
    return !shaped || shaped.hasStaticShape();
  };
  return llvm::all_of(op->getOperandTypes(), isStatic) &&
         llvm::all_of(op->getResultTypes(), isStatic);
}

namespace {
/// addf(mulf(a, b), c) on vectors, the product used once -> vector.fma: what
/// a generic multiply-accumulate body vectorizes to (LLVM does not contract
/// the two without fast-math flags).
struct FuseMultiplyAdd : OpRewritePattern<arith::AddFOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(arith::AddFOp add,
                                PatternRewriter &rewriter) const override {
    if (!isa<VectorType>(add.getType()))
      return failure();
    for (unsigned i = 0; i < 2; ++i) {
      auto mul = add->getOperand(i).getDefiningOp<arith::MulFOp>();
      if (!mul || !mul->hasOneUse())
        continue;
      rewriter.replaceOpWithNewOp<vector::FMAOp>(
          add, mul.getLhs(), mul.getRhs(), add->getOperand(1 - i));
      return success();
    }
    return failure();
  }
};
} // namespace

namespace {
/// transpose(broadcast(v)) of a 1-D `v` whose elements the broadcast
/// repeats along the other dims -> broadcast(shape_cast(v)) with `v` along
/// its transposed position: the vectorizer's way to read a small vector of
/// weights across a tile (w[f] for each row f of an output tile), which
/// would otherwise lower to a shuffle per element.
struct FoldTransposeOfBroadcast : OpRewritePattern<vector::TransposeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(vector::TransposeOp transpose,
                                PatternRewriter &rewriter) const override {
    auto broadcast =
        transpose.getVector().getDefiningOp<vector::BroadcastOp>();
    if (!broadcast)
      return failure();
    auto source = dyn_cast<VectorType>(broadcast.getSourceType());
    VectorType result = transpose.getResultVectorType();
    if (!source || source.getRank() != 1 || source.isScalable() ||
        result.isScalable())
      return failure();
    int64_t rank = result.getRank();
    // The broadcast's source dim is its result's last one.
    ArrayRef<int64_t> permutation = transpose.getPermutation();
    auto at = llvm::find(permutation, rank - 1);
    if (at == permutation.end())
      return failure();
    int64_t position = at - permutation.begin();
    if (result.getDimSize(position) != source.getDimSize(0))
      return failure();
    SmallVector<int64_t> shape(rank, 1);
    shape[position] = source.getDimSize(0);
    Value reshaped = vector::ShapeCastOp::create(
        rewriter, transpose.getLoc(),
        VectorType::get(shape, source.getElementType()),
        broadcast.getSource());
    rewriter.replaceOpWithNewOp<vector::BroadcastOp>(transpose, result,
                                                     reshaped);
    return success();
  }
};
} // namespace

/// Peels every scf.for inside `roots` not in `visited` whose step does not
/// divide its trip count, outermost first; a remainder that lands outside
/// every root (the root itself was peeled) becomes a root.
static void peelPartialIterations(TransformRewriter &rewriter,
                                  SmallVectorImpl<Operation *> &roots,
                                  llvm::SmallPtrSetImpl<Operation *> &visited) {
  for (size_t r = 0; r < roots.size(); ++r) {
    while (true) {
      scf::ForOp next;
      roots[r]->walk<WalkOrder::PreOrder>([&](scf::ForOp loop) {
        if (visited.contains(loop))
          return WalkResult::advance();
        next = loop;
        return WalkResult::interrupt();
      });
      if (!next)
        break;
      visited.insert(next);
      scf::ForOp partial;
      rewriter.setInsertionPoint(next);
      if (failed(scf::peelForLoopAndSimplifyBounds(rewriter, next, partial)))
        continue;
      visited.insert(partial);
      if (next.getOperation() == roots[r] || !roots[r]->isAncestor(partial))
        roots.push_back(partial);
    }
  }
}

/// The else version of a versioned scf.forall body computed on full tiles:
/// when the partial tile can be padded, builds in `elseBlock` (before
/// `before`, or at its end when null) the versioned ops cloned with the
/// tile sizes replaced by their largest values, on the tile's slices of
/// outer tensors padded with zeros to those sizes, and returns the values
/// to yield in place of `escaping` (the padded results cut back to the
/// partial tile). Returns nullopt, building nothing, when padding is not
/// known to be legal: it needs tensors (the forall's results), each size
/// used by the versioned ops only as the size of a slice of an outer tensor
/// (padded) or through values computed inside them, every escaping value
/// inserted into the shared output at the place of a padded slice of it
/// with its type, and no integer division or remainder in a linalg body
/// (the padded rows compute on zeros; their results are dropped). Only the
/// forall's dims are padded, which are parallel: no reduction reads the
/// padding. `hoisted` are the tile's slices of the shared outputs, which
/// versionPartialTiles took out of the versioned ops (both versions write
/// in place of them): they are padded like the versioned slices, and each
/// padded result cut back to the partial tile is inserted into the slice it
/// came from, so that this version, too, yields that slice.
static std::optional<SmallVector<Value>>
padPartialTile(TransformRewriter &rewriter, scf::ForallOp forall,
               ArrayRef<std::pair<Value, int64_t>> sizes,
               ArrayRef<Operation *> versioned,
               ArrayRef<tensor::ExtractSliceOp> hoisted,
               const SetVector<Value> &escaping, Block *elseBlock) {
  if (escaping.empty())
    return std::nullopt;
  auto isSize = [&](Value value) {
    return llvm::any_of(sizes, [&](auto &size) { return size.first == value; });
  };
  // Values of the versioned ops, their regions' arguments included, and
  // the hoisted slices (which belong to the tile).
  auto definedInside = [&](Value value) {
    Operation *def = value.getDefiningOp();
    if (auto argument = dyn_cast<BlockArgument>(value))
      def = argument.getOwner()->getParentOp();
    if (def && llvm::is_contained(hoisted, def))
      return true;
    return def && llvm::any_of(versioned, [&](Operation *op) {
             return op == def || op->isProperAncestor(def);
           });
  };
  // The slices to pad: top-level extract_slice ops of outer tensors whose
  // sizes are tile sizes.
  SmallVector<tensor::ExtractSliceOp> padded;
  SmallVector<Operation *> candidates(hoisted.begin(), hoisted.end());
  candidates.append(versioned.begin(), versioned.end());
  for (Operation *op : candidates) {
    auto slice = dyn_cast<tensor::ExtractSliceOp>(op);
    if (!slice || (definedInside(slice.getSource()) &&
                   !llvm::is_contained(hoisted, slice)))
      continue;
    bool dependent = false, plain = true;
    for (Value operand : slice->getOperands().drop_front()) {
      bool size = isSize(operand);
      dependent |= size;
      if (size && !llvm::is_contained(slice.getSizes(), operand))
        plain = false;
    }
    if (!dependent)
      continue;
    if (!plain || slice.getResultType().getRank() !=
                      slice.getSourceType().getRank())
      return std::nullopt;
    if (!slice.getResultType().getElementType().isIntOrFloat())
      return std::nullopt;
    padded.push_back(slice);
  }
  if (padded.empty())
    return std::nullopt;
  // Every other use of a size is inside the versioned ops and reads no
  // outer tensor or buffer at a place that depends on it: the values that
  // depend on a size, followed through the versioned ops (region
  // arguments of ops that take one, e.g. loops, included).
  DenseSet<Value> dependent;
  for (auto &[value, bound] : sizes)
    dependent.insert(value);
  bool changed = true;
  while (changed) {
    changed = false;
    for (Operation *top : versioned)
      top->walk([&](Operation *op) {
        if (llvm::is_contained(padded, op))
          return;
        if (!llvm::any_of(op->getOperands(), [&](Value v) {
              return dependent.contains(v);
            }))
          return;
        for (Value result : op->getResults())
          changed |= dependent.insert(result).second;
        for (Region &region : op->getRegions())
          for (Block &block : region)
            for (Value argument : block.getArguments())
              changed |= dependent.insert(argument).second;
      });
  }
  bool legal = true;
  for (Operation *top : versioned)
    top->walk([&](Operation *op) {
      if (llvm::is_contained(padded, op))
        return;
      // Division by the padding's zeros.
      if (isa<arith::DivSIOp, arith::DivUIOp, arith::RemSIOp, arith::RemUIOp,
              arith::CeilDivSIOp, arith::CeilDivUIOp, arith::FloorDivSIOp>(
              op) &&
          op->getParentOfType<linalg::LinalgOp>())
        legal = false;
      bool uses = llvm::any_of(op->getOperands(), [&](Value v) {
        return dependent.contains(v);
      });
      for (Value operand : op->getOperands()) {
        if (!isa<ShapedType>(operand.getType()) || definedInside(operand))
          continue;
        // An outer buffer, or an outer tensor read where a size decides.
        if (isa<BaseMemRefType>(operand.getType()) || uses)
          legal = false;
      }
    });
  if (!legal)
    return std::nullopt;
  // Each escaping value goes into the shared output where a padded slice
  // of it came from.
  auto terminator = cast<scf::InParallelOp>(forall.getBody()->getTerminator());
  SmallVector<tensor::ParallelInsertSliceOp> inserts;
  // Per escaping value, the hoisted slice it is written back into, or null.
  SmallVector<tensor::ExtractSliceOp> writeBack;
  for (Value value : escaping) {
    // Offsets and sizes computed before the versions are yielded as they
    // are, offsets computed inside them by their copies.
    writeBack.push_back({});
    if (!definedInside(value) ||
        (!isa<ShapedType>(value.getType()) && !dependent.contains(value))) {
      inserts.push_back({});
      continue;
    }
    tensor::ParallelInsertSliceOp insert;
    for (OpOperand &use : value.getUses())
      if (terminator->isAncestor(use.getOwner())) {
        insert = dyn_cast<tensor::ParallelInsertSliceOp>(use.getOwner());
        if (!insert || use.getOperandNumber() != 0)
          return std::nullopt;
      }
    if (!insert)
      return std::nullopt;
    // (Tiling and fusion compute the insert's offsets by ops of their own,
    // equal to the slice's.)
    auto same = [](ArrayRef<OpFoldResult> a, ArrayRef<OpFoldResult> b) {
      return a.size() == b.size() &&
             llvm::all_of(llvm::zip(a, b), [](auto pair) {
               auto [x, y] = pair;
               if (isEqualConstantIntOrValue(x, y))
                 return true;
               auto vx = dyn_cast<Value>(x), vy = dyn_cast<Value>(y);
               Operation *dx = vx ? vx.getDefiningOp() : nullptr;
               Operation *dy = vy ? vy.getDefiningOp() : nullptr;
               return dx && dy && isPure(dx) &&
                      OperationEquivalence::isEquivalentTo(
                          dx, dy, OperationEquivalence::IgnoreLocations);
             });
    };
    auto match = llvm::find_if(padded, [&](tensor::ExtractSliceOp slice) {
      return slice.getSource() == insert.getDest() &&
             slice.getType() == value.getType() &&
             same(slice.getMixedOffsets(), insert.getMixedOffsets()) &&
             same(slice.getMixedSizes(), insert.getMixedSizes()) &&
             same(slice.getMixedStrides(), insert.getMixedStrides());
    });
    if (match == padded.end())
      return std::nullopt;
    if (llvm::is_contained(hoisted, *match))
      writeBack.back() = *match;
    inserts.push_back(insert);
  }

  Location loc = forall.getLoc();
  rewriter.setInsertionPointToEnd(elseBlock);
  IRMapping mapping;
  for (auto &[value, bound] : sizes)
    mapping.map(value,
                arith::ConstantIndexOp::create(rewriter, loc, bound).getResult());
  for (Operation *op : candidates) {
    auto slice = dyn_cast<tensor::ExtractSliceOp>(op);
    bool isHoisted = slice && llvm::is_contained(hoisted, slice);
    if (!slice || !llvm::is_contained(padded, slice)) {
      if (!isHoisted)
        rewriter.clone(*op, mapping);
      continue;
    }
    // The partial slice (of the partial sizes), padded high with zeros to
    // the full tile; a hoisted slice is the partial slice itself.
    Operation *partial = op;
    if (!isHoisted) {
      partial = rewriter.clone(*op, mapping);
      for (OpOperand &operand : partial->getOpOperands())
        if (isSize(op->getOperand(operand.getOperandNumber())))
          operand.set(op->getOperand(operand.getOperandNumber()));
    }
    RankedTensorType type = slice.getResultType();
    SmallVector<int64_t> shape(type.getShape());
    unsigned dynamicIndex = 0;
    for (int64_t &dim : shape) {
      if (!ShapedType::isDynamic(dim))
        continue;
      Value size = slice.getSizes()[dynamicIndex++];
      for (auto &[value, bound] : sizes)
        if (value == size)
          dim = bound;
    }
    if (llvm::any_of(shape, ShapedType::isDynamic)) {
      // A size that is no tile size: the op stays as it was (cloned).
      mapping.map(slice.getResult(), partial->getResult(0));
      continue;
    }
    Type elementType = type.getElementType();
    Value zero = arith::ConstantOp::create(rewriter, loc, elementType,
                                           rewriter.getZeroAttr(elementType));
    Value pad = tensor::createPadHighOp(
        RankedTensorType::get(shape, elementType), partial->getResult(0), zero,
        /*nofold=*/false, loc, rewriter);
    Value cast = tensor::CastOp::create(rewriter, loc, type, pad);
    mapping.map(slice.getResult(), cast);
  }
  // The padded results, cut back to the partial tile.
  SmallVector<Value> results;
  for (auto [value, insert, slice] : llvm::zip(escaping, inserts, writeBack)) {
    if (!insert) {
      results.push_back(definedInside(value) ? mapping.lookup(value) : value);
      continue;
    }
    SmallVector<OpFoldResult> zeros(insert.getMixedSizes().size(),
                                    rewriter.getIndexAttr(0));
    SmallVector<OpFoldResult> ones(insert.getMixedSizes().size(),
                                   rewriter.getIndexAttr(1));
    Value cut = tensor::ExtractSliceOp::create(
        rewriter, loc, cast<RankedTensorType>(value.getType()),
        mapping.lookup(value), zeros, insert.getMixedSizes(), ones);
    if (slice)
      cut = tensor::InsertSliceOp::create(rewriter, loc, cut, slice, zeros,
                                          insert.getMixedSizes(), ones);
    results.push_back(cut);
  }
  return results;
}

/// Takes out of `versioned` (and moves before it) each slice of a shared
/// output of `forall` that the tile writes back in place: an
/// extract_slice of a shared output, its offsets, sizes and strides
/// computed before the versioned ops, with an escaping value of its type
/// inserted by the forall's terminator at the same place. Both versions
/// then compute in place of that one slice and yield it: bufferization
/// gives the scf.if's result the slice's buffer, and the copy of that
/// result into the shared output is a copy of a buffer onto itself, which
/// folds away. Left inside the versions (one static slice, one partial), the
/// two slices are two buffers: the result has a layout of unknown strides
/// and every tile, full ones included, is copied element by element
/// (`memrefCopy`) into the output. Returns the hoisted slices; `written`
/// gets, per hoisted slice, the escaping value written back into it.
static SmallVector<tensor::ExtractSliceOp>
hoistSharedOutputSlices(TransformRewriter &rewriter, scf::ForallOp forall,
                        SmallVectorImpl<Operation *> &versioned,
                        const SetVector<Value> &escaping,
                        SmallVectorImpl<Value> &written) {
  SmallVector<tensor::ExtractSliceOp> hoisted;
  if (versioned.empty())
    return hoisted;
  llvm::SmallPtrSet<Operation *, 16> inVersions(versioned.begin(),
                                                versioned.end());
  auto definedBefore = [&](Value value) {
    Operation *def = value.getDefiningOp();
    return !def || !inVersions.contains(def);
  };
  auto terminator = cast<scf::InParallelOp>(forall.getBody()->getTerminator());
  ValueRange outputs = forall.getRegionIterArgs();
  Operation *first = versioned.front();
  for (Operation *op : llvm::make_early_inc_range(versioned)) {
    auto slice = dyn_cast<tensor::ExtractSliceOp>(op);
    if (!slice || !llvm::is_contained(outputs, slice.getSource()) ||
        escaping.contains(slice.getResult()) ||
        !llvm::all_of(slice->getOperands(), definedBefore))
      continue;
    Value writtenBack;
    for (Operation &yielded : terminator.getYieldingOps()) {
      auto insert = dyn_cast<tensor::ParallelInsertSliceOp>(&yielded);
      if (!insert || insert.getDest() != slice.getSource() ||
          !escaping.contains(insert.getSource()) ||
          insert.getSourceType() != slice.getResultType())
        continue;
      auto same = [](ArrayRef<OpFoldResult> a, ArrayRef<OpFoldResult> b) {
        return a.size() == b.size() &&
               llvm::all_of(llvm::zip(a, b), [](auto pair) {
                 return isEqualConstantIntOrValue(std::get<0>(pair),
                                                  std::get<1>(pair));
               });
      };
      if (same(slice.getMixedOffsets(), insert.getMixedOffsets()) &&
          same(slice.getMixedSizes(), insert.getMixedSizes()) &&
          same(slice.getMixedStrides(), insert.getMixedStrides()))
        writtenBack = insert.getSource();
    }
    if (!writtenBack)
      continue;
    if (op != first)
      rewriter.moveOpBefore(op, first);
    else
      first = op->getNextNode();
    hoisted.push_back(slice);
    written.push_back(writtenBack);
  }
  llvm::erase_if(versioned, [&](Operation *op) {
    auto slice = dyn_cast<tensor::ExtractSliceOp>(op);
    return slice && llvm::is_contained(hoisted, slice);
  });
  return hoisted;
}

/// Splits the body of `forall` into two versions when some of its tile
/// sizes vary (the last tile along a loop whose tile size does not divide
/// the extent): `scf.if` all of them have their largest value, the body with
/// those sizes as constants (whose tiles are static, so peeling and
/// vectorization see full tiles), else the body as it was, or with `pad`
/// (where padPartialTile finds it legal) the body on full tiles again, its
/// partial tiles padded with zeros.
static void versionPartialTiles(TransformRewriter &rewriter,
                                scf::ForallOp forall, bool pad) {
  // A producer fused into the tile (a fill of the output) takes its slice
  // of the shared output at offsets that fusion computed anew: the same
  // affine.apply as the terminator's, but another value, and below the
  // tile sizes. Made one value, the slice is recognized as the one the
  // tile writes back, and hoisted out of the versions.
  DominanceInfo dominance;
  eliminateCommonSubExpressions(rewriter, dominance, forall);
  Block *body = forall.getBody();
  // The tile sizes: affine.min results at the top of the body with a
  // constant upper bound.
  SmallVector<std::pair<Value, int64_t>> sizes;
  for (Operation &op : body->without_terminator()) {
    auto min = dyn_cast<affine::AffineMinOp>(op);
    if (!min)
      continue;
    // The smallest constant among the min's expressions bounds it (read
    // from the map: no interface lookup, so that the plugin inside another
    // build of mlir-opt versions the same way).
    std::optional<int64_t> bound;
    for (AffineExpr expr : min.getAffineMap().getResults())
      if (auto constant = dyn_cast<AffineConstantExpr>(expr))
        bound = std::min(bound.value_or(constant.getValue()),
                         constant.getValue());
    if (bound && *bound > 1)
      sizes.push_back({min.getResult(), *bound});
  }
  if (sizes.empty() || body->without_terminator().empty())
    return;
  // The values the terminator takes from the body: the versions' results.
  Operation *terminator = body->getTerminator();
  SetVector<Value> escaping;
  terminator->walk([&](Operation *op) {
    for (Value operand : op->getOperands())
      if (Operation *def = operand.getDefiningOp();
          def && def->getBlock() == body)
        escaping.insert(operand);
  });
  Location loc = forall.getLoc();
  // The sizes are computed before the condition; everything after them is
  // versioned.
  Operation *lastSize = nullptr;
  for (auto &[value, bound] : sizes)
    if (!lastSize || lastSize->isBeforeInBlock(value.getDefiningOp()))
      lastSize = value.getDefiningOp();
  for (auto &[value, bound] : sizes)
    for (Operation *user : value.getUsers())
      if (user->getBlock() == body && user->isBeforeInBlock(lastSize))
        return; // A size used before all sizes are known: leave it.
  rewriter.setInsertionPointAfter(lastSize);
  Value full;
  for (auto &[value, bound] : sizes) {
    Value constant = arith::ConstantIndexOp::create(rewriter, loc, bound);
    Value equal = arith::CmpIOp::create(rewriter, loc,
                                        arith::CmpIPredicate::eq, value,
                                        constant);
    full = full ? arith::AndIOp::create(rewriter, loc, full, equal).getResult()
                : equal;
  }
  SmallVector<Operation *> versioned;
  for (Operation *op = full.getDefiningOp()->getNextNode(); op != terminator;
       op = op->getNextNode())
    versioned.push_back(op);
  if (versioned.empty())
    return;
  SmallVector<Value> written;
  SmallVector<tensor::ExtractSliceOp> hoisted =
      hoistSharedOutputSlices(rewriter, forall, versioned, escaping, written);
  // The versions go after the hoisted slices, which they compute in: a slice
  // that was the first versioned op stayed where it was, after the point
  // the condition was built at.
  rewriter.setInsertionPoint(versioned.empty() ? terminator
                                               : versioned.front());
  SmallVector<Type> types;
  for (Value value : escaping)
    types.push_back(value.getType());
  auto ifOp = scf::IfOp::create(rewriter, loc, types, full,
                                /*withElseRegion=*/true);
  // Without results (a memref nest: nothing escapes), the builder has
  // already ended both blocks with an scf.yield; the versions go before it.
  bool yields = types.empty();
  // Then: a copy with the sizes replaced by their constants.
  Block *thenBlock = ifOp.thenBlock();
  rewriter.setInsertionPointToStart(thenBlock);
  IRMapping mapping;
  for (auto &[value, bound] : sizes)
    mapping.map(value,
                arith::ConstantIndexOp::create(rewriter, loc, bound).getResult());
  // A hoisted slice has the partial sizes in its type: the full version
  // computes on a static slice of it (all of it, a view of the same buffer),
  // so that the ops that take it whole (a fused fill) are static and
  // vectorized, and inserts its result back where it came from (in place).
  SmallVector<SmallVector<OpFoldResult>> fullSizes(hoisted.size());
  for (auto [slice, full] : llvm::zip(hoisted, fullSizes)) {
    RankedTensorType type = slice.getResultType();
    if (type.getRank() != slice.getSourceType().getRank())
      continue;
    bool partial = false;
    for (OpFoldResult size : slice.getMixedSizes()) {
      auto value = dyn_cast<Value>(size);
      auto *bound = llvm::find_if(
          sizes, [&](auto &entry) { return value && entry.first == value; });
      partial |= bound != sizes.end();
      full.push_back(bound != sizes.end() ? rewriter.getIndexAttr(bound->second)
                                          : size);
    }
    if (!partial) {
      full.clear();
      continue;
    }
    SmallVector<OpFoldResult> zeros(full.size(), rewriter.getIndexAttr(0));
    SmallVector<OpFoldResult> ones(full.size(), rewriter.getIndexAttr(1));
    Value whole = tensor::ExtractSliceOp::create(rewriter, loc,
                                                 slice.getResult(), zeros,
                                                 full, ones);
    mapping.map(slice.getResult(),
                tensor::CastOp::create(rewriter, loc, type, whole).getResult());
  }
  for (Operation *op : versioned)
    rewriter.clone(*op, mapping);
  SmallVector<Value> thenResults;
  for (Value value : escaping) {
    Value result = mapping.lookupOrDefault(value);
    for (auto [slice, writtenValue, full] :
         llvm::zip(hoisted, written, fullSizes)) {
      if (writtenValue != value || full.empty())
        continue;
      SmallVector<OpFoldResult> zeros(full.size(), rewriter.getIndexAttr(0));
      SmallVector<OpFoldResult> ones(full.size(), rewriter.getIndexAttr(1));
      auto wholeType = tensor::ExtractSliceOp::inferResultType(
          slice.getResultType(), full);
      Value whole = tensor::CastOp::create(rewriter, loc, wholeType, result);
      result = tensor::InsertSliceOp::create(rewriter, loc, whole,
                                             slice.getResult(), zeros, full,
                                             ones);
      break;
    }
    thenResults.push_back(result);
  }
  if (!yields)
    scf::YieldOp::create(rewriter, loc, thenResults);
  Block *elseBlock = ifOp.elseBlock();
  // Else, padded: full tiles on padded slices, the original ops erased;
  // else the original ops, moved.
  std::optional<SmallVector<Value>> paddedResults;
  if (pad)
    paddedResults = padPartialTile(rewriter, forall, sizes, versioned, hoisted,
                                   escaping, elseBlock);
  if (paddedResults) {
    rewriter.setInsertionPointToEnd(elseBlock);
    scf::YieldOp::create(rewriter, loc, *paddedResults);
  } else {
    for (Operation *op : versioned) {
      if (yields)
        rewriter.moveOpBefore(op, elseBlock->getTerminator());
      else
        rewriter.moveOpBefore(op, elseBlock, elseBlock->end());
    }
    if (!yields) {
      rewriter.setInsertionPointToEnd(elseBlock);
      scf::YieldOp::create(rewriter, loc, escaping.getArrayRef());
    }
  }
  // The terminator takes the versions' results.
  for (auto [value, result] : llvm::zip(escaping, ifOp.getResults()))
    rewriter.replaceUsesWithIf(value, result, [&](OpOperand &use) {
      return terminator->isAncestor(use.getOwner());
    });
  if (paddedResults)
    for (Operation *op : llvm::reverse(versioned))
      rewriter.eraseOp(op);
}

/// Cuts each linalg op inside `roots` whose loops have sizes known only at
/// run time into slices of size 1 along those loops, which are static.
static void sliceDynamicLoops(TransformRewriter &rewriter,
                              ArrayRef<Operation *> roots) {
  SmallVector<linalg::LinalgOp> dynamicOps;
  for (Operation *root : roots)
    root->walk([&](linalg::LinalgOp op) {
      if (!hasStaticShapes(op))
        dynamicOps.push_back(op);
    });
  for (linalg::LinalgOp op : dynamicOps) {
    SmallVector<OpFoldResult> tileSizes;
    bool tiles = false;
    for (int64_t range : op.getStaticLoopRanges()) {
      int64_t size = ShapedType::isDynamic(range) ? 1 : 0;
      tiles |= size > 0;
      tileSizes.push_back(rewriter.getIndexAttr(size));
    }
    if (!tiles)
      continue;
    scf::SCFTilingOptions options;
    options.setTileSizes(tileSizes);
    rewriter.setInsertionPoint(op);
    FailureOr<scf::SCFTilingResult> tiled = scf::tileUsingSCF(
        rewriter, cast<TilingInterface>(op.getOperation()), options);
    if (failed(tiled))
      continue;
    rewriter.replaceOp(op, tiled->replacements);
  }
}

/// Pads each contraction inside `roots` of static shape (on tensors, that
/// step 4 of vectorize_tiles vectorizes, one result) whose output's innermost
/// dimension is a parallel loop with a remainder extent: no power of two,
/// and smaller than the power of two that another such contraction inside
/// has there (29 columns beside full 32-column register tiles, peeled).
/// That loop is padded with zeros to the next power of two, the operands
/// that it indexes padded high (`tensor.pad`), the result cut back. Its
/// vectors then have power-of-two lanes: a 14x29 accumulator tile is 14
/// vectors of 29 lanes, which LLVM takes apart element by element on every
/// reduction step (1348 instructions per step, spilled, against 48 for the
/// 14x32 micro-kernel), while a 14x32 tile runs the micro-kernel itself,
/// its transfers masked at the edge. Legal for contractions: a padded
/// parallel loop adds products of zeros to output elements that are cut
/// away, and no reduction reads them. Element types without a zero
/// attribute are left as they are.
static void padRemainderColumns(TransformRewriter &rewriter,
                                ArrayRef<Operation *> roots) {
  SmallVector<std::pair<linalg::LinalgOp, int64_t>> remainders;
  // The widest power-of-two extent of a full tile.
  int64_t full = 0;
  for (Operation *root : roots)
    root->walk([&](linalg::LinalgOp op) {
      if (!hasStaticShapes(op) || !op.hasPureTensorSemantics() ||
          op->getNumResults() != 1 || op.getNumDpsInits() != 1 ||
          !linalg::isaContractionOpInterface(op))
        return;
      SmallVector<int64_t> ranges = op.getStaticLoopRanges();
      AffineMap output = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
      // Only what step 4 vectorizes is padded.
      if (!withinVectorLimits(ranges) || output.getNumResults() == 0)
        return;
      auto dim = dyn_cast<AffineDimExpr>(output.getResults().back());
      if (!dim || op.getIteratorTypesArray()[dim.getPosition()] !=
                      utils::IteratorType::parallel)
        return;
      int64_t extent = ranges[dim.getPosition()];
      if (extent <= 1)
        return;
      if (llvm::isPowerOf2_64(extent))
        full = std::max(full, extent);
      else
        remainders.push_back({op, dim.getPosition()});
    });
  for (auto [op, dim] : remainders) {
    int64_t extent = op.getStaticLoopRanges()[dim];
    if (extent > full)
      continue;
    SmallVector<Attribute> zeros;
    for (OpOperand &operand : op->getOpOperands()) {
      Type element = getElementTypeOrSelf(operand.get().getType());
      zeros.push_back(rewriter.getZeroAttr(element));
    }
    if (llvm::is_contained(zeros, Attribute()))
      continue;
    linalg::LinalgPaddingOptions options;
    options.setPaddingDimensions({dim})
        .setPadToMultipleOf({int64_t(llvm::PowerOf2Ceil(extent))})
        .setPaddingValues(zeros)
        .setCopyBackOp(linalg::LinalgPaddingOptions::CopyBackOp::None);
    rewriter.setInsertionPoint(op);
    linalg::LinalgOp padded;
    SmallVector<Value> replacements;
    SmallVector<tensor::PadOp> pads;
    if (failed(linalg::rewriteAsPaddedOp(rewriter, op, options, padded,
                                         replacements, pads)))
      continue;
    rewriter.replaceOp(op, replacements);
  }
}

/// Gives static types to the tensor operands of `op` whose sizes follow from
/// its loop ranges when those are all static: a window's input slice, whose
/// size (output tile + window - 1) the tiling computed in a form that
/// canonicalization does not fold once the output tile is static. The cast
/// states what tiling guarantees.
static void castToStaticOperands(TransformRewriter &rewriter,
                                 linalg::LinalgOp op) {
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  if (llvm::any_of(ranges, ShapedType::isDynamic) || !op.hasPureTensorSemantics())
    return;
  rewriter.setInsertionPoint(op);
  bool changed = false;
  for (OpOperand &operand : op->getOpOperands()) {
    auto type = dyn_cast<RankedTensorType>(operand.get().getType());
    if (!type || type.hasStaticShape())
      continue;
    AffineMap map = op.getMatchingIndexingMap(&operand);
    SmallVector<int64_t> shape(type.getShape());
    bool known = true;
    for (auto [dim, result] : llvm::enumerate(map.getResults())) {
      if (!ShapedType::isDynamic(shape[dim]))
        continue;
      // The largest index plus one, for a sum of loops with coefficient 1
      // (or a constant 0).
      int64_t size = 1;
      bool plain = true;
      result.walk([&](AffineExpr expr) {
        if (auto d = dyn_cast<AffineDimExpr>(expr))
          size += ranges[d.getPosition()] - 1;
        else if (auto binary = dyn_cast<AffineBinaryOpExpr>(expr)) {
          if (binary.getKind() != AffineExprKind::Add)
            plain = false;
        } else if (auto constant = dyn_cast<AffineConstantExpr>(expr)) {
          if (constant.getValue() != 0)
            plain = false;
        }
      });
      if (!plain) {
        known = false;
        break;
      }
      shape[dim] = size;
    }
    if (!known)
      continue;
    Value cast = tensor::CastOp::create(
        rewriter, op.getLoc(), RankedTensorType::get(shape, type.getElementType()),
        operand.get());
    rewriter.modifyOpInPlace(op, [&] { operand.set(cast); });
    changed = true;
  }
  if (!changed)
    return;
  // Results take the types of their (now static) inits; users see the old
  // types through casts.
  rewriter.setInsertionPointAfter(op);
  for (auto [opResult, opInit] :
       llvm::zip(op->getResults(), op.getDpsInits())) {
    Value result = opResult;
    Type newType = opInit.getType();
    Type oldType = result.getType();
    if (oldType == newType)
      continue;
    rewriter.modifyOpInPlace(op, [&] { result.setType(newType); });
    Value back =
        tensor::CastOp::create(rewriter, op.getLoc(), oldType, result);
    rewriter.replaceAllUsesExcept(result, back, back.getDefiningOp());
  }
}

DiagnosedSilenceableFailure tuner::transform::VectorizeTilesOp::applyToOne(
    TransformRewriter &rewriter, Operation *target,
    ApplyToEachResultList &results, TransformState &state) {
  MLIRContext *context = target->getContext();
  Location targetLoc = target->getLoc();
  // The rewrites happen inside a wrapper around the target, so that they
  // also reach the target itself (peeled, or its remainder promoted to
  // straight-line code) without touching its neighbours; the wrapper is
  // inlined again at the end.
  Location loc = target->getLoc();
  // Whether the target holds linalg ops before any rewrite: if all of them
  // fold away below (a copy into an empty tensor), nothing is left to
  // vectorize, which is not a failure; a target that never held one is.
  bool hadLinalgOps = target
                          ->walk([](linalg::LinalgOp) {
                            return WalkResult::interrupt();
                          })
                          .wasInterrupted();
  rewriter.setInsertionPoint(target);
  auto wrapper =
      scf::ExecuteRegionOp::create(rewriter, loc, target->getResultTypes());
  Block *wrapperBlock = rewriter.createBlock(&wrapper.getRegion());
  rewriter.replaceAllUsesWith(target->getResults(), wrapper.getResults());
  rewriter.moveOpBefore(target, wrapperBlock, wrapperBlock->end());
  rewriter.setInsertionPointToEnd(wrapperBlock);
  scf::YieldOp::create(rewriter, loc, target->getResults());
  auto unwrap = [&] {
    Block *block = &wrapper.getRegion().front();
    auto yield = cast<scf::YieldOp>(block->getTerminator());
    SmallVector<Value> results(yield.getOperands());
    rewriter.eraseOp(yield);
    rewriter.inlineBlockBefore(block, wrapper);
    rewriter.replaceOp(wrapper, results);
  };
  SmallVector<Operation *> roots = {wrapper};
  auto canonicalize = [&] {
    RewritePatternSet patterns =
        linalg::getLinalgTilingCanonicalizationPatterns(context);
    mlir::scf::populateSCFForLoopCanonicalizationPatterns(patterns);
    // Folds the casts that make a full tile's static type dynamic into the
    // linalg ops that use them.
    context->getOrLoadDialect<linalg::LinalgDialect>()
        ->getCanonicalizationPatterns(patterns);
    scf::IfOp::getCanonicalizationPatterns(patterns, context);
    // A peeled remainder of one iteration becomes straight-line code, and
    // the sizes it computes from its induction variable constants.
    scf::ForOp::getCanonicalizationPatterns(patterns, context);
    affine::AffineApplyOp::getCanonicalizationPatterns(patterns, context);
    affine::AffineMinOp::getCanonicalizationPatterns(patterns, context);
    applyInside(rewriter, roots, std::move(patterns));
  };

  // 1. Version the tiles of an scf.forall (which cannot be peeled) on
  // whether they are full, peel partial iterations of scf.for loops, then
  // make the sizes of full tiles static.
  if (auto forall = dyn_cast<scf::ForallOp>(target))
    versionPartialTiles(rewriter, forall, getPartial() == "pad");
  llvm::SmallPtrSet<Operation *, 16> visited;
  peelPartialIterations(rewriter, roots, visited);
  canonicalize();

  // 2. What stays partial (the last tile of an scf.forall) is cut into
  // slices of size 1 along its dynamic loops, which are static; operands
  // whose sizes follow from static loops get static types.
  sliceDynamicLoops(rewriter, roots);
  canonicalize();
  {
    SmallVector<linalg::LinalgOp> ops;
    for (Operation *root : roots)
      root->walk([&](linalg::LinalgOp op) {
        if (!hasStaticShapes(op))
          ops.push_back(op);
      });
    for (linalg::LinalgOp op : ops)
      castToStaticOperands(rewriter, op);
    canonicalize();
  }

  // Stencils' shifted reads (and constant indices) become windows, which
  // the vectorizer reads with plain transfers.
  if (tuner::sliceShiftedOperands(rewriter, roots))
    canonicalize();
  // Convolution tiles read input windows whose static sizes hide behind
  // casts.
  tuner::foldCastsIntoConvolutions(rewriter, roots);

  // 3. Convolution tiles the vectorizer can take. A tile whose windows'
  // reduction loops (kh, kw) all have size 1 reads every operand at plain
  // loop indices once those unit loops are dropped: it becomes a generic
  // op, vectorized along the output's contiguous dimension (good for few
  // channels). A 2-D convolution tile whose window is cut to size 1 along
  // one dimension becomes a 1-D convolution, which the vectorizer handles
  // along the channels.
  {
    SmallVector<linalg::LinalgOp> unitWindows;
    for (Operation *root : roots)
      root->walk([&](linalg::LinalgOp op) {
        SmallVector<int64_t> ranges = op.getStaticLoopRanges();
        SmallVector<utils::IteratorType> iterators =
            op.getIteratorTypesArray();
        bool window = false, unit = true;
        for (AffineMap map : op.getIndexingMapsArray())
          for (AffineExpr result : map.getResults()) {
            if (!isa<AffineBinaryOpExpr>(result))
              continue;
            window = true;
            result.walk([&](AffineExpr expr) {
              if (auto dim = dyn_cast<AffineDimExpr>(expr))
                if (iterators[dim.getPosition()] ==
                        utils::IteratorType::reduction &&
                    ranges[dim.getPosition()] != 1)
                  unit = false;
            });
          }
        if (window && unit)
          unitWindows.push_back(op);
      });
    for (linalg::LinalgOp op : unitWindows) {
      rewriter.setInsertionPoint(op);
      FailureOr<linalg::GenericOp> generic =
          isa<linalg::GenericOp>(op)
              ? FailureOr<linalg::GenericOp>(cast<linalg::GenericOp>(op))
              : linalg::generalizeNamedOp(rewriter, op);
      if (failed(generic))
        continue;
      // On buffers, rank-reducing subviews (upstream's dropUnitDims keeps a
      // tile's strided memref whole, and with it the window indices).
      if (generic->hasPureBufferSemantics()) {
        (void)tuner::dropBufferUnitDims(rewriter, *generic);
        continue;
      }
      // Slices, not reshapes: the accumulator's transfers then stay
      // subsets of the loop's iteration argument, which hoisting needs.
      linalg::ControlDropUnitDims control;
      control.rankReductionStrategy = linalg::ControlDropUnitDims::
          RankReductionStrategy::ExtractInsertSlice;
      FailureOr<linalg::DropUnitDimsResult> dropped =
          linalg::dropUnitDims(rewriter, *generic, control);
      if (succeeded(dropped))
        rewriter.replaceOp(*generic, dropped->replacements);
    }
  }
  canonicalize();
  {
    RewritePatternSet patterns(context);
    linalg::populateDecomposeConvolutionPatterns(patterns);
    applyInside(rewriter, roots, std::move(patterns));
  }
  // Upstream's patterns decompose tensors only; the same on buffers.
  tuner::decomposeBufferConvolutions(rewriter, roots);
  canonicalize();

  // Remainder tiles whose vector lanes would be no power of two are padded
  // to one.
  if (getPadRemainders()) {
    padRemainderColumns(rewriter, roots);
    canonicalize();
  }

  // 4. Vectorize each linalg op.
  SmallVector<linalg::LinalgOp> ops;
  for (Operation *root : roots)
    root->walk([&](linalg::LinalgOp op) { ops.push_back(op); });
  size_t vectorized = 0;
  bool convolutions = false;
  for (linalg::LinalgOp op : ops) {
    rewriter.setInsertionPoint(op);
    FailureOr<linalg::VectorizationResult> result = failure();
    auto vectorize = [&](linalg::LinalgOp target) {
      return linalg::vectorize(rewriter, target, /*inputVectorSizes=*/{},
                               /*inputScalableVecDims=*/{},
                               /*vectorizeNDExtract=*/false,
                               /*flatten1DDepthwiseConv=*/false,
                               /*assumeDynamicDimsMatchVecSizes=*/false,
                               /*createNamedContraction=*/true);
    };
    if (hasStaticShapes(op) && withinVectorLimits(op.getStaticLoopRanges())) {
      result = vectorize(op);
      // A named contraction whose indexing maps broadcast an operand
      // (explicit indexing_maps) is refused as it is; as a linalg.generic
      // it becomes the same vector.contract.
      if (failed(result) && !isa<linalg::GenericOp>(op) &&
          linalg::isaContractionOpInterface(op)) {
        FailureOr<linalg::GenericOp> generic =
            linalg::generalizeNamedOp(rewriter, op);
        if (succeeded(generic)) {
          op = *generic;
          result = vectorize(op);
        }
      }
    }
    if (failed(result))
      continue;
    ++vectorized;
    convolutions |= linalg::isaConvolutionOpInterface(op);
    if (op->getNumResults())
      rewriter.replaceOp(op, result->replacements);
    else
      rewriter.eraseOp(op);
  }
  // No linalg op left at all, when the target held some (canonicalization
  // folded them away), is nothing to vectorize, not a failure.
  if (vectorized == 0 && (!ops.empty() || !hadLinalgOps)) {
    unwrap();
    DiagnosedSilenceableFailure diag =
        emitSilenceableError() << "no linalg op inside could be vectorized";
    diag.attachNote(targetLoc) << "target";
    return diag;
  }
  {
    RewritePatternSet patterns(context);
    vector::populateVectorTransferPermutationMapLoweringPatterns(patterns);
    vector::populateVectorReductionToContractPatterns(patterns);
    linalg::populateLinalgTilingCanonicalizationPatterns(patterns);
    // Folds, e.g., the transpose of a broadcast into one broadcast.
    context->getOrLoadDialect<vector::VectorDialect>()
        ->getCanonicalizationPatterns(patterns);
    patterns.add<FoldTransposeOfBroadcast, FuseMultiplyAdd>(context);
    // The padded remainders' transfers read and write the unpadded tiles,
    // out of bounds where padded (masked).
    linalg::populatePadOpVectorizationPatterns(patterns);
    applyInside(rewriter, roots, std::move(patterns));
  }

  // 5. Hoist loop-invariant subsets, innermost loops first.
  for (Operation *root : roots) {
    SmallVector<scf::ForOp> loops;
    root->walk([&](scf::ForOp loop) { loops.push_back(loop); });
    for (scf::ForOp loop : loops)
      (void)hoistLoopInvariantSubsets(rewriter, loop);
    // On buffers, the same for transfers of memrefs that nothing else in
    // the loop writes.
    linalg::hoistRedundantVectorTransfers(root, /*verifyNonZeroTrip=*/true);
  }

  // The vectors of 1-D convolutions along their output width: unit
  // reductions as FMAs, unit dims dropped.
  if (convolutions) {
    RewritePatternSet patterns(context);
    tuner::populateConvolutionVectorPatterns(patterns);
    applyInside(rewriter, roots, std::move(patterns));
  }

  // 6. Lower the contractions.
  {
    RewritePatternSet patterns(context);
    vector::populateVectorContractLoweringPatterns(
        patterns, *vector::symbolizeVectorContractLowering(getLowering()));
    vector::populateVectorOuterProductLoweringPatterns(patterns);
    vector::populateVectorTransferPermutationMapLoweringPatterns(patterns);
    linalg::populateLinalgTilingCanonicalizationPatterns(patterns);
    applyInside(rewriter, roots, std::move(patterns));
  }

  // 7. Unroll the innermost loops.
  if (getUnroll() > 1)
    for (Operation *root : roots) {
      SmallVector<scf::ForOp> innermost;
      root->walk([&](scf::ForOp loop) {
        bool hasInner = false;
        loop.getBody()->walk([&](scf::ForOp) { hasInner = true; });
        if (!hasInner)
          innermost.push_back(loop);
      });
      for (scf::ForOp loop : innermost)
        (void)loopUnrollByFactor(loop, getUnroll());
    }
  unwrap();
  return DiagnosedSilenceableFailure::success();
}

//===----------------------------------------------------------------------===//
// FuseWindowProducerOp
//===----------------------------------------------------------------------===//

namespace {
/// The innermost slice of a chain of window slices from the producer's
/// result into the containing op, and the slices before it on the chain.
struct ProducerWindow {
  tensor::ExtractSliceOp slice;
  SmallVector<tensor::ExtractSliceOp> chain;
};

bool isWindowSlice(Operation *op) {
  auto slice = dyn_cast<tensor::ExtractSliceOp>(op);
  return slice &&
         slice.getSourceType().getRank() == slice.getResultType().getRank() &&
         llvm::all_of(slice.getMixedStrides(), [](OpFoldResult stride) {
           return isConstantIntValue(stride, 1);
         });
}
} // namespace

void tuner::transform::FuseWindowProducerOp::getEffects(
    SmallVectorImpl<MemoryEffects::EffectInstance> &effects) {
  consumesHandle(getProducerOpMutable(), effects);
  onlyReadsHandle(getContainingOpMutable(), effects);
  producesHandle(getOperation()->getOpResults(), effects);
  modifiesPayload(effects);
}

DiagnosedSilenceableFailure tuner::transform::FuseWindowProducerOp::apply(
    TransformRewriter &rewriter, TransformResults &results,
    TransformState &state) {
  auto producers = llvm::to_vector(state.getPayloadOps(getProducerOp()));
  auto containers = llvm::to_vector(state.getPayloadOps(getContainingOp()));
  if (producers.size() != 1 || containers.size() != 1)
    return emitSilenceableError()
           << "expected one producer and one containing op, got "
           << producers.size() << " and " << containers.size();
  Operation *producer = producers.front();
  Operation *container = containers.front();
  auto tileable = dyn_cast<TilingInterface>(producer);
  auto resultType =
      producer->getNumResults() == 1
          ? dyn_cast<RankedTensorType>(producer->getResult(0).getType())
          : RankedTensorType();
  if (!tileable || !resultType)
    return emitSilenceableError()
           << "the producer '" << producer->getName()
           << "' is not one tileable op with one ranked tensor result";
  unsigned rank = resultType.getRank();

  // The chains of window slices from the producer's result into the
  // container, down to the innermost slices (those whose users are not all
  // window slices: the consumer's tiles).
  SmallVector<ProducerWindow> windows;
  std::function<LogicalResult(Value, SmallVector<tensor::ExtractSliceOp> &)>
      collect = [&](Value value, SmallVector<tensor::ExtractSliceOp> &chain)
      -> LogicalResult {
    for (Operation *user : value.getUsers()) {
      bool inside = container->isProperAncestor(user);
      if (!isWindowSlice(user)) {
        // Outside, another reader keeps the producer; inside, the consumer
        // must read it through a window.
        if (inside)
          return failure();
        continue;
      }
      auto slice = cast<tensor::ExtractSliceOp>(user);
      Value result = slice.getResult();
      bool innermost =
          inside && (result.use_empty() ||
                     !llvm::all_of(result.getUsers(), isWindowSlice));
      if (innermost) {
        windows.push_back({slice, chain});
        continue;
      }
      chain.push_back(slice);
      if (failed(collect(result, chain)))
        return failure();
      chain.pop_back();
    }
    return success();
  };
  SmallVector<tensor::ExtractSliceOp> chain;
  if (failed(collect(producer->getResult(0), chain)))
    return emitSilenceableError()
           << "the producer is read inside the containing op other than "
              "through unit-stride, rank-preserving tensor.extract_slice "
              "windows";
  if (windows.empty())
    return emitSilenceableError()
           << "the producer has no slice inside the containing op";

  // The box: the windows' offsets differ by constants and their sizes are
  // equal; it is built before the first slice.
  Block *block = windows.front().slice->getBlock();
  tensor::ExtractSliceOp first = windows.front().slice;
  for (const ProducerWindow &window : windows) {
    if (window.slice->getBlock() != block)
      return emitSilenceableError()
             << "the producer's slices inside the containing op are not in "
                "one block";
    if (window.slice->isBeforeInBlock(first))
      first = window.slice;
  }
  DominanceInfo dominance(container);
  auto dominatesFirst = [&](OpFoldResult ofr) {
    auto value = dyn_cast<Value>(ofr);
    return !value || dominance.properlyDominates(value, first);
  };
  for (ProducerWindow &window : windows) {
    bool before =
        llvm::all_of(window.slice.getMixedOffsets(), dominatesFirst) &&
        llvm::all_of(window.slice.getMixedSizes(), dominatesFirst);
    for (tensor::ExtractSliceOp outer : window.chain)
      before &= llvm::all_of(outer.getMixedOffsets(), dominatesFirst);
    if (!before)
      return emitSilenceableError()
             << "a slice's offsets or sizes are computed after the first "
                "slice of the producer";
  }
  rewriter.setInsertionPoint(first);
  // The index arithmetic below folds to constants where it can; what it
  // leaves unused is erased at the end.
  llvm::DenseSet<Operation *> existing;
  for (Operation &op : *block)
    existing.insert(&op);
  auto eraseUnusedArithmetic = [&] {
    for (Operation &op : llvm::make_early_inc_range(llvm::reverse(*block)))
      if (!existing.contains(&op) && isa<affine::AffineApplyOp>(op) &&
          op.use_empty())
        rewriter.eraseOp(&op);
  };
  Location loc = producer->getLoc();
  AffineExpr s0, s1;
  bindSymbols(rewriter.getContext(), s0, s1);
  // Offsets relative to the producer's result: the sums along the chains.
  SmallVector<SmallVector<OpFoldResult>> offsets;
  for (ProducerWindow &window : windows) {
    SmallVector<OpFoldResult> total = window.slice.getMixedOffsets();
    for (tensor::ExtractSliceOp outer : window.chain)
      for (auto [sum, add] : llvm::zip(total, outer.getMixedOffsets()))
        sum = affine::makeComposedFoldedAffineApply(rewriter, loc, s0 + s1,
                                                    {sum, add});
    offsets.push_back(std::move(total));
  }
  SmallVector<SmallVector<int64_t>> deltas(windows.size());
  SmallVector<int64_t> low(rank, 0), high(rank, 0);
  SmallVector<OpFoldResult> sizes = windows.front().slice.getMixedSizes();
  for (auto [k, window] : llvm::enumerate(windows)) {
    for (unsigned d = 0; d < rank; ++d) {
      if (!isEqualConstantIntOrValue(window.slice.getMixedSizes()[d],
                                     sizes[d])) {
        eraseUnusedArithmetic();
        return emitSilenceableError()
               << "the producer's slices differ in size along dim " << d;
      }
      std::optional<int64_t> delta =
          getConstantIntValue(affine::makeComposedFoldedAffineApply(
              rewriter, loc, s0 - s1, {offsets[k][d], offsets[0][d]}));
      if (!delta) {
        eraseUnusedArithmetic();
        return emitSilenceableError()
               << "the offsets of the producer's slices along dim " << d
               << " do not differ by a constant";
      }
      deltas[k].push_back(*delta);
      low[d] = std::min(low[d], *delta);
      high[d] = std::max(high[d], *delta);
    }
  }
  SmallVector<OpFoldResult> boxOffsets, boxSizes;
  for (unsigned d = 0; d < rank; ++d) {
    boxOffsets.push_back(affine::makeComposedFoldedAffineApply(
        rewriter, loc, s0 + low[d], {offsets[0][d]}));
    boxSizes.push_back(affine::makeComposedFoldedAffineApply(
        rewriter, loc, s0 + (high[d] - low[d]), {sizes[d]}));
  }
  FailureOr<TilingResult> tiled =
      tileable.generateResultTileValue(rewriter, 0, boxOffsets, boxSizes);
  if (failed(tiled) || tiled->tiledValues.size() != 1) {
    eraseUnusedArithmetic();
    return emitSilenceableError() << "the producer could not be tiled";
  }
  Value box = tiled->tiledValues.front();
  SmallVector<OpFoldResult> unitStrides(rank, rewriter.getIndexAttr(1));
  for (auto [k, window] : llvm::enumerate(windows)) {
    SmallVector<OpFoldResult> relative;
    for (unsigned d = 0; d < rank; ++d)
      relative.push_back(rewriter.getIndexAttr(deltas[k][d] - low[d]));
    rewriter.setInsertionPoint(window.slice);
    auto read = tensor::ExtractSliceOp::create(
        rewriter, window.slice.getLoc(), window.slice.getType(), box, relative,
        window.slice.getMixedSizes(), unitStrides);
    rewriter.replaceOp(window.slice, read.getResult());
  }
  // The slices on the chains and the producer, when nothing else reads
  // them (innermost first).
  SmallVector<Operation *> dead;
  for (ProducerWindow &window : windows)
    for (tensor::ExtractSliceOp outer : llvm::reverse(window.chain))
      if (!llvm::is_contained(dead, outer.getOperation()))
        dead.push_back(outer);
  bool erased = true;
  while (erased) {
    erased = false;
    for (Operation *&op : dead)
      if (op && op->use_empty()) {
        rewriter.eraseOp(op);
        op = nullptr;
        erased = true;
      }
  }
  eraseUnusedArithmetic();
  Operation *fused = tiled->tiledOps.empty() ? box.getDefiningOp()
                                             : tiled->tiledOps.front();
  if (producer->use_empty())
    rewriter.eraseOp(producer);
  results.set(cast<OpResult>(getFusedOp()), {fused});
  results.set(cast<OpResult>(getNewContainingOp()), {container});
  return DiagnosedSilenceableFailure::success();
}

//===----------------------------------------------------------------------===//
// Registration
//===----------------------------------------------------------------------===//

#define GET_OP_CLASSES
#include "tuner/Schedule/TunerTransformOps.cpp.inc"

namespace {
class TunerTransformExtension
    : public mlir::transform::TransformDialectExtension<
          TunerTransformExtension> {
public:
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(TunerTransformExtension)
  using Base::Base;

  void init() {
    declareGeneratedDialect<affine::AffineDialect>();
    declareGeneratedDialect<arith::ArithDialect>();
    declareGeneratedDialect<scf::SCFDialect>();
    declareGeneratedDialect<tensor::TensorDialect>();
    declareGeneratedDialect<vector::VectorDialect>();
    declareGeneratedDialect<linalg::LinalgDialect>();
    // The vectorizer pads transfers with ub.poison.
    declareGeneratedDialect<ub::UBDialect>();
    // tuner.gpu_finalize makes copy kernels and device buffers.
    declareGeneratedDialect<gpu::GPUDialect>();
    declareGeneratedDialect<memref::MemRefDialect>();
    registerTransformOps<
#define GET_OP_LIST
#include "tuner/Schedule/TunerTransformOps.cpp.inc"
        >();
  }
};
} // namespace

void tuner::registerTunerDialectExtensions(DialectRegistry &registry) {
  registry.addExtensions<TunerTransformExtension>();
}
