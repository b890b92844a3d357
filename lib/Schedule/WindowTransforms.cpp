//===- WindowTransforms.cpp - Stencil and convolution rewrites ------------===//

#include "tuner/Schedule/WindowTransforms.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/Vector/Transforms/VectorRewritePatterns.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/Verifier.h"

#include <optional>

using namespace mlir;

//===----------------------------------------------------------------------===//
// Shifted operands -> windows
//===----------------------------------------------------------------------===//

namespace {
/// One result of an indexing map: loop `dim` (or none) plus `offset`.
struct ShiftedIndex {
  std::optional<unsigned> dim;
  int64_t offset = 0;
};
} // namespace

/// `expr` as a loop plus a nonnegative constant, a nonnegative constant, or
/// nullopt.
static std::optional<ShiftedIndex> shiftedIndex(AffineExpr expr) {
  if (auto dim = dyn_cast<AffineDimExpr>(expr))
    return ShiftedIndex{dim.getPosition(), 0};
  if (auto constant = dyn_cast<AffineConstantExpr>(expr)) {
    if (constant.getValue() < 0)
      return std::nullopt;
    return ShiftedIndex{std::nullopt, constant.getValue()};
  }
  auto sum = dyn_cast<AffineBinaryOpExpr>(expr);
  if (!sum || sum.getKind() != AffineExprKind::Add)
    return std::nullopt;
  AffineExpr lhs = sum.getLHS(), rhs = sum.getRHS();
  if (isa<AffineConstantExpr>(lhs))
    std::swap(lhs, rhs);
  auto dim = dyn_cast<AffineDimExpr>(lhs);
  auto constant = dyn_cast<AffineConstantExpr>(rhs);
  if (!dim || !constant || constant.getValue() < 0)
    return std::nullopt;
  return ShiftedIndex{dim.getPosition(), constant.getValue()};
}

unsigned tuner::sliceShiftedOperands(RewriterBase &rewriter,
                                     ArrayRef<Operation *> roots) {
  SmallVector<linalg::GenericOp> generics;
  for (Operation *root : roots)
    root->walk([&](linalg::GenericOp op) {
      if (op.hasPureTensorSemantics())
        generics.push_back(op);
    });
  unsigned rewritten = 0;
  for (linalg::GenericOp op : generics) {
    // Per input: its indices, when some of them is shifted and all of them
    // are a loop plus a constant or a constant.
    SmallVector<std::pair<OpOperand *, SmallVector<ShiftedIndex>>> shifted;
    for (OpOperand *input : op.getDpsInputOperands()) {
      if (!isa<RankedTensorType>(input->get().getType()))
        continue;
      AffineMap map = op.getMatchingIndexingMap(input);
      SmallVector<ShiftedIndex> indices;
      bool plain = true, shifts = false;
      for (AffineExpr result : map.getResults()) {
        std::optional<ShiftedIndex> index = shiftedIndex(result);
        if (!index) {
          plain = false;
          break;
        }
        shifts |= index->offset != 0 || !index->dim;
        indices.push_back(*index);
      }
      if (plain && shifts)
        shifted.push_back({input, std::move(indices)});
    }
    if (shifted.empty())
      continue;
    Location loc = op.getLoc();
    rewriter.setInsertionPoint(op);
    SmallVector<Range> ranges =
        cast<linalg::LinalgOp>(op.getOperation()).createLoopRanges(rewriter, loc);
    SmallVector<AffineMap> maps = op.getIndexingMapsArray();
    MLIRContext *context = op.getContext();
    for (auto &entry : shifted) {
      OpOperand *input = entry.first;
      ArrayRef<ShiftedIndex> indices = entry.second;
      SmallVector<OpFoldResult> offsets, sizes,
          strides(indices.size(), rewriter.getIndexAttr(1));
      SmallVector<AffineExpr> results;
      // The window drops the dims of constant indices (the vectorizer
      // takes no constant in an input's map).
      SmallVector<int64_t> shape;
      for (const ShiftedIndex &index : indices) {
        offsets.push_back(rewriter.getIndexAttr(index.offset));
        if (index.dim) {
          OpFoldResult size = ranges[*index.dim].size;
          sizes.push_back(size);
          results.push_back(getAffineDimExpr(*index.dim, context));
          std::optional<int64_t> constant = getConstantIntValue(size);
          shape.push_back(constant ? *constant : ShapedType::kDynamic);
        } else {
          sizes.push_back(rewriter.getIndexAttr(1));
        }
      }
      auto sourceType = cast<RankedTensorType>(input->get().getType());
      auto windowType =
          RankedTensorType::get(shape, sourceType.getElementType());
      Value window = tensor::ExtractSliceOp::create(
          rewriter, loc, windowType, input->get(), offsets, sizes, strides);
      rewriter.modifyOpInPlace(op, [&] { input->set(window); });
      unsigned number = input->getOperandNumber();
      maps[number] = AffineMap::get(maps[number].getNumDims(), 0, results,
                                    context);
      ++rewritten;
    }
    rewriter.modifyOpInPlace(
        op, [&] { op.setIndexingMapsAttr(rewriter.getAffineMapArrayAttr(maps)); });
  }
  return rewritten;
}

