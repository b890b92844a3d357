// The exhaustive strategy measures every feasible config once and stops,
// whatever the budget. The space (for a fixed AVX-512 target, so that it is
// the same on every machine) of a 256-element fill with only tiling,
// unrolling and vectorization left to choose: tile 1 with unroll 1, 2, 4 or
// 8, vectorized or not (8 configs), or tile 256 with unroll 1, vectorized or
// not (2 configs).
// RUN: tuner-opt %s --tuner-autotune="strategy=exhaustive budget=100 database=none target=%S/../Space/Inputs/avx512-4core.json register-tile=false interchange=false parallelize=false fuse=false max-tile-candidates=2 summary-output=%t.json" -o /dev/null 2>&1 | FileCheck %s
// RUN: FileCheck %s --check-prefix=SUMMARY < %t.json

// CHECK: remark: autotune @scale: {{.*}}; 10 candidates (10 measured, 0 from the database)
// SUMMARY: "candidates": 10,
// SUMMARY: "space_size": "10"

func.func @scale(%a: memref<256xf32>) {
  %c = arith.constant 2.0 : f32
  linalg.fill ins(%c : f32) outs(%a : memref<256xf32>)
  return
}
