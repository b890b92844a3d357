// Replay-table kernel: an affine loop nest, C += A^T * B (f32, 192x192x192)
// on memrefs, the transposed read of A making the loop order matter.
func.func @atb(%A: memref<192x192xf32>, %B: memref<192x192xf32>,
               %C: memref<192x192xf32>) {
  affine.for %i = 0 to 192 {
    affine.for %j = 0 to 192 {
      affine.for %k = 0 to 192 {
        %a = affine.load %A[%k, %i] : memref<192x192xf32>
        %b = affine.load %B[%k, %j] : memref<192x192xf32>
        %c = affine.load %C[%i, %j] : memref<192x192xf32>
        %p = arith.mulf %a, %b : f32
        %s = arith.addf %c, %p : f32
        affine.store %s, %C[%i, %j] : memref<192x192xf32>
      }
    }
  }
  return
}