void tuner::foldCastsIntoConvolutions(RewriterBase &rewriter,
                                      ArrayRef<Operation *> roots) {
  SmallVector<linalg::LinalgOp> convolutions;
  for (Operation *root : roots)
    root->walk([&](linalg::LinalgOp op) {
      if (linalg::isaConvolutionOpInterface(op) &&
          tensor::hasFoldableTensorCastOperand(op))
        convolutions.push_back(op);
    });
  for (linalg::LinalgOp op : convolutions) {
    SmallVector<Value> operands(op->getOperands());
    SmallVector<Type> results(op->getResultTypes());
    rewriter.startOpModification(op);
    if (failed(tensor::foldTensorCast(op)) ||
        !llvm::equal(results, op->getResultTypes()) || failed(verify(op))) {
      op->setOperands(operands);
      rewriter.cancelOpModification(op);
      continue;
    }
    rewriter.finalizeOpModification(op);
  }
}

//===----------------------------------------------------------------------===//
// Unit dims and 1-D convolutions on buffers
//===----------------------------------------------------------------------===//

/// `value` (a memref with a static shape) read through a rank-reducing
/// subview of its whole extent that keeps the dims not in `dropped` (each
/// of size 1).
static FailureOr<Value> dropMemrefDims(RewriterBase &rewriter, Location loc,
                                       Value value,
                                       const llvm::SmallBitVector &dropped) {
  auto type = cast<MemRefType>(value.getType());
  SmallVector<int64_t> kept;
  for (auto [d, size] : llvm::enumerate(type.getShape())) {
    if (!dropped.test(d))
      kept.push_back(size);
    else if (size != 1)
      return failure();
  }
  if (dropped.none())
    return value;
  return memref::SubViewOp::rankReduceIfNeeded(rewriter, loc, value, kept);
}

