#!/usr/bin/env bash
# Side by side, in alternating rounds: the tuner of main before this branch
# (/work/main/build/bin, commit 23df81a) against this branch's (./build/bin),
# each tuning with the default strategy (MCTS + shipped model, top 8 + 2
# analytic seeds, budget 32) at 2 threads, Halide Adams2019 re-measured in
# every run, every output checked against the C reference. Then the held-out
# conv1x1 (no Halide generator) the same way. ROUNDS (default 3) rounds.
set -euo pipefail
cd "$(dirname "$0")/../../.."
out=benchmarks/results/2026-11-25-convhalide
work=${WORK:-/tmp/bench-convhalide}
old=${OLD:-/work/main/build/bin/tuner-opt}
new=${NEW:-$PWD/build/bin/tuner-opt}
for round in $(seq 1 "${ROUNDS:-3}"); do
  for variant in old new; do
    tool=$old
    [ "$variant" = new ] && tool=$new
    echo "== round $round $variant $(date -u +%H:%M:%S) load $(cut -d' ' -f1-3 /proc/loadavg)"
    benchmarks/run.py --tuner-opt "$tool" --threads 2 --check \
        --columns halide_adams2019 --work-dir "$work/r$round-$variant/suite" \
        --kernels convolution,conv_relu --out "$out/r$round-$variant.md"
    benchmarks/run.py --tuner-opt "$tool" --threads 2 --check \
        --columns halide_adams2019 --work-dir "$work/r$round-$variant/heldout" \
        --kernel-dir benchmarks/heldout/kernels \
        --reference-dir benchmarks/heldout/reference \
        --kernels conv1x1 --out "$out/r$round-$variant-heldout.md"
  done
done
