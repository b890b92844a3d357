// The model-guided strategies refuse a GPU target: the cost model describes
// CPU schedules only, and GPU spaces are searched by measurement.
// RUN: tuner-opt %s --tuner-autotune="target=%src_root/examples/targets/h100.json strategy=mcts budget=2" -verify-diagnostics -o /dev/null
// RUN: not tuner-opt %s --tuner-autotune="target=%src_root/examples/targets/h100.json strategy=beam budget=2" -o /dev/null 2>&1 | FileCheck %s --check-prefix=BEAM
// BEAM: strategy 'beam' ranks schedules with the cost model

// expected-error @+1 {{strategy 'mcts' ranks schedules with the cost model, which describes CPU schedules only: a GPU target}}
func.func @matmul(%A: tensor<64x64xf32>, %B: tensor<64x64xf32>, %C: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %r = linalg.matmul ins(%A, %B : tensor<64x64xf32>, tensor<64x64xf32>) outs(%C : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %r : tensor<64x64xf32>
}
