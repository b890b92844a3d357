func.func @mm(%A: tensor<1021x1024xf32>, %B: tensor<1024x1021xf32>) -> tensor<1021x1021xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<1021x1021xf32>
  %C = linalg.fill ins(%zero : f32) outs(%empty : tensor<1021x1021xf32>) -> tensor<1021x1021xf32>
  %D = linalg.matmul ins(%A, %B : tensor<1021x1024xf32>, tensor<1024x1021xf32>) outs(%C : tensor<1021x1021xf32>) -> tensor<1021x1021xf32>
  return %D : tensor<1021x1021xf32>
}
