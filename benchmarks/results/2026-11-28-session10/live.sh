#!/bin/sh
# Issue 14's live comparison on the quiet 2-core Zen 5 VM: every strategy
# tunes each kernel by measurement in one run (one seed), each over its own
# run's baseline. Binaries copied from build/bin so that nothing rebuilt
# them during the run. Run from the repository root.
set -e
mkdir -p /tmp/live-bin && cp -r build/bin /tmp/live-bin/
python3 benchmarks/strategies/live.py --tuner-opt /tmp/live-bin/bin/tuner-opt \
  --kernels doitgen,box_blur,heat3d,convolution --work-dir /tmp/live-session10 \
  --retime 5 --out benchmarks/results/2026-11-28-session10/live.md \
  random:128 bo:32 "bo:32:seeds=0" "mcts:32:top-k=30" "bo:32:seeds=0 strategy-options=model-prior=false"
