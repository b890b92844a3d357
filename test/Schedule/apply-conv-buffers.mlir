// Convolutions on buffers (memrefs) vectorized directly under the window
// rule by transform.tuner.vectorize_tiles. Their tiles are strided
// subviews, which upstream's dropUnitDims leaves whole and upstream's
// decomposition into 1-D convolutions refuses (tensors only); the tiles
// are rank-reduced by subviews instead (tuner::dropBufferUnitDims,
// tuner::decomposeBufferConvolutions):
// - width: kh and kw cut to size 1, the unit loops dropped (the input
//   read as a 2x6x2 window: output height and width, channels): a
//   contraction over the channels;
// - channels: the outer window (oh, kh) cut to size 1, a 1-D convolution
//   (conv_1d_nwc_wcf, conv_1d_ncw_fcw) that the vectorizer handles.
// All three configs "failed to apply" before (the property test's
// "no linalg op inside could be vectorized"); they are verified against the
// untransformed functions (tuner-measure: random inputs, outputs compared),
// and stock mlir-opt replays one of them.
// RUN: tuner-opt %s --tuner-apply="function=nhwc config=%S/Inputs/conv-buffers-width.json schedule-output=%t.width.schedule.mlir" > %t.width.mlir
// RUN: FileCheck %s --check-prefix=WIDTH < %t.width.mlir
// RUN: %mlir_opt %s --load-dialect-plugin=%tuner_plugin --transform-preload-library=transform-library-paths=%t.width.schedule.mlir --transform-interpreter > %t.width.replayed.mlir
// RUN: diff %t.width.mlir %t.width.replayed.mlir
// RUN: tuner-opt %s --tuner-apply="function=nhwc config=%S/Inputs/conv-buffers-channels.json" > %t.channels.mlir
// RUN: FileCheck %s --check-prefix=CHANNELS < %t.channels.mlir
// RUN: tuner-opt %s --tuner-apply="function=nchw config=%S/Inputs/conv-buffers-nchw-channels.json" > %t.nchw.mlir
// RUN: FileCheck %s --check-prefix=NCHW < %t.nchw.mlir
// RUN: tuner-measure %s %t.width.mlir %t.channels.mlir --function nhwc --min-time 0.001 | FileCheck %s --check-prefix=VERIFIED
// RUN: tuner-measure %s %t.nchw.mlir --function nchw --min-time 0.001 | FileCheck %s --check-prefix=VERIFIED-NCHW
// On buffers the space offers the direct form only (no conv parameter:
// MLIR 22's im2col and decomposition rewrite tensors only), and every
// sampled config applies.
// RUN: tuner-opt %s --tuner-extract-space="function=nhwc output=-" -o /dev/null | FileCheck %s --check-prefix=SPACE
// RUN: tuner-opt %s --tuner-check-space="function=nhwc samples=200 seed=5" -o /dev/null | FileCheck %s --check-prefix=CHECK-NHWC
// RUN: tuner-opt %s --tuner-check-space="function=nchw samples=200 seed=5" -o /dev/null | FileCheck %s --check-prefix=CHECK-NCHW

// WIDTH-LABEL: func.func @nhwc(
// WIDTH-NOT:     linalg.
// WIDTH:         memref.subview {{.*}} to memref<2x6x2xf32, strided<[30, 3, 1], offset: ?>>
// WIDTH:         vector.fma
// WIDTH-NOT:     linalg.
// WIDTH:         return

// CHANNELS-LABEL: func.func @nhwc(
// CHANNELS-NOT:   linalg.
// CHANNELS:       vector.fma
// CHANNELS-NOT:   linalg.
// CHANNELS:       return

// NCHW-LABEL: func.func @nchw(
// NCHW-NOT:   linalg.
// NCHW:       vector.fma
// NCHW-NOT:   linalg.
// NCHW:       return

// VERIFIED: width.mlir{{ +}}ok
// VERIFIED: channels.mlir{{ +}}ok
// VERIFIED-NCHW: nchw.mlir{{ +}}ok

// SPACE-NOT: "name": "conv_2d_nhwc_hwcf_0.conv"
// SPACE: "!conv_2d_nhwc_hwcf_0.vectorize || ((conv_2d_nhwc_hwcf_0.tile.l4 == 1 || conv_2d_nhwc_hwcf_0.rtile.l4 == 1) && (conv_2d_nhwc_hwcf_0.tile.l5 == 1 || conv_2d_nhwc_hwcf_0.rtile.l5 == 1)) || ((conv_2d_nhwc_hwcf_0.tile.l1 == 1 || conv_2d_nhwc_hwcf_0.rtile.l1 == 1) && (conv_2d_nhwc_hwcf_0.tile.l4 == 1 || conv_2d_nhwc_hwcf_0.rtile.l4 == 1))"
// SPACE-NOT: "name": "conv_2d_nhwc_hwcf_0.conv"
// SPACE: "name": "conv_2d_nhwc_hwcf_0.vectorize"

// CHECK-NHWC: check-space @nhwc: size {{.*}}, 200 samples ({{[0-9]+}} distinct), 0 failed
// CHECK-NCHW: check-space @nchw: size {{.*}}, 200 samples ({{[0-9]+}} distinct), 0 failed

func.func @nhwc(%in: memref<1x10x10x3xf32>, %filter: memref<3x3x3x8xf32>,
                %out: memref<1x8x8x8xf32>) {
  linalg.conv_2d_nhwc_hwcf
         {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%in, %filter : memref<1x10x10x3xf32>, memref<3x3x3x8xf32>)
         outs(%out : memref<1x8x8x8xf32>)
  return
}

func.func @nchw(%in: memref<1x3x10x10xf32>, %filter: memref<8x3x3x3xf32>,
                %out: memref<1x8x8x8xf32>) {
  linalg.conv_2d_nchw_fchw
         {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%in, %filter : memref<1x3x10x10xf32>, memref<8x3x3x3xf32>)
         outs(%out : memref<1x8x8x8xf32>)
  return
}
