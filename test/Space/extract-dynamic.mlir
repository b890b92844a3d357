// Spaces of functions with dynamic shapes, built at the sizes given: the
// loops have the given extents, the space records the shapes, and
// convolution rewrites and skewing (correct only at the tuned sizes) are
// left out.
// RUN: tuner-opt %s --tuner-extract-space="function=mm shapes=arg0=64x40,arg1=40x48" -o /dev/null | FileCheck %s --check-prefix=MM
// RUN: tuner-opt %s --tuner-extract-space="function=rowsum shapes=arg0=33x100,arg1=33" -o /dev/null | FileCheck %s --check-prefix=SUM
// RUN: not tuner-opt %s --tuner-print-program="shapes=arg0=33x100,arg1=33" -o /dev/null 2>&1 | FileCheck %s --check-prefix=PRINT-ERR
// RUN: echo '[{"arg0": [8, 16], "arg1": [8]}, {"arg0": [3, 5], "arg1": [3]}]' > %t.json
// RUN: tuner-opt %s --tuner-extract-space="function=rowsum shapes=@%t.json" -o /dev/null | FileCheck %s --check-prefix=FILE

// MM: "function": "mm",
// MM: "shapes": "arg0=64x40,arg1=40x48",
// MM: "description": "cache-level tile size of loop matmul_1.d0 (extent 64, parallel)
// MM: "description": "cache-level tile size of loop matmul_1.d1 (extent 48, parallel)
// MM: "description": "cache-level tile size of loop matmul_1.d2 (extent 40, reduction)
// MM: "name": "matmul_1.vectorize"

// SUM: "shapes": "arg0=33x100,arg1=33",
// A memref nest of a dynamic function may be both vectorized and parallel
// (test/Schedule/apply-dynamic-memref.mlir runs such a schedule).
// SUM-NOT: "!generic_0.vectorize || !generic_0.parallel"
// MM-NOT: "!matmul_1.vectorize || !matmul_1.parallel"
// SUM: "description": "cache-level tile size of loop generic_0.d0 (extent 33, parallel)
// SUM: "description": "cache-level tile size of loop generic_0.d1 (extent 100, reduction)

// --tuner-print-program gives the same sizes (by argument position) to every
// dynamic function: those of @rowsum do not fit @mm.
// PRINT-ERR: [[@LINE+5]]:36: error: shapes=: arg1=33 has 1 dimensions, but argument #1 of @mm has type 'tensor<?x?xf32>' (rank 2)

// FILE: "shapes": "arg0=8x16,arg1=8;arg0=3x5,arg1=3",
// FILE: extent 8, parallel

func.func @mm(%A: tensor<?x?xf32>, %B: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = tensor.dim %A, %c0 : tensor<?x?xf32>
  %n = tensor.dim %B, %c1 : tensor<?x?xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty(%m, %n) : tensor<?x?xf32>
  %C = linalg.fill ins(%zero : f32) outs(%e : tensor<?x?xf32>) -> tensor<?x?xf32>
  %R = linalg.matmul ins(%A, %B : tensor<?x?xf32>, tensor<?x?xf32>) outs(%C : tensor<?x?xf32>) -> tensor<?x?xf32>
  return %R : tensor<?x?xf32>
}

// A row sum over memrefs: out[i] += a[i][j] * 2.
func.func @rowsum(%a: memref<?x?xf32>, %out: memref<?xf32>) {
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"]} ins(%a : memref<?x?xf32>) outs(%out : memref<?xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %two = arith.constant 2.0 : f32
    %p = arith.mulf %x, %two : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  return
}
