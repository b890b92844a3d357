// Crashes: reads 2^40 rows past the end of A, far outside any mapping.
func.func @matmul(%A: tensor<16x16xf32>, %B: tensor<16x16xf32>,
                  %C: tensor<16x16xf32>) -> tensor<16x16xf32> {
  %c0 = arith.constant 0 : index
  %far = arith.constant 1099511627776 : index
  %v = tensor.extract %A[%far, %c0] : tensor<16x16xf32>
  %0 = linalg.matmul ins(%A, %B : tensor<16x16xf32>, tensor<16x16xf32>)
                     outs(%C : tensor<16x16xf32>) -> tensor<16x16xf32>
  %1 = tensor.insert %v into %0[%c0, %c0] : tensor<16x16xf32>
  return %1 : tensor<16x16xf32>
}
