// matmul_tn: C = transpose(A) * B, C[i][j] = sum_k A[k][i] * B[k][j], as a
// linalg.generic contraction (A read along columns). Held out: a transposed
// operand and a rectangular shape.
//
// shape: A 640x768, B 640x512 -> C 768x512 (M=768 N=512 K=640)
// flops: 2*768*512*640
#a = affine_map<(i, j, k) -> (k, i)>
#b = affine_map<(i, j, k) -> (k, j)>
#c = affine_map<(i, j, k) -> (i, j)>
func.func @matmul_tn(%A: tensor<640x768xf32>, %B: tensor<640x512xf32>)
    -> tensor<768x512xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<768x512xf32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<768x512xf32>)
      -> tensor<768x512xf32>
  %r = linalg.generic {indexing_maps = [#a, #b, #c],
                       iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%A, %B : tensor<640x768xf32>, tensor<640x512xf32>)
      outs(%init : tensor<768x512xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %m = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<768x512xf32>
  return %r : tensor<768x512xf32>
}