FailureOr<linalg::GenericOp> tuner::dropBufferUnitDims(RewriterBase &rewriter,
                                                       linalg::GenericOp op) {
  if (!op.hasPureBufferSemantics() || op.hasIndexSemantics() ||
      !llvm::all_of(op->getOperandTypes(), [](Type type) {
        auto memref = dyn_cast<MemRefType>(type);
        return memref && memref.hasStaticShape();
      }))
    return failure();
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  MLIRContext *context = op.getContext();
  SmallVector<AffineExpr> replacements;
  SmallVector<utils::IteratorType> iterators;
  unsigned loops = 0;
  for (auto [d, iterator] : llvm::enumerate(op.getIteratorTypesArray())) {
    if (ranges[d] == 1) {
      replacements.push_back(getAffineConstantExpr(0, context));
      continue;
    }
    replacements.push_back(getAffineDimExpr(loops++, context));
    iterators.push_back(iterator);
  }
  if (loops == ranges.size())
    return failure();

  // Each operand's new map, and the dims (of size 1, indexed by 0 once the
  // unit loops are 0) its subview drops.
  SmallVector<AffineMap> maps;
  SmallVector<llvm::SmallBitVector> dropped;
  for (OpOperand &operand : op->getOpOperands()) {
    AffineMap map = op.getMatchingIndexingMap(&operand);
    ArrayRef<int64_t> shape =
        cast<MemRefType>(operand.get().getType()).getShape();
    llvm::SmallBitVector drop(shape.size());
    SmallVector<AffineExpr> results;
    for (auto [d, result] : llvm::enumerate(map.getResults())) {
      AffineExpr expr = simplifyAffineExpr(
          result.replaceDimsAndSymbols(replacements, {}), loops, 0);
      auto constant = dyn_cast<AffineConstantExpr>(expr);
      if (shape[d] == 1 && constant && constant.getValue() == 0) {
        drop.set(d);
        continue;
      }
      results.push_back(expr);
    }
    maps.push_back(AffineMap::get(loops, 0, results, context));
    dropped.push_back(std::move(drop));
  }
  // Every remaining loop must still be an operand's plain index (its range
  // is read from that operand's shape).
  if (!inversePermutation(concatAffineMaps(maps, context)))
    return failure();

  Location loc = op.getLoc();
  rewriter.setInsertionPoint(op);
  SmallVector<Value> operands;
  for (auto [operand, drop] : llvm::zip(op->getOpOperands(), dropped)) {
    FailureOr<Value> reduced =
        dropMemrefDims(rewriter, loc, operand.get(), drop);
    if (failed(reduced))
      return failure();
    operands.push_back(*reduced);
  }
  unsigned inputs = op.getNumDpsInputs();
  auto generic = linalg::GenericOp::create(
      rewriter, loc, TypeRange(), ArrayRef(operands).take_front(inputs),
      ArrayRef(operands).drop_front(inputs), maps, iterators);
  rewriter.inlineRegionBefore(op.getRegion(), generic.getRegion(),
                              generic.getRegion().begin());
  rewriter.eraseOp(op);
  return generic;
}

/// The conv_2d `op` on buffers as the 1-D convolution `Conv1DOp` when its
/// window has size 1 along a dimension: `inputDims`, `filterDims` and
/// `outputDims` are the operands' dims of the window's height, then width.
template <typename Conv1DOp>
static LogicalResult
decomposeBufferConvolution(RewriterBase &rewriter, linalg::LinalgOp op,
                           std::array<unsigned, 2> inputDims,
                           std::array<unsigned, 2> filterDims,
                           std::array<unsigned, 2> outputDims) {
  if (!op.hasPureBufferSemantics() ||
      !llvm::all_of(op->getOperandTypes(), [](Type type) {
        auto memref = dyn_cast<MemRefType>(type);
        return memref && memref.hasStaticShape();
      }))
    return failure();
  Value input = op.getDpsInputOperand(0)->get();
  Value filter = op.getDpsInputOperand(1)->get();
  Value output = op.getDpsInitOperand(0)->get();
  auto shape = [](Value value) {
    return cast<MemRefType>(value.getType()).getShape();
  };
  // The window dimension to drop: height first (as upstream does).
  std::optional<unsigned> unit;
  for (unsigned w : {0u, 1u})
    if (shape(filter)[filterDims[w]] == 1 &&
        shape(output)[outputDims[w]] == 1 && shape(input)[inputDims[w]] == 1) {
      unit = w;
      break;
    }
  if (!unit)
    return failure();
  auto strides = op->getAttrOfType<DenseIntElementsAttr>("strides");
  auto dilations = op->getAttrOfType<DenseIntElementsAttr>("dilations");
  if (!strides || !dilations || strides.getNumElements() != 2 ||
      dilations.getNumElements() != 2)
    return failure();
  unsigned kept = 1 - *unit;
  int64_t stride = strides.getValues<int64_t>()[kept];
  int64_t dilation = dilations.getValues<int64_t>()[kept];

  Location loc = op.getLoc();
  rewriter.setInsertionPoint(op);
  auto drop = [&](Value value, unsigned dim) {
    llvm::SmallBitVector dropped(shape(value).size());
    dropped.set(dim);
    return dropMemrefDims(rewriter, loc, value, dropped);
  };
  FailureOr<Value> newInput = drop(input, inputDims[*unit]);
  FailureOr<Value> newFilter = drop(filter, filterDims[*unit]);
  FailureOr<Value> newOutput = drop(output, outputDims[*unit]);
  if (failed(newInput) || failed(newFilter) || failed(newOutput))
    return failure();
  Conv1DOp::create(rewriter, loc, TypeRange(),
                   ValueRange{*newInput, *newFilter}, ValueRange{*newOutput},
                   rewriter.getI64VectorAttr({stride}),
                   rewriter.getI64VectorAttr({dilation}));
  rewriter.eraseOp(op);
  return success();
}

