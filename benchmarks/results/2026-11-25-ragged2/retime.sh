#!/bin/bash
# The schedule the default strategy chose for matmul 1021³ (run.sh: seed 2,
# 64x512x128 cache tiles, a 14x32 micro-kernel, the row tiles on the cores,
# partial = pad) applied with tuner-apply to 1021³ with its partial tiles
# padded and peeled, to 1023³ (held out: 63 of 64 rows in the last tile)
# padded and peeled, and to 1024³ (every tile full), then timed side by
# side: ROUNDS rounds (default 4), each timing the five modules in turn
# (tuner-measure, the module as its own baseline, 7 repetitions). 1023³'s
# space has no reduction tile of 128: it gets 64, the nearest it offers.
# Run from the repository root: benchmarks/results/2026-11-25-ragged2/retime.sh BIN CONFIG OUT [ROUNDS]
set -eu
BIN=$1
CONFIG=$2   # the JSON summary of run.sh's matmul_1021 (its best config)
OUT=${3:-/tmp/ragged2-retime}
ROUNDS=${4:-4}
mkdir -p "$OUT"
R=benchmarks/results/2026-11-25-ragged2
for partial in pad peel; do
  for k in 128 64; do
    python3 - "$CONFIG" "$OUT/$partial.k$k.json" $partial $k <<'PY'
import json, sys
config = json.load(open(sys.argv[1]))["best"]["config"]
# The matmul's parameters (the fill's, untiled, take their defaults).
config = {k: (sys.argv[3] if k == "matmul_1.partial" else v)
          for k, v in config.items() if k.startswith("matmul_1.")}
config["matmul_1.tile.l2"] = int(sys.argv[4])
json.dump(config, open(sys.argv[2], "w"))
PY
  done
done
apply() { # kernel file, function, partial
  k=128; [ $2 = matmul_1023 ] && k=64
  c=$OUT/$3.k$k.json
  # (1024³'s space has no partial parameter: every tile it offers divides.)
  if [ $2 = matmul ]; then
    python3 -c "import json,sys; c=json.load(open(sys.argv[1])); c.pop('matmul_1.partial'); json.dump(c, open(sys.argv[2], 'w'))" $c $OUT/full.json
    c=$OUT/full.json
  fi
  $BIN/tuner-opt $1 "--tuner-apply=function=$2 config=$c" -o "$OUT/$2.$3.mlir"
}
apply benchmarks/heldout/kernels/matmul_1021.mlir matmul_1021 pad
apply benchmarks/heldout/kernels/matmul_1021.mlir matmul_1021 peel
apply $R/matmul_1023.mlir matmul_1023 pad
apply $R/matmul_1023.mlir matmul_1023 peel
apply benchmarks/kernels/matmul.mlir matmul pad
for round in $(seq $ROUNDS); do
  for m in matmul_1021.pad matmul_1021.peel matmul_1023.pad matmul_1023.peel matmul.pad; do
    line=$($BIN/tuner-measure --function=${m%.*} --repetitions=7 --timeout=300 "$OUT/$m.mlir" 2>&1 | grep "(baseline)" | sed 's/.*ok *//')
    echo "round $round $m $line load $(cut -d' ' -f1 /proc/loadavg)"
  done
done
