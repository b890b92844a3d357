// A strided 2-D convolution is not offered decomposition into 1-D
// convolutions (transform.structured.decompose refused its tiles in the
// space's property test); im2col and the direct form stay, and every
// sampled config applies. A unit-stride one keeps all three. (On tensors:
// on buffers only the direct form is offered, test/Schedule/apply-conv-buffers.mlir.)
// RUN: tuner-opt %s --tuner-extract-space="function=strided output=-" -o /dev/null | FileCheck %s --check-prefix=STRIDED
// RUN: tuner-opt %s --tuner-extract-space="function=unit output=-" -o /dev/null | FileCheck %s --check-prefix=UNIT
// RUN: tuner-opt %s --tuner-check-space="function=strided samples=20 seed=1" -o /dev/null | FileCheck %s --check-prefix=CHECK-SPACE

// STRIDED:      "name": "conv_2d_nhwc_hwcf_0.conv",
// STRIDED-NEXT: "values": [
// STRIDED-NEXT:   "direct",
// STRIDED-NEXT:   "im2col"
// STRIDED-NEXT: ]
// UNIT:         "name": "conv_2d_nhwc_hwcf_0.conv",
// UNIT-NEXT:    "values": [
// UNIT-NEXT:      "direct",
// UNIT-NEXT:      "im2col",
// UNIT-NEXT:      "decompose"
// UNIT-NEXT:    ]
// CHECK-SPACE: check-space @strided: size {{.*}}, 20 samples ({{[0-9]+}} distinct), 0 failed

func.func @strided(%in: tensor<1x17x17x3xf32>, %filter: tensor<3x3x3x8xf32>,
                   %out: tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32> {
  %r = linalg.conv_2d_nhwc_hwcf
         {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
         ins(%in, %filter : tensor<1x17x17x3xf32>, tensor<3x3x3x8xf32>)
         outs(%out : tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32>
  return %r : tensor<1x8x8x8xf32>
}

func.func @unit(%in: tensor<1x10x10x3xf32>, %filter: tensor<3x3x3x8xf32>,
                %out: tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32> {
  %r = linalg.conv_2d_nhwc_hwcf
         {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%in, %filter : tensor<1x10x10x3xf32>, tensor<3x3x3x8xf32>)
         outs(%out : tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32>
  return %r : tensor<1x8x8x8xf32>
}
