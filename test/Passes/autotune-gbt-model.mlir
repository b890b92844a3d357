// The search uses a model of gradient-boosted trees (tuner-train
// --model-kind gbt) through the same `model=` option as the network's:
// beam search ranks with the trees and measures exactly its top k and
// the two analytic seeds.
// RUN: rm -rf %t && mkdir -p %t
// RUN: tuner-train %S/../CostModel/Inputs/dataset -o %t/trees.json --model-kind gbt --seed 3 --gbt-rounds 10 > /dev/null
// RUN: tuner-opt %s --tuner-autotune="strategy=beam top-k=2 model=%t/trees.json database=none summary-output=%t/beam.json" -o /dev/null
// RUN: %python %S/Inputs/check-speedup.py %t/beam.json | FileCheck %s --check-prefix=BEAM
// RUN: FileCheck %s --check-prefix=SUMMARY < %t/beam.json
// A tree model of another flat layout is refused, not silently replaced.
// RUN: sed -e 's/"flat_layout": "[0-9a-f]*"/"flat_layout": "00000000deadbeef"/' %t/trees.json > %t/layout.json
// RUN: not tuner-opt %s --tuner-autotune="strategy=beam model=%t/layout.json database=none" -o /dev/null 2>&1 | FileCheck %s --check-prefix=LAYOUT

// BEAM: beam: never slower than the baseline, 4 measured
// SUMMARY: "model_predictions": {{[1-9][0-9]*}}
// LAYOUT: error: cannot use the cost model: {{.*}}layout.json: the trees were trained with feature layout {{[0-9a-f]+}} (1313 features per computation) flattened as 00000000deadbeef

func.func @mm(%A: tensor<32x32xf32>, %B: tensor<32x32xf32>) -> tensor<32x32xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<32x32xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<32x32xf32>) -> tensor<32x32xf32>
  %m = linalg.matmul ins(%A, %B : tensor<32x32xf32>, tensor<32x32xf32>) outs(%f : tensor<32x32xf32>) -> tensor<32x32xf32>
  return %m : tensor<32x32xf32>
}
