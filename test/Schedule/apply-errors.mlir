// Configs that are not in the space or do not apply are diagnostics naming
// the parameter and value; the pass fails and the module is unchanged.
// RUN: not tuner-opt %s --mlir-print-op-on-diagnostic=false --tuner-apply 2>&1 | FileCheck %s --check-prefix=NOCONFIG
// RUN: not tuner-opt %s --mlir-print-op-on-diagnostic=false --tuner-apply="config=%S/Inputs/does-not-exist.json" 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: not tuner-opt %s --mlir-print-op-on-diagnostic=false --tuner-apply="config=%S/Inputs/malformed.json" 2>&1 | FileCheck %s --check-prefix=MALFORMED
// RUN: not tuner-opt %s --mlir-print-op-on-diagnostic=false --tuner-apply="config=%S/Inputs/unknown-parameter.json" 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: not tuner-opt %s --mlir-print-op-on-diagnostic=false --tuner-apply="config=%S/Inputs/outside-domain.json" 2>&1 | FileCheck %s --check-prefix=DOMAIN
// RUN: not tuner-opt %s --mlir-print-op-on-diagnostic=false --tuner-apply="config=%S/Inputs/wrong-type.json" 2>&1 | FileCheck %s --check-prefix=TYPE
// RUN: not tuner-opt %s --mlir-print-op-on-diagnostic=false --tuner-apply="config=%S/Inputs/constraint-violated.json" 2>&1 | FileCheck %s --check-prefix=CONSTRAINT
// RUN: not tuner-opt %s --mlir-print-op-on-diagnostic=false --tuner-apply="config=%S/Inputs/fails-to-apply.json space=%S/Inputs/mm-space-unsafe-fusion.json schedule-output=%t.schedule.mlir" --mlir-print-ir-after-failure 2>&1 | FileCheck %s --check-prefix=APPLY
// RUN: FileCheck %s --check-prefix=SCRIPT < %t.schedule.mlir

// NOCONFIG: error: tuner-apply needs a config: --tuner-apply="config=<file.json>"
// MISSING: error: cannot read the config: cannot read '{{.*}}does-not-exist.json': No such file or directory
// MALFORMED: error: cannot read the config: {{.*}}malformed.json: invalid JSON [3:0
// UNKNOWN: error: invalid config '{{.*}}unknown-parameter.json': config: unknown parameter 'matmul_1.tile.l7'
// DOMAIN: error: invalid config '{{.*}}outside-domain.json': parameter 'matmul_1.tile.l0': value 3 is not one of [1, 2, 4, 8, 16]
// TYPE: error: invalid config '{{.*}}wrong-type.json': parameter 'matmul_1.vectorize': value 1 is not a boolean
// CONSTRAINT: error: config '{{.*}}constraint-violated.json' is not in the space: constraint 'matmul_1.rtile.l0 == 16 || matmul_1.rtile.l0 <= matmul_1.tile.l0' is violated with matmul_1.tile.l0 = 4, matmul_1.rtile.l0 = 8

// The fill feeds the matmul's accumulator through the scf.for's iter_args:
// upstream cannot fuse it there (only into an scf.forall). The generated
// space rules that out; a user's space without that rule lets the config
// through, it fails to apply, and the module is left as it was.
// APPLY: error: the schedule failed to apply; the module is left unchanged
// APPLY: note: remark: could not fuse {{.*}}linalg.fill
// APPLY: IR Dump After TunerApply Failed
// APPLY-NOT: scf.for
// APPLY: linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<16x16xf32>)
// APPLY-NEXT: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<16x16xf32>, tensor<16x16xf32>)
// APPLY-NOT: scf.for

// The schedule is written before it is applied, for inspection.
// SCRIPT: transform.structured.fuse_into_containing_op %fill_0 into %matmul_1_tiled_loops

func.func @mm(%A: tensor<16x16xf32>, %B: tensor<16x16xf32>) -> tensor<16x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<16x16xf32>) -> tensor<16x16xf32>
  %m = linalg.matmul ins(%A, %B : tensor<16x16xf32>, tensor<16x16xf32>) outs(%f : tensor<16x16xf32>) -> tensor<16x16xf32>
  return %m : tensor<16x16xf32>
}
