//===- Convolution.cpp - How a convolution op can be scheduled ------------===//

#include "tuner/Analysis/Convolution.h"

#include "llvm/ADT/STLExtras.h"

using namespace tuner;

llvm::StringRef
tuner::stringifyConvolutionStrategy(ConvolutionStrategy strategy) {
  switch (strategy) {
  case ConvolutionStrategy::Direct:
    return "direct";
  case ConvolutionStrategy::Im2col:
    return "im2col";
  case ConvolutionStrategy::Decompose:
    return "decompose";
  }
  return "direct";
}

std::optional<ConvolutionStrategy>
tuner::parseConvolutionStrategy(llvm::StringRef text) {
  for (ConvolutionStrategy strategy :
       {ConvolutionStrategy::Direct, ConvolutionStrategy::Im2col,
        ConvolutionStrategy::Decompose})
    if (text == stringifyConvolutionStrategy(strategy))
      return strategy;
  return std::nullopt;
}

bool ConvolutionInfo::supports(ConvolutionStrategy strategy) const {
  switch (strategy) {
  case ConvolutionStrategy::Direct:
    return true;
  case ConvolutionStrategy::Im2col:
    return !im2colLoops.empty();
  case ConvolutionStrategy::Decompose:
    return !decomposeUnitLoops.empty();
  }
  return false;
}

std::vector<ConvolutionStrategy> ConvolutionInfo::strategies() const {
  std::vector<ConvolutionStrategy> result;
  for (ConvolutionStrategy strategy :
       {ConvolutionStrategy::Direct, ConvolutionStrategy::Im2col,
        ConvolutionStrategy::Decompose})
    if (supports(strategy))
      result.push_back(strategy);
  return result;
}

std::optional<ConvolutionInfo> tuner::convolutionInfo(llvm::StringRef opName) {
  // MLIR 22's convert_conv2d_to_img2col also takes conv_2d_nhwc_fhwc and
  // depthwise_conv_2d_nhwc_hwc, and decompose depthwise_conv_2d_nhwc_hwc
  // and linalg.conv_2d; only the two layouts below are offered (and tested).
  if (opName == "linalg.conv_2d_nchw_fchw")
    // (n, f, oh, ow, c, kh, kw): out[n, f, oh*ow] += w[f, c*kh*kw] *
    // col[n, c*kh*kw, oh*ow]; 1-D convolutions along ow (conv_1d_ncw_fcw).
    return ConvolutionInfo{opName.str(),
                           {{0}, {1}, {2, 3}, {4, 5, 6}},
                           {2, 5, 1, 4},
                           /*decomposeVectorLoop=*/3,
                           /*im2colVectorGroup=*/2};
  if (opName == "linalg.conv_2d_nhwc_hwcf")
    // (n, oh, ow, f, kh, kw, c): out[n, oh*ow, f] += col[n, oh*ow, kh*kw*c] *
    // w[kh*kw*c, f]; 1-D convolutions along ow, vectorized along the
    // channels (conv_1d_nwc_wcf).
    return ConvolutionInfo{opName.str(),
                           {{0}, {1, 2}, {3}, {4, 5, 6}},
                           {1, 4},
                           /*decomposeVectorLoop=*/3,
                           /*im2colVectorGroup=*/2};
  return std::nullopt;
}
