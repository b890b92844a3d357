// small_conv: the convolution benchmark's computation (bias, then a 3x3
// NCHW convolution) on a small image, for the benchmark script's smoke
// test of the oneDNN column.
//
// shape: in 1x3x18x34, w 2x3x3x3, bias 2 -> out 1x2x16x32
// flops: 2*1*2*16*32*3*3*3
func.func @small_conv(%in: tensor<1x3x18x34xf32>, %w: tensor<2x3x3x3xf32>,
                      %bias: tensor<2xf32>) -> tensor<1x2x16x32xf32> {
  %empty = tensor.empty() : tensor<1x2x16x32xf32>
  %init = linalg.broadcast ins(%bias : tensor<2xf32>)
                           outs(%empty : tensor<1x2x16x32xf32>)
                           dimensions = [0, 2, 3]
  %out = linalg.conv_2d_nchw_fchw
      {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%in, %w : tensor<1x3x18x34xf32>, tensor<2x3x3x3xf32>)
      outs(%init : tensor<1x2x16x32xf32>) -> tensor<1x2x16x32xf32>
  return %out : tensor<1x2x16x32xf32>
}
