// blur1d: a 3-point average along the rows of an image,
//   out[i][j] = (in[i][j] + in[i][j+1] + in[i][j+2]) / 3
// with a 2-point halo on the right; each neighbour a tensor.extract_slice
// window (as in the suite's stencils). Held out: a 1-D stencil along the
// contiguous dimension on a wide, short image.
//
// shape: in 512x8194 -> out 512x8192 (H = 512, W = 8192)
// flops: 3*512*8192
//   (2 adds and 1 multiply per point)
#id = affine_map<(i, j) -> (i, j)>
func.func @blur1d(%in: tensor<512x8194xf32>) -> tensor<512x8192xf32> {
  %third = arith.constant 0.333333343 : f32
  %l = tensor.extract_slice %in[0, 0] [512, 8192] [1, 1]
      : tensor<512x8194xf32> to tensor<512x8192xf32>
  %c = tensor.extract_slice %in[0, 1] [512, 8192] [1, 1]
      : tensor<512x8194xf32> to tensor<512x8192xf32>
  %r = tensor.extract_slice %in[0, 2] [512, 8192] [1, 1]
      : tensor<512x8194xf32> to tensor<512x8192xf32>
  %empty = tensor.empty() : tensor<512x8192xf32>
  %out = linalg.generic {indexing_maps = [#id, #id, #id, #id],
                         iterator_types = ["parallel", "parallel"]}
      ins(%l, %c, %r : tensor<512x8192xf32>, tensor<512x8192xf32>,
                       tensor<512x8192xf32>)
      outs(%empty : tensor<512x8192xf32>) {
  ^bb0(%a: f32, %b: f32, %d: f32, %o: f32):
    %s = arith.addf %a, %b : f32
    %t = arith.addf %s, %d : f32
    %v = arith.mulf %t, %third : f32
    linalg.yield %v : f32
  } -> tensor<512x8192xf32>
  return %out : tensor<512x8192xf32>
}
