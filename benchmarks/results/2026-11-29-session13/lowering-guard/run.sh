#!/bin/bash
# The slow candidate of seed 2029's outlier (session 12, gen-outlier/),
# applied and lowered to the LLVM dialect by the tuner-opt before the
# guard (OLD, commit 4d7a290) and after (NEW), one after the other; the old
# lowering is cut at 120 s. Then the program generated again alone by the
# new tuner-gen (the dataset minus its lines, resumed), as in session 12.
#   OLD=/path/to/old/bin NEW=build/bin benchmarks/results/2026-11-29-session13/lowering-guard/run.sh
set -u
R=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$R/../../../.." && pwd)
OLD=$(cd "${OLD:?old bin folder}" && pwd) NEW=$(cd "${NEW:-$REPO/build/bin}" && pwd)
W=$(mktemp -d)
cd "$W"
tar -xJf "$REPO/data/2026-11-29-znver5-2c/dataset.tar.xz"
python3 - <<'PY'
import json
for l in open('dataset/programs-s0-of-1.jsonl'):
    d = json.loads(l)
    if d['id'] == 's2029-p000163':
        open('prog.mlir', 'w').write(d['mlir'])
PY
CONFIG=$REPO/benchmarks/results/2026-11-29-session12/gen-outlier/slow-config.json
for which in OLD NEW; do
  bin=${!which}
  "$bin/tuner-opt" prog.mlir --tuner-apply=config=$CONFIG -o $which.mlir
  echo "$which: largest vectors after the schedule:"
  grep -o 'vector<[0-9x]*xf32>' $which.mlir | sort | uniq -c | sort -rn | head -3
  start=$(date +%s.%N)
  timeout 120 "$bin/tuner-opt" $which.mlir --tuner-lower-cpu -o $which-llvm.mlir
  rc=$?
  end=$(date +%s.%N)
  echo "$which: lowering exit $rc in $(echo "$end - $start" | bc) s, $(cat $which-llvm.mlir 2>/dev/null | wc -l) lines"
done
for f in dataset/*.jsonl; do grep -v 's2029-p000163' $f > $f.tmp; mv $f.tmp $f; done
"$NEW/tuner-gen" -o dataset --programs 164 --configs-per-program 12 --seed 2029 --flavour both \
  --max-elements 2097152 --max-work 33554432 --min-time 0.01 --patterns all 2>&1 | grep -v ': complete$'
rm -rf "$W"
