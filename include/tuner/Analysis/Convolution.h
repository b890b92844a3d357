//===- Convolution.h - How a convolution op can be scheduled ----*- C++ -*-===//
//
// The convolution ops whose schedules may rewrite them, and where their
// loops are: which of them `transform.structured.convert_conv2d_to_img2col`
// turns into an im2col copy and a matmul-like contraction (and which loops
// of the convolution each loop of that contraction stands for), and which
// `transform.structured.decompose` turns into 1-D convolutions once their
// output-height and kernel-height loops are cut to size 1. Plain data keyed
// by the op's name; no MLIR here.
//
//===----------------------------------------------------------------------===//

#ifndef TUNER_ANALYSIS_CONVOLUTION_H
#define TUNER_ANALYSIS_CONVOLUTION_H

#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>
#include <vector>

namespace tuner {

/// How a convolution nest is computed (the `conv` parameter's values).
enum class ConvolutionStrategy {
  /// As it is: the 2-D convolution, tiled.
  Direct,
  /// An im2col copy of the input, then a contraction with the filter.
  Im2col,
  /// 1-D convolutions over the output width.
  Decompose
};

llvm::StringRef stringifyConvolutionStrategy(ConvolutionStrategy strategy);
std::optional<ConvolutionStrategy>
parseConvolutionStrategy(llvm::StringRef text);

/// What a schedule can do with one kind of convolution op. Loops are
/// positions in the op's iteration space (its band).
struct ConvolutionInfo {
  /// The op's name, "linalg.conv_2d_nchw_fchw".
  std::string opName;
  /// For im2col: the loops of the contraction it becomes, outermost first,
  /// each the convolution loops it merges (row-major), e.g. for NCHW
  /// (n, f, oh, ow, c, kh, kw): {{0}, {1}, {2, 3}, {4, 5, 6}}, the last one
  /// the reduction. Empty: im2col does not apply.
  std::vector<std::vector<size_t>> im2colLoops;
  /// For decomposition: the loops cut to size 1 before it, the output
  /// height and the kernel height first; in a channel-first layout also the
  /// filter and input channel loops, so that the 1-D convolutions are
  /// vectorized along the output width (the contiguous dim) rather than
  /// along the channels. Empty: decomposition does not apply.
  std::vector<size_t> decomposeUnitLoops;
  /// The loop whose tile a decomposed convolution is vectorized along,
  /// innermost (NCHW: the output width; NHWC: the filter channels).
  size_t decomposeVectorLoop = 0;
  /// The group of im2colLoops that is the innermost dim of the im2col
  /// contraction's output (NCHW: oh*ow; NHWC: the filter channels).
  size_t im2colVectorGroup = 0;

  bool supports(ConvolutionStrategy strategy) const;
  /// The strategies this op supports, Direct first.
  std::vector<ConvolutionStrategy> strategies() const;
};

/// What the schedule can do with the op named `opName`; nullopt when it is
/// not a convolution that any strategy but Direct applies to.
std::optional<ConvolutionInfo> convolutionInfo(llvm::StringRef opName);

} // namespace tuner

#endif // TUNER_ANALYSIS_CONVOLUTION_H
