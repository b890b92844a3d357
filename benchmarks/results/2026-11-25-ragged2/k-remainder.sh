#!/bin/bash
# Which remainder slows 1021³ down: the 1021³ schedule (config-1021.json,
# the default strategy's choice: 64x512x128 cache tiles, 14x32 micro-kernel,
# row tiles on the cores) applied to M=N=1024, K=1021 (only the reduction
# has a remainder) and to M=N=1021, K=1024 (only the rows and columns do),
# timed in 3 rounds beside the retime.sh modules of 1024³ and 1021³ (peeled)
# in OUT (tuner-measure, the module as its own baseline, 7 repetitions).
# Run from the repository root after retime.sh:
#   benchmarks/results/2026-11-25-ragged2/k-remainder.sh BIN OUT
set -eu
BIN=$1
OUT=$2
R=benchmarks/results/2026-11-25-ragged2
python3 -c "import json; c=json.load(open('$R/config-1021.json')); c.pop('matmul_1.partial'); json.dump(c, open('$OUT/mm_1024_1024_1021.json','w'))"
cp $R/config-1021.json $OUT/mm_1021_1021_1024.json
for m in mm_1024_1024_1021 mm_1021_1021_1024; do
  $BIN/tuner-opt $R/$m.mlir "--tuner-apply=function=mm config=$OUT/$m.json" -o $OUT/$m.t.mlir
done
for r in 1 2 3; do
  for m in mm_1024_1024_1021.t:mm mm_1021_1021_1024.t:mm matmul.pad:matmul matmul_1021.peel:matmul_1021; do
    line=$($BIN/tuner-measure --function=${m#*:} --repetitions=7 --timeout=300 "$OUT/${m%:*}.mlir" 2>&1 | grep "(baseline)" | sed 's/.*ok *//')
    echo "round $r ${m%:*} $line load $(cut -d' ' -f1 /proc/loadavg)"
  done
done
