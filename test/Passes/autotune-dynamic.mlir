// The autotune pass on a dynamic function: measured at the first sizes
// given (through a static wrapper that calls the dynamic function), the best
// candidate verified and timed at the other sizes, the shapes in the
// summary, and the sizes part of the workload in the database: a rerun at
// other sizes measures anew instead of replaying the records.
// RUN: rm -f %t.db %t.db-wal %t.db-shm
// RUN: echo '[{"arg0": [16, 24], "arg1": [16]}, {"arg0": [5, 3], "arg1": [5]}, {"arg0": [1, 1], "arg1": [1]}]' > %t.shapes.json
// RUN: tuner-opt %s --tuner-autotune="shapes=@%t.shapes.json strategy=random budget=2 database=%t.db summary-output=%t.summary.json" -o %t.tuned.mlir 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: FileCheck %s --check-prefix=SUMMARY < %t.summary.json
// RUN: FileCheck %s --check-prefix=IR < %t.tuned.mlir
// RUN: tuner-opt %s --tuner-autotune="shapes=@%t.shapes.json strategy=random budget=2 database=%t.db" -o /dev/null 2>&1 | FileCheck %s --check-prefix=RESUME
// RUN: tuner-opt %s --tuner-autotune="shapes=arg0=17x9,arg1=17 strategy=random budget=2 database=%t.db" -o /dev/null 2>&1 | FileCheck %s --check-prefix=OTHER
// RUN: tuner-db --db %t.db list | FileCheck %s --check-prefix=DB
// --tuner-apply-best finds the records made at the sizes it is given only.
// RUN: tuner-opt %s --tuner-apply-best="shapes=@%t.shapes.json database=%t.db" -o /dev/null 2>&1 | FileCheck %s --check-prefix=BEST
// RUN: tuner-opt %s --tuner-apply-best="shapes=arg0=99x24,arg1=99 database=%t.db" -o /dev/null 2>&1 | FileCheck %s --check-prefix=NONE

// REMARK: remark: autotune @rowsum: baseline {{.*}}; 2 candidates (2 measured, 0 from the database), 0 failed; at shapes=arg0=16x24,arg1=16;
// SUMMARY: "shapes": "arg0=16x24,arg1=16",
// SUMMARY: "verified_shapes": [
// SUMMARY:   "shapes": "arg0=5x3,arg1=5",
// SUMMARY:   "shapes": "arg0=1x1,arg1=1",
// IR: func.func @rowsum(%arg0: memref<?x?xf32>, %arg1: memref<?xf32>)
// IR-NOT: __tuner_at_shapes
// RESUME: 2 candidates (0 measured, 2 from the database)
// OTHER: 2 candidates (2 measured, 0 from the database), 0 failed; at shapes=arg0=17x9,arg1=17;
// DB-COUNT-2: rowsum
// BEST: remark: {{(applied the best recorded schedule of @rowsum|no recorded schedule of @rowsum beats)}}
// NONE: remark: no tuning record for @rowsum

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
