// RUN: tuner-opt %s --tuner-extract-space="target=%S/Inputs/avx512-4core.json" -o /dev/null | FileCheck %s
// RUN: tuner-opt %s --tuner-extract-space="target=%S/Inputs/avx512-4core.json output=%t.json" -o /dev/null
// RUN: FileCheck %s --input-file=%t.json
// RUN: tuner-opt %s --tuner-extract-space="target=%S/Inputs/avx512-4core.json register-tile=false vectorize=false parallelize=false fuse=false interchange=false unroll=false" -o /dev/null | FileCheck %s --check-prefix=TILE-ONLY
// RUN: tuner-opt %s --tuner-extract-space="target=%S/Inputs/avx512-4core.json partial-tiles=false contraction-lowering=false distribute=false" -o /dev/null | FileCheck %s --check-prefix=DIVISORS

// The space of fill + matmul on tensors, for a fixed AVX-512 target so that
// the test does not depend on the machine it runs on.

func.func @matmul(%A: tensor<64x32xf32>, %B: tensor<32x16xf32>) -> tensor<64x16xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<64x16xf32>
  %C = linalg.fill ins(%zero : f32) outs(%empty : tensor<64x16xf32>) -> tensor<64x16xf32>
  %D = linalg.matmul ins(%A, %B : tensor<64x32xf32>, tensor<32x16xf32>)
                     outs(%C : tensor<64x16xf32>) -> tensor<64x16xf32>
  return %D : tensor<64x16xf32>
}

// CHECK:      "attributes": {
// CHECK-NEXT:   "function": "matmul",
// CHECK-NEXT:   "size": "{{[0-9]+}}",
// CHECK-NEXT:   "target": "cpu:skylake-avx512+avx+avx2+avx512f+fma:4c"
// CHECK:      "constraints": [
// CHECK-DAG:    "matmul_1.rtile.l0 == 64 || matmul_1.rtile.l0 <= matmul_1.tile.l0",
// CHECK-DAG:    "matmul_1.vectorize || matmul_1.lowering == \"outerproduct\"",
// 16 zmm registers hold the accumulators: 32 registers x 16 f32 lanes.
// CHECK-DAG:    "!matmul_1.vectorize || (min(matmul_1.tile.l0, matmul_1.rtile.l0) * min(matmul_1.tile.l1, matmul_1.rtile.l1) <= 512 && min(matmul_1.tile.l0, matmul_1.rtile.l0) * min(matmul_1.tile.l1, matmul_1.rtile.l1) * min(matmul_1.tile.l2, matmul_1.rtile.l2) <= 2048)",
// CHECK-DAG:    "!matmul_1.parallel || matmul_1.tile.l0 < 64 || matmul_1.tile.l1 < 16",
// The fill is the matmul's accumulator: it fuses into parallel tiles only.
// CHECK-DAG:    "!fuse.fill_0.matmul_1 || matmul_1.parallel"
// CHECK:      "parameters": [
// CHECK:          "role": "tile"
// CHECK:        "default": 64,
// CHECK:        "description": "cache-level tile size of loop fill_0.d0 (extent 64, parallel); the extent means not tiled",
// CHECK-NEXT:   "kind": "ordinal",
// CHECK-NEXT:   "log": true,
// CHECK-NEXT:   "name": "fill_0.tile.l0",
// CHECK-NEXT:   "values": [
// CHECK-NEXT:     1,
// CHECK-NEXT:     2,
// CHECK-NEXT:     4,
// CHECK-NEXT:     8,
// CHECK-NEXT:     16,
// CHECK-NEXT:     32,
// CHECK-NEXT:     64
// CHECK-NEXT:   ]
// Register tiles: small sizes and multiples of the 16 lanes, partial ones
// peeled (the extent, 16, means not register-tiled).
// CHECK:        "name": "matmul_1.rtile.l1",
// CHECK-NEXT:   "values": [
// CHECK-NEXT:     1,
// CHECK-NEXT:     2,
// CHECK-NEXT:     3,
// CHECK-NEXT:     4,
// CHECK-NEXT:     6,
// CHECK-NEXT:     8,
// CHECK-NEXT:     12,
// CHECK-NEXT:     14,
// CHECK-NEXT:     16
// CHECK-NEXT:   ]
// CHECK:        "name": "matmul_1.tile.l2",
// CHECK:        "description": "order of the tile loops, outermost first",
// CHECK-NEXT:   "kind": "permutation",
// CHECK-NEXT:   "name": "matmul_1.order",
// CHECK-NEXT:   "size": 3
// CHECK:        "name": "matmul_1.unroll",
// CHECK-NEXT:   "values": [
// CHECK-NEXT:     1,
// CHECK-NEXT:     2,
// CHECK-NEXT:     4,
// CHECK-NEXT:     8
// CHECK:        "kind": "boolean",
// CHECK-NEXT:   "name": "matmul_1.vectorize"
// CHECK:        "name": "matmul_1.lowering",
// CHECK-NEXT:   "values": [
// CHECK-NEXT:     "outerproduct",
// CHECK-NEXT:     "dot",
// CHECK-NEXT:     "parallelarith"
// CHECK:        "kind": "boolean",
// CHECK-NEXT:   "name": "matmul_1.parallel"
// CHECK:          "consumer": "matmul_1",
// CHECK-NEXT:     "producer": "fill_0",
// CHECK-NEXT:     "role": "fuse"
// CHECK:        "name": "fuse.fill_0.matmul_1"

// Without partial tiles, register tiles divide their cache tiles and come
// from the extent's divisors; no lowering or distribution choice.
// DIVISORS:       "matmul_1.rtile.l1 == 16 || matmul_1.tile.l1 % matmul_1.rtile.l1 == 0",
// DIVISORS-NOT:   "role": "lowering"
// DIVISORS:       "name": "matmul_1.rtile.l1",
// DIVISORS-NEXT:  "values": [
// DIVISORS-NEXT:    1,
// DIVISORS-NEXT:    2,
// DIVISORS-NEXT:    4,
// DIVISORS-NEXT:    8,
// DIVISORS-NEXT:    16
// DIVISORS-NEXT:  ]
// DIVISORS-NOT:   "role": "distribute"
// DIVISORS-NOT:   "role": "lowering"

// TILE-ONLY:      "size": "7350"
// TILE-ONLY-NOT:  rtile
// TILE-ONLY-NOT:  "matmul_1.order"
// TILE-ONLY-NOT:  fuse.
