#!/bin/bash
# Chain-of-Trees without hopeless enumerations: the space of every program of
# seed 2029 (data/2026-11-29-znver5-2c) and of the benchmark kernels,
# extracted by the tuner before (OLD) and after (NEW): identical files, and
# the time and peak memory of each; then 10 programs of that run generated
# again by each tuner-gen, alternated (OLD, NEW, OLD, NEW).
# (each bin folder with tuner-opt, tuner-gen and tuner-gen's harness, tuner-run)
#   OLD=/path/to/old/bin NEW=build/bin benchmarks/results/2026-11-29-session14/space-prediction/run.sh
# PART=spaces or PART=gen runs only one half.
set -u
R=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$R/../../../.." && pwd)
OLD=$(cd "${OLD:?old bin folder}" && pwd) NEW=$(cd "${NEW:-$REPO/build/bin}" && pwd)
W=$(mktemp -d)
cd "$W"
tar -xJf "$REPO/data/2026-11-29-znver5-2c/dataset.tar.xz"
mkdir kernels
python3 - <<'PY'
import json
for l in open('dataset/programs-s0-of-1.jsonl'):
    d = json.loads(l)
    open('kernels/' + d['id'] + '.mlir', 'w').write(d['mlir'])
PY
cp "$REPO"/benchmarks/kernels/*.mlir kernels/
PART=${PART:-all}
[ "$PART" = gen ] || echo "kernel old_s old_kb new_s new_kb output"
for f in kernels/*.mlir; do
  [ "$PART" = gen ] && break
  b=$(basename $f .mlir)
  for which in OLD NEW; do
    bin=${!which}
    /usr/bin/time -f "%e %M" -o $which.time "$bin/tuner-opt" $f \
      --tuner-extract-space=output=$b.$which.json -o /dev/null 2>/dev/null
  done
  same=identical; cmp -s $b.OLD.json $b.NEW.json || same=DIFFERENT
  echo "$b $(cat OLD.time) $(cat NEW.time) $same"
done
IDS="s2029-p000012 s2029-p000014 s2029-p000018 s2029-p000024 s2029-p000038 s2029-p000082 s2029-p000093 s2029-p000101 s2029-p000137 s2029-p000149"
for round in 1 2; do
  [ "$PART" = spaces ] && break
  for which in OLD NEW; do
    bin=${!which}
    rm -rf gen && cp -r dataset gen
    for f in gen/*.jsonl; do grep -vE "$(echo $IDS | tr ' ' '|')" $f > $f.tmp; mv $f.tmp $f; done
    echo "== round $round, $which"
    "$bin/tuner-gen" -o gen --programs 164 --configs-per-program 12 --seed 2029 --flavour both \
      --max-elements 2097152 --max-work 33554432 --min-time 0.01 --patterns all 2>&1 | grep "^tuner-gen: \(wall\|time\|.*samples written\)"
  done
done
rm -rf "$W"
