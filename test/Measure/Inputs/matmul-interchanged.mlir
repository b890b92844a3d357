// The matmul as explicit loops on tensors with the reduction outermost: the
// same result up to the order of the additions.
func.func @matmul(%A: tensor<16x16xf32>, %B: tensor<16x16xf32>,
                  %C: tensor<16x16xf32>) -> tensor<16x16xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %r = scf.for %k = %c0 to %c16 step %c1 iter_args(%acc0 = %C) -> tensor<16x16xf32> {
    %r1 = scf.for %i = %c0 to %c16 step %c1 iter_args(%acc1 = %acc0) -> tensor<16x16xf32> {
      %r2 = scf.for %j = %c0 to %c16 step %c1 iter_args(%acc2 = %acc1) -> tensor<16x16xf32> {
        %a = tensor.extract %A[%i, %k] : tensor<16x16xf32>
        %b = tensor.extract %B[%k, %j] : tensor<16x16xf32>
        %c = tensor.extract %acc2[%i, %j] : tensor<16x16xf32>
        %m = arith.mulf %a, %b : f32
        %s = arith.addf %c, %m : f32
        %u = tensor.insert %s into %acc2[%i, %j] : tensor<16x16xf32>
        scf.yield %u : tensor<16x16xf32>
      }
      scf.yield %r2 : tensor<16x16xf32>
    }
    scf.yield %r1 : tensor<16x16xf32>
  }
  return %r : tensor<16x16xf32>
}
