// A user's script with transform.tune.knob ops: the config selects the
// knobs' values and the script is applied; schedule-output holds the script
// with its knobs resolved.
// RUN: tuner-opt %s --tuner-apply="config=%S/Inputs/knobs-config.json knobs-script=%S/Inputs/knobs.mlir schedule-output=%t.schedule.mlir" | FileCheck %s
// RUN: FileCheck %s --check-prefix=SCRIPT < %t.schedule.mlir
// RUN: not tuner-opt %s --mlir-print-op-on-diagnostic=false --tuner-apply="config=%S/Inputs/knobs-bad-config.json knobs-script=%S/Inputs/knobs.mlir" 2>&1 | FileCheck %s --check-prefix=DOMAIN
// RUN: not tuner-opt %s --mlir-print-op-on-diagnostic=false --tuner-apply="config=%S/Inputs/knobs-config.json knobs-script=%S/Inputs/knobs.mlir constraints=%S/Inputs/knobs-constraints.json" 2>&1 | FileCheck %s --check-prefix=CONSTRAINT

// CHECK-LABEL: func.func @mm(
// CHECK:         scf.for %{{.*}} = %{{.*}} to %{{.*}} step %c4
// CHECK:           scf.for %{{.*}} = %{{.*}} to %{{.*}} step %c8
// CHECK:             linalg.matmul {{.*}} outs(%{{.*}} : memref<4x8xf32

// SCRIPT: transform.tune.knob<"tile_i"> = 4 : i64 from options = [2, 4, 8]
// SCRIPT: transform.tune.knob<"tile_j"> = 8 : i64 from options = [4, 8, 16]

// DOMAIN: error: invalid config '{{.*}}knobs-bad-config.json': parameter 'tile_j': value 5 is not one of [4, 8, 16]
// CONSTRAINT: error: config '{{.*}}knobs-config.json' is not in the space: constraint 'tile_i * tile_j <= 16' is violated with tile_i = 4, tile_j = 8

func.func @mm(%A: memref<16x16xf32>, %B: memref<16x16xf32>, %C: memref<16x16xf32>) {
  linalg.matmul ins(%A, %B : memref<16x16xf32>, memref<16x16xf32>) outs(%C : memref<16x16xf32>)
  return
}
