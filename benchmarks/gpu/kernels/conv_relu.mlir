// conv + relu: a 3x3 convolution layer (64 -> 64 channels, stride 1, no
// padding) followed by a ReLU, as three linalg ops on tensors:
//   out[n][f][y][x] = max(sum_{c, ky, kx} in[n][c][y + ky][x + kx] * w[f][c][ky][kx], 0)
// (linalg.fill, linalg.conv_2d_nchw_fchw, an element-wise linalg.generic
// with arith.maximumf). The GPU space distributes x, y and f over blocks
// and threads; the batch of one is not distributed.
//
// shape: in 1x64x258x258, w 64x64x3x3 -> out 1x64x256x256 (N=1 C=F=64 H=W=256 K=3)
// flops: 2*1*64*256*256*64*3*3 + 1*64*256*256
func.func @conv_relu(%in: tensor<1x64x258x258xf32>, %w: tensor<64x64x3x3xf32>)
    -> tensor<1x64x256x256xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x64x256x256xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x64x256x256xf32>)
      -> tensor<1x64x256x256xf32>
  %c = linalg.conv_2d_nchw_fchw
      {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%in, %w : tensor<1x64x258x258xf32>, tensor<64x64x3x3xf32>)
      outs(%f : tensor<1x64x256x256xf32>) -> tensor<1x64x256x256xf32>
  %e2 = tensor.empty() : tensor<1x64x256x256xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(n, c, h, w) -> (n, c, h, w)>,
                                        affine_map<(n, c, h, w) -> (n, c, h, w)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
       ins(%c : tensor<1x64x256x256xf32>) outs(%e2 : tensor<1x64x256x256xf32>) {
  ^bb0(%x: f32, %o: f32):
    %m = arith.maximumf %x, %zero : f32
    linalg.yield %m : f32
  } -> tensor<1x64x256x256xf32>
  return %r : tensor<1x64x256x256xf32>
}
