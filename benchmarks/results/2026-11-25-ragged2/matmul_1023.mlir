// matmul_1023: C = A * B on f32 tensors of 1023x1023, C starting from zero
// (linalg.fill + linalg.matmul). Held out for the padded partial tiles: 1023 = 3 x 11 x 31, no power of two divides it.
//
// shape: A 1023x1023, B 1023x1023 -> C 1023x1023 (M = N = K = 1023)
// flops: 2*1023*1023*1023
// autotune: timeout=150
func.func @matmul_1023(%A: tensor<1023x1023xf32>, %B: tensor<1023x1023xf32>)
    -> tensor<1023x1023xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<1023x1023xf32>
  %C = linalg.fill ins(%zero : f32) outs(%empty : tensor<1023x1023xf32>)
      -> tensor<1023x1023xf32>
  %D = linalg.matmul ins(%A, %B : tensor<1023x1023xf32>, tensor<1023x1023xf32>)
                     outs(%C : tensor<1023x1023xf32>) -> tensor<1023x1023xf32>
  return %D : tensor<1023x1023xf32>
}
