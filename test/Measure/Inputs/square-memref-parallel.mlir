// The same as square-memref.mlir with a parallel, interchanged nest.
func.func @square(%A: memref<32x32xi32>, %B: memref<32x32xi32>) {
  affine.parallel (%j, %i) = (0, 0) to (32, 32) {
    %a = affine.load %A[%j, %i] : memref<32x32xi32>
    %b = arith.muli %a, %a : i32
    affine.store %b, %B[%i, %j] : memref<32x32xi32>
  }
  return
}
