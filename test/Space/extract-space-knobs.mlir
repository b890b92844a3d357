// A user-defined space from the transform.tune.knob ops of a user's script,
// with constraints from a JSON file.
// RUN: tuner-opt %s --tuner-extract-space="from-knobs=%S/Inputs/user-knobs.mlir constraints=%S/Inputs/constraints.json" -o /dev/null | FileCheck %s --check-prefix=USER

// A generated space written as knobs reads back as the same space.
// RUN: tuner-opt %s --tuner-extract-space="target=%S/Inputs/avx512-4core.json output=%t.json knobs-output=%t.knobs.mlir" -o /dev/null
// RUN: FileCheck %s --input-file=%t.knobs.mlir --check-prefix=KNOBS
// RUN: tuner-opt %s --tuner-extract-space="from-knobs=%t.knobs.mlir output=%t.back.json" -o /dev/null
// RUN: grep '"size"' %t.json > %t.size1
// RUN: grep '"size"' %t.back.json > %t.size2
// RUN: diff %t.size1 %t.size2

// Selected values are the parameters' defaults; geometric option lists (of
// integers or reals) are log scale, others linear.
// RUN: tuner-opt %s --tuner-extract-space="from-knobs=%S/Inputs/knobs-defaults.mlir" -o /dev/null | FileCheck %s --check-prefix=DEFAULTS

// Errors: mixed options, a missing script, a selected value that is not an
// option, a selected region out of range.
// RUN: not tuner-opt %s --tuner-extract-space="from-knobs=%S/Inputs/bad-knobs.mlir" 2>&1 | FileCheck %s --check-prefix=MIXED
// RUN: not tuner-opt %s --tuner-extract-space="from-knobs=%S/Inputs/missing.mlir" 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: not tuner-opt %s --mlir-print-op-on-diagnostic=false --tuner-extract-space="from-knobs=%S/Inputs/bad-selected.mlir" 2>&1 | FileCheck %s --check-prefix=SELECTED
// RUN: not tuner-opt %s --mlir-print-op-on-diagnostic=false --tuner-extract-space="from-knobs=%S/Inputs/bad-selected-region.mlir" 2>&1 | FileCheck %s --check-prefix=REGION

// A space that its constraints leave empty is an error, and nothing is
// written: constraints no values satisfy, a constraint that is always false.
// RUN: rm -f %t.empty.json
// RUN: not tuner-opt %s --mlir-print-op-on-diagnostic=false --tuner-extract-space="from-knobs=%S/Inputs/user-knobs.mlir constraints=%S/Inputs/impossible-constraints.json output=%t.empty.json" 2>&1 | FileCheck %s --check-prefix=EMPTY
// RUN: not test -e %t.empty.json
// RUN: not tuner-opt %s --mlir-print-op-on-diagnostic=false --tuner-extract-space="from-knobs=%S/Inputs/user-knobs.mlir constraints=%S/Inputs/false-constraint.json" 2>&1 | FileCheck %s --check-prefix=FALSE

// USER:      "size": "20"
// USER:      "constraints": [
// USER-NEXT:   "tile_m * tile_n <= 64",
// USER-NEXT:   "tile_k <= tile_m / 4"
// USER:        "kind": "ordinal",
// USER-NEXT:   "log": true,
// USER-NEXT:   "name": "tile_m",
// USER-NEXT:   "values": [
// USER-NEXT:     4,
// USER-NEXT:     8,
// USER-NEXT:     16
// USER:        "log": true,
// USER-NEXT:   "name": "tile_n",
// USER-NEXT:   "values": [
// USER-NEXT:     4,
// USER-NEXT:     8,
// USER-NEXT:     16
// USER:          "role": "alternatives"
// USER:        "kind": "integer",
// USER-NEXT:   "lower": 0,
// USER-NEXT:   "name": "vectorize",
// USER-NEXT:   "upper": 1

// KNOBS: transform.named_sequence @__tuner_space() attributes {tuner.constraints = ["fill_0.rtile.l0 == 64 || fill_0.rtile.l0 <= fill_0.tile.l0"
// KNOBS: transform.tune.knob<"matmul_1.tile.l0"> options = [1, 2, 4, 8, 16, 32, 64] -> !transform.param<i64>
// KNOBS: transform.tune.knob<"matmul_1.order"> options = [array<i64: 0, 1, 2>, array<i64: 0, 2, 1>, array<i64: 1, 0, 2>, array<i64: 1, 2, 0>, array<i64: 2, 0, 1>, array<i64: 2, 1, 0>] -> !transform.any_param
// KNOBS: transform.tune.knob<"matmul_1.vectorize"> options = [false, true] -> !transform.param<i1>

// DEFAULTS:      "size": "72"
// DEFAULTS:        "default": 8,
// DEFAULTS-NEXT:   "kind": "ordinal",
// DEFAULTS-NEXT:   "log": true,
// DEFAULTS-NEXT:   "name": "tile_m",
// DEFAULTS:        "kind": "ordinal",
// DEFAULTS-NEXT:   "name": "unroll",
// DEFAULTS:        "default": 0.25,
// DEFAULTS-NEXT:   "kind": "ordinal",
// DEFAULTS-NEXT:   "log": true,
// DEFAULTS-NEXT:   "name": "scale",
// DEFAULTS:        "default": 1,
// DEFAULTS-NEXT:   "description": "index of the selected region",
// DEFAULTS-NEXT:   "kind": "integer",
// DEFAULTS-NEXT:   "lower": 0,
// DEFAULTS-NEXT:   "name": "vectorize",

// MIXED: bad-knobs.mlir:3:10: error: knob 'mixed': option "eight" is not of the kind of the first option 4
// MISSING: cannot read the transform script '{{.*}}missing.mlir'
// SELECTED: bad-selected.mlir:3:10: error: knob 'tile': selected value 5 : i64 is not one of its options [2, 4, 8]
// REGION: bad-selected-region.mlir:4:5: error: alternatives 'pick': selected region 2 is not one of its 2 regions (0 to 1)
// EMPTY: error: cannot enumerate the space: the space has no feasible config: no values of {'tile_m', 'tile_n'} satisfy 'tile_m * tile_n > 1000'
// FALSE: error: cannot enumerate the space: the space has no feasible config: the constraint '1 > 2' is always false

func.func @matmul(%A: tensor<64x32xf32>, %B: tensor<32x16xf32>) -> tensor<64x16xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<64x16xf32>
  %C = linalg.fill ins(%zero : f32) outs(%empty : tensor<64x16xf32>) -> tensor<64x16xf32>
  %D = linalg.matmul ins(%A, %B : tensor<64x32xf32>, tensor<32x16xf32>)
                     outs(%C : tensor<64x16xf32>) -> tensor<64x16xf32>
  return %D : tensor<64x16xf32>
}
