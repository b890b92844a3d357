// Lowers, but the native compiler rejects the inline assembly.
func.func @matmul(%A: tensor<16x16xf32>, %B: tensor<16x16xf32>,
                  %C: tensor<16x16xf32>) -> tensor<16x16xf32> {
  llvm.inline_asm has_side_effects "not_an_x86_instruction", "" : () -> ()
  %0 = linalg.matmul ins(%A, %B : tensor<16x16xf32>, tensor<16x16xf32>)
                     outs(%C : tensor<16x16xf32>) -> tensor<16x16xf32>
  return %0 : tensor<16x16xf32>
}
