// conv + relu: the convolution layer of convolution.mlir followed by a ReLU,
//   conv[n][f][y][x] = bias[f]
//       + sum_{c, ky, kx} in[n][c][y + ky][x + kx] * w[f][c][ky][kx]
//   out[n][f][y][x] = max(conv[n][f][y][x], 0)
// Two successive layers that benefit from fusing the ReLU into the
// convolution (linalg.broadcast, linalg.conv_2d_nchw_fchw, then an
// element-wise linalg.generic with arith.maximumf).
//
// shape: in 8x3x1026x1026, w 2x3x3x3, bias 2 -> out 8x2x1024x1024 (N=8 C=3 F=2 H=W=1024 K=3)
// flops: 2*8*2*1024*1024*3*3*3 + 8*2*1024*1024
//   (2*N*F*H*W*C*K*K for the convolution, N*F*H*W for the ReLU's max)
#map = affine_map<(n, f, y, x) -> (n, f, y, x)>
func.func @conv_relu(%in: tensor<8x3x1026x1026xf32>, %w: tensor<2x3x3x3xf32>,
                     %bias: tensor<2xf32>) -> tensor<8x2x1024x1024xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<8x2x1024x1024xf32>
  %init = linalg.broadcast ins(%bias : tensor<2xf32>)
                           outs(%empty : tensor<8x2x1024x1024xf32>)
                           dimensions = [0, 2, 3]
  %conv = linalg.conv_2d_nchw_fchw
      {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%in, %w : tensor<8x3x1026x1026xf32>, tensor<2x3x3x3xf32>)
      outs(%init : tensor<8x2x1024x1024xf32>) -> tensor<8x2x1024x1024xf32>
  %relu = linalg.generic {indexing_maps = [#map, #map],
                          iterator_types = ["parallel", "parallel", "parallel",
                                            "parallel"]}
      ins(%conv : tensor<8x2x1024x1024xf32>)
      outs(%empty : tensor<8x2x1024x1024xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = arith.maximumf %x, %zero : f32
    linalg.yield %r : f32
  } -> tensor<8x2x1024x1024xf32>
  return %relu : tensor<8x2x1024x1024xf32>
}
