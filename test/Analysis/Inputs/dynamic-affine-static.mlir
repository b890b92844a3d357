// The nests of dynamic-affine.mlir at the sizes it tunes them for.
func.func @shift(%A: memref<9x48xf32>, %B: memref<8x8xf32>) {
  affine.for %j = 0 to 8 {
    %a = affine.load %A[0, %j] : memref<9x48xf32>
    %b = affine.load %B[0, %j] : memref<8x8xf32>
    %s = arith.addf %a, %b : f32
    affine.store %s, %A[0, %j + 8] : memref<9x48xf32>
  }
  return
}

func.func @swap(%A: memref<9x48xf32>, %B: memref<8x8xf32>) {
  affine.for %i = 0 to 8 {
    affine.for %j = 0 to 8 {
      %a = affine.load %A[%i, %j + 40] : memref<9x48xf32>
      %b = affine.load %B[%i, %j] : memref<8x8xf32>
      %s = arith.addf %a, %b : f32
      affine.store %s, %A[%i + 1, %j] : memref<9x48xf32>
    }
  }
  return
}
