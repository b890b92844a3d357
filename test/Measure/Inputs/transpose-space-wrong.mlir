func.func @copy(%a: memref<64x64xf32, 1>, %b: memref<64x64xf32, 1>) {
  affine.for %i = 0 to 64 {
    affine.for %j = 0 to 64 {
      %v = affine.load %a[%i, %j] : memref<64x64xf32, 1>
      affine.store %v, %b[%i, %j] : memref<64x64xf32, 1>
    }
  }
  return
}
