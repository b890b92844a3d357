#!/usr/bin/env bash
# Session 8's side-by-side run of the kernels issue 13's seeds touched, after
# merging convseeds, blas, colpartial and batchinfer (main at the commit in
# suite.md's header), on the 2-core AMD EPYC VM (Zen4, AVX-512) with nothing
# else running: the default strategy (MCTS + shipped model, top 8 + 2 seeds)
# at 2 threads, every peer in the same run, every output checked.
set -euo pipefail
cd "$(dirname "$0")/../../.."
out=benchmarks/results/2026-11-25-session8
work=${WORK:-/tmp/bench8}
benchmarks/run.py --threads 2 --check --work-dir "$work/suite" \
    --kernels matmul,2mm,conv_relu,convolution,box_blur,heat3d,heat2d,cvtcolor \
    --out "$out/suite.md"
benchmarks/run.py --threads 2 --check --work-dir "$work/heldout" \
    --kernel-dir benchmarks/heldout/kernels --reference-dir benchmarks/heldout/reference \
    --kernels matmul_1021,matmul_1000,conv1x1,blur1d --out "$out/heldout.md"
# The rest of the suite, right after (same binary, same quiet VM).
benchmarks/run.py --threads 2 --check --work-dir "$work/rest" \
    --kernels doitgen,mvt,jacobi2d,seidel2d --out "$out/rest.md"
