// matmul_1000: C = A * B on f32 tensors of 1000x1000, C starting from zero
// (linalg.fill + linalg.matmul). Held out: a size no power of two divides beyond 8.
//
// shape: A 1000x1000, B 1000x1000 -> C 1000x1000 (M = N = K = 1000)
// flops: 2*1000*1000*1000
// autotune: timeout=150
func.func @matmul_1000(%A: tensor<1000x1000xf32>, %B: tensor<1000x1000xf32>)
    -> tensor<1000x1000xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<1000x1000xf32>
  %C = linalg.fill ins(%zero : f32) outs(%empty : tensor<1000x1000xf32>)
      -> tensor<1000x1000xf32>
  %D = linalg.matmul ins(%A, %B : tensor<1000x1000xf32>, tensor<1000x1000xf32>)
                     outs(%C : tensor<1000x1000xf32>) -> tensor<1000x1000xf32>
  return %D : tensor<1000x1000xf32>
}
