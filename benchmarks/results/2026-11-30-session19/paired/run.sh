#!/bin/bash
# Label noise with the baseline timed beside the candidates (session 19).
# Back-to-back tuner-gen runs of seed 2029's first 20 programs (12 configs
# each, the recorded dataset's options, as session 18's rounds/run.sh),
# alternating --paired-baseline=false and true, on the quiet 2-core Zen 5 VM
# with nothing else running. Each argument is NAME:ROUNDS:PAIRED.
# Run 2026-11-30 00:20-01:09 UTC by main at 80f11a9:
#   run.sh p1:2:true u1:2:false p2:2:true u2:2:false p3:2:true u3:2:false
#   run.sh p4:2:true u4:2:false p5:2:true u5:2:false     # into $WORK
#   run.sh q1:1:true p6:2:true q2:1:true p7:2:true q3:1:true p8:2:true
#                                                   # 01:44-02:09 UTC
#   ../../2026-11-29-session18/rounds/pairs.py $WORK \
#     "2 rounds, unpaired=u1,u2,u3,u4,u5" \
#     "2 rounds, paired (default)=p1,p2,p3,p4,p5" "1 round, paired=q1,q2,q3" \
#     "2 rounds, paired, second hour=p6,p7,p8" \
#     "2 rounds, paired, all eight=p1,p2,p3,p4,p5,p6,p7,p8" > pairs.md
# (pairs.py reads run.out and compares the runs of a group pairwise with
# python/measurement_noise.py.) The runs' folders and logs: runs.tar.xz.
set -euo pipefail
WORK=${WORK:-/tmp/paired}
BIN=${BIN:-$(cd "$(dirname "$0")/../../../.." && pwd)/build/bin}
mkdir -p "$WORK"
cd "$WORK"
for run in "$@"; do
  IFS=: read -r name r paired <<< "$run"
  rm -rf "$name"
  start=$(date +%s.%N)
  "$BIN/tuner-gen" -o "$name" --programs 20 --configs-per-program 12 --seed 2029 \
    --flavour both --max-elements 2097152 --max-work 33554432 --min-time 0.01 \
    --patterns all --rounds "$r" --paired-baseline="$paired" > "$name.log" 2>&1
  echo "$name rounds=$r $(date -u +%H:%M:%S) $(echo "$(date +%s.%N) - $start" | bc) s" | tee -a run.out
done
