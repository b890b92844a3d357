// Every strategy runs on a small matmul and leaves a function at least as
// fast as the untransformed one: the best verified schedule when it wins,
// else the original. beam and mcts use the shipped cost model and measure
// exactly their top k and the two analytic seeds (a matmul); beam-exec
// measures every node within its budget.
// RUN: tuner-opt %s --tuner-autotune="strategy=beam top-k=4 database=none summary-output=%t.beam.json" -o /dev/null
// RUN: %python %S/Inputs/check-speedup.py %t.beam.json | FileCheck %s --check-prefix=BEAM
// RUN: tuner-opt %s --tuner-autotune="strategy=mcts top-k=4 mcts-iterations=40 database=none summary-output=%t.mcts.json" -o /dev/null
// RUN: %python %S/Inputs/check-speedup.py %t.mcts.json | FileCheck %s --check-prefix=MCTS
// With the execution step's correction of the model (by default, the
// paper's plain top k): the errors' process ("true" is the old spelling of
// "gp"), and the model adapted to the function, in two batches of two.
// RUN: tuner-opt %s --tuner-autotune="strategy=mcts top-k=4 mcts-iterations=40 model-correction=true database=none summary-output=%t.corrected.json" -o /dev/null
// RUN: %python %S/Inputs/check-speedup.py %t.corrected.json | FileCheck %s --check-prefix=MCTS
// RUN: FileCheck %s --check-prefix=CORRECTED < %t.corrected.json
// RUN: tuner-opt %s --tuner-autotune="strategy=mcts top-k=4 jobs=2 mcts-iterations=40 model-correction=adapt+gp database=none summary-output=%t.adapted.json" -o /dev/null
// RUN: %python %S/Inputs/check-speedup.py %t.adapted.json | FileCheck %s --check-prefix=MCTS
// RUN: FileCheck %s --check-prefix=ADAPTED < %t.adapted.json
// RUN: FileCheck %s --check-prefix=PLAIN < %t.mcts.json
// Measuring only schedules far apart among the model's best.
// RUN: tuner-opt %s --tuner-autotune="strategy=beam top-k=4 diverse-top-k=true database=none summary-output=%t.diverse.json" -o /dev/null
// RUN: %python %S/Inputs/check-speedup.py %t.diverse.json | FileCheck %s --check-prefix=BEAM
// RUN: FileCheck %s --check-prefix=DIVERSE < %t.diverse.json
// RUN: tuner-opt %s --tuner-autotune="strategy=beam-exec beam-width=2 budget=12 database=none summary-output=%t.bse.json" -o /dev/null
// RUN: %python %S/Inputs/check-speedup.py %t.bse.json | FileCheck %s --check-prefix=BSE
// RUN: tuner-opt %s --tuner-autotune="strategy=random budget=8 database=none summary-output=%t.random.json" -o /dev/null
// RUN: %python %S/Inputs/check-speedup.py %t.random.json | FileCheck %s --check-prefix=RANDOM
// Bayesian optimization with the shipped cost model as its prior mean: the
// two analytic seeds (as mcts measures them), four initial configs (the
// model's best by tree search over the function's schedules, which also
// join every candidate pool), then two proposals of the model.
// RUN: tuner-opt %s --tuner-autotune="strategy=bo budget=8 strategy-options=initial=4 database=none summary-output=%t.bo.json" -o /dev/null
// RUN: %python %S/Inputs/check-speedup.py %t.bo.json | FileCheck %s --check-prefix=BO
// RUN: FileCheck %s --check-prefix=BO-SUMMARY < %t.bo.json
// The portfolio asks each of its members (random, evolution, annealing,
// genetic, bo) at least once within 8 measurements.
// RUN: tuner-opt %s --tuner-autotune="strategy=portfolio budget=8 database=none summary-output=%t.portfolio.json" -o /dev/null
// RUN: %python %S/Inputs/check-speedup.py %t.portfolio.json | FileCheck %s --check-prefix=PORTFOLIO

// A model file that is not a model is an error, not a silent fallback.
// RUN: printf '{"not": "a model"}' > %t.bad-model.json
// RUN: not tuner-opt %s --tuner-autotune="strategy=beam model=%t.bad-model.json database=none" -o /dev/null 2>&1 | FileCheck %s --check-prefix=BADMODEL

// BEAM: beam: never slower than the baseline, 6 measured
// MCTS: mcts: never slower than the baseline, 6 measured
// BSE: beam-exec: never slower than the baseline, {{[0-9]+}} measured
// RANDOM: random: never slower than the baseline, 8 measured
// BO: bo: never slower than the baseline, 8 measured
// BO-SUMMARY: "model_predictions": {{[1-9][0-9]*}}
// BO-SUMMARY: "strategy": "bo",
// BO-SUMMARY-NEXT: "strategy_settings": {
// BO-SUMMARY-NEXT: "initial": "4"
// BO-SUMMARY: "initial_design": "model",
// BO-SUMMARY-NEXT: "initial_model_picks": 4,
// BO-SUMMARY-NEXT: "initial_samples": 4,
// BO-SUMMARY-NEXT: "initial_seeds": 2,
// BO-SUMMARY-NEXT: "model_candidates": 64,
// BO-SUMMARY-NEXT: "model_prior": true,
// BO-SUMMARY-NEXT: "model_proposals": 2,
// PORTFOLIO: portfolio: never slower than the baseline, 8 measured
// BADMODEL: error: cannot use the cost model:
// PLAIN: "diverse_top_k": false
// PLAIN: "model_correction": "none"
// PLAIN-NEXT: "model_predictions": {{[1-9][0-9]*}}
// Each config is planned once: the model's features reuse the plans the
// schedule hash made.
// PLAIN: "plans": {
// PLAIN-NEXT: "planned": {{[1-9][0-9]*}},
// PLAIN-NEXT: "reused": {{[1-9][0-9]*}}
// DIVERSE: "diverse_top_k": true
// CORRECTED: "model_correction": "gp"
// ADAPTED: "model_correction": "adapt+gp"

func.func @mm(%A: tensor<64x64xf32>, %B: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x64xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  %m = linalg.matmul ins(%A, %B : tensor<64x64xf32>, tensor<64x64xf32>) outs(%f : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %m : tensor<64x64xf32>
}
