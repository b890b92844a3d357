// jacobi2d (PolyBench jacobi-2d): T time steps of a 5-point Jacobi stencil
// that ping-pongs between two grids, in place on memrefs,
//   for t: B[i][j] = 0.2 * (A[i][j] + A[i][j-1] + A[i][j+1] + A[i+1][j] + A[i-1][j])
//          A[i][j] = 0.2 * (B[i][j] + B[i][j-1] + B[i][j+1] + B[i+1][j] + B[i-1][j])
// for 1 <= i, j < N-1. The time loop is kept (an affine nest with a
// loop-carried dependence across time steps, the target of time tiling), so
// this is an affine.for nest rather than linalg; both grids are read and
// written, and both are the kernel's outputs.
//
// shape: A 2048x2048, B 2048x2048, T = 10 time steps (N = 2048)
// flops: 10*2*2046*2046*5
//   (T * 2 sweeps * (N-2)^2 points * (4 adds + 1 multiply))
func.func @jacobi2d(%A: memref<2048x2048xf32>, %B: memref<2048x2048xf32>) {
  %fifth = arith.constant 0.2 : f32
  affine.for %t = 0 to 10 {
    affine.for %i = 1 to 2047 {
      affine.for %j = 1 to 2047 {
        %c = affine.load %A[%i, %j] : memref<2048x2048xf32>
        %w = affine.load %A[%i, %j - 1] : memref<2048x2048xf32>
        %e = affine.load %A[%i, %j + 1] : memref<2048x2048xf32>
        %s = affine.load %A[%i + 1, %j] : memref<2048x2048xf32>
        %n = affine.load %A[%i - 1, %j] : memref<2048x2048xf32>
        %s0 = arith.addf %c, %w : f32
        %s1 = arith.addf %s0, %e : f32
        %s2 = arith.addf %s1, %s : f32
        %s3 = arith.addf %s2, %n : f32
        %r = arith.mulf %fifth, %s3 : f32
        affine.store %r, %B[%i, %j] : memref<2048x2048xf32>
      }
    }
    affine.for %i = 1 to 2047 {
      affine.for %j = 1 to 2047 {
        %c = affine.load %B[%i, %j] : memref<2048x2048xf32>
        %w = affine.load %B[%i, %j - 1] : memref<2048x2048xf32>
        %e = affine.load %B[%i, %j + 1] : memref<2048x2048xf32>
        %s = affine.load %B[%i + 1, %j] : memref<2048x2048xf32>
        %n = affine.load %B[%i - 1, %j] : memref<2048x2048xf32>
        %s0 = arith.addf %c, %w : f32
        %s1 = arith.addf %s0, %e : f32
        %s2 = arith.addf %s1, %s : f32
        %s3 = arith.addf %s2, %n : f32
        %r = arith.mulf %fifth, %s3 : f32
        affine.store %r, %A[%i, %j] : memref<2048x2048xf32>
      }
    }
  }
  return
}
