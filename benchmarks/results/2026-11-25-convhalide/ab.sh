#!/usr/bin/env bash
# Direct A/B of one schedule, the loop order alone: session 8's chosen
# config for convolution and conv_relu (suite.json of
# benchmarks/results/2026-11-25-session8: the streaming seed, 1 row x 64
# columns, distribute = all) applied by main before this branch (A: its
# scf.forall runs n, f, y, x whatever the order), and the same config with
# the seeds' new order (filters inside the rows: n, y, f, x) applied by
# this branch (B). tuner-measure times both in one process tree, 7
# repetitions each, against A as its baseline (outputs compared), at 2
# OpenMP threads; ROUNDS (default 4) rounds, alternating which is first.
set -euo pipefail
cd "$(dirname "$0")/../../.."
work=${WORK:-/tmp/ab-convhalide}
old=${OLD:-/work/main/build/bin}
new=${NEW:-$PWD/build/bin}
mkdir -p "$work"
python3 - "$work" <<'PY'
import json, sys
work = sys.argv[1]
rows = json.load(open(
    "benchmarks/results/2026-11-25-session8/suite.json"))["rows"]
for row in rows:
    if row["kernel"] not in ("convolution", "conv_relu"):
        continue
    config = row["summary"]["best"]["config"]
    json.dump(config, open("%s/%s-A.json" % (work, row["kernel"]), "w"))
    for key in list(config):
        if key.endswith(".order") and len(config[key]) >= 4:
            order = config[key]
            config[key] = [order[0], order[2], order[1]] + order[3:]
    json.dump(config, open("%s/%s-B.json" % (work, row["kernel"]), "w"))
PY
for k in convolution conv_relu; do
  "$old/tuner-opt" benchmarks/kernels/$k.mlir \
      --tuner-apply="config=$work/$k-A.json" -o "$work/$k-A.mlir"
  "$new/tuner-opt" benchmarks/kernels/$k.mlir \
      --tuner-apply="config=$work/$k-B.json" -o "$work/$k-B.mlir"
done
export OMP_NUM_THREADS=2
for round in $(seq 1 "${ROUNDS:-4}"); do
  for k in convolution conv_relu; do
    first=A; second=B
    if [ $((round % 2)) -eq 0 ]; then first=B; second=A; fi
    echo "== round $round $k ($first first) $(date -u +%H:%M:%S) load $(cut -d' ' -f1-3 /proc/loadavg)"
    "$new/tuner-measure" --openmp --function=$k --repetitions=7 \
        "$work/$k-$first.mlir" "$work/$k-$second.mlir" 2>&1 | tail -2
  done
done
