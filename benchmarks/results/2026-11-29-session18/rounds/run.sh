#!/bin/bash
# Label noise with and without timing rounds (session 18).
# Back-to-back tuner-gen runs of seed 2029's first 20 programs (12 configs
# each, the recorded dataset's options), alternating --rounds 1 and 2, on
# the quiet 2-core Zen 5 VM with nothing else running. Runs a-c were made
# first (20:52-21:19 UTC; --rounds 2 there calibrated every round's calls),
# runs d-e by main at a1644a0 (later rounds reuse the first's calls), both
# timing the rounds in one harness process; runs f-h (22:08-22:22) by main
# at 9d6625a, each round in a harness process of its own (the default).
# The runs' folders, logs and run.out are in runs.tar.xz.
#   run.sh f2:2 g2:2 h2:2 ...      # the runs, into $WORK (default /tmp/rounds)
#   ./pairs.py $WORK "1 round=a1,b1,c1,d1,e1" \
#     "2 rounds in one process=a2,b2,c2,d2,e2" \
#     "2 rounds, a process each=f2,g2,h2" > pairs.md
set -euo pipefail
WORK=${WORK:-/tmp/rounds}
BIN=${BIN:-$(cd "$(dirname "$0")/../../../.." && pwd)/build/bin}
mkdir -p "$WORK"
cd "$WORK"
for run in "$@"; do
  name=${run%%:*}; r=${run##*:}
  rm -rf "$name"
  start=$(date +%s.%N)
  "$BIN/tuner-gen" -o "$name" --programs 20 --configs-per-program 12 --seed 2029 \
    --flavour both --max-elements 2097152 --max-work 33554432 --min-time 0.01 \
    --patterns all --rounds "$r" > "$name.log" 2>&1
  echo "$name rounds=$r $(date -u +%H:%M:%S) $(echo "$(date +%s.%N) - $start" | bc) s" | tee -a run.out
done
