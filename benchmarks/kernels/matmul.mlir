// matmul: C = A * B on f32 tensors, C starting from zero (linalg.fill +
// linalg.matmul). The classic compute-bound kernel; the reference point for
// the C -O3, Polly and OpenBLAS columns.
//
// shape: A 1024x1024, B 1024x1024 -> C 1024x1024 (M = N = K = 1024)
// flops: 2*1024*1024*1024
//   (2*M*N*K: one multiply and one add per (i, j, k))
//
// Untuned, this is the naive i-j-k loop nest: about 7 s per call on the
// 2-core development machine (0.3 GFLOP/s), so one harness run of the
// baseline (a verification call, a warm-up and 5 repetitions) needs far more
// than the autotune pass's default 20 s timeout; run.py passes this line's
// options to --tuner-autotune.
// autotune: timeout=150
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
