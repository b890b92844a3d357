// RUN: tuner-opt --tuner-print-program %s -o /dev/null | FileCheck %s

// A 5-point stencil as linalg.generic: shifted indexing maps give constant
// columns; four adds and one multiply per point.
// CHECK-LABEL: function @stencil_generic
// CHECK-NEXT:   buffers:
// CHECK-NEXT:     #0 %arg0 tensor 11x11 f32 (arg)
// CHECK-NEXT:     #1 %0 tensor 8x8 f32 (result)
// CHECK-NEXT:   nest generic_0 (linalg, op 0) perfect outer-parallel
// CHECK-NEXT:     loop generic_0.d0 extent 8 lb 0 step 1 parallel
// CHECK-NEXT:       loop generic_0.d1 extent 8 lb 0 step 1 parallel
// CHECK-NEXT:         comp generic_0 (linalg.generic) writes #1 [8, 8] f32 ops add=4 mul=1 sub=0 div=0 other=0
// CHECK-NEXT:           read  #0 {{\[}}[1, 0, 1], [0, 1, 2]]
// CHECK-NEXT:           read  #0 {{\[}}[1, 0, 2], [0, 1, 1]]
// CHECK-NEXT:           read  #0 {{\[}}[1, 0, 2], [0, 1, 2]]
// CHECK-NEXT:           read  #0 {{\[}}[1, 0, 2], [0, 1, 3]]
// CHECK-NEXT:           read  #0 {{\[}}[1, 0, 3], [0, 1, 2]]
// CHECK-NEXT:           write #1 {{\[}}[1, 0, 0], [0, 1, 0]]
// CHECK-NEXT:     band: generic_0.d0 generic_0.d1
// CHECK-NEXT:     legal orders: all
// CHECK-NEXT:   edges: none
#id = affine_map<(d0, d1) -> (d0, d1)>
#n = affine_map<(d0, d1) -> (d0 + 1, d1 + 2)>
#w = affine_map<(d0, d1) -> (d0 + 2, d1 + 1)>
#c = affine_map<(d0, d1) -> (d0 + 2, d1 + 2)>
#e = affine_map<(d0, d1) -> (d0 + 2, d1 + 3)>
#s = affine_map<(d0, d1) -> (d0 + 3, d1 + 2)>
func.func @stencil_generic(%A: tensor<11x11xf32>) -> tensor<8x8xf32> {
  %init = tensor.empty() : tensor<8x8xf32>
  %r = linalg.generic {indexing_maps = [#n, #w, #c, #e, #s, #id],
                       iterator_types = ["parallel", "parallel"]}
      ins(%A, %A, %A, %A, %A : tensor<11x11xf32>, tensor<11x11xf32>,
          tensor<11x11xf32>, tensor<11x11xf32>, tensor<11x11xf32>)
      outs(%init : tensor<8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %cc: f32, %d: f32, %ee: f32, %o: f32):
    %k = arith.constant 0.2 : f32
    %0 = arith.addf %a, %b : f32
    %1 = arith.addf %0, %cc : f32
    %2 = arith.addf %1, %d : f32
    %3 = arith.addf %2, %ee : f32
    %4 = arith.mulf %3, %k : f32
    linalg.yield %4 : f32
  } -> tensor<8x8xf32>
  return %r : tensor<8x8xf32>
}

