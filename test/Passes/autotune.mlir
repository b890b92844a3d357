// The autotune pass end to end on a small matmul, with the default strategy
// (MCTS with the shipped cost model): every candidate is applied,
// compiled, run, verified and timed against the untransformed function; the
// best one is applied; every measurement lands in the database.
// RUN: rm -f %t.db %t.db-wal %t.db-shm
// RUN: tuner-opt %s --tuner-autotune="budget=4 seed=3 database=%t.db summary-output=%t.summary.json schedule-output=%t.schedule.mlir" -o %t.tuned.mlir 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: FileCheck %s --check-prefix=SUMMARY < %t.summary.json
// RUN: FileCheck %s --check-prefix=SCHEDULE < %t.schedule.mlir
// RUN: tuner-db --db %t.db list | FileCheck %s --check-prefix=DB

// Rerunning the same command measures nothing again.
// RUN: tuner-opt %s --tuner-autotune="budget=4 seed=3 database=%t.db" -o /dev/null 2>&1 | FileCheck %s --check-prefix=RESUME

// The same seed proposes the same candidates, in the same order.
// RUN: rm -f %t.again.db %t.again.db-wal %t.again.db-shm
// RUN: tuner-opt %s --tuner-autotune="budget=4 seed=3 database=%t.again.db" -o /dev/null
// RUN: tuner-db --db %t.db export | grep -o '"config_hash":"[0-9a-f]*"' > %t.hashes
// RUN: tuner-db --db %t.again.db export | grep -o '"config_hash":"[0-9a-f]*"' > %t.hashes.again
// RUN: diff %t.hashes %t.hashes.again

// The tuned module is the best schedule applied: the same function, changed.
// RUN: FileCheck %s --check-prefix=TUNED < %t.tuned.mlir

// REMARK: remark: autotune @mm: baseline {{[0-9.]+}} {{m?u?s}}, best {{[0-9.]+}} {{m?u?s}} ({{[0-9.]+}}x); 4 candidates (4 measured, 0 from the database), {{[0-9]}} failed

// SUMMARY: "baseline": {
// SUMMARY: "candidates": 4,
// SUMMARY: "function": "mm",
// SUMMARY: "measured": 4,
// SUMMARY: "seed": 3,
// SUMMARY: "strategy": "mcts"

// SCHEDULE: transform.named_sequence @__transform_main

// DB: WORKLOAD {{.*}} RECORDS
// DB: mm {{.*}} 4

// RESUME: 4 candidates (0 measured, 4 from the database)

// TUNED-LABEL: func.func @mm(
// TUNED: return

func.func @mm(%A: tensor<32x32xf32>, %B: tensor<32x32xf32>) -> tensor<32x32xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<32x32xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<32x32xf32>) -> tensor<32x32xf32>
  %m = linalg.matmul ins(%A, %B : tensor<32x32xf32>, tensor<32x32xf32>) outs(%f : tensor<32x32xf32>) -> tensor<32x32xf32>
  return %m : tensor<32x32xf32>
}
