// RUN: tuner-opt --tuner-print-program %s -o /dev/null | FileCheck %s

// Affine matmul: k accumulates into C[i][j], i and j carry no dependence and
// every one of the 6 loop orders is a legal interchange.
// CHECK-LABEL: function @affine_matmul
// CHECK-NEXT:   buffers:
// CHECK-NEXT:     #0 %arg0 memref 16x8 f32 (arg)
// CHECK-NEXT:     #1 %arg1 memref 8x12 f32 (arg)
// CHECK-NEXT:     #2 %arg2 memref 16x12 f32 (arg)
// CHECK-NEXT:   nest nest_0 (affine, op 0) perfect outer-parallel
// CHECK-NEXT:     loop nest_0.d0 extent 16 lb 0 step 1 parallel
// CHECK-NEXT:       loop nest_0.d1 extent 12 lb 0 step 1 parallel
// CHECK-NEXT:         loop nest_0.d2 extent 8 lb 0 step 1 reduction
// CHECK-NEXT:           comp nest_0.s0 (affine.store) writes #2 [16, 12] f32 ops add=1 mul=1 sub=0 div=0 other=0
// CHECK-NEXT:             read  #0 {{\[}}[1, 0, 0, 0], [0, 0, 1, 0]]
// CHECK-NEXT:             read  #1 {{\[}}[0, 0, 1, 0], [0, 1, 0, 0]]
// CHECK-NEXT:             read  #2 {{\[}}[1, 0, 0, 0], [0, 1, 0, 0]]
// CHECK-NEXT:             write #2 {{\[}}[1, 0, 0, 0], [0, 1, 0, 0]]
// CHECK-NEXT:     band: nest_0.d0 nest_0.d1 nest_0.d2
// CHECK-NEXT:     legal orders (6 of 6): [0, 1, 2] [0, 2, 1] [1, 0, 2] [1, 2, 0] [2, 0, 1] [2, 1, 0]
// CHECK-NEXT:   edges: none
func.func @affine_matmul(%A: memref<16x8xf32>, %B: memref<8x12xf32>, %C: memref<16x12xf32>) {
  affine.for %i = 0 to 16 {
    affine.for %j = 0 to 12 {
      affine.for %k = 0 to 8 {
        %a = affine.load %A[%i, %k] : memref<16x8xf32>
        %b = affine.load %B[%k, %j] : memref<8x12xf32>
        %c = affine.load %C[%i, %j] : memref<16x12xf32>
        %p = arith.mulf %a, %b : f32
        %s = arith.addf %c, %p : f32
        affine.store %s, %C[%i, %j] : memref<16x12xf32>
      }
    }
  }
  return
}

// Seidel-like in-place update A[i][j] = A[i-1][j+1] + A[i][j-1]: the
// dependence of distance (1, -1) forbids the interchange and the outer loop
// carries it; skewing j by i makes the band fully permutable.
// CHECK-LABEL: function @seidel
// CHECK-NEXT:   buffers:
// CHECK-NEXT:     #0 %arg0 memref 10x10 f32 (arg)
// CHECK-NEXT:   nest nest_0 (affine, op 0) perfect outer-sequential
// CHECK-NEXT:     loop nest_0.d0 extent 8 lb 1 step 1 sequential
// CHECK-NEXT:       loop nest_0.d1 extent 8 lb 1 step 1 sequential
// CHECK-NEXT:         comp nest_0.s0 (affine.store) writes #0 [10, 10] f32 ops add=1 mul=0 sub=0 div=0 other=0
// CHECK-NEXT:           read  #0 {{\[}}[1, 0, -1], [0, 1, 1]]
// CHECK-NEXT:           read  #0 {{\[}}[1, 0, 0], [0, 1, -1]]
// CHECK-NEXT:           write #0 {{\[}}[1, 0, 0], [0, 1, 0]]
// CHECK-NEXT:     band: nest_0.d0 nest_0.d1
// CHECK-NEXT:     skew band: nest_0.d0 nest_0.d1
// CHECK-NEXT:     legal orders (1 of 2): [0, 1]
// CHECK-NEXT:   edges: none
func.func @seidel(%A: memref<10x10xf32>) {
  affine.for %i = 1 to 9 {
    affine.for %j = 1 to 9 {
      %ne = affine.load %A[%i - 1, %j + 1] : memref<10x10xf32>
      %w = affine.load %A[%i, %j - 1] : memref<10x10xf32>
      %s = arith.addf %ne, %w : f32
      affine.store %s, %A[%i, %j] : memref<10x10xf32>
    }
  }
  return
}

// Dependences (1, 0) and (0, 1) only: both orders are legal, yet no loop is
// parallel.
// CHECK-LABEL: function @wavefront
// CHECK:         nest nest_0 (affine, op 0) perfect outer-sequential
// CHECK:         legal orders (2 of 2): [0, 1] [1, 0]
func.func @wavefront(%A: memref<10x10xf32>) {
  affine.for %i = 1 to 10 {
    affine.for %j = 1 to 10 {
      %n = affine.load %A[%i - 1, %j] : memref<10x10xf32>
      %w = affine.load %A[%i, %j - 1] : memref<10x10xf32>
      %s = arith.addf %n, %w : f32
      affine.store %s, %A[%i, %j] : memref<10x10xf32>
    }
  }
  return
}

