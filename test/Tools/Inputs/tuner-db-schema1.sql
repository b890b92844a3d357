-- A tuning database of schema version 1, as the tuner of that version
-- created it (tuner-db-migrate.test).
CREATE TABLE meta(
  key TEXT PRIMARY KEY NOT NULL,
  value TEXT NOT NULL);
CREATE TABLE workloads(
  hash TEXT PRIMARY KEY NOT NULL,
  function_name TEXT NOT NULL,
  canonical_ir TEXT);
CREATE TABLE measurements(
  id INTEGER PRIMARY KEY,
  workload_hash TEXT NOT NULL REFERENCES workloads(hash),
  target TEXT NOT NULL,
  config TEXT NOT NULL,
  config_hash INTEGER NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('ok', 'apply_failed',
    'compile_failed', 'crashed', 'timeout', 'wrong_result')),
  min_seconds REAL,
  median_seconds REAL,
  max_seconds REAL,
  repetitions INTEGER NOT NULL,
  speedup REAL,
  baseline_median_seconds REAL,
  strategy TEXT NOT NULL,
  tool_version TEXT NOT NULL,
  timestamp INTEGER NOT NULL,
  message TEXT NOT NULL,
  UNIQUE(workload_hash, target, config_hash, strategy, timestamp));
INSERT INTO meta VALUES ('application', 'tuner'), ('schema_version', '1');
INSERT INTO workloads VALUES ('a1b2c3d4e5f60718', 'matmul',
  'func.func @matmul() {}');
INSERT INTO measurements VALUES (1, 'a1b2c3d4e5f60718',
  'cpu=test;features=+avx2;cores=2', '{"tile":[1,8]}', 1, 'ok', 0.45, 0.5,
  0.6, 5, 4.0, 2.0, 'random', '0.1.0', 1700000001, '');
INSERT INTO measurements VALUES (2, 'a1b2c3d4e5f60718',
  'cpu=test;features=+avx2;cores=2', '{"tile":[2,8]}', 2, 'compile_failed',
  NULL, NULL, NULL, 0, NULL, 2.0, 'random', '0.1.0', 1700000002,
  'error: failed');
INSERT INTO measurements VALUES (5, 'a1b2c3d4e5f60718',
  'cpu=test;features=+avx2;cores=2', '{"tile":[3,8]}', 3, 'ok', 0.2, 0.25,
  0.3, 5, 8.0, 2.0, 'random', '0.1.0', 1700000003, '');
CREATE INDEX measurements_by_strategy ON measurements(strategy);
