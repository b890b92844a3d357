// Replay-table kernel: C = A * B, f32, M = N = K = 256 (linalg.fill +
// linalg.matmul on tensors). Small enough that one measurement costs about
// a second, so that every config of a limited space can be measured.
func.func @matmul(%A: tensor<256x256xf32>, %B: tensor<256x256xf32>)
    -> tensor<256x256xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<256x256xf32>
  %C = linalg.fill ins(%zero : f32) outs(%empty : tensor<256x256xf32>)
      -> tensor<256x256xf32>
  %R = linalg.matmul ins(%A, %B : tensor<256x256xf32>, tensor<256x256xf32>)
                     outs(%C : tensor<256x256xf32>) -> tensor<256x256xf32>
  return %R : tensor<256x256xf32>
}
