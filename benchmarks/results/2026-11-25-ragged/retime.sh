#!/bin/bash
# The schedules each run chose (before/after the seeds), re-timed side by
# side: 3 rounds, each timing every size's before and after schedule in turn
# (tuner-measure, the tuned module as its own baseline, 7 repetitions).
cd /tmp/ragged/final
for round in 1 2 3; do
  for k in matmul_1021 matmul_1000 matmul; do
    for v in before after; do
      line=$(/work/wt-ragged/build/bin/tuner-measure --function=$k --repetitions=7 --timeout=150 $k.$v.mlir 2>&1 | grep "(baseline)")
      echo "round $round $k $v $line load $(cut -d' ' -f1 /proc/loadavg)"
    done
  done
done
