func.func @sum(%x: memref<64x32xf32>) -> f32 {
  %c0 = arith.constant 0.0 : f32
  %r = affine.for %j = 0 to 32 iter_args(%acc = %c0) -> f32 {
    %in = affine.for %i = 0 to 64 iter_args(%a2 = %acc) -> f32 {
      %v = affine.load %x[%i, %j] : memref<64x32xf32>
      %s = arith.addf %a2, %v : f32
      affine.yield %s : f32
    }
    affine.yield %in : f32
  }
  return %r : f32
}
