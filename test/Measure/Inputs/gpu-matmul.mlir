// A 128x128x64 matmul on tensors, the payload of the GPU schedules
// gpu-matmul-schedule.mlir and gpu-matmul-promote-schedule.mlir.
func.func @matmul(%A: tensor<128x64xf32>, %B: tensor<64x128xf32>) -> tensor<128x128xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<128x128xf32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<128x128xf32>) -> tensor<128x128xf32>
  %C = linalg.matmul ins(%A, %B : tensor<128x64xf32>, tensor<64x128xf32>)
                     outs(%init : tensor<128x128xf32>) -> tensor<128x128xf32>
  return %C : tensor<128x128xf32>
}
