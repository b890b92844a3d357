#!/usr/bin/env bash
# Re-times the tuned modules that sidebyside.sh's round 1 chose (old: main
# at 69cc05b, new: branch blas; each run's best, applied by the autotune
# pass) side by side with OpenBLAS, in alternating rounds: tuner-measure
# with the old module as the baseline (the new one verified against it),
# then the same calls with cblas_sgemm (sgemm.c: 2mm as
# benchmarks/reference/2mm.c calls it, and one 1024^3 sgemm); the held-out
# batch_matmul and matmul_tn old against new.
# Usage: retime.sh ROUNDS   (binaries and work dirs as in sidebyside.sh)
set -u
rounds=${1:-3}
here=$(cd "$(dirname "$0")" && pwd)
work=${WORK:-/tmp/blas/work}
measure=/tmp/blas/newbin/tuner-measure
export OMP_NUM_THREADS=2 OPENBLAS_NUM_THREADS=2
for round in $(seq 1 "$rounds"); do
  echo "== round $round $(date -u +%H:%M:%S) load $(cat /proc/loadavg)"
  for kernel in 2mm matmul; do
    fn=$([ $kernel = 2mm ] && echo mm2 || echo matmul)
    $measure "$work/old-suite-1/$kernel/t2/tuned.mlir" \
      "$work/new-suite-1/$kernel/t2/tuned.mlir" --function "$fn" --openmp \
      --jobs 1 --repetitions 9 2>&1 | tail -2
    if [ $kernel = 2mm ]; then /tmp/blas/sgemm 2mm
    else /tmp/blas/sgemm 1024 1024 1024; fi
  done
  # The held-out contractions: old against new only (OpenBLAS: the tables).
  for kernel in batch_matmul matmul_tn; do
    [ -f "$work/new-heldout-1/$kernel/t2/tuned.mlir" ] || continue
    $measure "$work/old-heldout-1/$kernel/t2/tuned.mlir" \
      "$work/new-heldout-1/$kernel/t2/tuned.mlir" --function "$kernel" \
      --openmp --jobs 1 --repetitions 9 2>&1 | tail -2
  done
done
echo "== end $(date -u +%H:%M:%S) load $(cat /proc/loadavg)"
