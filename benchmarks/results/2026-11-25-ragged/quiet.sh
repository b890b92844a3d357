#!/bin/bash
# The default strategy on matmul 1021³, 1000³ and 1024³ with one binary
# (the repository's build/bin), one kernel after the other, then the three
# tuned modules re-timed side by side: 3 rounds, each timing every size in
# turn (tuner-measure, the tuned module as its own baseline, 7 repetitions).
# Run from the repository root: benchmarks/results/2026-11-25-ragged/quiet.sh OUT
set -eu
OUT=${1:-/tmp/ragged-quiet}
mkdir -p "$OUT"
kernels="heldout/kernels/matmul_1021 heldout/kernels/matmul_1000 kernels/matmul"
for K in $kernels; do
  n=$(basename $K)
  rm -f "$OUT/$n.db"*
  /usr/bin/time -f "$n wall %e s" build/bin/tuner-opt benchmarks/$K.mlir \
    "--tuner-autotune=database=$OUT/$n.db summary-output=$OUT/$n.json timeout=150" \
    -o "$OUT/$n.tuned.mlir" 2>&1 | tr -d '\0' | grep -a "remark\|wall"
  echo "$(date +%T) load $(cut -d' ' -f1-3 /proc/loadavg)"
done
for round in 1 2 3; do
  for K in $kernels; do
    n=$(basename $K)
    line=$(build/bin/tuner-measure --function=$n --repetitions=7 --timeout=150 \
      "$OUT/$n.tuned.mlir" 2>&1 | grep "(baseline)")
    echo "round $round $n $line load $(cut -d' ' -f1 /proc/loadavg)"
  done
done