// Seidel-2d with its time loop: only the original order of the 3-loop band
// is legal; only the innermost loop is parallel. The time loop does not index the written location and the
// statement reads it: it is tagged as a reduction. Skewed, the band becomes
// fully permutable.
// CHECK-LABEL: function @seidel_2d
// CHECK-NEXT:   buffers:
// CHECK-NEXT:     #0 %arg0 memref 12x12 f64 (arg)
// CHECK-NEXT:   nest nest_0 (affine, op 0) perfect outer-sequential
// CHECK-NEXT:     loop nest_0.d0 extent 3 lb 0 step 1 reduction
// CHECK-NEXT:       loop nest_0.d1 extent 10 lb 1 step 1 sequential
// CHECK-NEXT:         loop nest_0.d2 extent 10 lb 1 step 1 parallel
// CHECK-NEXT:           comp nest_0.s0 (affine.store) writes #0 [12, 12] f64 ops add=2 mul=0 sub=0 div=1 other=0
// CHECK-COUNT-3:          read  #0
// CHECK-NEXT:             write #0 {{\[}}[0, 1, 0, 0], [0, 0, 1, 0]]
// CHECK-NEXT:     band: nest_0.d0 nest_0.d1 nest_0.d2
// CHECK-NEXT:     skew band: nest_0.d0 nest_0.d1 nest_0.d2
// CHECK-NEXT:     legal orders (1 of 6): [0, 1, 2]
func.func @seidel_2d(%A: memref<12x12xf64>) {
  %three = arith.constant 3.0 : f64
  affine.for %t = 0 to 3 {
    affine.for %i = 1 to 11 {
      affine.for %j = 1 to 11 {
        %0 = affine.load %A[%i - 1, %j + 1] : memref<12x12xf64>
        %1 = affine.load %A[%i, %j] : memref<12x12xf64>
        %2 = affine.load %A[%i + 1, %j - 1] : memref<12x12xf64>
        %s0 = arith.addf %0, %1 : f64
        %s1 = arith.addf %s0, %2 : f64
        %r = arith.divf %s1, %three : f64
        affine.store %r, %A[%i, %j] : memref<12x12xf64>
      }
    }
  }
  return
}

// Two statements in one loop and a second nest; iter_args make a reduction
// loop, math ops count as `other`, index casts are not counted.
// CHECK-LABEL: function @statements
// CHECK:         nest nest_0 (affine, op 0) imperfect outer-parallel
// CHECK-NEXT:      loop nest_0.d0 extent 8 lb 0 step 1 parallel
// CHECK-NEXT:        comp nest_0.s0 (affine.store) writes #1 [8] f32 ops add=0 mul=0 sub=0 div=0 other=1
// CHECK-NEXT:          read  #0 {{\[}}[1, 0]]
// CHECK-NEXT:          write #1 {{\[}}[1, 0]]
// CHECK-NEXT:        loop nest_0.d1 extent 4 lb 0 step 1 reduction
// CHECK-NEXT:        comp nest_0.s1 (affine.store) writes #2 [8] f32 ops add=2 mul=1 sub=0 div=0 other=0
// CHECK-NEXT:          read  #0 {{\[}}[0, 0]] non-affine
// CHECK-NEXT:          read  #1 {{\[}}[1, 0]]
// CHECK-NEXT:          write #2 {{\[}}[1, 0]]
// CHECK-NEXT:      band: nest_0.d0
// CHECK-NEXT:      legal orders (1 of 1): [0]
// CHECK-NEXT:    nest nest_1 (affine, op 1) perfect outer-parallel
// CHECK-NEXT:      loop nest_1.d0 extent 8 lb 0 step 1 parallel
// CHECK-NEXT:        comp nest_1.s0 (affine.store) writes #0 [8] f32 ops add=0 mul=0 sub=1 div=0 other=0
// CHECK:         edges:
// CHECK-NEXT:      nest_0.s0 -> nest_0.s1 via #1 (memref)
// CHECK-NEXT:      nest_0.s1 -> nest_1.s0 via #2 (memref)
// CHECK-NOT:       ->
func.func @statements(%A: memref<8xf32>, %B: memref<8xf32>, %C: memref<8xf32>) {
  %zero = arith.constant 0.0 : f32
  affine.for %i = 0 to 8 {
    %a = affine.load %A[%i] : memref<8xf32>
    %e = math.exp %a : f32
    affine.store %e, %B[%i] : memref<8xf32>
    %sum = affine.for %k = 0 to 4 iter_args(%acc = %zero) -> f32 {
      %x = affine.load %A[%k] : memref<8xf32>
      %ki = arith.index_cast %k : index to i32
      %kf = arith.sitofp %ki : i32 to f32
      %m = arith.mulf %x, %kf : f32
      %n = arith.addf %acc, %m : f32
      affine.yield %n : f32
    }
    %b = affine.load %B[%i] : memref<8xf32>
    %r = arith.addf %sum, %b : f32
    affine.store %r, %C[%i] : memref<8xf32>
  }
  affine.for %i = 0 to 8 {
    %c = affine.load %C[%i] : memref<8xf32>
    %d = arith.subf %c, %zero : f32
    affine.store %d, %A[%i] : memref<8xf32>
  }
  return
}

// The seidel-like update again, its inner loop striding by 2 (and its
// accesses with it): not fully permutable, but skewing (which takes loops
// of step 1) does not apply.
// CHECK-LABEL: function @strided_seidel
// CHECK:         band: nest_0.d0 nest_0.d1
// CHECK-NEXT:    legal orders (1 of 2): [0, 1]
func.func @strided_seidel(%A: memref<10x10xf32>) {
  affine.for %i = 1 to 9 {
    affine.for %j = 1 to 9 step 2 {
      %ne = affine.load %A[%i - 1, %j + 2] : memref<10x10xf32>
      %w = affine.load %A[%i, %j - 2] : memref<10x10xf32>
      %s = arith.addf %ne, %w : f32
      affine.store %s, %A[%i, %j] : memref<10x10xf32>
    }
  }
  return
}
