// cvtcolor: RGB to gray on a planar (channel-first) image,
//   gray[y][x] = 0.299 * rgb[0][y][x] + 0.587 * rgb[1][y][x]
//              + 0.114 * rgb[2][y][x]
// One element-wise linalg.generic that reads the three planes. Memory-bound.
//
// shape: rgb 3x4096x4096 -> gray 4096x4096 (H = W = 4096)
// flops: 5*4096*4096
//   (3 multiplies and 2 adds per pixel)
#r = affine_map<(y, x) -> (0, y, x)>
#g = affine_map<(y, x) -> (1, y, x)>
#b = affine_map<(y, x) -> (2, y, x)>
#out = affine_map<(y, x) -> (y, x)>
func.func @cvtcolor(%rgb: tensor<3x4096x4096xf32>) -> tensor<4096x4096xf32> {
  %wr = arith.constant 0.299 : f32
  %wg = arith.constant 0.587 : f32
  %wb = arith.constant 0.114 : f32
  %empty = tensor.empty() : tensor<4096x4096xf32>
  %gray = linalg.generic {indexing_maps = [#r, #g, #b, #out],
                          iterator_types = ["parallel", "parallel"]}
      ins(%rgb, %rgb, %rgb
          : tensor<3x4096x4096xf32>, tensor<3x4096x4096xf32>,
            tensor<3x4096x4096xf32>)
      outs(%empty : tensor<4096x4096xf32>) {
  ^bb0(%red: f32, %green: f32, %blue: f32, %o: f32):
    %r = arith.mulf %wr, %red : f32
    %g = arith.mulf %wg, %green : f32
    %b = arith.mulf %wb, %blue : f32
    %rg = arith.addf %r, %g : f32
    %rgb1 = arith.addf %rg, %b : f32
    linalg.yield %rgb1 : f32
  } -> tensor<4096x4096xf32>
  return %gray : tensor<4096x4096xf32>
}
