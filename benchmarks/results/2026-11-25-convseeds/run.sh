#!/usr/bin/env bash
# The default strategy (MCTS guided by the shipped model: its top 8 plus the
# analytic seeds) on the convolutions, stencils and the held-out blur1d and
# conv1x1, old binary (main, 69cc05b) against new (branch convseeds),
# alternating per kernel, ROUNDS rounds. Each run is
#   tuner-opt K.mlir --tuner-autotune="database=none summary-output=S"
# (a fresh search, no database), its remark and summary kept.
# Usage: run.sh OLD_BIN NEW_BIN ROUNDS KERNEL...
set -u
old=$1 new=$2 rounds=$3
shift 3
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../../.." && pwd)
export OMP_NUM_THREADS=2
for round in $(seq 1 "$rounds"); do
  for kernel in "$@"; do
    file=$repo/benchmarks/kernels/$kernel.mlir
    [ -f "$file" ] || file=$repo/benchmarks/heldout/kernels/$kernel.mlir
    for variant in old new; do
      bin=$old
      [ $variant = new ] && bin=$new
      tag=$kernel.$variant.r$round
      echo "== $tag $(date -u +%H:%M:%S) load $(cut -d' ' -f1-3 /proc/loadavg)"
      "$bin/tuner-opt" "$file" \
        --tuner-autotune="database=none summary-output=$here/logs/$tag.json" \
        -o /dev/null 2>&1 | tr '\r' '\n' | grep -v '^autotune @' |
        tee "$here/logs/$tag.log"
    done
  done
done