// Jacobi-2d as an affine nest: a time loop around two sweeps, so the nest is
// imperfect, its band is the time loop alone, and the time loop carries a
// dependence. The second sweep reads what the first wrote. Fusing the
// sweeps' row loops (with a shift) and skewing them by the time loop makes
// a fully permutable band: its skew band is the time loop and the first
// sweep's row loop.
// CHECK-LABEL: function @jacobi_2d
// CHECK-NEXT:   buffers:
// CHECK-NEXT:     #0 %arg0 memref 10x10 f32 (arg)
// CHECK-NEXT:     #1 %arg1 memref 10x10 f32 (arg)
// CHECK-NEXT:   nest nest_0 (affine, op 0) imperfect outer-sequential
// CHECK-NEXT:     loop nest_0.d0 extent 4 lb 0 step 1 sequential
// CHECK-NEXT:       loop nest_0.d1 extent 8 lb 1 step 1 parallel
// CHECK-NEXT:         loop nest_0.d2 extent 8 lb 1 step 1 parallel
// CHECK-NEXT:           comp nest_0.s0 (affine.store) writes #1 [10, 10] f32 ops add=4 mul=1 sub=0 div=0 other=0
// CHECK-NEXT:             read  #0 {{\[}}[0, 1, 0, 0], [0, 0, 1, 0]]
// CHECK-NEXT:             read  #0 {{\[}}[0, 1, 0, 0], [0, 0, 1, -1]]
// CHECK-NEXT:             read  #0 {{\[}}[0, 1, 0, 0], [0, 0, 1, 1]]
// CHECK-NEXT:             read  #0 {{\[}}[0, 1, 0, 1], [0, 0, 1, 0]]
// CHECK-NEXT:             read  #0 {{\[}}[0, 1, 0, -1], [0, 0, 1, 0]]
// CHECK-NEXT:             write #1 {{\[}}[0, 1, 0, 0], [0, 0, 1, 0]]
// CHECK-NEXT:       loop nest_0.d3 extent 8 lb 1 step 1 parallel
// CHECK-NEXT:         loop nest_0.d4 extent 8 lb 1 step 1 parallel
// CHECK-NEXT:           comp nest_0.s1 (affine.store) writes #0 [10, 10] f32 ops add=0 mul=0 sub=0 div=0 other=0
// CHECK-NEXT:             read  #1 {{\[}}[0, 1, 0, 0], [0, 0, 1, 0]]
// CHECK-NEXT:             write #0 {{\[}}[0, 1, 0, 0], [0, 0, 1, 0]]
// CHECK-NEXT:     band: nest_0.d0
// CHECK-NEXT:     skew band: nest_0.d0 nest_0.d1
// CHECK-NEXT:     legal orders (1 of 1): [0]
// CHECK-NEXT:   edges:
// CHECK-NEXT:     nest_0.s0 -> nest_0.s1 via #1 (memref)
func.func @jacobi_2d(%A: memref<10x10xf32>, %B: memref<10x10xf32>) {
  %c = arith.constant 0.2 : f32
  affine.for %t = 0 to 4 {
    affine.for %i = 1 to 9 {
      affine.for %j = 1 to 9 {
        %a0 = affine.load %A[%i, %j] : memref<10x10xf32>
        %a1 = affine.load %A[%i, %j - 1] : memref<10x10xf32>
        %a2 = affine.load %A[%i, %j + 1] : memref<10x10xf32>
        %a3 = affine.load %A[%i + 1, %j] : memref<10x10xf32>
        %a4 = affine.load %A[%i - 1, %j] : memref<10x10xf32>
        %s0 = arith.addf %a0, %a1 : f32
        %s1 = arith.addf %s0, %a2 : f32
        %s2 = arith.addf %s1, %a3 : f32
        %s3 = arith.addf %s2, %a4 : f32
        %r = arith.mulf %c, %s3 : f32
        affine.store %r, %B[%i, %j] : memref<10x10xf32>
      }
    }
    affine.for %i = 1 to 9 {
      affine.for %j = 1 to 9 {
        %b = affine.load %B[%i, %j] : memref<10x10xf32>
        affine.store %b, %A[%i, %j] : memref<10x10xf32>
      }
    }
  }
  return
}

// Affine accesses through affine.apply and a constant operand compose into
// the matrix; a strided loop keeps its step.
// CHECK-LABEL: function @composed
// CHECK:         loop nest_0.d0 extent 4 lb 0 step 2 parallel
// CHECK:           comp nest_0.s0 (affine.store) writes #1 [4, 8] f32
// CHECK-NEXT:        read  #0 {{\[}}[2, 3]]
// CHECK-NEXT:        write #1 {{\[}}[0, 3], [1, 0]]
func.func @composed(%A: memref<20xf32>, %B: memref<4x8xf32>) {
  %c3 = arith.constant 3 : index
  affine.for %i = 0 to 8 step 2 {
    %x = affine.apply affine_map<(d0) -> (2 * d0 + 3)>(%i)
    %a = affine.load %A[%x] : memref<20xf32>
    affine.store %a, %B[%c3, %i] : memref<4x8xf32>
  }
  return
}
