#!/bin/sh
# Issue 14's remaining goal, model-informed bo against mcts at equal
# measurements, on the quiet 2-core Zen 5 VM: bo with its new default on an
# MLIR function's space (the initial design and every candidate pool take
# the cost model's best schedules by tree search), bo with a uniform design
# (the model's list still in its pools), and mcts measuring its top 30 (plus
# the two seeds both get). One run per seed given as $1 (default 1).
# Binaries copied from build/bin so that nothing rebuilt them during the
# run. Run from the repository root.
set -e
seed=${1:-1}
mkdir -p /tmp/live-bin && cp -r build/bin /tmp/live-bin/
python3 benchmarks/strategies/live.py --tuner-opt /tmp/live-bin/bin/tuner-opt \
  --kernels doitgen,box_blur,heat3d,convolution --work-dir /tmp/live-session11-$seed \
  --seed $seed --retime 5 --out benchmarks/results/2026-11-29-session11/live-seed$seed.md \
  bo:32 "bo:32:strategy-options=initial-design=uniform" "mcts:32:top-k=30"
