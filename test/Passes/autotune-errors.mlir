// Impossible options and unusable databases get a diagnostic and a non-zero
// exit; a file that is not a tuning database is never overwritten.
// RUN: not tuner-opt %s --tuner-autotune="strategy=simplex database=none" 2>&1 | FileCheck %s --check-prefix=STRATEGY
// RUN: not tuner-opt %s --tuner-autotune="budget=0 database=none" 2>&1 | FileCheck %s --check-prefix=UNBOUNDED
// RUN: not tuner-opt %s --tuner-autotune="repetitions=3 database=none" 2>&1 | FileCheck %s --check-prefix=REPETITIONS
// RUN: not tuner-opt %s --tuner-autotune="timeout=0 database=none" 2>&1 | FileCheck %s --check-prefix=TIMEOUT
// RUN: not tuner-opt %s --tuner-autotune="compile-timeout=-1 database=none" 2>&1 | FileCheck %s --check-prefix=COMPILE-TIMEOUT
// RUN: not tuner-opt %s --tuner-autotune="strategy=bo strategy-options=acquisition=ucb database=none" 2>&1 | FileCheck %s --check-prefix=SETTING
// RUN: not tuner-opt %s --tuner-autotune="strategy=bo strategy-options=initial=4,trees=9 database=none" 2>&1 | FileCheck %s --check-prefix=SETTING-KEY
// RUN: not tuner-opt %s --tuner-autotune="strategy=random strategy-options=initial=4 database=none" 2>&1 | FileCheck %s --check-prefix=SETTING-NONE
// RUN: not tuner-opt %s --tuner-autotune="strategy=bo strategy-options=initial database=none" 2>&1 | FileCheck %s --check-prefix=SETTING-FORM
// RUN: not tuner-opt %s --tuner-autotune="model-correction=finetune database=none" 2>&1 | FileCheck %s --check-prefix=CORRECTION
// RUN: printf 'not a database, but precious data\n' > %t.notdb
// RUN: cp %t.notdb %t.notdb.orig
// RUN: not tuner-opt %s --tuner-autotune="database=%t.notdb" 2>&1 | FileCheck %s --check-prefix=CORRUPT
// RUN: cmp %t.notdb %t.notdb.orig
// RUN: not tuner-opt %s --tuner-apply-best="database=%t.notdb" 2>&1 | FileCheck %s --check-prefix=CORRUPT
// RUN: cmp %t.notdb %t.notdb.orig
// RUN: not tuner-opt %s --tuner-apply-best="database=%t.does-not-exist.db" 2>&1 | FileCheck %s --check-prefix=MISSING

// STRATEGY: error: unknown strategy 'simplex' (known: random, exhaustive, beam, beam-exec, mcts, bo, evolution, annealing, genetic, portfolio)
// UNBOUNDED: error: the search needs a limit: set 'budget' (candidates) or 'time-budget' (seconds)
// REPETITIONS: error: 'repetitions' must be at least 5 (got 3)
// TIMEOUT: error: 'timeout' must be positive (got 0)
// COMPILE-TIMEOUT: error: 'compile-timeout' must be positive (got -1)
// CORRECTION: error: 'model-correction' must be none, gp, adapt or adapt+gp (got 'finetune')
// SETTING: error: 'strategy-options': strategy 'bo': setting 'acquisition=ucb': expected one of ei, poi, lcb, multi, advanced-multi
// SETTING-KEY: error: 'strategy-options': strategy 'bo' has no setting 'trees' (known: initial, acquisition, exploration, {{.*}})
// SETTING-NONE: error: 'strategy-options': strategy 'random' has no settings (got 'initial')
// SETTING-FORM: error: 'strategy-options': strategy setting 'initial' is not of the form key=value
// CORRUPT: error: cannot open the tuning database: {{.*}}notdb{{.*}}
// MISSING: error: cannot open the tuning database: {{.*}}does-not-exist.db

func.func @scale(%a: memref<64xf32>) {
  %c = arith.constant 2.0 : f32
  linalg.fill ins(%c : f32) outs(%a : memref<64xf32>)
  return
}
