// conv + relu on a small image: the shipped conv_relu kernel's computation
// (NCHW convolution with bias, then ReLU) at sizes that time in
// milliseconds, for the oneDNN and Halide paths of the smoke test.
//
// shape: in 2x3x34x34, w 4x3x3x3, bias 4 -> out 2x4x32x32 (N=2 C=3 F=4 H=W=32 K=3)
// flops: 2*2*4*32*32*3*3*3 + 2*4*32*32
// halide: conv_relu
#map = affine_map<(n, f, y, x) -> (n, f, y, x)>
func.func @small_conv(%in: tensor<2x3x34x34xf32>, %w: tensor<4x3x3x3xf32>,
                      %bias: tensor<4xf32>) -> tensor<2x4x32x32xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<2x4x32x32xf32>
  %init = linalg.broadcast ins(%bias : tensor<4xf32>)
                           outs(%empty : tensor<2x4x32x32xf32>)
                           dimensions = [0, 2, 3]
  %conv = linalg.conv_2d_nchw_fchw
      {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%in, %w : tensor<2x3x34x34xf32>, tensor<4x3x3x3xf32>)
      outs(%init : tensor<2x4x32x32xf32>) -> tensor<2x4x32x32xf32>
  %relu = linalg.generic {indexing_maps = [#map, #map],
                          iterator_types = ["parallel", "parallel", "parallel",
                                            "parallel"]}
      ins(%conv : tensor<2x4x32x32xf32>)
      outs(%empty : tensor<2x4x32x32xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = arith.maximumf %x, %zero : f32
    linalg.yield %r : f32
  } -> tensor<2x4x32x32xf32>
  return %relu : tensor<2x4x32x32xf32>
}
