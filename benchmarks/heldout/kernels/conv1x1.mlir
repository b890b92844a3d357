// conv1x1: a pointwise convolution, out[n][f][h][w] = sum_c in[n][c][h][w] *
// w[f][c][0][0] (linalg.fill + linalg.conv_2d_nchw_fchw with a 1x1
// kernel). Held out: a convolution whose reduction is over channels, not a
// window.
//
// shape: in 2x64x96x96, w 48x64x1x1 -> out 2x48x96x96 (N=2 C=64 F=48 H=W=96)
// flops: 2*2*48*96*96*64
func.func @conv1x1(%in: tensor<2x64x96x96xf32>, %w: tensor<48x64x1x1xf32>)
    -> tensor<2x48x96x96xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<2x48x96x96xf32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<2x48x96x96xf32>)
      -> tensor<2x48x96x96xf32>
  %r = linalg.conv_2d_nchw_fchw
      {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%in, %w : tensor<2x64x96x96xf32>, tensor<48x64x1x1xf32>)
      outs(%init : tensor<2x48x96x96xf32>) -> tensor<2x48x96x96xf32>
  return %r : tensor<2x48x96x96xf32>
}
