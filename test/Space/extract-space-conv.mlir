// The space of a convolution: how it is computed (direct, im2col,
// decompose) is a parameter, vectorization is offered for the two
// rewrites and for direct tiles under the window rule, and the constraints
// keep out what cannot work: a vectorized direct convolution whose tile is
// no 1-D convolution, im2col tiles that wrap around a row or a channel's
// window, an im2col copy without a tile loop to build it in, fusion into
// an im2col contraction. convolution=false gives the space without the conv
// parameter: direct tiles vectorized under the window rule only.
// RUN: tuner-opt %s --tuner-extract-space="target=%S/Inputs/avx512-4core.json output=%t.json" -o /dev/null
// RUN: FileCheck %s < %t.json
// RUN: FileCheck %s --check-prefix=CONSTRAINT < %t.json
// RUN: tuner-opt %s --tuner-extract-space="target=%S/Inputs/avx512-4core.json output=- convolution=false" -o /dev/null | FileCheck %s --check-prefix=OFF

// CHECK:      "name": "conv_2d_nchw_fchw_1.conv"
// CHECK:      "values": [
// CHECK-NEXT:   "direct",
// CHECK-NEXT:   "im2col",
// CHECK-NEXT:   "decompose"
// CHECK-NEXT: ]
// CHECK:      "name": "conv_2d_nchw_fchw_1.vectorize"
// CONSTRAINT:      "constraints": [
// CONSTRAINT-DAG:  "conv_2d_nchw_fchw_1.conv != \"im2col\" || (conv_2d_nchw_fchw_1.tile.l3 == 64) || (64 % conv_2d_nchw_fchw_1.tile.l3 == 0 && conv_2d_nchw_fchw_1.tile.l2 == 1)"
// CONSTRAINT-DAG:  "conv_2d_nchw_fchw_1.conv != \"im2col\" || (conv_2d_nchw_fchw_1.tile.l5 == 3 && conv_2d_nchw_fchw_1.tile.l6 == 3) || (conv_2d_nchw_fchw_1.tile.l6 == 3 && 3 % conv_2d_nchw_fchw_1.tile.l5 == 0 && conv_2d_nchw_fchw_1.tile.l4 == 1) || (3 % conv_2d_nchw_fchw_1.tile.l6 == 0 && conv_2d_nchw_fchw_1.tile.l4 == 1 && conv_2d_nchw_fchw_1.tile.l5 == 1)"
// CONSTRAINT-DAG:  "!conv_2d_nchw_fchw_1.vectorize || (conv_2d_nchw_fchw_1.conv == \"decompose\" && (min(conv_2d_nchw_fchw_1.tile.l0, conv_2d_nchw_fchw_1.rtile.l0) * min(conv_2d_nchw_fchw_1.tile.l3, conv_2d_nchw_fchw_1.rtile.l3) <= 512 && min(conv_2d_nchw_fchw_1.tile.l0, conv_2d_nchw_fchw_1.rtile.l0) * min(conv_2d_nchw_fchw_1.tile.l3, conv_2d_nchw_fchw_1.rtile.l3) * min(conv_2d_nchw_fchw_1.tile.l6, conv_2d_nchw_fchw_1.rtile.l6) <= 2048)) || (conv_2d_nchw_fchw_1.conv != \"decompose\" && ({{.*}}))"
// CONSTRAINT-DAG:  "!conv_2d_nchw_fchw_1.vectorize || conv_2d_nchw_fchw_1.conv != \"direct\" || ((conv_2d_nchw_fchw_1.tile.l5 == 1 || conv_2d_nchw_fchw_1.rtile.l5 == 1) && (conv_2d_nchw_fchw_1.tile.l6 == 1 || conv_2d_nchw_fchw_1.rtile.l6 == 1)) || ((conv_2d_nchw_fchw_1.tile.l2 == 1 || conv_2d_nchw_fchw_1.rtile.l2 == 1) && (conv_2d_nchw_fchw_1.tile.l5 == 1 || conv_2d_nchw_fchw_1.rtile.l5 == 1))"
// CONSTRAINT-DAG:  "conv_2d_nchw_fchw_1.vectorize || conv_2d_nchw_fchw_1.conv == \"direct\""
// CONSTRAINT-DAG:  "conv_2d_nchw_fchw_1.conv != \"im2col\" || (conv_2d_nchw_fchw_1.order[0] == 0 && conv_2d_nchw_fchw_1.tile.l0 < 2) || (conv_2d_nchw_fchw_1.order[0] == 1 && conv_2d_nchw_fchw_1.tile.l1 < 4) || (conv_2d_nchw_fchw_1.order[0] == 2 && conv_2d_nchw_fchw_1.tile.l2 < 32) || (conv_2d_nchw_fchw_1.order[0] == 3 && conv_2d_nchw_fchw_1.tile.l3 < 64) || conv_2d_nchw_fchw_1.parallel"
// CONSTRAINT-DAG:  "!fuse.fill_0.conv_2d_nchw_fchw_1 || conv_2d_nchw_fchw_1.conv != \"im2col\""
// CONSTRAINT:      ]

// OFF: "!conv_2d_nchw_fchw_1.vectorize || ((conv_2d_nchw_fchw_1.tile.l5 == 1 || conv_2d_nchw_fchw_1.rtile.l5 == 1) && (conv_2d_nchw_fchw_1.tile.l6 == 1 || conv_2d_nchw_fchw_1.rtile.l6 == 1)) || ((conv_2d_nchw_fchw_1.tile.l2 == 1 || conv_2d_nchw_fchw_1.rtile.l2 == 1) && (conv_2d_nchw_fchw_1.tile.l5 == 1 || conv_2d_nchw_fchw_1.rtile.l5 == 1))"
// OFF-NOT: "role": "conv"
// OFF: "name": "conv_2d_nchw_fchw_1.vectorize"
// OFF-NOT: "role": "conv"

func.func @conv(%in: tensor<2x3x34x66xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<2x4x32x64xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x4x32x64xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<2x4x32x64xf32>) -> tensor<2x4x32x64xf32>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%in, %w : tensor<2x3x34x66xf32>, tensor<4x3x3x3xf32>)
      outs(%f : tensor<2x4x32x64xf32>) -> tensor<2x4x32x64xf32>
  return %c : tensor<2x4x32x64xf32>
}
