#!/bin/bash
# The default strategy (MCTS + shipped model, top 8 + 2 analytic seeds) on
# matmul_1021 (held out) and matmul (1024³) with BIN's tuner-opt (a copy of
# this branch's build/bin), 2 threads, every output checked, OpenBLAS beside.
# Run from the repository root:
#   benchmarks/results/2026-11-25-ragged3/tune.sh BIN WORK
set -eu
BIN=$1; WORK=$2
out=benchmarks/results/2026-11-25-ragged3
benchmarks/run.py --threads 2 --check --columns openblas --tuner-opt "$BIN/tuner-opt" \
    --work-dir "$WORK/heldout" --kernel-dir benchmarks/heldout/kernels \
    --reference-dir benchmarks/heldout/reference --kernels matmul_1021 \
    --out "$out/tuned-1021.md"
benchmarks/run.py --threads 2 --check --columns openblas --tuner-opt "$BIN/tuner-opt" \
    --work-dir "$WORK/suite" --kernels matmul --out "$out/tuned-1024.md"
