func.func @softmax(%a: tensor<8x64xf32>, %o: tensor<8x64xf32>) -> tensor<8x64xf32> {
  %c = arith.constant 2.0 : f32
  %f = linalg.fill ins(%c : f32) outs(%o : tensor<8x64xf32>) -> tensor<8x64xf32>
  %s = linalg.softmax dimension(1) ins(%a : tensor<8x64xf32>) outs(%f : tensor<8x64xf32>) -> tensor<8x64xf32>
  return %s : tensor<8x64xf32>
}
