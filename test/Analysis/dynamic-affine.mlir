// Affine nests whose bounds are affine in the dynamic sizes of arguments are
// analyzed at the sizes given with shapes= (the bounds fold to constants in
// the specialized clone), but what the space may do with them holds at every
// size: legal orders, full permutability and parallel loops are those the
// dependences of the dynamic nest (bounds symbolic) also allow.
// RUN: tuner-opt %s --tuner-print-program="shapes=arg0=9x48,arg1=8x8" -o /dev/null | FileCheck %s
//
// The same nests with the bounds the tuned sizes give, for comparison:
// there, without the symbolic restriction, the shift is parallel, and so
// are both loops of the swap, whose order may change.
// RUN: tuner-opt %S/Inputs/dynamic-affine-static.mlir --tuner-print-program -o /dev/null | FileCheck %s --check-prefix=STATIC

// CHECK-LABEL: function @jacobi
// CHECK:       nest nest_0 (affine, op 0) perfect outer-parallel
// CHECK-NEXT:    loop nest_0.d0 extent 7 lb 1 step 1 parallel
// CHECK-NEXT:      loop nest_0.d1 extent 46 lb 1 step 1 parallel
// CHECK:         legal orders (2 of 2): [0, 1] [1, 0]

// CHECK-LABEL: function @shift
// CHECK:       nest nest_0 (affine, op 0) perfect outer-sequential
// CHECK-NEXT:    loop nest_0.d0 extent 8 lb 0 step 1 sequential

// CHECK-LABEL: function @swap
// CHECK:       nest nest_0 (affine, op 0) perfect outer-sequential
// CHECK-NEXT:    loop nest_0.d0 extent 8 lb 0 step 1 sequential
// CHECK-NEXT:      loop nest_0.d1 extent 8 lb 0 step 1 parallel
// CHECK:         legal orders (1 of 2): [0, 1]

// STATIC-LABEL: function @shift
// STATIC:       loop nest_0.d0 extent 8 lb 0 step 1 parallel
// STATIC-LABEL: function @swap
// STATIC:       nest nest_0 (affine, op 0) perfect outer-parallel
// STATIC:         legal orders (2 of 2): [0, 1] [1, 0]

#minus1 = affine_map<()[s0] -> (s0 - 1)>
func.func @jacobi(%A: memref<?x?xf32>, %B: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = memref.dim %A, %c0 : memref<?x?xf32>
  %n = memref.dim %A, %c1 : memref<?x?xf32>
  affine.for %i = 1 to #minus1()[%m] {
    affine.for %j = 1 to #minus1()[%n] {
      %a = affine.load %A[%i - 1, %j] : memref<?x?xf32>
      %b = affine.load %A[%i + 1, %j] : memref<?x?xf32>
      %c = affine.load %A[%i, %j - 1] : memref<?x?xf32>
      %d = affine.load %A[%i, %j + 1] : memref<?x?xf32>
      %s1 = arith.addf %a, %b : f32
      %s2 = arith.addf %c, %d : f32
      %s = arith.addf %s1, %s2 : f32
      affine.store %s, %B[%i, %j] : memref<?x?xf32>
    }
  }
  return
}

// At n = 8 the loop writes A[0][8..15] and reads A[0][0..7]: no
// dependence. At n > 8 it reads what an earlier iteration wrote.
func.func @shift(%A: memref<?x?xf32>, %B: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %B, %c1 : memref<?x?xf32>
  affine.for %j = 0 to %n {
    %a = affine.load %A[0, %j] : memref<?x?xf32>
    %b = affine.load %B[0, %j] : memref<?x?xf32>
    %s = arith.addf %a, %b : f32
    affine.store %s, %A[0, %j + 8] : memref<?x?xf32>
  }
  return
}

// Iteration (i, j) reads A[i][j + 40], which iteration (i - 1, j + 40)
// wrote: a dependence of distance (1, -40), which keeps the outer loop
// sequential and forbids swapping the loops, exists only when n > 40 (the
// sizes tuned for give n = 8).
func.func @swap(%A: memref<?x?xf32>, %B: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = memref.dim %B, %c0 : memref<?x?xf32>
  %n = memref.dim %B, %c1 : memref<?x?xf32>
  affine.for %i = 0 to %m {
    affine.for %j = 0 to %n {
      %a = affine.load %A[%i, %j + 40] : memref<?x?xf32>
      %b = affine.load %B[%i, %j] : memref<?x?xf32>
      %s = arith.addf %a, %b : f32
      affine.store %s, %A[%i + 1, %j] : memref<?x?xf32>
    }
  }
  return
}
