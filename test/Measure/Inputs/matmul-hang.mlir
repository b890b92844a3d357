// Hangs: the loop runs while A[0, 0] <= 2, and inputs lie in [-1, 1).
func.func @matmul(%A: tensor<16x16xf32>, %B: tensor<16x16xf32>,
                  %C: tensor<16x16xf32>) -> tensor<16x16xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %two = arith.constant 2.0 : f32
  %x = tensor.extract %A[%c0, %c0] : tensor<16x16xf32>
  %n = scf.while (%i = %c0) : (index) -> index {
    %go = arith.cmpf ole, %x, %two : f32
    scf.condition(%go) %i : index
  } do {
  ^bb0(%i: index):
    %next = arith.addi %i, %c1 : index
    scf.yield %next : index
  }
  %0 = linalg.matmul ins(%A, %B : tensor<16x16xf32>, tensor<16x16xf32>)
                     outs(%C : tensor<16x16xf32>) -> tensor<16x16xf32>
  %f = arith.index_cast %n : index to i32
  %g = arith.sitofp %f : i32 to f32
  %1 = tensor.insert %g into %0[%c0, %c0] : tensor<16x16xf32>
  return %1 : tensor<16x16xf32>
}
