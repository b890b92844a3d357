#!/usr/bin/env bash
# Usage: run.sh BEFORE AFTER [ROUNDS]
# Alternates the shipped-model benchmark of two CostModelTests binaries
# (BEFORE: built from the base commit's lib/CostModel with this branch's
# BenchmarkTest.cpp; AFTER: this branch), each pinned to core 0, ROUNDS
# times (default 5). Each run prints the fastest and the median of 9
# passes over the same 4096 candidates, from configs and with the search's
# cached plans.
set -euo pipefail
before=$1 after=$2 rounds=${3:-5}
echo "# $(date -u +%FT%TZ) $(uname -n) load: $(cut -d' ' -f1-3 /proc/loadavg)"
for ((i = 1; i <= rounds; i++)); do
  for which in before after; do
    bin=${!which}
    line=$(taskset -c 0 "$bin" --gtest_also_run_disabled_tests \
      --gtest_filter='*ShippedModel' 2>&1 | grep '^shipped model')
    echo "$which $i: $line"
  done
done
echo "# done $(date -u +%FT%TZ) load: $(cut -d' ' -f1-3 /proc/loadavg)"
