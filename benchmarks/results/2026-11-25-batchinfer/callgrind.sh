#!/usr/bin/env bash
# Usage: callgrind.sh OLD NEW OUT_DIR
# Instructions of the search's scoring path (forProgram + predict) for the
# 4096 candidates of CostModelBenchmark.DISABLED_OnePassEndToEnd4 (four
# networks of the shipped model's shape), under valgrind's callgrind, for
# two CostModelTests binaries built with
# -DTUNER_COSTMODEL_ARCH_FLAGS=-march=x86-64-v3 (valgrind does not decode
# AVX-512). Counts do not depend on the machine's load.
set -euo pipefail
old=$1 new=$2 out=$3
for which in old new; do
  bin=${!which}
  valgrind --tool=callgrind --callgrind-out-file="$out/$which.callgrind" \
    --toggle-collect='tuner::CostModel::forProgram*' \
    --toggle-collect='tuner::CostModel::ProgramPredictor::predict*' \
    "$bin" --gtest_also_run_disabled_tests \
    --gtest_filter='*OnePassEndToEnd4' 2>&1 | grep -E 'mean prediction|Collected'
  callgrind_annotate --inclusive=yes "$out/$which.callgrind" |
    grep -E 'PROGRAM TOTALS|ProgramPredictor::extract|planSchedule\(|Space::check\(|InferenceBatch::InferenceBatch|inferLogits' |
    cut -c1-120
done
