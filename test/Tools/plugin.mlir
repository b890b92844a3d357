// The tuner's passes inside stock mlir-opt, loaded as a plugin. Passes that a
// plugin registers are reachable through --pass-pipeline.
// RUN: %mlir_opt %s --load-pass-plugin=%tuner_plugin --load-dialect-plugin=%tuner_plugin \
// RUN:   --pass-pipeline="builtin.module(tuner-extract-space{target=%S/../Space/Inputs/avx512-4core.json register-tile=false vectorize=false fuse=false})" \
// RUN:   -o /dev/null | FileCheck %s

// CHECK: "function": "scale"
// CHECK: "name": "fill_0.tile.l0"

func.func @scale(%a: memref<64xf32>) {
  %c = arith.constant 2.0 : f32
  linalg.fill ins(%c : f32) outs(%a : memref<64xf32>)
  return
}
