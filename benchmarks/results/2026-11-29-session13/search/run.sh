#!/bin/bash
# Issue 15's search goal: MCTS with its default top-k (8), and BSM / BSM+exec,
# against BSE measuring every node of its tree (budget 5000, beam width 4),
# on six suite kernels and four held-out kernels (benchmarks/heldout,
# written in issue 13), the shipped model. The smallest trees first; a run
# cut short resumes (--resume) and the last calls write the tables.
#   TUNER_OPT=/tmp/cmp-bin/tuner-opt benchmarks/results/2026-11-29-session13/search/run.sh
set -eu
R=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$R/../../../.." && pwd)
cd "$REPO"
T=${TUNER_OPT:-build/bin/tuner-opt}
W=${WORK:-build/benchmarks/search-s13}
C="benchmarks/compare_search.py --tuner-opt $T --beam-width 4 --bse-budget 5000 --top-k 8 --strategies BSM BSM+exec MCTS --resume"
H="--kernel-dir benchmarks/heldout/kernels --work-dir $W/heldout"
S="--work-dir $W/suite"
python3 $C $H --kernels blur1d rowsumsq vecmat > /dev/null
python3 $C $S --kernels jacobi2d seidel2d heat2d cvtcolor mvt > /dev/null
python3 $C $S --kernels jacobi2d seidel2d heat2d cvtcolor mvt heat3d --out "$R/suite.md"
python3 $C $H --kernels blur1d rowsumsq vecmat --out "$R/heldout.md"
# matmul_tn's tree (1483 schedules) takes BSE about 70 minutes at 2.8 s a
# measurement: within the session's time, BSE is capped at 250 measurements.
python3 ${C/--bse-budget 5000/--bse-budget 250} $H --kernels matmul_tn --out "$R/heldout-matmul_tn-capped.md"
