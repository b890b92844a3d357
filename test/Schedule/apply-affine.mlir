// An affine matmul nest: interchanged (i, k, j), tiled (k left untiled),
// the innermost loop unrolled and the outermost run in parallel, through the
// tuner's transform ops. Stock mlir-opt replays the schedule with the plugin.
// The generated space does not offer unrolling and parallelizing an affine
// nest together (the unrolled copies can hide that the outer loop is
// parallel from the dependence check); here it applies, through a saved
// space without that rule.
// RUN: not tuner-opt %s --tuner-apply="config=%S/Inputs/affine.json" -o /dev/null 2>&1 | FileCheck %s --check-prefix=RULE
// RUN: tuner-opt %s --tuner-apply="config=%S/Inputs/affine.json space=%S/Inputs/affine-space.json schedule-output=%t.schedule.mlir" > %t.tuned.mlir
// RUN: FileCheck %s --check-prefix=IR < %t.tuned.mlir
// RUN: FileCheck %s --check-prefix=SCRIPT < %t.schedule.mlir
// RUN: %mlir_opt %s --load-dialect-plugin=%tuner_plugin --transform-preload-library=transform-library-paths=%t.schedule.mlir --transform-interpreter > %t.replayed.mlir
// RUN: diff %t.tuned.mlir %t.replayed.mlir

// RULE: constraint '!nest_0.parallel || nest_0.unroll == 1' is violated

// SCRIPT:      %nest_0 = transform.tuner.affine_nest %func index = 0
// SCRIPT-NEXT: // nest_0: tile [8, 4, 0], order [0, 2, 1], unroll 2, parallel
// SCRIPT-NEXT: %nest_0_interchanged = transform.tuner.affine_interchange %nest_0 permutation = [0, 2, 1]
// SCRIPT-NEXT: %nest_0_loops:5 = transform.tuner.affine_tile %nest_0_interchanged tile_sizes [8, 0, 4]
// SCRIPT-NEXT: transform.tuner.affine_unroll %nest_0_loops#4 factor = 2
// SCRIPT-NEXT: transform.tuner.affine_parallelize %nest_0_loops#0

// IR-LABEL: func.func @mm(
// IR:         affine.parallel (%[[I0:.*]]) = (0) to (16) step (8) {
// IR-NEXT:      affine.for %[[J0:.*]] = 0 to 16 step 4 {
// IR-NEXT:        affine.for %[[I:.*]] = #{{.*}}(%[[I0]]) to #{{.*}}(%[[I0]]) {
// IR-NEXT:          affine.for %[[K:.*]] = 0 to 16 {
// IR-NEXT:            affine.for %[[J:.*]] = #{{.*}}(%[[J0]]) to #{{.*}}(%[[J0]]) step 2 {
// IR:                   affine.load %{{.*}}[%[[I]], %[[K]]]
// IR:                   affine.store %{{.*}}, %{{.*}}[%[[I]], %[[J]]]
// IR:                   affine.store %{{.*}}, %{{.*}}[%[[I]], %[[J]] + 1]
// IR-NEXT:            }

func.func @mm(%A: memref<16x16xf32>, %B: memref<16x16xf32>, %C: memref<16x16xf32>) {
  affine.for %i = 0 to 16 {
    affine.for %j = 0 to 16 {
      affine.for %k = 0 to 16 {
        %a = affine.load %A[%i, %k] : memref<16x16xf32>
        %b = affine.load %B[%k, %j] : memref<16x16xf32>
        %c = affine.load %C[%i, %j] : memref<16x16xf32>
        %p = arith.mulf %a, %b : f32
        %s = arith.addf %c, %p : f32
        affine.store %s, %C[%i, %j] : memref<16x16xf32>
      }
    }
  }
  return
}
