// matmul: C = A * B on f32 tensors, C starting from zero (linalg.fill +
// linalg.matmul), the size of the GPU benchmark's comparison with cuBLAS
// SGEMM (benchmarks/gpu/cublas_sgemm.cpp times the same product).
//
// shape: A 4096x4096, B 4096x4096 -> C 4096x4096 (M = N = K = 4096)
// flops: 2*4096*4096*4096
//
// The Measurer's reference outputs come from the CPU lowering of this
// untransformed function (the naive i-j-k nest on one core): minutes per
// call at this size, under the harness's timeout, which is raised here
// (run.py passes this line's options to --tuner-autotune).
// autotune: timeout=3600
func.func @matmul(%A: tensor<4096x4096xf32>, %B: tensor<4096x4096xf32>)
    -> tensor<4096x4096xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<4096x4096xf32>
  %C = linalg.fill ins(%zero : f32) outs(%empty : tensor<4096x4096xf32>)
      -> tensor<4096x4096xf32>
  %D = linalg.matmul ins(%A, %B : tensor<4096x4096xf32>, tensor<4096x4096xf32>)
                     outs(%C : tensor<4096x4096xf32>) -> tensor<4096x4096xf32>
  return %D : tensor<4096x4096xf32>
}
