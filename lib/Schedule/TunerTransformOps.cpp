//===- TunerTransformOps.cpp - The tuner's transform ops ------------------===//

#include "tuner/Schedule/TunerTransformOps.h"
#include "tuner/Schedule/TransformExtension.h"

#include "mlir/Dialect/Affine/Analysis/AffineAnalysis.h"
#include "mlir/Dialect/Affine/Analysis/LoopAnalysis.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Affine/LoopUtils.h"
#include "mlir/Dialect/Affine/Utils.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Transform/IR/TransformDialect.h"

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
