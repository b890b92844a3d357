// matmul: C = A * B on f32 tensors, C starting from zero (linalg.fill +
// linalg.matmul). The classic compute-bound kernel; the reference point for
// the C -O3, Polly and OpenBLAS columns.
//
// shape: A 1024x1024, B 1024x1024 -> C 1024x1024 (M = N = K = 1024)
// flops: 2*1024*1024*1024
//   (2*M*N*K: one multiply and one add per (i, j, k))
func.func @matmul(%A: tensor<1024x1024xf32>, %B: tensor<1024x1024xf32>)
    -> tensor<1024x1024xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<1024x1024xf32>
  %C = linalg.fill ins(%zero : f32) outs(%empty : tensor<1024x1024xf32>)
      -> tensor<1024x1024xf32>
  %D = linalg.matmul ins(%A, %B : tensor<1024x1024xf32>, tensor<1024x1024xf32>)
                     outs(%C : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  return %D : tensor<1024x1024xf32>
}
