// RUN: tuner-opt --tuner-print-program %s -o /dev/null | FileCheck %s

// Seven loops n, oh, ow, f, kh, kw, c; the input is read at oh + kh, ow + kw.
// The init is a function argument: the result is the same buffer.
// CHECK-LABEL: function @conv
// CHECK-NEXT:   buffers:
// CHECK-NEXT:     #0 %arg0 tensor 1x10x10x3 f32 (arg)
// CHECK-NEXT:     #1 %arg1 tensor 3x3x3x8 f32 (arg)
// CHECK-NEXT:     #2 %arg2 tensor 1x8x8x8 f32 (arg, result)
// CHECK-NEXT:   nest conv_2d_nhwc_hwcf_0 (linalg, op 0) perfect outer-parallel
// CHECK-NEXT:     loop conv_2d_nhwc_hwcf_0.d0 extent 1 lb 0 step 1 parallel
// CHECK-NEXT:       loop conv_2d_nhwc_hwcf_0.d1 extent 8 lb 0 step 1 parallel
// CHECK-NEXT:         loop conv_2d_nhwc_hwcf_0.d2 extent 8 lb 0 step 1 parallel
// CHECK-NEXT:           loop conv_2d_nhwc_hwcf_0.d3 extent 8 lb 0 step 1 parallel
// CHECK-NEXT:             loop conv_2d_nhwc_hwcf_0.d4 extent 3 lb 0 step 1 reduction
// CHECK-NEXT:               loop conv_2d_nhwc_hwcf_0.d5 extent 3 lb 0 step 1 reduction
// CHECK-NEXT:                 loop conv_2d_nhwc_hwcf_0.d6 extent 3 lb 0 step 1 reduction
// CHECK-NEXT:                   comp conv_2d_nhwc_hwcf_0 (linalg.conv_2d_nhwc_hwcf) writes #2 [1, 8, 8, 8] f32 ops add=1 mul=1 sub=0 div=0 other=0
// CHECK-NEXT:                     read  #0 {{\[}}[1, 0, 0, 0, 0, 0, 0, 0], [0, 1, 0, 0, 1, 0, 0, 0], [0, 0, 1, 0, 0, 1, 0, 0], [0, 0, 0, 0, 0, 0, 1, 0]]
// CHECK-NEXT:                     read  #1 {{\[}}[0, 0, 0, 0, 1, 0, 0, 0], [0, 0, 0, 0, 0, 1, 0, 0], [0, 0, 0, 0, 0, 0, 1, 0], [0, 0, 0, 1, 0, 0, 0, 0]]
// CHECK-NEXT:                     read  #2 {{\[}}[1, 0, 0, 0, 0, 0, 0, 0], [0, 1, 0, 0, 0, 0, 0, 0], [0, 0, 1, 0, 0, 0, 0, 0], [0, 0, 0, 1, 0, 0, 0, 0]]
// CHECK-NEXT:                     write #2 {{\[}}[1, 0, 0, 0, 0, 0, 0, 0], [0, 1, 0, 0, 0, 0, 0, 0], [0, 0, 1, 0, 0, 0, 0, 0], [0, 0, 0, 1, 0, 0, 0, 0]]
// CHECK-NEXT:     band: conv_2d_nhwc_hwcf_0.d0 conv_2d_nhwc_hwcf_0.d1 conv_2d_nhwc_hwcf_0.d2 conv_2d_nhwc_hwcf_0.d3 conv_2d_nhwc_hwcf_0.d4 conv_2d_nhwc_hwcf_0.d5 conv_2d_nhwc_hwcf_0.d6
// CHECK-NEXT:     legal orders: all
// CHECK-NEXT:   edges: none
func.func @conv(%in: tensor<1x10x10x3xf32>, %filter: tensor<3x3x3x8xf32>,
                %out: tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32> {
  %r = linalg.conv_2d_nhwc_hwcf
         {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%in, %filter : tensor<1x10x10x3xf32>, tensor<3x3x3x8xf32>)
         outs(%out : tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32>
  return %r : tensor<1x8x8x8xf32>
}

// Strides show up as coefficients: the input is read at 2 * oh + kh.
// CHECK-LABEL: function @conv_strided
// CHECK:         #2 %arg2 memref 1x8x8x8 f32 (arg)
// CHECK:         read  #0 {{\[}}[1, 0, 0, 0, 0, 0, 0, 0], [0, 2, 0, 0, 1, 0, 0, 0], [0, 0, 2, 0, 0, 1, 0, 0], [0, 0, 0, 0, 0, 0, 1, 0]]
func.func @conv_strided(%in: memref<1x17x17x3xf32>, %filter: memref<3x3x3x8xf32>,
                        %out: memref<1x8x8x8xf32>) {
  linalg.conv_2d_nhwc_hwcf
         {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
         ins(%in, %filter : memref<1x17x17x3xf32>, memref<3x3x3x8xf32>)
         outs(%out : memref<1x8x8x8xf32>)
  return
}
