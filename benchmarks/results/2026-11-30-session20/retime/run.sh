#!/bin/bash
# The searches of sessions 13, 16 and 17 timed again side by side (session
# 20): for each kernel of issue 15's comparison (six suite kernels, three
# held-out ones with complete trees), the best schedule of session 13's BSE
# (beam-exec, every node measured) and of every MCTS search made since
# (top-k 8; models shipped, random, records with training seeds 1-3 and the
# pooled seeds; plain and diverse top k; three rounds each) applied from
# their databases and timed in one tuner-measure run per kernel (three
# rounds, the baseline timed in every process): benchmarks/retime.py.
# Writes KERNEL.json (retime.py --json) into $HERE/$OUT; table.py sums up.
# Run 2026-11-30 on the quiet Zen 5 VM by main at c5b7df3 (retime.py's
# file names sanitized), five times: OUT=first (04:07-04:10 UTC),
# OUT=second (04:11-04:14), OUT=third ROUNDS=5 (five rounds each;
# 04:15-04:20), OUT=fourth (05:06-05:09) and OUT=fifth (05:10-05:14), then
#   ./table.py first second third fourth fifth > table.md
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$HERE/../../../.." && pwd)
RESULTS=$REPO/benchmarks/results
WORK=${WORK:-/tmp/retime}
BIN=${BIN:-$REPO/build/bin}
OUT=${OUT:-first}
ROUNDS=${ROUNDS:-3}
mkdir -p "$HERE/$OUT"
rm -rf "$WORK" && mkdir -p "$WORK"/s13 "$WORK"/s16 "$WORK"/s17
tar xJf "$RESULTS/2026-11-29-session13/search/searches.tar.xz" -C "$WORK/s13"
tar xJf "$RESULTS/2026-11-29-session16/kernels/searches.tar.xz" -C "$WORK/s16"
tar xJf "$RESULTS/2026-11-29-session16/kernels/diverse-searches.tar.xz" -C "$WORK/s16"
tar xJf "$RESULTS/2026-11-29-session17/records-seeds/searches.tar.xz" -C "$WORK/s17"
tar xJf "$RESULTS/2026-11-29-session17/records-seeds/searches-pooled.tar.xz" -C "$WORK/s17"
for entry in suite:cvtcolor suite:heat2d suite:heat3d suite:jacobi2d suite:mvt \
             suite:seidel2d heldout:blur1d heldout:rowsumsq heldout:vecmat; do
  IFS=: read -r set kernel <<< "$entry"
  if [ "$set" = suite ]; then source=$REPO/benchmarks/kernels/$kernel.mlir
  else source=$REPO/benchmarks/heldout/kernels/$kernel.mlir; fi
  searches=("BSE=$WORK/s13/$set/$kernel-BSE.db" "MCTS/s13=$WORK/s13/$set/$kernel-MCTS.db")
  for r in 1 2 3; do
    for model in shipped random records; do
      searches+=("MCTS/$model/r$r=$WORK/s16/search-$model-r$r/$set/$kernel-MCTS.db")
    done
    for model in shipped records; do
      db=$WORK/s16/search-$model-r$r/$set/$kernel-MCTS-diverse.db
      [ -f "$db" ] && searches+=("MCTS+diverse/$model/r$r=$db")
    done
    for s in 1 2 3; do
      searches+=("MCTS/records-s$s/r$r=$WORK/s17/search-records-s$s-r$r/$set/$kernel-MCTS.db")
    done
    searches+=("MCTS/pooled/r$r=$WORK/s17/search-pooled-r$r/$set/$kernel-MCTS.db")
  done
  echo "$kernel: ${#searches[@]} searches $(date -u +%H:%M:%S)"
  /usr/bin/python3 "$REPO/benchmarks/retime.py" "$source" "${searches[@]}" \
    --bin "$BIN" --rounds "$ROUNDS" --work-dir "$WORK/applied" --json "$HERE/$OUT/$kernel.json" \
    > "$WORK/$kernel.out"
done
echo "done $(date -u +%H:%M:%S)"
