#!/bin/bash
# Issue 15's search goal, continued from session 13 (its run.sh, options and
# searches): the execution step's corrections added beside plain MCTS
# (top-k 8) — MCTS+correction (the errors' Gaussian process), MCTS+adapt
# (the model adapted to the function) and MCTS+diverse — on the same six
# suite and three held-out kernels. Session 13's searches are unpacked and
# taken as they are (--resume); only the new strategies run.
#   benchmarks/results/2026-11-29-session14/search/run.sh
set -eu
R=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$R/../../../.." && pwd)
cd "$REPO"
T=${TUNER_OPT:-build/bin/tuner-opt}
W=${WORK:-build/benchmarks/search-s14}
if [ ! -d "$W/suite" ]; then
  mkdir -p "$W"
  tar -xJf benchmarks/results/2026-11-29-session13/search/searches.tar.xz -C "$W"
fi
C="benchmarks/compare_search.py --tuner-opt $T --beam-width 4 --bse-budget 5000 --top-k 8 --strategies BSM BSM+exec MCTS MCTS+correction MCTS+adapt MCTS+diverse --resume"
H="--kernel-dir benchmarks/heldout/kernels --work-dir $W/heldout"
S="--work-dir $W/suite"
python3 $C $S --kernels jacobi2d seidel2d heat2d cvtcolor mvt heat3d --out "$R/suite.md"
python3 $C $H --kernels blur1d rowsumsq vecmat --out "$R/heldout.md"
