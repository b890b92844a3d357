func.func @copy(%a: memref<64x64xf32, #gpu.address_space<workgroup>>, %b: memref<64x64xf32>) {
  affine.for %i = 0 to 64 {
    affine.for %j = 0 to 64 {
      %v = affine.load %a[%j, %i] : memref<64x64xf32, #gpu.address_space<workgroup>>
      affine.store %v, %b[%i, %j] : memref<64x64xf32>
    }
  }
  return
}