unsigned tuner::decomposeBufferConvolutions(RewriterBase &rewriter,
                                            ArrayRef<Operation *> roots) {
  SmallVector<linalg::LinalgOp> convolutions;
  for (Operation *root : roots)
    root->walk([&](linalg::LinalgOp op) {
      if (isa<linalg::Conv2DNhwcHwcfOp, linalg::Conv2DNchwFchwOp>(op) &&
          op.hasPureBufferSemantics())
        convolutions.push_back(op);
    });
  unsigned rewritten = 0;
  for (linalg::LinalgOp op : convolutions) {
    // NHWC: input (n, h, w, c), filter (kh, kw, c, f), output (n, oh, ow,
    // f); NCHW: input (n, c, h, w), filter (f, c, kh, kw), output (n, f, oh,
    // ow).
    LogicalResult result =
        isa<linalg::Conv2DNhwcHwcfOp>(op)
            ? decomposeBufferConvolution<linalg::Conv1DNwcWcfOp>(
                  rewriter, op, {1, 2}, {0, 1}, {1, 2})
            : decomposeBufferConvolution<linalg::Conv1DNcwFcwOp>(
                  rewriter, op, {2, 3}, {2, 3}, {2, 3});
    if (succeeded(result))
      ++rewritten;
  }
  return rewritten;
}

//===----------------------------------------------------------------------===//
// Vectors of channel-first 1-D convolutions
//===----------------------------------------------------------------------===//

