// batch_matmul: 16 independent products C[b] = A[b] * B[b]
// (linalg.fill + linalg.batch_matmul). Held out: a batch dimension and
// sizes that are not powers of two.
//
// shape: A 16x192x224, B 16x224x160 -> C 16x192x160 (B=16 M=192 K=224 N=160)
// flops: 2*16*192*160*224
func.func @batch_matmul(%A: tensor<16x192x224xf32>, %B: tensor<16x224x160xf32>)
    -> tensor<16x192x160xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<16x192x160xf32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<16x192x160xf32>)
      -> tensor<16x192x160xf32>
  %r = linalg.batch_matmul
      ins(%A, %B : tensor<16x192x224xf32>, tensor<16x224x160xf32>)
      outs(%init : tensor<16x192x160xf32>) -> tensor<16x192x160xf32>
  return %r : tensor<16x192x160xf32>
}
