// vecmat: y = transpose(A) * x, y[j] = sum_i x[i] * A[i][j]
// (linalg.fill + linalg.vecmat). Held out: a memory-bound product whose
// reduction runs along the matrix's rows, on sizes that are not powers of
// two.
//
// shape: x 3000, A 3000x2000 -> y 2000 (M = 3000, N = 2000)
// flops: 2*3000*2000
func.func @vecmat(%x: tensor<3000xf32>, %A: tensor<3000x2000xf32>)
    -> tensor<2000xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<2000xf32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<2000xf32>)
      -> tensor<2000xf32>
  %y = linalg.vecmat ins(%x, %A : tensor<3000xf32>, tensor<3000x2000xf32>)
                     outs(%init : tensor<2000xf32>) -> tensor<2000xf32>
  return %y : tensor<2000xf32>
}