namespace {

/// vector.contract (kind add, floats) whose reduction dims all have size 1
/// -> vector.fma(lhs, rhs, acc) with lhs and rhs broadcast and transposed
/// to the accumulator's dims.
struct UnitReductionContractToFMA
    : OpRewritePattern<vector::ContractionOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(vector::ContractionOp contract,
                                PatternRewriter &rewriter) const override {
    auto accType = dyn_cast<VectorType>(contract.getAccType());
    if (!accType || accType.isScalable() ||
        contract.getKind() != vector::CombiningKind::ADD ||
        !isa<FloatType>(accType.getElementType()))
      return failure();
    auto lhsType = contract.getLhsType(), rhsType = contract.getRhsType();
    if (lhsType.getElementType() != accType.getElementType() ||
        rhsType.getElementType() != accType.getElementType() ||
        lhsType.isScalable() || rhsType.isScalable())
      return failure();
    SmallVector<AffineMap> maps = contract.getIndexingMapsArray();
    SmallVector<vector::IteratorType> iterators =
        contract.getIteratorTypesArray();
    // The accumulator's dims, outermost first.
    SmallVector<unsigned> accDims;
    for (AffineExpr result : maps[2].getResults())
      accDims.push_back(cast<AffineDimExpr>(result).getPosition());
    Location loc = contract.getLoc();
    auto expand = [&](Value operand, VectorType type,
                      AffineMap map) -> FailureOr<Value> {
      // The operand's parallel dims in its own order, its reduction dims
      // (size 1) dropped.
      SmallVector<unsigned> dims;
      SmallVector<int64_t> shape;
      for (auto [position, result] : llvm::enumerate(map.getResults())) {
        unsigned dim = cast<AffineDimExpr>(result).getPosition();
        if (iterators[dim] == vector::IteratorType::reduction) {
          if (type.getDimSize(position) != 1)
            return failure();
          continue;
        }
        dims.push_back(dim);
        shape.push_back(type.getDimSize(position));
      }
      // Broadcast along the accumulator dims the operand lacks (leading),
      // then transpose into the accumulator's order.
      SmallVector<unsigned> order;
      SmallVector<int64_t> broadcastShape;
      for (auto [position, dim] : llvm::enumerate(accDims))
        if (!llvm::is_contained(dims, dim)) {
          order.push_back(dim);
          broadcastShape.push_back(accType.getDimSize(position));
        }
      // The operand's dims, sorted into accumulator order first.
      SmallVector<int64_t> toAccOrder;
      for (unsigned dim : accDims) {
        auto found = llvm::find(dims, dim);
        if (found != dims.end())
          toAccOrder.push_back(found - dims.begin());
      }
      if (toAccOrder.size() != dims.size())
        return failure();
      Type element = type.getElementType();
      Value value = vector::ShapeCastOp::create(
          rewriter, loc, VectorType::get(shape, element), operand);
      SmallVector<int64_t> sortedShape;
      for (int64_t i : toAccOrder) {
        sortedShape.push_back(shape[i]);
        order.push_back(dims[i]);
        broadcastShape.push_back(shape[i]);
      }
      if (!llvm::equal(toAccOrder, llvm::seq<int64_t>(0, toAccOrder.size())))
        value = vector::TransposeOp::create(rewriter, loc, value, toAccOrder);
      if (broadcastShape.size() != sortedShape.size())
        value = vector::BroadcastOp::create(
            rewriter, loc, VectorType::get(broadcastShape, element), value);
      // From `order` to the accumulator's order.
      SmallVector<int64_t> permutation;
      for (unsigned dim : accDims)
        permutation.push_back(llvm::find(order, dim) - order.begin());
      if (!llvm::equal(permutation, llvm::seq<int64_t>(0, permutation.size())))
        value = vector::TransposeOp::create(rewriter, loc, value, permutation);
      return value;
    };
    FailureOr<Value> lhs = expand(contract.getLhs(), lhsType, maps[0]);
    FailureOr<Value> rhs = expand(contract.getRhs(), rhsType, maps[1]);
    if (failed(lhs) || failed(rhs))
      return failure();
    rewriter.replaceOpWithNewOp<vector::FMAOp>(contract, *lhs, *rhs,
                                               contract.getAcc());
    return success();
  }
};

/// vector.transpose that moves only unit dims -> vector.shape_cast.
struct UnitDimTransposeToShapeCast : OpRewritePattern<vector::TransposeOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(vector::TransposeOp transpose,
                                PatternRewriter &rewriter) const override {
    VectorType source = transpose.getSourceVectorType();
    if (source.isScalable())
      return failure();
    // The non-unit dims must keep their relative order.
    int64_t last = -1;
    for (int64_t dim : transpose.getPermutation()) {
      if (source.getDimSize(dim) == 1)
        continue;
      if (dim < last)
        return failure();
      last = dim;
    }
    rewriter.replaceOpWithNewOp<vector::ShapeCastOp>(
        transpose, transpose.getResultVectorType(), transpose.getVector());
    return success();
  }
};

