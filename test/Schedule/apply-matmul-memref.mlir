// A matmul on memrefs: cache tiles, register tiles, vectorization (the
// contraction lowered to outer products) and unrolling of the innermost
// register loop.
// RUN: tuner-opt %s --tuner-apply="config=%S/Inputs/matmul-memref.json schedule-output=%t.schedule.mlir" > %t.tuned.mlir
// RUN: FileCheck %s < %t.tuned.mlir
// RUN: %mlir_opt %s --load-dialect-plugin=%tuner_plugin --transform-preload-library=transform-library-paths=%t.schedule.mlir --transform-interpreter > %t.replayed.mlir
// RUN: diff %t.tuned.mlir %t.replayed.mlir

// CHECK-LABEL: func.func @mm(
// CHECK-NOT:     linalg.matmul
// CHECK:         scf.for %{{.*}} = %c0 to %c16 step %c8
// CHECK-NEXT:      scf.for %{{.*}} = %c0 to %c16 step %c8
// The output tile's view is hoisted out of the reduction loop.
// CHECK-NEXT:        memref.subview %arg2{{.*}} to memref<8x8xf32
// CHECK-NEXT:        scf.for %{{.*}} = %c0 to %c16 step %c8
// CHECK:               memref.subview {{.*}} to memref<8x8xf32
// CHECK:               scf.for %{{.*}} = %c0 to %c8 step %c4
// CHECK:                 scf.for %{{.*}} = %c0 to %c8 step %c4
// CHECK-COUNT-8:           vector.fma {{.*}} : vector<8xf32>
// CHECK:                   vector.transfer_write {{.*}} : vector<4x8xf32>, memref<4x8xf32
// CHECK-COUNT-8:           vector.fma {{.*}} : vector<8xf32>
// CHECK:                   vector.transfer_write {{.*}} : vector<4x8xf32>, memref<4x8xf32
// CHECK-NOT:     linalg.matmul
// CHECK:         return

func.func @mm(%A: memref<16x16xf32>, %B: memref<16x16xf32>, %C: memref<16x16xf32>) {
  linalg.matmul ins(%A, %B : memref<16x16xf32>, memref<16x16xf32>) outs(%C : memref<16x16xf32>)
  return
}
