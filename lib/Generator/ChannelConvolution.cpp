//===- ChannelConvolution.cpp - Convolutions with batch and channels ------===//
//
// The ChannelConvolution pattern: a 2-D convolution of stride and dilation
// 1 over a batch of images with channels, into filters, in one of the two
// layouts the tuner offers im2col and decomposition for (see
// convolutionInfo in lib/Analysis/Convolution.cpp):
//
//   NCHW/FCHW, loops (n, f, oh, ow, c, kh, kw):
//     out[n, f, oh, ow] += in[n, c, oh + kh, ow + kw] * w[f, c, kh, kw]
//   NHWC/HWCF, loops (n, oh, ow, f, kh, kw, c):
//     out[n, oh, ow, f] += in[n, oh + kh, ow + kw, c] * w[kh, kw, c, f]
//
// The linalg flavour emits the named op (linalg.conv_2d_nchw_fchw or
// linalg.conv_2d_nhwc_hwcf) on a zero-filled output, the affine flavour the
// same loops. Fresh shapes: batch 1-8, channels and filters 1-64, kernels
// 1, 3 or 5, output images as large as the budgets allow; or the image is a
// 4-D tensor computed before (read in the layout drawn).
//
//===----------------------------------------------------------------------===//

#include "ProgramBuilder.h"

using namespace tuner;
using namespace tuner::gen;
using namespace tuner::gen::detail;

bool ProgramBuilder::channelConvolution(int source) {
  if (source >= 0 && spec.tensors[source].shape.size() != 4)
    return false;
  bool nchw = rng.chance(50);
  static constexpr int64_t kernels[] = {1, 3, 5};
  int64_t kh = kernels[rng.weighted({20, 55, 25})];
  int64_t kw = rng.chance(80) ? kh : kernels[rng.weighted({20, 55, 25})];
  // Batch, channels, filters, output image; input image ih x iw.
  int64_t n = 1, c = 1, f = 1, oh = 1, ow = 1;
  auto inputElements = [&] { return n * c * (oh + kh - 1) * (ow + kw - 1); };
  auto fits = [&] {
    return n * f * oh * ow * c * kh * kw <= workLimit &&
           n * f * oh * ow <= tensorLimit && inputElements() <= tensorLimit &&
           f * c * kh * kw <= tensorLimit;
  };
  if (source >= 0) {
    const std::vector<int64_t> &shape = spec.tensors[source].shape;
    n = shape[0];
    c = nchw ? shape[1] : shape[3];
    int64_t ih = nchw ? shape[2] : shape[1];
    int64_t iw = nchw ? shape[3] : shape[2];
    if (ih < kh || iw < kw)
      return false;
    oh = ih - kh + 1;
    ow = iw - kw + 1;
    // The most filters that fit (at most 64), then a random number of them.
    int64_t most = 0;
    for (f = 1; f <= 64 && fits(); ++f)
      most = f;
    if (most == 0)
      return false;
    f = rng.extent(1, most);
  } else {
    n = rng.extent(1, 8);
    c = rng.extent(1, 64);
    f = rng.extent(1, 64);
    // The output image: as large as the work and the tensors allow, then
    // smaller where the input or the product is over budget; batch,
    // channels and filters give way (halved) when not even 2x2 fits.
    for (unsigned guard = 0; guard < 32; ++guard) {
      int64_t perPixel = n * f * c * kh * kw;
      int64_t limit = std::min(
          {workLimit / perPixel, tensorLimit / (n * f), tensorLimit / (n * c)});
      if (f * c * kh * kw <= tensorLimit && limit >= 4) {
        std::optional<std::vector<int64_t>> image = randomShape(2, limit);
        if (image) {
          oh = (*image)[0];
          ow = (*image)[1];
          break;
        }
      }
      int64_t *largest = &n;
      for (int64_t *size : {&c, &f})
        if (*size > *largest)
          largest = size;
      if (*largest == 1)
        return false;
      *largest = (*largest + 1) / 2;
    }
    while (!fits() && (oh > 1 || ow > 1))
      (oh >= ow ? oh : ow) = ((oh >= ow ? oh : ow) + 1) / 2;
  }
  if (!fits())
    return false;

  int64_t ih = oh + kh - 1, iw = ow + kw - 1;
  Operand in, weights;
  if (nchw) {
    comp.namedOp = NamedOp::Conv2DNchwFchw;
    comp.extents = {n, f, oh, ow, c, kh, kw};
    in.tensor = source >= 0 ? source : addInput({n, c, ih, iw});
    in.indices = {loopIndex(0), loopIndex(4), loopIndex(2), loopIndex(3)};
    in.indices[2].coefficients[5] = 1;
    in.indices[3].coefficients[6] = 1;
    weights = readLoops(addInput({f, c, kh, kw}), {1, 4, 5, 6});
  } else {
    comp.namedOp = NamedOp::Conv2DNhwcHwcf;
    comp.extents = {n, oh, ow, f, kh, kw, c};
    in.tensor = source >= 0 ? source : addInput({n, ih, iw, c});
    in.indices = {loopIndex(0), loopIndex(1), loopIndex(2), loopIndex(6)};
    in.indices[1].coefficients[4] = 1;
    in.indices[2].coefficients[5] = 1;
    weights = readLoops(addInput({kh, kw, c, f}), {4, 5, 6, 3});
  }
  comp.numParallel = 4;
  addOperand(std::move(in));
  addOperand(std::move(weights));
  std::vector<int> nodes = operandNodes(2);
  addBinary(BinaryOp::Mul, nodes[0], nodes[1]);
  comp.combiner = Combiner::Add;
  return true;
}
