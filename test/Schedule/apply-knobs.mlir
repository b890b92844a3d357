// A user's script with transform.tune.knob ops: the config selects the
// knobs' values and the script is applied; schedule-output holds the script
// with its knobs resolved.
// RUN: tuner-opt %s --tuner-apply="config=%S/Inputs/knobs-config.json knobs-script=%S/Inputs/knobs.mlir schedule-output=%t.schedule.mlir" | FileCheck %s
// RUN: FileCheck %s --check-prefix=SCRIPT < %t.schedule.mlir
// RUN: not tuner-opt %s --mlir-print-op-on-diagnostic=false --tuner-apply="config=%S/Inputs/knobs-bad-config.json knobs-script=%S/Inputs/knobs.mlir" 2>&1 | FileCheck %s --check-prefix=DOMAIN
// RUN: not tuner-opt %s --mlir-print-op-on-diagnostic=false --tuner-apply="config=%S/Inputs/knobs-config.json knobs-script=%S/Inputs/knobs.mlir constraints=%S/Inputs/knobs-constraints.json" 2>&1 | FileCheck %s --check-prefix=CONSTRAINT

// A knob the config leaves out takes its selected value (tile_i = 4 here,
// not the first option 2).
// RUN: tuner-opt %s --tuner-apply="config=%S/Inputs/knobs-config-partial.json knobs-script=%S/Inputs/knobs-selected.mlir" | FileCheck %s
// RUN: not tuner-opt %s --mlir-print-op-on-diagnostic=false --tuner-apply="config=%S/Inputs/knobs-config.json knobs-script=%S/Inputs/knobs-bad-selected.mlir" 2>&1 | FileCheck %s --check-prefix=SELECTED

// With knobs-script, space= is a saved space of the knobs: one written by
// extract-space applies; one with a constraint checks the config with it; one
// whose parameters differ from the knobs is an error naming the difference.
// RUN: tuner-opt %s --tuner-extract-space="from-knobs=%S/Inputs/knobs.mlir output=%t.space.json" -o /dev/null
// RUN: tuner-opt %s --tuner-apply="config=%S/Inputs/knobs-config.json knobs-script=%S/Inputs/knobs.mlir space=%t.space.json" | FileCheck %s
// RUN: not tuner-opt %s --mlir-print-op-on-diagnostic=false --tuner-apply="config=%S/Inputs/knobs-config.json knobs-script=%S/Inputs/knobs.mlir space=%S/Inputs/knobs-space-constrained.json" 2>&1 | FileCheck %s --check-prefix=SPACE-CONSTRAINT
// RUN: not tuner-opt %s --mlir-print-op-on-diagnostic=false --tuner-apply="config=%S/Inputs/knobs-config.json knobs-script=%S/Inputs/knobs.mlir space=%S/Inputs/knobs-space-mismatch.json" 2>&1 | FileCheck %s --check-prefix=SPACE-DOMAIN
// RUN: not tuner-opt %s --mlir-print-op-on-diagnostic=false --tuner-apply="config=%S/Inputs/knobs-config.json knobs-script=%S/Inputs/knobs.mlir space=%S/Inputs/knobs-space-missing.json" 2>&1 | FileCheck %s --check-prefix=SPACE-MISSING
// RUN: not tuner-opt %s --mlir-print-op-on-diagnostic=false --tuner-apply="config=%S/Inputs/knobs-config.json knobs-script=%S/Inputs/knobs.mlir space=%t.space.json constraints=%S/Inputs/knobs-constraints.json" 2>&1 | FileCheck %s --check-prefix=OPTIONS
// RUN: not tuner-opt %s --mlir-print-op-on-diagnostic=false --tuner-apply="config=%S/Inputs/knobs-config.json constraints=%S/Inputs/knobs-constraints.json" 2>&1 | FileCheck %s --check-prefix=OPTIONS

// CHECK-LABEL: func.func @mm(
// CHECK:         scf.for %{{.*}} = %{{.*}} to %{{.*}} step %c4
// CHECK:           scf.for %{{.*}} = %{{.*}} to %{{.*}} step %c8
// CHECK:             linalg.matmul {{.*}} outs(%{{.*}} : memref<4x8xf32

// SCRIPT: transform.tune.knob<"tile_i"> = 4 : i64 from options = [2, 4, 8]
// SCRIPT: transform.tune.knob<"tile_j"> = 8 : i64 from options = [4, 8, 16]

// DOMAIN: error: invalid config '{{.*}}knobs-bad-config.json': parameter 'tile_j': value 5 is not one of [4, 8, 16]
// CONSTRAINT: error: config '{{.*}}knobs-config.json' is not in the space: constraint 'tile_i * tile_j <= 16' is violated with tile_i = 4, tile_j = 8
// SELECTED: knobs-bad-selected.mlir:4:11: error: knob 'tile_i': selected value 3 : i64 is not one of its options [2, 4, 8]
// SPACE-CONSTRAINT: error: config '{{.*}}knobs-config.json' is not in the space: constraint 'tile_i * tile_j <= 16' is violated with tile_j = 8, tile_i = 4
// SPACE-DOMAIN: error: the space '{{.*}}knobs-space-mismatch.json' does not match the knobs of '{{.*}}knobs.mlir': parameter 'tile_j' is one of [4, 8, 32] in the space but one of [4, 8, 16] in the knobs
// SPACE-MISSING: error: the space '{{.*}}knobs-space-missing.json' does not match the knobs of '{{.*}}knobs.mlir': knob 'tile_j' is not a parameter of the space
// OPTIONS: error: the 'constraints' option only applies with 'knobs-script' and without 'space' (a space file states its own constraints)

func.func @mm(%A: memref<16x16xf32>, %B: memref<16x16xf32>, %C: memref<16x16xf32>) {
  linalg.matmul ins(%A, %B : memref<16x16xf32>, memref<16x16xf32>) outs(%C : memref<16x16xf32>)
  return
}
