// A kernel with 64 KiB of static shared memory: more than the 48 KiB a block
// may have statically, which ptxas refuses.
func.func @big_tile(%a: memref<16384xf32>) {
  %c1 = arith.constant 1 : index
  %tile = memref.alloc() : memref<16384xf32, #gpu.address_space<workgroup>>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    memref.copy %a, %tile : memref<16384xf32> to memref<16384xf32, #gpu.address_space<workgroup>>
    memref.copy %tile, %a : memref<16384xf32, #gpu.address_space<workgroup>> to memref<16384xf32>
    gpu.terminator
  }
  return
}
