// matmul_1021: C = A * B on f32 tensors of 1021x1021, C starting from zero
// (linalg.fill + linalg.matmul). Held out: a size that is prime: no tile size but 1 and 1021 divides it.
//
// shape: A 1021x1021, B 1021x1021 -> C 1021x1021 (M = N = K = 1021)
// flops: 2*1021*1021*1021
// autotune: timeout=150
func.func @matmul_1021(%A: tensor<1021x1021xf32>, %B: tensor<1021x1021xf32>)
    -> tensor<1021x1021xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<1021x1021xf32>
  %C = linalg.fill ins(%zero : f32) outs(%empty : tensor<1021x1021xf32>)
      -> tensor<1021x1021xf32>
  %D = linalg.matmul ins(%A, %B : tensor<1021x1021xf32>, tensor<1021x1021xf32>)
                     outs(%C : tensor<1021x1021xf32>) -> tensor<1021x1021xf32>
  return %D : tensor<1021x1021xf32>
}
