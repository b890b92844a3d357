// A 2-D convolution with a bias (NCHW, 3 input and 2 output channels, 3x3
// window, a 13x21 output that no tile divides) vectorized two ways by
// transform.tuner.vectorize_tiles:
// - width: every window's reduction loop (kh, kw) and the input channels
//   cut to size 1, the unit loops dropped, each tile a 2x16 FMA along the
//   output's width with the bias-initialized accumulator in registers
//   across the channel and window loops;
// - channels: the outer window (oh, kh) cut to size 1, each tile a 1-D
//   convolution that the vectorizer handles along the channels.
// Both are verified against the untransformed function (tuner-measure:
// random inputs, outputs compared), and stock mlir-opt replays both.
// RUN: tuner-opt %s --tuner-apply="config=%S/Inputs/conv-width.json schedule-output=%t.width.schedule.mlir" > %t.width.mlir
// RUN: FileCheck %s --check-prefix=WIDTH < %t.width.mlir
// RUN: %mlir_opt %s --load-dialect-plugin=%tuner_plugin --transform-preload-library=transform-library-paths=%t.width.schedule.mlir --transform-interpreter > %t.width.replayed.mlir
// RUN: diff %t.width.mlir %t.width.replayed.mlir
// RUN: tuner-opt %s --tuner-apply="config=%S/Inputs/conv-channels.json schedule-output=%t.channels.schedule.mlir" > %t.channels.mlir
// RUN: FileCheck %s --check-prefix=CHANNELS < %t.channels.mlir
// RUN: %mlir_opt %s --load-dialect-plugin=%tuner_plugin --transform-preload-library=transform-library-paths=%t.channels.schedule.mlir --transform-interpreter > %t.channels.replayed.mlir
// RUN: diff %t.channels.mlir %t.channels.replayed.mlir
// The space offers vectorization of the direct convolution with either
// way's window rule (besides its rewrites, conv != "direct").
// RUN: tuner-opt %s --tuner-extract-space -o /dev/null | FileCheck %s --check-prefix=SPACE
// RUN: tuner-measure %s %t.width.mlir %t.channels.mlir --function conv --min-time 0.001 | FileCheck %s --check-prefix=VERIFIED

// WIDTH-LABEL: func.func @conv(
// WIDTH:         scf.forall
// WIDTH:           scf.for {{.*}} -> (vector<2x16xf32>)
// WIDTH:             vector.fma {{.*}} : vector<2x16xf32>
// WIDTH-NOT:     linalg.conv_2d

// CHANNELS-LABEL: func.func @conv(
// CHANNELS-NOT:   linalg.conv_2d
// CHANNELS:       vector.fma
// CHANNELS-NOT:   linalg.conv_2d
// CHANNELS:       return

// SPACE: "!conv_2d_nchw_fchw_1.vectorize || conv_2d_nchw_fchw_1.conv != \"direct\" || ((conv_2d_nchw_fchw_1.tile.l5 == 1 || conv_2d_nchw_fchw_1.rtile.l5 == 1) && (conv_2d_nchw_fchw_1.tile.l6 == 1 || conv_2d_nchw_fchw_1.rtile.l6 == 1)) || ((conv_2d_nchw_fchw_1.tile.l2 == 1 || conv_2d_nchw_fchw_1.rtile.l2 == 1) && (conv_2d_nchw_fchw_1.tile.l5 == 1 || conv_2d_nchw_fchw_1.rtile.l5 == 1))"
// SPACE-NOT: "name": "conv_2d_nchw_fchw_1.lowering"
// SPACE: "name": "conv_2d_nchw_fchw_1.vectorize"

// VERIFIED: width.mlir{{ +}}ok
// VERIFIED: channels.mlir{{ +}}ok

func.func @conv(%in: tensor<1x3x15x23xf32>, %w: tensor<2x3x3x3xf32>,
                %bias: tensor<2xf32>) -> tensor<1x2x13x21xf32> {
  %empty = tensor.empty() : tensor<1x2x13x21xf32>
  %init = linalg.broadcast ins(%bias : tensor<2xf32>)
                           outs(%empty : tensor<1x2x13x21xf32>)
                           dimensions = [0, 2, 3]
  %out = linalg.conv_2d_nchw_fchw
      {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%in, %w : tensor<1x3x15x23xf32>, tensor<2x3x3x3xf32>)
      outs(%init : tensor<1x2x13x21xf32>) -> tensor<1x2x13x21xf32>
  return %out : tensor<1x2x13x21xf32>
}
