// rowsumsq: the sum of squares of each row, out[i] = sum_j A[i][j]^2
// (linalg.fill + a linalg.generic reduction). Held out: a reduction along
// the contiguous dimension.
//
// shape: A 4096x1536 -> out 4096 (M = 4096, N = 1536)
// flops: 2*4096*1536
#a = affine_map<(i, j) -> (i, j)>
#o = affine_map<(i, j) -> (i)>
func.func @rowsumsq(%A: tensor<4096x1536xf32>) -> tensor<4096xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<4096xf32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<4096xf32>)
      -> tensor<4096xf32>
  %r = linalg.generic {indexing_maps = [#a, #o],
                       iterator_types = ["parallel", "reduction"]}
      ins(%A : tensor<4096x1536xf32>) outs(%init : tensor<4096xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %sq = arith.mulf %x, %x : f32
    %s = arith.addf %acc, %sq : f32
    linalg.yield %s : f32
  } -> tensor<4096xf32>
  return %r : tensor<4096xf32>
}