/// shape_cast(extract_strided_slice(x)) where the shape_cast only drops unit
/// dims that x has too -> extract_strided_slice(shape_cast(x)).
struct ShapeCastOfStridedSlice : OpRewritePattern<vector::ShapeCastOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(vector::ShapeCastOp shapeCast,
                                PatternRewriter &rewriter) const override {
    auto slice =
        shapeCast.getSource().getDefiningOp<vector::ExtractStridedSliceOp>();
    if (!slice || slice.hasNonUnitStrides())
      return failure();
    VectorType sourceType = slice.getSourceVectorType();
    VectorType sliceType = slice.getType();
    VectorType resultType = shapeCast.getResultVectorType();
    if (sourceType.isScalable() || sourceType.getRank() != sliceType.getRank())
      return failure();
    // The dims kept: those of the slice that are not 1 in both.
    SmallVector<int64_t> keptSource, offsets, sizes;
    SmallVector<int64_t> sliceOffsets;
    for (Attribute attr : slice.getOffsets())
      sliceOffsets.push_back(cast<IntegerAttr>(attr).getInt());
    for (int64_t i = 0; i < sliceType.getRank(); ++i) {
      int64_t size = i < int64_t(slice.getSizes().size())
                         ? cast<IntegerAttr>(slice.getSizes()[i]).getInt()
                         : sourceType.getDimSize(i);
      int64_t offset = i < int64_t(sliceOffsets.size()) ? sliceOffsets[i] : 0;
      if (sliceType.getDimSize(i) == 1 && sourceType.getDimSize(i) == 1)
        continue;
      keptSource.push_back(sourceType.getDimSize(i));
      offsets.push_back(offset);
      sizes.push_back(size);
    }
    if (!llvm::equal(sizes, resultType.getShape()))
      return failure();
    Location loc = shapeCast.getLoc();
    Value source = vector::ShapeCastOp::create(
        rewriter, loc, VectorType::get(keptSource, sourceType.getElementType()),
        slice.getSource());
    SmallVector<int64_t> strides(sizes.size(), 1);
    rewriter.replaceOpWithNewOp<vector::ExtractStridedSliceOp>(
        shapeCast, source, offsets, sizes, strides);
    return success();
  }
};

/// extract_strided_slice(transfer_read) of a 1-D in-bounds read along the
/// innermost dim -> a read at the slice's offset.
struct StridedSliceOfRead : OpRewritePattern<vector::ExtractStridedSliceOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(vector::ExtractStridedSliceOp slice,
                                PatternRewriter &rewriter) const override {
    auto read = slice.getSource().getDefiningOp<vector::TransferReadOp>();
    if (!read || slice.hasNonUnitStrides() || read.getMask() ||
        read.getVectorType().getRank() != 1 ||
        !read.getPermutationMap().isMinorIdentity() ||
        !read.getInBoundsValues()[0])
      return failure();
    int64_t offset = cast<IntegerAttr>(slice.getOffsets()[0]).getInt();
    SmallVector<Value> indices(read.getIndices());
    Location loc = slice.getLoc();
    AffineExpr d0 = rewriter.getAffineDimExpr(0);
    indices.back() = affine::AffineApplyOp::create(
        rewriter, loc, AffineMap::get(1, 0, d0 + offset), indices.back());
    rewriter.replaceOpWithNewOp<vector::TransferReadOp>(
        slice, slice.getType(), read.getBase(), indices, read.getPadding(),
        read.getPermutationMap(), ArrayRef<bool>{true});
    return success();
  }
};

} // namespace

void tuner::populateConvolutionVectorPatterns(RewritePatternSet &patterns) {
  MLIRContext *context = patterns.getContext();
  patterns.add<UnitReductionContractToFMA, UnitDimTransposeToShapeCast,
               ShapeCastOfStridedSlice, StridedSliceOfRead>(context);
  vector::populateDropUnitDimWithShapeCastPatterns(patterns);
  vector::populateCastAwayVectorLeadingOneDimPatterns(patterns);
  vector::populateVectorTransferDropUnitDimsPatterns(patterns);
  vector::ShapeCastOp::getCanonicalizationPatterns(patterns, context);
  vector::BroadcastOp::getCanonicalizationPatterns(patterns, context);
  vector::TransposeOp::getCanonicalizationPatterns(patterns, context);
  vector::ExtractStridedSliceOp::getCanonicalizationPatterns(patterns,
                                                             context);
}
