#!/bin/bash
# opcount.sh DATASET PROGRAM: apply each recorded config of PROGRAM (from a
# tuner-gen dataset folder) with tuner-opt and print the operations its
# module holds right after the vector lowering (max-ops=1 makes the
# lowering stop there and report the count), beside the recorded status.
#   BIN=build/bin WORK=/tmp/opcount opcount.sh dataset s2029-p000019
set -u
d=$1; p=$2; B=${BIN:-build/bin}; W=${WORK:-/tmp/opcount}/$p
mkdir -p "$W"
python3 - "$d" "$p" "$W" <<'PY'
import json, sys
d, p, w = sys.argv[1:4]
for l in open(f'{d}/programs-s0-of-1.jsonl'):
    r = json.loads(l)
    if r['id'] == p:
        open(f'{w}/p.mlir', 'w').write(r['mlir'])
i = 0
for l in open(f'{d}/samples-s0-of-1.jsonl'):
    s = json.loads(l)
    if s['program'] != p:
        continue
    json.dump(s['config'], open(f'{w}/c{i}.json', 'w'))
    open(f'{w}/c{i}.status', 'w').write(f"{s['status']} {s.get('speedup', 0):.3f}")
    i += 1
PY
for i in $(seq 0 11); do
  [ -f "$W/c$i.json" ] || continue
  "$B/tuner-opt" "$W/p.mlir" --tuner-apply=config="$W/c$i.json" -o "$W/c$i.mlir"
  n=$(timeout 120 "$B/tuner-opt" "$W/c$i.mlir" --tuner-lower-cpu="openmp=true max-ops=1" \
      -o /dev/null 2>&1 | grep -o "holds [0-9]* operations" | grep -o "[0-9]*")
  echo "$p c$i $(cat "$W/c$i.status") ops=$n"
done
