// --tuner-apply-best applies the best recorded config of each function on
// this machine, and leaves functions without a (winning) record alone.
// RUN: rm -f %t.db %t.db-wal %t.db-shm
// A one-candidate run records the workload and this machine in the database.
// RUN: tuner-opt %s --tuner-autotune="function=mm budget=1 database=%t.db" -o /dev/null 2>/dev/null
// RUN: tuner-db --db %t.db export > %t.export.jsonl
// RUN: %python %S/Inputs/add-record.py %t.export.jsonl '{"matmul_1.tile.l0": 8, "matmul_1.tile.l1": 4}' 7.5 > %t.best.jsonl
// RUN: tuner-db --db %t.db import %t.best.jsonl
// RUN: tuner-opt %s --tuner-apply-best="database=%t.db" 2>%t.remarks | FileCheck %s
// RUN: FileCheck %s --check-prefix=REMARKS < %t.remarks

// A best record slower than the untransformed function is not applied.
// RUN: rm -f %t.slow.db %t.slow.db-wal %t.slow.db-shm
// RUN: tuner-opt %s --tuner-autotune="function=mm budget=1 database=%t.slow.db" -o /dev/null 2>/dev/null
// RUN: tuner-db --db %t.slow.db export > %t.slow.jsonl
// RUN: %python %S/Inputs/add-record.py %t.slow.jsonl '{"matmul_1.tile.l0": 8}' 0.5 > %t.slowbest.jsonl
// RUN: tuner-db --db %t.slow.db import %t.slowbest.jsonl
// RUN: tuner-opt %s --tuner-apply-best="database=%t.slow.db function=mm" 2>&1 >/dev/null | FileCheck %s --check-prefix=SLOW

// CHECK-LABEL: func.func @mm(
// CHECK:         scf.for {{.*}} step %c8
// CHECK:           scf.for {{.*}} step %c4
// CHECK:             linalg.matmul {{.*}} -> tensor<8x4xf32>
// CHECK-LABEL: func.func @untuned(
// CHECK-NOT:     scf.for
// CHECK:         linalg.add

// REMARKS-DAG: remark: applied the best recorded schedule of @mm (7.50x over the untransformed function when measured)
// REMARKS-DAG: remark: no tuning record for @untuned (workload {{[0-9a-f]+}}) on this machine: left as it is

// SLOW: remark: no recorded schedule of @mm beats the untransformed function: left as it is

func.func @mm(%A: tensor<16x16xf32>, %B: tensor<16x16xf32>) -> tensor<16x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<16x16xf32>) -> tensor<16x16xf32>
  %m = linalg.matmul ins(%A, %B : tensor<16x16xf32>, tensor<16x16xf32>) outs(%f : tensor<16x16xf32>) -> tensor<16x16xf32>
  return %m : tensor<16x16xf32>
}

func.func @untuned(%A: tensor<16xf32>, %B: tensor<16xf32>) -> tensor<16xf32> {
  %e = tensor.empty() : tensor<16xf32>
  %r = linalg.add ins(%A, %B : tensor<16xf32>, tensor<16xf32>) outs(%e : tensor<16xf32>) -> tensor<16xf32>
  return %r : tensor<16xf32>
}
