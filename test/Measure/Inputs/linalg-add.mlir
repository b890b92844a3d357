func.func @add(%a: tensor<16x32xf32>, %b: tensor<16x32xf32>,
               %c: tensor<16x32xf32>) -> tensor<16x32xf32> {
  %r = linalg.add ins(%a, %b : tensor<16x32xf32>, tensor<16x32xf32>)
                  outs(%c : tensor<16x32xf32>) -> tensor<16x32xf32>
  return %r : tensor<16x32xf32>
}
