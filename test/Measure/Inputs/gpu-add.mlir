// A toy GPU kernel: c = a + b on 16 x 32 elements, one block per row.
func.func @add(%a: memref<16x32xf32>, %b: memref<16x32xf32>,
               %c: memref<16x32xf32>) attributes {llvm.emit_c_interface} {
  %one = arith.constant 1 : index
  %rows = arith.constant 16 : index
  %cols = arith.constant 32 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %rows, %gy = %one, %gz = %one)
             threads(%tx, %ty, %tz) in (%sx = %cols, %sy = %one, %sz = %one) {
    %x = memref.load %a[%bx, %tx] : memref<16x32xf32>
    %y = memref.load %b[%bx, %tx] : memref<16x32xf32>
    %s = arith.addf %x, %y : f32
    memref.store %s, %c[%bx, %tx] : memref<16x32xf32>
    gpu.terminator
  }
  return
}
