// --tuner-apply-best applies a record only to the space it was made in: a
// record carries its space's fingerprint, and one made with other space
// options is refused. Records without a fingerprint (database schema 1) are
// taken when their config reads in the space.
// RUN: rm -f %t.db %t.db-wal %t.db-shm
// A one-candidate run records the workload, this machine and the space of
// the default options.
// RUN: tuner-opt %s --tuner-autotune="budget=1 database=%t.db" -o /dev/null 2>/dev/null
// RUN: tuner-db --db %t.db export > %t.export.jsonl
// RUN: FileCheck %s --check-prefix=RECORDED < %t.export.jsonl
// RECORDED: "kind":"measurement",{{.*}}"schedule":"// Schedule of @mm{{.*}}transform.named_sequence{{.*}}","space_fingerprint":"[[SPACE:[0-9a-f]{16}]]"

// A better record of that space (default options).
// RUN: %python %S/Inputs/add-record.py %t.export.jsonl '{"matmul_1.tile.l0": 8, "matmul_1.tile.l1": 4}' 7.5 > %t.best.jsonl
// RUN: rm -f %t.a.db %t.a.db-wal %t.a.db-shm
// RUN: cat %t.export.jsonl %t.best.jsonl > %t.a.jsonl
// RUN: tuner-db --db %t.a.db import %t.a.jsonl
// RUN: tuner-opt %s --tuner-apply-best="database=%t.a.db" 2>&1 | FileCheck %s --check-prefix=SAME
// SAME: remark: applied the best recorded schedule of @mm (7.50x
// SAME: linalg.matmul {{.*}} -> tensor<8x4xf32>

// The same records, the space built without vectorization: refused, the
// module left as it was (nothing printed), the exit status non-zero.
// RUN: not tuner-opt %s --tuner-apply-best="database=%t.a.db vectorize=false" 2>%t.changed.err | count 0
// RUN: cat %t.export.jsonl %t.changed.err | FileCheck %s --check-prefix=CHANGED
// CHANGED: "space_fingerprint":"[[OLD:[0-9a-f]{16}]]"
// CHANGED: error: no tuning record of @mm on this machine was made in the space it has now: the space changed (other space options, or another version of the tuner): its {{[12]}} verified record{{s? were| was}} made in space [[OLD]], the space is now [[NOW:[0-9a-f]{16}]]; use the space options it was tuned with, or tune it again
// CHANGED-NOT: applied

// A record without a fingerprint whose config reads in the new space is
// taken, although a better one of the old space is there.
// RUN: %python %S/Inputs/add-record.py %t.export.jsonl '{"matmul_1.tile.l0": 4, "matmul_1.tile.l1": 2}' 5 none 1e9ac > %t.legacy.jsonl
// RUN: rm -f %t.b.db %t.b.db-wal %t.b.db-shm
// RUN: cat %t.a.jsonl %t.legacy.jsonl > %t.b.jsonl
// RUN: tuner-db --db %t.b.db import %t.b.jsonl
// RUN: tuner-opt %s --tuner-apply-best="database=%t.b.db vectorize=false" 2>&1 | FileCheck %s --check-prefix=LEGACY
// LEGACY: remark: applied the best recorded schedule of @mm (5.00x
// LEGACY: linalg.matmul {{.*}} -> tensor<4x2xf32>

// One whose config does not read in the new space is not taken either.
// RUN: %python %S/Inputs/add-record.py %t.export.jsonl '{"matmul_1.vectorize": true}' 5 none 1e9ad > %t.unread.jsonl
// RUN: rm -f %t.c.db %t.c.db-wal %t.c.db-shm
// RUN: cat %t.a.jsonl %t.unread.jsonl > %t.c.jsonl
// RUN: tuner-db --db %t.c.db import %t.c.jsonl
// RUN: not tuner-opt %s --tuner-apply-best="database=%t.c.db vectorize=false" 2>&1 | FileCheck %s --check-prefix=UNREAD
// UNREAD: error: no tuning record of @mm {{.*}} the space changed {{.*}}; the best record without a space fingerprint has a config that does not fit this function's space (was it tuned with other space options?): {{.*}}matmul_1.vectorize

func.func @mm(%A: tensor<16x16xf32>, %B: tensor<16x16xf32>) -> tensor<16x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<16x16xf32>) -> tensor<16x16xf32>
  %m = linalg.matmul ins(%A, %B : tensor<16x16xf32>, tensor<16x16xf32>) outs(%f : tensor<16x16xf32>) -> tensor<16x16xf32>
  return %m : tensor<16x16xf32>
}
