// --tuner-import-table records a replay table in the tuning database as
// --tuner-autotune on this machine keys its own records, so that an autotune
// run on the same space recalls every config and measures only the baseline.
// The table: the 6 configs of the autotune-space test's narrowed space, the
// fourth failed, the last the fastest (0.1 ms).
// RUN: tuner-opt %s --tuner-extract-space="output=%t.space.json target=%S/../Space/Inputs/avx512-4core.json register-tile=false interchange=false parallelize=false fuse=false max-tile-candidates=2" -o /dev/null
// RUN: echo '{"fill_0.tile.l0": "*", "fill_0.unroll": [1, 2], "fill_0.vectorize": [false, true]}' > %t.spec.json
// RUN: %python %src_root/benchmarks/strategies/narrow.py %t.space.json %t.spec.json -o %t.narrow.json
// RUN: tuner-search --space %t.narrow.json --enumerate > %t.configs.jsonl
// RUN: %python -c "import json, sys; rows = [json.loads(l) for l in open(sys.argv[1])]; print('\n'.join(json.dumps({'config': c, 'status': 'compile_failed' if i == 3 else 'ok', 'time': None if i == 3 else 1e-3 / (i + 1) if i < 5 else 1e-4}) for i, c in enumerate(rows)))" %t.configs.jsonl > %t.table.jsonl
// RUN: rm -f %t.db %t.bad.db
// RUN: tuner-opt %s --tuner-import-table="table=%t.table.jsonl space=%t.narrow.json database=%t.db target=%S/../Space/Inputs/avx512-4core.json register-tile=false interchange=false parallelize=false fuse=false max-tile-candidates=2" -o /dev/null 2>&1 | FileCheck %s --check-prefix=IMPORT
// RUN: tuner-opt %s --tuner-import-table="table=%t.table.jsonl space=%t.narrow.json database=%t.db target=%S/../Space/Inputs/avx512-4core.json register-tile=false interchange=false parallelize=false fuse=false max-tile-candidates=2" -o /dev/null 2>&1 | FileCheck %s --check-prefix=AGAIN
// RUN: tuner-opt %s --tuner-autotune="space=%t.narrow.json strategy=exhaustive budget=100 database=%t.db target=%S/../Space/Inputs/avx512-4core.json register-tile=false interchange=false parallelize=false fuse=false max-tile-candidates=2 summary-output=%t.json" -o /dev/null 2>&1 | FileCheck %s
// RUN: FileCheck %s --check-prefix=SUMMARY < %t.json
// RUN: tuner-db --db=%t.db export | FileCheck %s --check-prefix=EXPORT
//
// Rows that do not read are refused, naming the table and the line, and
// nothing is recorded.
// RUN: %python -c "import sys; lines = open(sys.argv[1]).read().splitlines(); lines[1] = lines[1].replace('\"ok\"', '\"fast\"'); print('\n'.join(lines))" %t.table.jsonl > %t.status.jsonl
// RUN: not tuner-opt %s --tuner-import-table="table=%t.status.jsonl space=%t.narrow.json database=%t.bad.db target=%S/../Space/Inputs/avx512-4core.json register-tile=false interchange=false parallelize=false fuse=false max-tile-candidates=2" -o /dev/null 2>&1 | FileCheck %s --check-prefix=STATUS
// RUN: %python -c "import sys; lines = open(sys.argv[1]).read().splitlines(); lines[2] = lines[2].replace('\"fill_0.unroll\": 2', '\"fill_0.unroll\": 8'); print('\n'.join(lines))" %t.table.jsonl > %t.domain.jsonl
// RUN: not tuner-opt %s --tuner-import-table="table=%t.domain.jsonl space=%t.narrow.json database=%t.bad.db target=%S/../Space/Inputs/avx512-4core.json register-tile=false interchange=false parallelize=false fuse=false max-tile-candidates=2" -o /dev/null 2>&1 | FileCheck %s --check-prefix=DOMAIN
// RUN: %python -c "import sys; lines = open(sys.argv[1]).read().splitlines(); lines[0] = lines[0].replace('\"time\": 0.001', '\"time\": null'); print('\n'.join(lines))" %t.table.jsonl > %t.notime.jsonl
// RUN: not tuner-opt %s --tuner-import-table="table=%t.notime.jsonl space=%t.narrow.json database=%t.bad.db target=%S/../Space/Inputs/avx512-4core.json register-tile=false interchange=false parallelize=false fuse=false max-tile-candidates=2" -o /dev/null 2>&1 | FileCheck %s --check-prefix=NOTIME
// RUN: not tuner-db --db=%t.bad.db check 2>&1 | FileCheck %s --check-prefix=NODB
// RUN: not tuner-opt %s --tuner-import-table="table=%t.table.jsonl.xz database=%t.bad.db" -o /dev/null 2>&1 | FileCheck %s --check-prefix=XZ
// RUN: not tuner-opt %s --tuner-import-table="database=%t.bad.db" -o /dev/null 2>&1 | FileCheck %s --check-prefix=NOTABLE
// RUN: not tuner-opt %s --tuner-import-table="table=%t.missing.jsonl database=%t.bad.db" -o /dev/null 2>&1 | FileCheck %s --check-prefix=MISSING

// IMPORT: remark: import-table @scale: 6 records of '{{.*}}table.jsonl' imported into {{.*}}.db (0 already recorded in this space; workload [[WORKLOAD:[0-9a-f]+]], space [[SPACE:[0-9a-f]+]])
// AGAIN: remark: import-table @scale: 0 records of '{{.*}}table.jsonl' imported into {{.*}}.db (6 already recorded in this space;
// CHECK: remark: autotune @scale: {{.*}}, best 100.000 us ({{.*}}); 6 candidates (0 measured, 6 from the database), 1 failed (1 compile_failed)
// SUMMARY: "cached": 6,
// SUMMARY: "evaluated": 0,
// EXPORT: "function":"scale"
// EXPORT-COUNT-3: "median_s":{{[0-9.]+}},"message":"{{.*}}table.jsonl:{{[1-3]}}",{{.*}}"speedup":null,"status":"ok","strategy":"table"
// EXPORT: "median_s":null,"message":"{{.*}}table.jsonl:4",{{.*}}"status":"compile_failed","strategy":"table"
// EXPORT-COUNT-2: "status":"ok","strategy":"table"
// EXPORT-NOT: "kind"
// STATUS: status.jsonl:2: unknown status 'fast'
// DOMAIN: domain.jsonl:3: the config is not of the space: {{.*}}fill_0.unroll
// NOTIME: notime.jsonl:1: an 'ok' row needs its "time"
// NODB: error: {{.*}}bad.db
// XZ: error: the table '{{.*}}table.jsonl.xz' is compressed: decompress it first (xz -dk)
// NOTABLE: error: the 'table' option is required
// MISSING: error: cannot read the table '{{.*}}missing.jsonl'

func.func @scale(%a: memref<256xf32>) {
  %c = arith.constant 2.0 : f32
  linalg.fill ins(%c : f32) outs(%a : memref<256xf32>)
  return
}
