// max-lowered-ops bounds the size of a candidate's lowered module: with a
// limit no candidate of this fill fits in, every candidate is compile_failed
// with the lowering's message, the untransformed function (never limited)
// is measured and kept; without a limit the same candidates are measured.
// The space is autotune-exhaustive.mlir's (10 configs, a fixed AVX-512 target).
// RUN: rm -f %t.db && tuner-opt %s --tuner-autotune="strategy=exhaustive budget=100 database=%t.db target=%S/../Space/Inputs/avx512-4core.json register-tile=false interchange=false parallelize=false fuse=false max-tile-candidates=2 max-lowered-ops=1 summary-output=%t.json" 2>&1 | FileCheck %s
// RUN: FileCheck %s --check-prefix=SUMMARY < %t.json
// RUN: tuner-db --db %t.db export | FileCheck %s --check-prefix=RECORDS
// RUN: tuner-opt %s --tuner-autotune="strategy=exhaustive budget=100 database=none target=%S/../Space/Inputs/avx512-4core.json register-tile=false interchange=false parallelize=false fuse=false max-tile-candidates=2 max-lowered-ops=0 summary-output=%t.none.json" -o /dev/null 2>&1 | FileCheck %s --check-prefix=NOLIMIT
// RUN: FileCheck %s --check-prefix=NOLIMIT-SUMMARY < %t.none.json

// CHECK: remark: autotune @scale: {{.*}}10 candidates (10 measured, 0 from the database)
// CHECK: linalg.fill
// SUMMARY: "compile_failed": 10
// RECORDS: more than the limit of 1 (max-ops){{.*}}"status":{{ ?}}"compile_failed"
// NOLIMIT: remark: autotune @scale: {{.*}}10 candidates (10 measured, 0 from the database)
// NOLIMIT-SUMMARY-NOT: compile_failed

func.func @scale(%a: memref<256xf32>) {
  %c = arith.constant 2.0 : f32
  linalg.fill ins(%c : f32) outs(%a : memref<256xf32>)
  return
}
