// seidel2d (PolyBench seidel-2d): T time steps of a 9-point Gauss-Seidel
// stencil updated in place,
//   for t, 1 <= i, j < N-1:
//     A[i][j] = (A[i-1][j-1] + A[i-1][j] + A[i-1][j+1]
//              + A[i][j-1]   + A[i][j]   + A[i][j+1]
//              + A[i+1][j-1] + A[i+1][j] + A[i+1][j+1]) / 9
// Every update reads values written earlier in the same sweep (loop-carried
// dependences on i, j and t), which linalg on tensors cannot express: an
// affine.for nest on a memref, time loop included. A is the output.
//
// shape: A 1024x1024, T = 20 time steps (N = 1024)
// flops: 20*1022*1022*9
//   (T * (N-2)^2 points * (8 adds + 1 divide))
func.func @seidel2d(%A: memref<1024x1024xf32>) {
  %nine = arith.constant 9.0 : f32
  affine.for %t = 0 to 20 {
    affine.for %i = 1 to 1023 {
      affine.for %j = 1 to 1023 {
        %a0 = affine.load %A[%i - 1, %j - 1] : memref<1024x1024xf32>
        %a1 = affine.load %A[%i - 1, %j] : memref<1024x1024xf32>
        %a2 = affine.load %A[%i - 1, %j + 1] : memref<1024x1024xf32>
        %a3 = affine.load %A[%i, %j - 1] : memref<1024x1024xf32>
        %a4 = affine.load %A[%i, %j] : memref<1024x1024xf32>
        %a5 = affine.load %A[%i, %j + 1] : memref<1024x1024xf32>
        %a6 = affine.load %A[%i + 1, %j - 1] : memref<1024x1024xf32>
        %a7 = affine.load %A[%i + 1, %j] : memref<1024x1024xf32>
        %a8 = affine.load %A[%i + 1, %j + 1] : memref<1024x1024xf32>
        %s1 = arith.addf %a0, %a1 : f32
        %s2 = arith.addf %s1, %a2 : f32
        %s3 = arith.addf %s2, %a3 : f32
        %s4 = arith.addf %s3, %a4 : f32
        %s5 = arith.addf %s4, %a5 : f32
        %s6 = arith.addf %s5, %a6 : f32
        %s7 = arith.addf %s6, %a7 : f32
        %s8 = arith.addf %s7, %a8 : f32
        %r = arith.divf %s8, %nine : f32
        affine.store %r, %A[%i, %j] : memref<1024x1024xf32>
      }
    }
  }
  return
}
