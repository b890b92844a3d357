// mvt (PolyBench): a matrix-vector product and a transposed one on the same
// matrix,
//   x1' = x1 + A * y1          (linalg.matvec)
//   x2' = x2 + transpose(A) * y2   (linalg.vecmat: x2'[j] += y2[i] * A[i][j])
// Memory-bound: A is read twice, once along rows and once along columns.
//
// shape: A 4096x4096, x1 y1 x2 y2 4096 (N = 4096)
// flops: 4*4096*4096
//   (2*N*N per product)
func.func @mvt(%A: tensor<4096x4096xf32>, %y1: tensor<4096xf32>,
               %y2: tensor<4096xf32>, %x1: tensor<4096xf32>,
               %x2: tensor<4096xf32>) -> (tensor<4096xf32>, tensor<4096xf32>) {
  %r1 = linalg.matvec ins(%A, %y1 : tensor<4096x4096xf32>, tensor<4096xf32>)
                      outs(%x1 : tensor<4096xf32>) -> tensor<4096xf32>
  %r2 = linalg.vecmat ins(%y2, %A : tensor<4096xf32>, tensor<4096x4096xf32>)
                      outs(%x2 : tensor<4096xf32>) -> tensor<4096xf32>
  return %r1, %r2 : tensor<4096xf32>, tensor<4096xf32>
}
