// Affine nests: dependence analysis decides the legal loop orders and
// whether the band may be tiled in several dimensions.
// RUN: tuner-opt %s --tuner-extract-space="function=seidel target=%S/Inputs/avx512-4core.json skew=false" -o /dev/null | FileCheck %s --check-prefix=SEIDEL
// RUN: tuner-opt %s --tuner-extract-space="function=seidel target=%S/Inputs/avx512-4core.json" -o /dev/null | FileCheck %s --check-prefix=SKEW
// RUN: tuner-opt %s --tuner-extract-space="function=matmul target=%S/Inputs/avx512-4core.json" -o /dev/null | FileCheck %s --check-prefix=MATMUL

// An in-place stencil under a time loop is not fully permutable: tiling would
// hoist a tile loop above the time loop. Only the outermost loop may be
// strip-mined, and only while it stays outermost; i and j may be swapped.
// SEIDEL:      "constraints": [
// SEIDEL-NEXT:   "nest_0.tile.l0 == 4 || nest_0.order[0] == 0",
// Affine unrolling needs as many iterations in whatever loop is innermost.
// SEIDEL-NEXT:   "nest_0.unroll <= min(nest_0.tile.l0, 62)"
// SEIDEL-NEXT: ],
// SEIDEL:        "name": "nest_0.tile.l0",
// SEIDEL-NOT:    "name": "nest_0.tile.l1",
// SEIDEL-NOT:    "name": "nest_0.tile.l2",
// SEIDEL:        "allowed": [
// SEIDEL-NEXT:     [
// SEIDEL-NEXT:       0,
// SEIDEL-NEXT:       1,
// SEIDEL-NEXT:       2
// SEIDEL-NEXT:     ],
// SEIDEL-NEXT:     [
// SEIDEL-NEXT:       0,
// SEIDEL-NEXT:       2,
// SEIDEL-NEXT:       1
// SEIDEL-NEXT:     ]
// SEIDEL-NEXT:   ],
// SEIDEL:        "name": "nest_0.order",
// SEIDEL-NOT:    "nest_0.parallel"
// SEIDEL-NOT:    "nest_0.vectorize"

// With skewing (the default), every loop of the band may be tiled once it is
// skewed (inner loops by powers of two: their tiles are parallelograms of
// the original loops), the skewed band keeps its order and is not unrolled,
// and it may run its tiles as a wavefront, which needs two tiled loops.
// SKEW:      "constraints": [
// SKEW-NEXT:   "nest_0.skew || !(nest_0.tile.l1 < 62)",
// SKEW-NEXT:   "nest_0.skew || !(nest_0.tile.l2 < 62)",
// SKEW-NEXT:   "!nest_0.skew || nest_0.tile.l1 < 62 || nest_0.tile.l2 < 62",
// SKEW-NEXT:   "!nest_0.skew || (nest_0.order[0] == 0 && nest_0.order[1] == 1 && nest_0.order[2] == 2)",
// SKEW-NEXT:   "nest_0.tile.l0 == 4 || nest_0.order[0] == 0",
// SKEW-NEXT:   "nest_0.unroll <= min(nest_0.tile.l0, min(nest_0.tile.l1, nest_0.tile.l2))",
// SKEW-NEXT:   "!nest_0.skew || nest_0.unroll == 1",
// SKEW-NEXT:   "!nest_0.parallel || nest_0.order[0] == 0",
// SKEW-NEXT:   "!nest_0.parallel || nest_0.skew || nest_0.tile.l0 < 4 || !(nest_0.tile.l1 < 62 || nest_0.tile.l2 < 62)",
// SKEW-NEXT:   "!nest_0.parallel || nest_0.skew",
// SKEW-NEXT:   "!(nest_0.parallel && nest_0.skew) || (nest_0.tile.l0 < 4 && nest_0.tile.l1 < 62) || (nest_0.tile.l0 < 4 && nest_0.tile.l2 < 62) || (nest_0.tile.l1 < 62 && nest_0.tile.l2 < 62)",
// SKEW-NEXT:   "!nest_0.parallel || nest_0.unroll == 1"
// SKEW-NEXT: ],
// SKEW:        "name": "nest_0.tile.l1",
// SKEW:        "values": [
// SKEW-NEXT:     4,
// SKEW-NEXT:     8,
// SKEW-NEXT:     16,
// SKEW-NEXT:     32,
// SKEW-NEXT:     62
// SKEW-NEXT:   ]
// SKEW:        "role": "skew"
// SKEW:        "kind": "boolean",
// SKEW-NEXT:   "name": "nest_0.skew"
// SKEW:        "kind": "boolean",
// SKEW-NEXT:   "name": "nest_0.parallel"

// An affine matmul is fully permutable: every loop may be tiled, every order
// is legal, and the outer loop may run in parallel while it stays outermost,
// which it does not when only inner loops are tiled (their tile loops would
// then be outermost).
// MATMUL:        "!nest_0.parallel || nest_0.order[0] == 0"
// MATMUL-NEXT:   "!nest_0.parallel || nest_0.tile.l0 < 32 || !(nest_0.tile.l1 < 32 || nest_0.tile.l2 < 16)"
// MATMUL:        "name": "nest_0.tile.l0",
// MATMUL:        "name": "nest_0.tile.l1",
// MATMUL:        "name": "nest_0.tile.l2",
// MATMUL:        "kind": "permutation",
// MATMUL-NEXT:   "name": "nest_0.order",
// MATMUL-NEXT:   "size": 3
// MATMUL:        "name": "nest_0.parallel"

func.func @seidel(%A: memref<64x64xf32>) {
  %c9 = arith.constant 9.0 : f32
  affine.for %t = 0 to 4 {
    affine.for %i = 1 to 63 {
      affine.for %j = 1 to 63 {
        %a = affine.load %A[%i - 1, %j] : memref<64x64xf32>
        %b = affine.load %A[%i, %j - 1] : memref<64x64xf32>
        %c = affine.load %A[%i + 1, %j] : memref<64x64xf32>
        %d = affine.load %A[%i, %j + 1] : memref<64x64xf32>
        %s1 = arith.addf %a, %b : f32
        %s2 = arith.addf %c, %d : f32
        %s = arith.addf %s1, %s2 : f32
        %r = arith.divf %s, %c9 : f32
        affine.store %r, %A[%i, %j] : memref<64x64xf32>
      }
    }
  }
  return
}

func.func @matmul(%A: memref<32x16xf32>, %B: memref<16x32xf32>, %C: memref<32x32xf32>) {
  affine.for %i = 0 to 32 {
    affine.for %j = 0 to 32 {
      affine.for %k = 0 to 16 {
        %a = affine.load %A[%i, %k] : memref<32x16xf32>
        %b = affine.load %B[%k, %j] : memref<16x32xf32>
        %c = affine.load %C[%i, %j] : memref<32x32xf32>
        %p = arith.mulf %a, %b : f32
        %s = arith.addf %c, %p : f32
        affine.store %s, %C[%i, %j] : memref<32x32xf32>
      }
    }
  }
  return
}
