func.func @mm(%Ap: tensor<1021x1024xf32>, %Bp: tensor<1021x1024xf32>) -> tensor<1021x1021xf32> {
  %zero = arith.constant 0.0 : f32
  %A = tensor.extract_slice %Ap[0, 0] [1021, 1021] [1, 1] : tensor<1021x1024xf32> to tensor<1021x1021xf32>
  %B = tensor.extract_slice %Bp[0, 0] [1021, 1021] [1, 1] : tensor<1021x1024xf32> to tensor<1021x1021xf32>
  %empty = tensor.empty() : tensor<1021x1021xf32>
  %C = linalg.fill ins(%zero : f32) outs(%empty : tensor<1021x1021xf32>) -> tensor<1021x1021xf32>
  %D = linalg.matmul ins(%A, %B : tensor<1021x1021xf32>, tensor<1021x1021xf32>) outs(%C : tensor<1021x1021xf32>) -> tensor<1021x1021xf32>
  return %D : tensor<1021x1021xf32>
}
