#!/bin/bash
# Side by side: the binaries of before and after the seeds, alternating per
# kernel, default strategy (mcts, shipped model, top-k 8), fresh database.
OUT=/tmp/ragged/cmp
cd /work/wt-ragged
for K in heldout/kernels/matmul_1021 heldout/kernels/matmul_1000 kernels/matmul heldout/kernels/batch_matmul; do
  n=$(basename $K)
  for V in before after; do
    rm -f $OUT/$n.$V.db*
    /usr/bin/time -f "$n $V wall %e s" /tmp/ragged/$V/tuner-opt benchmarks/$K.mlir "--tuner-autotune=database=$OUT/$n.$V.db summary-output=$OUT/$n.$V.json timeout=150" -o /dev/null 2>&1 | tr -d '\0' | grep -a "remark\|wall"
    echo "$(date +%T) load $(cut -d' ' -f1-3 /proc/loadavg)"
  done
done
echo finished
