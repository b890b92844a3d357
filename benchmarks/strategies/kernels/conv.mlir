// Replay-table kernel: a 3x3 convolution, NHWC/HWCF, f32: input
// 1x66x66x16, filter 3x3x16x32 -> output 1x64x64x32 (stride 1, no padding).
func.func @conv(%in: tensor<1x66x66x16xf32>, %w: tensor<3x3x16x32xf32>)
    -> tensor<1x64x64x32xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<1x64x64x32xf32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<1x64x64x32xf32>)
      -> tensor<1x64x64x32xf32>
  %out = linalg.conv_2d_nhwc_hwcf
      {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%in, %w : tensor<1x66x66x16xf32>, tensor<3x3x16x32xf32>)
      outs(%init : tensor<1x64x64x32xf32>) -> tensor<1x64x64x32xf32>
  return %out : tensor<1x64x64x32xf32>
}
