// RUN: not tuner-opt %s --tuner-extract-space="target=%S/Inputs/no-such-target.json" 2>&1 | FileCheck %s --check-prefix=TARGET
// RUN: not tuner-opt %s --tuner-extract-space="target=%S/Inputs/bad-target.json" 2>&1 | FileCheck %s --check-prefix=BADTARGET
// RUN: not tuner-opt %s --tuner-extract-space="constraints=%S/Inputs/constraints.json" 2>&1 | FileCheck %s --check-prefix=OPTIONS
// RUN: not tuner-opt %s --tuner-extract-space="max-tile-candidates=1" 2>&1 | FileCheck %s --check-prefix=CANDIDATES
// RUN: not tuner-opt %s --tuner-extract-space="function=nope" 2>&1 | FileCheck %s --check-prefix=FUNCTION
// RUN: not tuner-opt %s --tuner-extract-space="output=%t.missing-dir/space.json" 2>&1 | FileCheck %s --check-prefix=OUTPUT

// Impossible options get a diagnostic and a non-zero exit.

// TARGET: cannot read target description '{{.*}}no-such-target.json'
// BADTARGET: target description: field 'cores' must be a positive integer
// OPTIONS: the 'constraints' option only applies with 'from-knobs'
// CANDIDATES: max-tile-candidates must be at least 2 (got 1)
// FUNCTION: no function named 'nope' in the module
// OUTPUT: cannot write '{{.*}}space.json'

func.func @scale(%a: memref<64xf32>) {
  %c = arith.constant 2.0 : f32
  linalg.fill ins(%c : f32) outs(%a : memref<64xf32>)
  return
}
