#!/bin/bash
# The default strategy on matmul 1021³, 1000³, 1024³ and the held-out 1023³
# with one binary (BIN: a copy of build/bin made before the run), one kernel
# after the other, then the tuned modules re-timed side by side: 3 rounds,
# each timing every size in turn (tuner-measure, the tuned module as its own
# baseline, 7 repetitions), then the 1021³ and 1023³ schedules with their
# partial tiles peeled instead of padded (the same config, partial=peel,
# applied with tuner-apply) alternating with the padded ones.
# Run from the repository root: benchmarks/results/2026-11-25-ragged2/run.sh BIN OUT
set -eu
BIN=$1
OUT=${2:-/tmp/ragged2-run}
mkdir -p "$OUT"
R=benchmarks/results/2026-11-25-ragged2
kernels="benchmarks/heldout/kernels/matmul_1021 benchmarks/heldout/kernels/matmul_1000 benchmarks/kernels/matmul $R/matmul_1023"
for K in $kernels; do
  n=$(basename $K)
  echo "$(date +%T) load $(cut -d' ' -f1-3 /proc/loadavg) tuning $n"
  /usr/bin/time -f "$n wall %e s" $BIN/tuner-opt $K.mlir \
    "--tuner-autotune=database=none summary-output=$OUT/$n.json timeout=150" \
    -o "$OUT/$n.tuned.mlir" 2>&1 | tr -d '\0' | grep -a "remark\|wall"
done
# The chosen configs with partial=peel (where the parameter is offered).
for n in matmul_1021 matmul_1023; do
  python3 - "$OUT/$n.json" "$OUT/$n.peel.json" <<'PY'
import json, sys
config = json.load(open(sys.argv[1]))["best"]["config"]
print(sys.argv[1], {k: v for k, v in config.items() if k.startswith("matmul_1.")})
config = {k: ("peel" if k.endswith(".partial") else v) for k, v in config.items()}
json.dump(config, open(sys.argv[2], "w"))
PY
  K=$(echo $kernels | tr ' ' '\n' | grep "/$n$")
  $BIN/tuner-opt $K.mlir "--tuner-apply=function=$n config=$OUT/$n.peel.json" \
    -o "$OUT/$n.peel.mlir"
done
time_one() {
  line=$($BIN/tuner-measure --function=$1 --repetitions=7 --timeout=300 "$2" 2>&1 | grep "(baseline)" | sed 's/.*ok *//')
  echo "round $3 $1 $(basename $2) $line load $(cut -d' ' -f1 /proc/loadavg)"
}
for round in 1 2 3; do
  for K in $kernels; do
    n=$(basename $K)
    time_one $n "$OUT/$n.tuned.mlir" $round
  done
  for n in matmul_1021 matmul_1023; do
    time_one $n "$OUT/$n.peel.mlir" $round
  done
done
