// Same function name, different type: cannot be compared with the baseline.
func.func @matmul(%A: tensor<16x8xf32>, %B: tensor<8x16xf32>,
                  %C: tensor<16x16xf32>) -> tensor<16x16xf32> {
  %0 = linalg.matmul ins(%A, %B : tensor<16x8xf32>, tensor<8x16xf32>)
                     outs(%C : tensor<16x16xf32>) -> tensor<16x16xf32>
  return %0 : tensor<16x16xf32>
}
