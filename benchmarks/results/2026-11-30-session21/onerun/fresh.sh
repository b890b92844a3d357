#!/bin/bash
# Issue 15's search goal on the three held-out kernels with complete trees,
# entirely in one run with the current build and measurement protocol (two
# harness rounds per measurement, the baseline timed in every process):
# BSE measuring every node of its tree (beam width 4, budget 5000) and MCTS
# with its defaults (top-k 8, the shipped model) searched afresh, then
# every search's best schedule timed again side by side
# (compare_search.py --retime). Unlike run.sh, nothing is taken from
# session 13, so the BSE/MCTS time ratio compares one protocol with itself.
# Writes heldout-fresh.md beside this script, databases into $WORK.
# Run 2026-11-30 07:49-08:04 UTC on the quiet 2-core Zen 5 VM, right after
# run.sh's five rounds; its work folder: fresh-searches.tar.xz.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$HERE/../../../.." && pwd)
cd "$REPO"
WORK=${WORK:-/tmp/onerun-fresh}
rm -rf "$WORK" && mkdir -p "$WORK"
echo "held out $(date -u +%H:%M:%S)"
python3 benchmarks/compare_search.py --tuner-opt "${TUNER_OPT:-build/bin/tuner-opt}" \
    --beam-width 4 --bse-budget 5000 --top-k 8 --strategies MCTS --retime \
    --kernel-dir benchmarks/heldout/kernels --work-dir "$WORK" \
    --out "$HERE/heldout-fresh.md" --kernels blur1d rowsumsq vecmat > /dev/null
echo "done $(date -u +%H:%M:%S)"
