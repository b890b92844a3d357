// The CPU version of gpu-add.mlir, for comparing outputs.
func.func @add(%a: memref<16x32xf32>, %b: memref<16x32xf32>,
               %c: memref<16x32xf32>) attributes {llvm.emit_c_interface} {
  %zero = arith.constant 0 : index
  %one = arith.constant 1 : index
  %rows = arith.constant 16 : index
  %cols = arith.constant 32 : index
  scf.for %i = %zero to %rows step %one {
    scf.for %j = %zero to %cols step %one {
      %x = memref.load %a[%i, %j] : memref<16x32xf32>
      %y = memref.load %b[%i, %j] : memref<16x32xf32>
      %s = arith.addf %x, %y : f32
      memref.store %s, %c[%i, %j] : memref<16x32xf32>
    }
  }
  return
}
