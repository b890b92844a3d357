// Refusals point at the function or op they concern, never at file:0:0,
// and never print the module or the function after them: not in tuner-opt
// (which defaults to --mlir-print-op-on-diagnostic=false) and not through
// the plugin in stock mlir-opt (which prints ops on diagnostics by default).
//
// Several functions where a pass works on one: an error at the first,
// naming them.
// RUN: not tuner-opt %s --tuner-extract-space -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=SEVERAL --implicit-check-not=":0:0:" --implicit-check-not="builtin.module" --implicit-check-not="see current operation"
// RUN: not %mlir_opt %s --load-pass-plugin=%tuner_plugin --load-dialect-plugin=%tuner_plugin --pass-pipeline="builtin.module(tuner-extract-space)" -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=SEVERAL --implicit-check-not=":0:0:" --implicit-check-not="builtin.module" --implicit-check-not="see current operation"
//
// A config that is not in the space: at the function, without it printed.
// RUN: echo '{"fill_0.tile.l0": 3}' > %t.config.json
// RUN: not tuner-opt %s --tuner-apply="function=second config=%t.config.json" -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=CONFIG --implicit-check-not='"func.func"' --implicit-check-not="see current operation"
// RUN: not %mlir_opt %s --load-pass-plugin=%tuner_plugin --load-dialect-plugin=%tuner_plugin --pass-pipeline="builtin.module(tuner-apply{function=second config=%t.config.json})" -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=CONFIG --implicit-check-not='"func.func"' --implicit-check-not="see current operation"
//
// The analysis reports at the op; the flag can still be set, and the op is
// then printed after the diagnostic.
// RUN: not tuner-opt %S/Inputs/unsupported-nest.mlir --tuner-print-program 2>&1 | FileCheck %s --check-prefix=QUIET --implicit-check-not="see current operation"
// RUN: not tuner-opt %S/Inputs/unsupported-nest.mlir --mlir-print-op-on-diagnostic=true --tuner-print-program 2>&1 | FileCheck %s --check-prefix=PRINTED
//
// Options of the whole module are reported at its first function.
// RUN: not tuner-opt %s --tuner-autotune="strategy=simplex database=none" -o /dev/null 2>&1 | FileCheck %s --check-prefix=OPTION

// SEVERAL: diagnostics-locations.mlir:[[@LINE+12]]:1: error: several functions could be tuned ('first', 'second'): choose one with the 'function' option
// CONFIG: diagnostics-locations.mlir:[[@LINE+17]]:1: error: invalid config '{{.*}}config.json': parameter 'fill_0.tile.l0': value 3 is not one of
// QUIET: unsupported-nest.mlir:4:8: error: linalg.softmax is not a structured linalg op
// PRINTED: unsupported-nest.mlir:4:8: error: linalg.softmax is not a structured linalg op
// PRINTED: note: see current operation
// OPTION: diagnostics-locations.mlir:[[@LINE+2]]:1: error: unknown strategy 'simplex'

func.func @packed(%src: tensor<16x32xf32>, %dst: tensor<2x4x8x8xf32>) -> tensor<2x4x8x8xf32> {
  %0 = linalg.pack %src inner_dims_pos = [0, 1] inner_tiles = [8, 8] into %dst : tensor<16x32xf32> -> tensor<2x4x8x8xf32>
  return %0 : tensor<2x4x8x8xf32>
}

func.func @first(%a: memref<64xf32>) {
  %c = arith.constant 2.0 : f32
  linalg.fill ins(%c : f32) outs(%a : memref<64xf32>)
  return
}

func.func @second(%a: memref<64xf32>) {
  %c = arith.constant 3.0 : f32
  linalg.fill ins(%c : f32) outs(%a : memref<64xf32>)
  return
}
