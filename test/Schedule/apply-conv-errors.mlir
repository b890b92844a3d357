// Convolution strategies a schedule cannot use.
//
// A layout no strategy applies to gets no conv parameter (its tiles are
// vectorized by the window rule only); a hand-made space that offers im2col
// for it anyway is refused when the config is planned.
// RUN: not tuner-opt %s --mlir-print-op-on-diagnostic=false --tuner-apply="function=conv_fhwc config=%S/Inputs/conv-fhwc-im2col.json space=%S/Inputs/conv-fhwc-space.json" 2>&1 | FileCheck %s --check-prefix=LAYOUT
// RUN: tuner-opt %s --tuner-extract-space="function=conv_fhwc output=-" -o /dev/null | FileCheck %s --check-prefix=NOCONV
// im2col with tiles of oh*ow that would wrap around a row (8 columns of 2
// rows of 16) is outside the space.
// RUN: not tuner-opt %s --mlir-print-op-on-diagnostic=false --tuner-apply="function=conv config=%S/Inputs/conv-im2col-wraps.json" 2>&1 | FileCheck %s --check-prefix=WRAPS
// So is a vectorized direct convolution whose tile is no 1-D convolution
// (the window rule: kernel loops, or the outer window, cut to size 1),
// which vectorize_tiles cannot vectorize (upstream's vectorizer takes 1-D
// convolutions only; see transform-ops.mlir).
// RUN: not tuner-opt %s --mlir-print-op-on-diagnostic=false --tuner-apply="function=conv config=%S/Inputs/conv-direct-vectorize.json" 2>&1 | FileCheck %s --check-prefix=DIRECT

// LAYOUT: error: cannot build a schedule from config '{{.*}}conv-fhwc-im2col.json': parameter 'conv_2d_nhwc_fhwc_0.conv' = "im2col": nest 'conv_2d_nhwc_fhwc_0' (linalg.conv_2d_nhwc_fhwc) cannot be computed by im2col (see tuner/Analysis/Convolution.h for the ops that can)
// NOCONV: "!conv_2d_nhwc_fhwc_0.vectorize || ((conv_2d_nhwc_fhwc_0.tile.l4 == 1 || conv_2d_nhwc_fhwc_0.rtile.l4 == 1) && (conv_2d_nhwc_fhwc_0.tile.l5 == 1 || conv_2d_nhwc_fhwc_0.rtile.l5 == 1)) || ((conv_2d_nhwc_fhwc_0.tile.l1 == 1 || conv_2d_nhwc_fhwc_0.rtile.l1 == 1) && (conv_2d_nhwc_fhwc_0.tile.l4 == 1 || conv_2d_nhwc_fhwc_0.rtile.l4 == 1))"
// NOCONV-NOT: "role": "conv"
// NOCONV: "name": "conv_2d_nhwc_fhwc_0.vectorize"
// NOCONV-NOT: "role": "conv"
// WRAPS: error: config '{{.*}}conv-im2col-wraps.json' is not in the space: constraint 'conv_2d_nchw_fchw_0.conv != "im2col" || (conv_2d_nchw_fchw_0.tile.l3 == 16) || (16 % conv_2d_nchw_fchw_0.tile.l3 == 0 && conv_2d_nchw_fchw_0.tile.l2 == 1)' is violated
// DIRECT: error: config '{{.*}}conv-direct-vectorize.json' is not in the space: constraint '!conv_2d_nchw_fchw_0.vectorize || conv_2d_nchw_fchw_0.conv != "direct" || ((conv_2d_nchw_fchw_0.tile.l5 == 1 || conv_2d_nchw_fchw_0.rtile.l5 == 1) && (conv_2d_nchw_fchw_0.tile.l6 == 1 || conv_2d_nchw_fchw_0.rtile.l6 == 1)) || ((conv_2d_nchw_fchw_0.tile.l2 == 1 || conv_2d_nchw_fchw_0.rtile.l2 == 1) && (conv_2d_nchw_fchw_0.tile.l5 == 1 || conv_2d_nchw_fchw_0.rtile.l5 == 1))' is violated

func.func @conv(%in: tensor<2x3x10x18xf32>, %w: tensor<2x3x3x3xf32>,
                %out: tensor<2x2x8x16xf32>) -> tensor<2x2x8x16xf32> {
  %r = linalg.conv_2d_nchw_fchw
      {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%in, %w : tensor<2x3x10x18xf32>, tensor<2x3x3x3xf32>)
      outs(%out : tensor<2x2x8x16xf32>) -> tensor<2x2x8x16xf32>
  return %r : tensor<2x2x8x16xf32>
}

func.func @conv_fhwc(%in: tensor<1x10x10x3xf32>, %w: tensor<4x3x3x3xf32>,
                     %out: tensor<1x8x8x4xf32>) -> tensor<1x8x8x4xf32> {
  %r = linalg.conv_2d_nhwc_fhwc
      {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%in, %w : tensor<1x10x10x3xf32>, tensor<4x3x3x3xf32>)
      outs(%out : tensor<1x8x8x4xf32>) -> tensor<1x8x8x4xf32>
  return %r : tensor<1x8x8x4xf32>
}
