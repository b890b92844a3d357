//===- TunerTransformOps.cpp - The tuner's transform ops ------------------===//

#include "tuner/Schedule/TunerTransformOps.h"
#include "tuner/Schedule/TransformExtension.h"
#include "tuner/Schedule/WindowTransforms.h"

#include "mlir/Dialect/Affine/Analysis/AffineAnalysis.h"
#include "mlir/Dialect/Affine/Analysis/LoopAnalysis.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Affine/LoopUtils.h"
#include "mlir/Dialect/Affine/Utils.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Hoisting.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/Patterns.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/Dialect/SCF/Transforms/Transforms.h"
#include "mlir/Dialect/SCF/Utils/Utils.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Transform/IR/TransformDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/Vector/Transforms/LoweringPatterns.h"
#include "mlir/Dialect/Vector/Transforms/VectorTransforms.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "mlir/Transforms/LoopInvariantCodeMotionUtils.h"
#include "mlir/IR/IRMapping.h"
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
  if (!affine::isValidLoopInterchangePermutation(band, newPosition)) {
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

/// Whether every operand and result of `op` has a static shape.
static bool hasStaticShapes(linalg::LinalgOp op) {
  auto isStatic = [](Type type) {
    auto shaped = dyn_cast<ShapedType>(type);
    return !shaped || shaped.hasStaticShape();
  };
  return llvm::all_of(op->getOperandTypes(), isStatic) &&
         llvm::all_of(op->getResultTypes(), isStatic);
}

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

/// Splits the body of `forall` into two versions when some of its tile
/// sizes vary (the last tile along a loop whose tile size does not divide
/// the extent): `scf.if` all of them have their largest value, the body with
/// those sizes as constants (whose tiles are static, so peeling and
/// vectorization see full tiles), else the body as it was.
static void versionPartialTiles(TransformRewriter &rewriter,
                                scf::ForallOp forall) {
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
  SmallVector<Type> types;
  for (Value value : escaping)
    types.push_back(value.getType());
  auto ifOp = scf::IfOp::create(rewriter, loc, types, full,
                                /*withElseRegion=*/true);
  // Else: the original ops, moved.
  Block *elseBlock = ifOp.elseBlock();
  for (Operation *op : versioned)
    rewriter.moveOpBefore(op, elseBlock, elseBlock->end());
  rewriter.setInsertionPointToEnd(elseBlock);
  scf::YieldOp::create(rewriter, loc, escaping.getArrayRef());
  // Then: a copy with the sizes replaced by their constants.
  Block *thenBlock = ifOp.thenBlock();
  rewriter.setInsertionPointToStart(thenBlock);
  IRMapping mapping;
  for (auto &[value, bound] : sizes)
    mapping.map(value,
                arith::ConstantIndexOp::create(rewriter, loc, bound).getResult());
  for (Operation *op : versioned)
    rewriter.clone(*op, mapping);
  SmallVector<Value> thenResults;
  for (Value value : escaping)
    thenResults.push_back(mapping.lookupOrDefault(value));
  scf::YieldOp::create(rewriter, loc, thenResults);
  // The terminator takes the versions' results.
  for (auto [value, result] : llvm::zip(escaping, ifOp.getResults()))
    rewriter.replaceUsesWithIf(value, result, [&](OpOperand &use) {
      return terminator->isAncestor(use.getOwner());
    });
}

/// Tiles each linalg op inside `roots` whose loops have sizes known only at
/// run time: by `sizeOf(op, loop)` along those loops (0: not tiled).
static void
tileDynamicLoops(TransformRewriter &rewriter, ArrayRef<Operation *> roots,
                 function_ref<int64_t(linalg::LinalgOp, unsigned)> sizeOf) {
  SmallVector<linalg::LinalgOp> dynamicOps;
  for (Operation *root : roots)
    root->walk([&](linalg::LinalgOp op) {
      if (!hasStaticShapes(op))
        dynamicOps.push_back(op);
    });
  for (linalg::LinalgOp op : dynamicOps) {
    SmallVector<OpFoldResult> tileSizes;
    bool tiles = false;
    for (auto [loop, range] : llvm::enumerate(op.getStaticLoopRanges())) {
      int64_t size = ShapedType::isDynamic(range) ? sizeOf(op, loop) : 0;
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
    versionPartialTiles(rewriter, forall);
  llvm::SmallPtrSet<Operation *, 16> visited;
  peelPartialIterations(rewriter, roots, visited);
  canonicalize();

  // 2. What stays partial (the last tile of an scf.forall) is cut into
  // slices of size 1 along its dynamic loops, which are static.
  tileDynamicLoops(rewriter, roots,
                   [](linalg::LinalgOp, unsigned) { return int64_t(1); });
  canonicalize();

  // Stencils' shifted reads (and constant indices) become windows, which
  // the vectorizer reads with plain transfers.
  if (tuner::sliceShiftedOperands(rewriter, roots))
    canonicalize();
  // Convolution tiles read input windows whose static sizes hide behind
  // casts.
  tuner::foldCastsIntoConvolutions(rewriter, roots);

  // 3. Vectorize each linalg op.
  SmallVector<linalg::LinalgOp> ops;
  for (Operation *root : roots)
    root->walk([&](linalg::LinalgOp op) { ops.push_back(op); });
  size_t vectorized = 0;
  bool convolutions = false;
  for (linalg::LinalgOp op : ops) {
    rewriter.setInsertionPoint(op);
    FailureOr<linalg::VectorizationResult> result = failure();
    int64_t points = 1;
    for (int64_t range : op.getStaticLoopRanges())
      points *= range;
    if (hasStaticShapes(op) && points <= kMaxVectorizedPoints)
      result = linalg::vectorize(rewriter, op, /*inputVectorSizes=*/{},
                                 /*inputScalableVecDims=*/{},
                                 /*vectorizeNDExtract=*/false,
                                 /*flatten1DDepthwiseConv=*/false,
                                 /*assumeDynamicDimsMatchVecSizes=*/false,
                                 /*createNamedContraction=*/true);
    if (failed(result))
      continue;
    ++vectorized;
    convolutions |= linalg::isaConvolutionOpInterface(op);
    if (op->getNumResults())
      rewriter.replaceOp(op, result->replacements);
    else
      rewriter.eraseOp(op);
  }
  if (vectorized == 0) {
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
    applyInside(rewriter, roots, std::move(patterns));
  }

  // 4. Hoist loop-invariant subsets, innermost loops first.
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

  // 5. Lower the contractions.
  {
    RewritePatternSet patterns(context);
    vector::populateVectorContractLoweringPatterns(
        patterns, *vector::symbolizeVectorContractLowering(getLowering()));
    vector::populateVectorOuterProductLoweringPatterns(patterns);
    vector::populateVectorTransferPermutationMapLoweringPatterns(patterns);
    linalg::populateLinalgTilingCanonicalizationPatterns(patterns);
    applyInside(rewriter, roots, std::move(patterns));
  }

  // 6. Unroll the innermost loops.
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
