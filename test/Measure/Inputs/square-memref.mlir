// B[i][j] = A[j][i]^2 on i32 memrefs: B is an output argument.
func.func @square(%A: memref<32x32xi32>, %B: memref<32x32xi32>) {
  affine.for %i = 0 to 32 {
    affine.for %j = 0 to 32 {
      %a = affine.load %A[%j, %i] : memref<32x32xi32>
      %b = arith.muli %a, %a : i32
      affine.store %b, %B[%i, %j] : memref<32x32xi32>
    }
  }
  return
}
