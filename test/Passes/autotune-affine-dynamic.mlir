// The autotune pass on an affine matmul over memref<?x?xf32>, its bounds
// the memrefs' sizes: measured at the first set of sizes through the
// static wrapper, the best candidate verified (outputs compared with the
// untransformed function) at sizes that do not divide its tiles and at
// 1x1x1, and applied to the dynamic function, which keeps its symbolic
// bounds.
// RUN: rm -f %t.db %t.db-wal %t.db-shm
// RUN: echo '[{"arg0": [32, 24], "arg1": [24, 40], "arg2": [32, 40]}, {"arg0": [37, 5], "arg1": [5, 3], "arg2": [37, 3]}, {"arg0": [1, 1], "arg1": [1, 1], "arg2": [1, 1]}]' > %t.shapes.json
// RUN: tuner-opt %s --tuner-autotune="shapes=@%t.shapes.json strategy=random budget=2 database=%t.db summary-output=%t.summary.json" -o %t.tuned.mlir 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: FileCheck %s --check-prefix=SUMMARY < %t.summary.json
// RUN: FileCheck %s --check-prefix=IR < %t.tuned.mlir

// REMARK: remark: autotune @mm: baseline {{.*}}; 2 candidates (2 measured, 0 from the database), 0 failed; at shapes=arg0=32x24,arg1=24x40,arg2=32x40;
// SUMMARY: "shapes": "arg0=32x24,arg1=24x40,arg2=32x40",
// SUMMARY: "verified_shapes": [
// SUMMARY:   "shapes": "arg0=37x5,arg1=5x3,arg2=37x3",
// SUMMARY:   "shapes": "arg0=1x1,arg1=1x1,arg2=1x1",
// IR: func.func @mm(%arg0: memref<?x?xf32>, %arg1: memref<?x?xf32>, %arg2: memref<?x?xf32>)
// IR: %[[M:.*]] = memref.dim %arg0, %c0
// IR: affine.for %{{.*}} = 0 to %[[M]]
// IR-NOT: __tuner_at_shapes

func.func @mm(%A: memref<?x?xf32>, %B: memref<?x?xf32>, %C: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = memref.dim %A, %c0 : memref<?x?xf32>
  %k = memref.dim %A, %c1 : memref<?x?xf32>
  %n = memref.dim %B, %c1 : memref<?x?xf32>
  affine.for %i = 0 to %m {
    affine.for %j = 0 to %n {
      affine.for %p = 0 to %k {
        %a = affine.load %A[%i, %p] : memref<?x?xf32>
        %b = affine.load %B[%p, %j] : memref<?x?xf32>
        %c = affine.load %C[%i, %j] : memref<?x?xf32>
        %x = arith.mulf %a, %b : f32
        %y = arith.addf %c, %x : f32
        affine.store %y, %C[%i, %j] : memref<?x?xf32>
      }
    }
  }
  return
}
