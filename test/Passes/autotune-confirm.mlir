// confirm=N times the search's best N schedules again, side by side in one
// batch (and then the leader while it is one not timed again), and applies
// the best by each schedule's latest timing; the new records supersede the
// search's in the database (a rerun recalls them, tuner-db and
// --tuner-apply-best rank each config by its latest record).
// RUN: rm -f %t.db
// RUN: tuner-opt %s --tuner-autotune="strategy=random budget=5 confirm=3 database=%t.db summary-output=%t.json" -o /dev/null 2>&1 | FileCheck %s
// RUN: tuner-db --db %t.db export -o %t.jsonl
// RUN: tuner-db --db %t.db best > %t.best.jsonl
// RUN: %python %S/Inputs/check-confirmation.py %t.json %t.jsonl 3 %t.best.jsonl | FileCheck %s --check-prefix=CONFIRMED
// RUN: tuner-db --db %t.db list | FileCheck %s --check-prefix=LIST

// CHECK: remark: autotune @add: baseline {{.*}}; 5 candidates (5 measured, 0 from the database), 0 failed; {{[3-5]}} of the best timed again, {{[0-9.]+}} s{{: another schedule is best \(the search's best was|: the search's best stays best \(it was}} {{[0-9.]+}}x when first timed); {{[0-9.]+}} s of search;

// CONFIRMED: confirmed at least 3, each once, the top batch best first: True
// CONFIRMED-NEXT: best is the best second timing: True
// CONFIRMED-NEXT: best before: True
// CONFIRMED-NEXT: a confirm record each, speedups as confirmed: True
// CONFIRMED-NEXT: tuner-db best is the pass's best: True

// Eight to ten records of five configs: the list counts records (all ok),
// BEST is the best of each config's latest.
// LIST: add {{.*}} {{8|9|10}} {{ *}}{{8|9|10}} {{ *}}0
// RUN: tuner-db --db %t.db show | FileCheck %s --check-prefix=SHOW
// The search's records of the confirmed configs are listed apart.
// SHOW: superseded: {{[3-5]}} earlier measurements of configs measured again (only the latest counts), newest first

// A rerun without confirm recalls all five configs, the three confirmed by
// their new timings, and measures nothing.
// RUN: tuner-opt %s --tuner-autotune="strategy=random budget=5 database=%t.db" -o /dev/null 2>&1 | FileCheck %s --check-prefix=AGAIN
// AGAIN: 5 candidates (0 measured, 5 from the database)
// AGAIN-NOT: timed again

// The database's best applies.
// RUN: tuner-opt %s --tuner-apply-best="database=%t.db" 2>&1 | FileCheck %s --check-prefix=APPLY
// APPLY: remark: {{.*}}@add

// Confirming more than the search measured confirms what there is.
// RUN: tuner-opt %s --tuner-autotune="strategy=random budget=2 seed=7 confirm=5 database=none" -o /dev/null 2>&1 | FileCheck %s --check-prefix=FEW
// FEW: 2 candidates (2 measured, 0 from the database), 0 failed; 2 of the best timed again

func.func @add(%A: tensor<64x64xf32>, %B: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %e = tensor.empty() : tensor<64x64xf32>
  %r = linalg.add ins(%A, %B : tensor<64x64xf32>, tensor<64x64xf32>) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %r : tensor<64x64xf32>
}
