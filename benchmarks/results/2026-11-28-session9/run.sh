#!/usr/bin/env bash
# Session 9's side-by-side run of the whole suite and the held-out kernels
# on the 2-core AMD EPYC VM (Zen4, AVX-512) with nothing else running: the
# default strategy (MCTS + shipped model, top 8 + 2 seeds), every peer in the
# same run, every output checked; two threads (suite and held-out kernels),
# then one thread (the suite; HELDOUT_T1=1 adds the held-out kernels). TUNER_BIN
# may point at a copy of build/bin (so that a rebuild cannot disturb it).
set -euo pipefail
cd "$(dirname "$0")/../../.."
out=benchmarks/results/2026-11-28-session9
work=${WORK:-/tmp/bench9}
bin=${TUNER_BIN:-build/bin}
for threads in 2 1; do
  benchmarks/run.py --threads "$threads" --check --tuner-opt "$bin/tuner-opt" \
      --work-dir "$work/suite-t$threads" --out "$out/suite-t$threads.md"
  [ "$threads" = 2 ] || [ "${HELDOUT_T1:-0}" = 1 ] || continue
  benchmarks/run.py --threads "$threads" --check --tuner-opt "$bin/tuner-opt" \
      --work-dir "$work/heldout-t$threads" \
      --kernel-dir benchmarks/heldout/kernels \
      --reference-dir benchmarks/heldout/reference \
      --out "$out/heldout-t$threads.md"
done
