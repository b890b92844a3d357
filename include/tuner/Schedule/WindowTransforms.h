//===- WindowTransforms.h - Stencil and convolution rewrites ----*- C++ -*-===//
//
// Rewrites that let upstream's vectorizer take the linalg ops whose operands
// are read through windows: stencils (an operand read at a loop index plus
// a constant, or at a constant index) and 1-D convolutions in a
// channel-first layout. transform.tuner.vectorize_tiles runs them on the
// tiles it vectorizes.
//
//===----------------------------------------------------------------------===//

#ifndef TUNER_SCHEDULE_WINDOWTRANSFORMS_H
#define TUNER_SCHEDULE_WINDOWTRANSFORMS_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/PatternMatch.h"

namespace tuner {

/// Rewrites every linalg.generic on tensors inside `roots` that reads an
/// operand at a loop index plus a constant (a stencil's shifted neighbour,
/// `(i, j) -> (i + 1, j + 2)`) or at a nonzero constant index (a channel of
/// an image, `(y, x) -> (2, y, x)`) to read a tensor.extract_slice window of
/// that operand at those offsets instead, through a projected permutation
/// (`(i, j) -> (i, j)`, `(y, x) -> (0, y, x)`), which the vectorizer
/// accepts. Returns how many operands were rewritten.
unsigned sliceShiftedOperands(mlir::RewriterBase &rewriter,
                              llvm::ArrayRef<mlir::Operation *> roots);

/// Folds into each convolution op inside `roots` the tensor.cast operands
/// whose source is more static (a window of the input whose size tiling
/// computed as output tile + kernel - 1, made static by peeling but cast
/// back to the tile's dynamic type), when the op still verifies: the
/// vectorizer needs static shapes.
void foldCastsIntoConvolutions(mlir::RewriterBase &rewriter,
                               llvm::ArrayRef<mlir::Operation *> roots);

/// Drops the unit loops (static range 1) of `op`, a linalg.generic on
/// buffers with static shapes, reading each operand through a rank-reducing
/// memref.subview without the dims those loops (or a constant 0) index.
/// Upstream's linalg::dropUnitDims leaves a memref with a non-identity
/// layout (every tile's subview) as it is, so a convolution tile on buffers
/// keeps its window indices (`d1 + d4` with d4 of size 1) and the
/// vectorizer refuses it. Replaces `op` and returns the new generic, or
/// fails (leaving `op` unchanged) when `op` has no unit loop, reads a
/// tensor, uses linalg.index, or would lose a loop no operand indexes alone.
mlir::FailureOr<mlir::linalg::GenericOp>
dropBufferUnitDims(mlir::RewriterBase &rewriter, mlir::linalg::GenericOp op);

/// Rewrites each linalg.conv_2d_nhwc_hwcf and linalg.conv_2d_nchw_fchw on
/// buffers inside `roots` whose window has size 1 along one dimension (kh
/// and oh, or kw and ow) into the 1-D convolution (conv_1d_nwc_wcf,
/// conv_1d_ncw_fcw) of rank-reducing memref.subviews, which the vectorizer
/// takes: upstream's decomposition patterns rewrite tensors only. Returns
/// how many were rewritten.
unsigned decomposeBufferConvolutions(mlir::RewriterBase &rewriter,
                                     llvm::ArrayRef<mlir::Operation *> roots);

/// Patterns for the vectors of 1-D convolutions vectorized along their
/// output width with unit channel dims (a channel-first convolution tile cut
/// to one filter and one input channel): a contraction whose reduction dims
/// all have size 1 becomes one vector.fma on operands broadcast to the
/// accumulator's shape; transposes that move only unit dims become
/// shape_casts; unit dims are dropped from elementwise ops, loop-carried
/// vectors and transfers; a strided slice of a read becomes a read at the
/// slice's offset. Together they turn the vectorizer's `vector<1xWx1xf32>`
/// (output width W between the batch and filter dims) into `vector<Wxf32>`.
void populateConvolutionVectorPatterns(mlir::RewritePatternSet &patterns);

} // namespace tuner

#endif // TUNER_SCHEDULE_WINDOWTRANSFORMS_H
