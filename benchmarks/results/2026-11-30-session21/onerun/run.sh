#!/bin/bash
# Issue 15's search goal with the current build, the comparison in one run:
# MCTS with its defaults (top-k 8, the shipped model) searched again on the
# six suite kernels and the three held-out kernels with complete trees,
# against session 13's BSE (beam width 4, every node of its tree measured:
# 70 minutes of the suite's 77 are BSE, taken from its databases with
# --resume), and every search's best schedule timed again side by side with
# BSE's in the same run (compare_search.py --retime: one tuner-measure run
# per kernel, three rounds, the baseline timed in every harness process).
# ROUND=r1, r2, ...: each a run of its own (fresh MCTS searches; MCTS is
# seeded, so a round differs from another by the measurements only).
# Writes suite-$ROUND.md and heldout-$ROUND.md beside this script and the
# round's databases into $WORK/$ROUND.
# Run 2026-11-30 on the quiet 2-core Zen 5 VM by main at 15bc596 (code as
# at 772037b): ROUND=r1 ... r5, 07:23-07:49 UTC, one after the other; then
#   ./table.py r1 r2 r3 r4 r5 > table.md
# The rounds' MCTS databases, summaries and retimings: searches.tar.xz.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$HERE/../../../.." && pwd)
cd "$REPO"
WORK=${WORK:-/tmp/onerun}
ROUND=${ROUND:-r1}
W=$WORK/$ROUND
rm -rf "$W" && mkdir -p "$W"
tar xJf benchmarks/results/2026-11-29-session13/search/searches.tar.xz -C "$W"
# Session 13's MCTS searches are searched again; its BSE ones are resumed.
rm -f "$W"/suite/*-MCTS.* "$W"/heldout/*-MCTS.*
C=(python3 benchmarks/compare_search.py --tuner-opt "${TUNER_OPT:-build/bin/tuner-opt}"
   --beam-width 4 --bse-budget 5000 --top-k 8 --strategies MCTS --resume --retime)
echo "$ROUND suite $(date -u +%H:%M:%S)"
"${C[@]}" --work-dir "$W/suite" --out "$HERE/suite-$ROUND.md" \
    --kernels jacobi2d seidel2d heat2d cvtcolor mvt heat3d > /dev/null
echo "$ROUND held out $(date -u +%H:%M:%S)"
"${C[@]}" --kernel-dir benchmarks/heldout/kernels --work-dir "$W/heldout" \
    --out "$HERE/heldout-$ROUND.md" --kernels blur1d rowsumsq vecmat > /dev/null
echo "$ROUND done $(date -u +%H:%M:%S)"
