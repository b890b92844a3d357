// `space=` narrows the search to a copy of the function's space with fewer
// values (benchmarks/strategies/narrow.py writes one): the space of the
// autotune-exhaustive test (10 configs) narrowed to unroll 1 and 2 leaves
// tile 1 with unroll 1 or 2, vectorized or not, and tile 256 with unroll 1,
// vectorized or not: 6 configs, all measured by exhaustive search.
// RUN: tuner-opt %s --tuner-extract-space="output=%t.space.json target=%S/../Space/Inputs/avx512-4core.json register-tile=false interchange=false parallelize=false fuse=false max-tile-candidates=2" -o /dev/null
// RUN: echo '{"fill_0.tile.l0": "*", "fill_0.unroll": [1, 2], "fill_0.vectorize": [false, true]}' > %t.spec.json
// RUN: %python %src_root/benchmarks/strategies/narrow.py %t.space.json %t.spec.json -o %t.narrow.json
// RUN: tuner-opt %s --tuner-autotune="space=%t.narrow.json strategy=exhaustive budget=100 database=none target=%S/../Space/Inputs/avx512-4core.json register-tile=false interchange=false parallelize=false fuse=false max-tile-candidates=2 summary-output=%t.json" -o /dev/null 2>&1 | FileCheck %s
// RUN: FileCheck %s --check-prefix=SUMMARY < %t.json
//
// A file that widens the space, misses a parameter or names an unknown one
// is refused at the function, naming the parameter.
// RUN: %python -c "import json, sys; d = json.load(open(sys.argv[1])); [p.update(values=[1, 2, 3]) for p in d['parameters'] if p['name'] == 'fill_0.unroll']; json.dump(d, open(sys.argv[2], 'w'))" %t.narrow.json %t.wide.json
// RUN: not tuner-opt %s --tuner-autotune="space=%t.wide.json database=none target=%S/../Space/Inputs/avx512-4core.json register-tile=false interchange=false parallelize=false fuse=false max-tile-candidates=2" -o /dev/null 2>&1 | FileCheck %s --check-prefix=WIDE
// RUN: not tuner-opt %s --tuner-autotune="space=%t.narrow.json database=none target=%S/../Space/Inputs/avx512-4core.json register-tile=false interchange=false fuse=false max-tile-candidates=2" -o /dev/null 2>&1 | FileCheck %s --check-prefix=OTHER
// RUN: not tuner-opt %s --tuner-autotune="space=%t.missing.json database=none" -o /dev/null 2>&1 | FileCheck %s --check-prefix=MISSING

// CHECK: remark: autotune @scale: {{.*}}; 6 candidates (6 measured, 0 from the database)
// SUMMARY: "candidates": 6,
// SUMMARY: "space_size": "6"
// WIDE: [[@LINE+4]]:1: error: the space '{{.*}}wide.json' does not narrow the space of @scale: parameter 'fill_0.unroll': one of [1, 2, 3] is not inside its domain, one of [1, 2, 4, 8]
// OTHER: error: the space '{{.*}}narrow.json' does not narrow the space of @scale: parameter '{{.*}}' is {{missing|not in the space}}
// MISSING: error: cannot read the space '{{.*}}missing.json'

func.func @scale(%a: memref<256xf32>) {
  %c = arith.constant 2.0 : f32
  linalg.fill ins(%c : f32) outs(%a : memref<256xf32>)
  return
}
