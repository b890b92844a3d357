func.func @scale(%n: index, %x: memref<16xi32>) {
  %v = arith.index_cast %n : index to i32
  affine.for %i = 0 to 16 {
    %a = affine.load %x[%i] : memref<16xi32>
    %m = arith.muli %a, %v : i32
    affine.store %m, %x[%i] : memref<16xi32>
  }
  return
}
