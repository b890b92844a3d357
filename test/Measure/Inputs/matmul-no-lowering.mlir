// Does not compile for the CPU: gpu.thread_id has no lowering there.
func.func @matmul(%A: tensor<16x16xf32>, %B: tensor<16x16xf32>,
                  %C: tensor<16x16xf32>) -> tensor<16x16xf32> {
  %c0 = arith.constant 0 : index
  %t = gpu.thread_id x
  %0 = linalg.matmul ins(%A, %B : tensor<16x16xf32>, tensor<16x16xf32>)
                     outs(%C : tensor<16x16xf32>) -> tensor<16x16xf32>
  %i = arith.index_cast %t : index to i32
  %f = arith.sitofp %i : i32 to f32
  %1 = tensor.insert %f into %0[%c0, %c0] : tensor<16x16xf32>
  return %1 : tensor<16x16xf32>
}
