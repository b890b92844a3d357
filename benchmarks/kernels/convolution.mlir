// convolution: a direct 2-D convolution layer with bias, NCHW layout,
//   out[n][f][y][x] = bias[f]
//       + sum_{c, ky, kx} in[n][c][y + ky][x + kx] * w[f][c][ky][kx]
// (stride 1, no padding: the input carries the 2-pixel halo). The bias is
// broadcast into the output (linalg.broadcast), then
// linalg.conv_2d_nchw_fchw accumulates into it.
//
// shape: in 8x3x1026x1026, w 2x3x3x3, bias 2 -> out 8x2x1024x1024 (N=8 C=3 F=2 H=W=1024 K=3)
// flops: 2*8*2*1024*1024*3*3*3
//   (2*N*F*H*W*C*K*K; the bias is a copy, not counted)
func.func @convolution(%in: tensor<8x3x1026x1026xf32>, %w: tensor<2x3x3x3xf32>,
                       %bias: tensor<2xf32>) -> tensor<8x2x1024x1024xf32> {
  %empty = tensor.empty() : tensor<8x2x1024x1024xf32>
  %init = linalg.broadcast ins(%bias : tensor<2xf32>)
                           outs(%empty : tensor<8x2x1024x1024xf32>)
                           dimensions = [0, 2, 3]
  %out = linalg.conv_2d_nchw_fchw
      {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%in, %w : tensor<8x3x1026x1026xf32>, tensor<2x3x3x3xf32>)
      outs(%init : tensor<8x2x1024x1024xf32>) -> tensor<8x2x1024x1024xf32>
  return %out : tensor<8x2x1024x1024xf32>
}
