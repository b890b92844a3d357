func.func @axpy(%alpha: f32, %x: memref<64xf32>, %y: memref<64xf32>) {
  affine.for %i = 0 to 64 {
    %a = affine.load %x[%i] : memref<64xf32>
    %b = affine.load %y[%i] : memref<64xf32>
    %m = arith.mulf %alpha, %a : f32
    %s = arith.addf %m, %b : f32
    affine.store %s, %y[%i] : memref<64xf32>
  }
  return
}
