#!/bin/bash
# Old (main's build/bin) against new (this branch's build/bin), side by side,
# on matmul 1021³, 1023³ (held out), 1000³ and 1024³, f32, 2 threads.
#  1. The seed schedule (seed-config.json: the default strategy's 1021³
#     choice in ragged2, seed 2: 64x512x128 cache tiles, 14x32 micro-kernel,
#     row tiles on the cores, partial = pad; a size whose space does not
#     offer a tile size gets the nearest one it offers, in log scale: 1023³
#     a reduction tile of 64, 1000³ 64x500x100) applied by each binary with
#     tuner-apply.
#  2. The default strategy (--tuner-autotune, no database) on each size, run
#     by the old then the new binary.
# Then ROUNDS rounds (default 3): per size, tuner-measure times the old and
# the new module in one call (7 repetitions each, outputs compared), the old
# one first in odd rounds and the new one first in even rounds.
# Run from the repository root:
#   benchmarks/results/2026-11-25-colpartial/run.sh OLD NEW OUT [ROUNDS] [PARTS]
set -eu
OLD=$1
NEW=$2
OUT=$3
ROUNDS=${4:-3}
PARTS=${5:-"seed tuned"}
mkdir -p "$OUT"
R=benchmarks/results/2026-11-25-colpartial
declare -A FILE=(
  [matmul_1021]=benchmarks/heldout/kernels/matmul_1021.mlir
  [matmul_1023]=benchmarks/results/2026-11-25-ragged2/matmul_1023.mlir
  [matmul_1000]=benchmarks/heldout/kernels/matmul_1000.mlir
  [matmul]=benchmarks/kernels/matmul.mlir)
sizes="matmul_1021 matmul_1023 matmul_1000 matmul"
for n in $sizes; do
  # The seed config on this size: the reduction tile the space offers, no
  # partial parameter where every tile divides (1024³).
  $NEW/tuner-opt ${FILE[$n]} "--tuner-extract-space=output=$OUT/$n.space.json" -o /dev/null
  python3 - $R/seed-config.json $OUT/$n.space.json $OUT/$n.seed.json <<'PY'
import json, sys
config = json.load(open(sys.argv[1]))
space = json.load(open(sys.argv[2]))
params = {p["name"]: p for p in space["parameters"]}
if "matmul_1.partial" not in params:
    config.pop("matmul_1.partial")
import math
for name, value in config.items():
    values = params[name].get("values") if name in params else None
    if isinstance(value, int) and values and value not in values:
        config[name] = min(values, key=lambda v: abs(math.log(v / value)))
json.dump(config, open(sys.argv[3], "w"))
PY
  for v in old new; do
    BIN=$OLD; [ $v = new ] && BIN=$NEW
    if [[ " $PARTS " == *" seed "* ]]; then
      $BIN/tuner-opt ${FILE[$n]} "--tuner-apply=function=$n config=$OUT/$n.seed.json" -o $OUT/$n.seed.$v.mlir
    fi
    if [[ " $PARTS " == *" tuned "* ]]; then
      echo "$(date -u +%T) load $(cut -d' ' -f1-3 /proc/loadavg) tuning $n with $v"
      /usr/bin/time -f "$n $v wall %e s" $BIN/tuner-opt ${FILE[$n]} \
        "--tuner-autotune=database=none summary-output=$OUT/$n.tuned.$v.json timeout=150" \
        -o $OUT/$n.tuned.$v.mlir 2>&1 | tr -d '\0' | grep -a "remark\|wall"
    fi
  done
done
for round in $(seq $ROUNDS); do
  for part in $PARTS; do
    for n in $sizes; do
      first=old; second=new
      [ $((round % 2)) = 0 ] && first=new && second=old
      $NEW/tuner-measure --function=$n --repetitions=7 --timeout=300 \
        $OUT/$n.$part.$first.mlir $OUT/$n.$part.$second.mlir 2>&1 |
        grep "median" | sed "s/^/$(date -u +%T) round $round $part $n: /;s/$/ load $(cut -d' ' -f1 \/proc\/loadavg)/"
    done
  done
done
