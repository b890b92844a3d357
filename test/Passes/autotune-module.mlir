// Without 'function', the autotune pass tunes every function of the module
// with loop nests: one summary remark and one summary entry per function,
// and a remark on the module (tuned, failed, skipped, geometric-mean
// speedup). A function the tuner does not model (here, linalg.pack only) is
// a warning at its op, and the others are still tuned. The space is kept to
// two configs per function (tile 1 or the extent) so that this stays cheap.
// RUN: rm -f %t.schedule.*
// RUN: tuner-opt %s --tuner-autotune="strategy=random budget=2 budget-split=shared database=none register-tile=false interchange=false parallelize=false fuse=false unroll=false vectorize=false max-tile-candidates=2 summary-output=%t.json schedule-output=%t.schedule.mlir" -o %t.tuned.mlir 2>&1 \
// RUN:   | FileCheck %s --implicit-check-not=":0:0:" --implicit-check-not="builtin.module" --implicit-check-not="see current operation"
// RUN: FileCheck %s --check-prefix=JSON < %t.json
// One script per function beside the path given.
// RUN: FileCheck %s --check-prefix=SCHEDULE < %t.schedule.first.mlir
// RUN: FileCheck %s --check-prefix=SCHEDULE < %t.schedule.second.mlir

// 'function' still picks one; its summary keeps the single-function format
// at the top level (benchmarks/run.py and check-speedup.py read it).
// RUN: tuner-opt %s --tuner-autotune="function=second strategy=random budget=1 database=none register-tile=false interchange=false parallelize=false fuse=false unroll=false vectorize=false max-tile-candidates=2 summary-output=%t.one.json" -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=ONE --implicit-check-not="autotune: "
// RUN: %python %S/Inputs/check-speedup.py %t.one.json | FileCheck %s --check-prefix=COMPAT
// RUN: FileCheck %s --check-prefix=ONE-JSON < %t.one.json

// An unknown way of sharing the budget, and a shared budget too small for
// the functions, are refused before anything is measured.
// RUN: not tuner-opt %s --tuner-autotune="budget-split=evenly database=none" 2>&1 | FileCheck %s --check-prefix=SPLIT
// RUN: not tuner-opt %s --tuner-autotune="budget=1 budget-split=shared database=none" 2>&1 | FileCheck %s --check-prefix=SMALL

// CHECK-DAG: [[@LINE+43]]:8: warning: @packed has no loop nest the tuner models: linalg.pack is not a structured linalg op (LinalgOp)
// CHECK-DAG: [[@LINE+37]]:13: warning: the result of this op is not used: its work is dead; @second is tuned for the rest of its work
// CHECK-DAG: [[@LINE+27]]:1: remark: autotune @first: baseline {{.*}}; 1 candidates (1 measured, 0 from the database)
// CHECK-DAG: [[@LINE+32]]:1: remark: autotune @second: baseline {{.*}}; 1 candidates (1 measured, 0 from the database)
// CHECK-DAG: [[@LINE+25]]:1: remark: autotune: 2 functions tuned, 0 failed, 1 skipped; geometric-mean speedup {{[0-9.]+}}x (budget-split=shared)

// JSON: "functions": [
// JSON: "function": "first",
// JSON: "status": "tuned",
// JSON: "function": "second",
// JSON: "status": "tuned",
// JSON: "module": {
// JSON-NEXT: "budget_split": "shared",
// JSON-NEXT: "failed": 0,
// JSON-NEXT: "geomean_speedup": {{[0-9.]+}},
// JSON-NEXT: "skipped": 1,
// JSON-NEXT: "tuned": 2

// SCHEDULE: transform.named_sequence @__transform_main

// ONE: remark: autotune @second: {{.*}}; 1 candidates
// COMPAT: random: never slower than the baseline, 1 measured
// ONE-JSON: "function": "second",
// ONE-JSON: "module": {
// ONE-JSON: "tuned": 1

// SPLIT: error: 'budget-split' must be per-function or shared (got 'evenly')
// SMALL: error: 'budget' (1 candidates) shared by 2 functions leaves some with none: raise it or use budget-split=per-function

func.func @first(%a: memref<4096xf32>) {
  %c = arith.constant 2.0 : f32
  linalg.fill ins(%c : f32) outs(%a : memref<4096xf32>)
  return
}

func.func @second(%a: tensor<4096xf32>, %b: tensor<4096xf32>) -> tensor<4096xf32> {
  %e = tensor.empty() : tensor<4096xf32>
  %sum = linalg.add ins(%a, %b : tensor<4096xf32>, tensor<4096xf32>) outs(%e : tensor<4096xf32>) -> tensor<4096xf32>
  %unused = linalg.mul ins(%a, %b : tensor<4096xf32>, tensor<4096xf32>) outs(%e : tensor<4096xf32>) -> tensor<4096xf32>
  return %sum : tensor<4096xf32>
}

func.func @packed(%src: tensor<16x32xf32>, %dst: tensor<2x4x8x8xf32>) -> tensor<2x4x8x8xf32> {
  %0 = linalg.pack %src inner_dims_pos = [0, 1] inner_tiles = [8, 8] into %dst : tensor<16x32xf32> -> tensor<2x4x8x8xf32>
  return %0 : tensor<2x4x8x8xf32>
}
