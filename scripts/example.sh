#!/usr/bin/env bash
# The main job on the shipped example: builds tuner-opt (installing what is
# missing), then tunes examples/matmul.mlir with the shipped defaults and
# prints the summary. Writes the tuned IR, the replayable schedule and the
# summary to build/example/; records measurements in build/example/tuning.db
# (a rerun resumes from it).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build.sh tuner-opt tuner-run tuner-db
out=build/example
mkdir -p "$out"
build/bin/tuner-opt examples/matmul.mlir \
  --tuner-autotune="database=$out/tuning.db schedule-output=$out/schedule.mlir summary-output=$out/summary.json" \
  -o "$out/matmul.tuned.mlir"
echo
echo "tuned IR:          $out/matmul.tuned.mlir"
echo "schedule (replay): mlir-opt --load-dialect-plugin=build/lib/TunerPlugin.so examples/matmul.mlir --transform-preload-library=transform-library-paths=$out/schedule.mlir --transform-interpreter"
echo "summary:           $out/summary.json"
echo "measurements:      build/bin/tuner-db --db $out/tuning.db list"
