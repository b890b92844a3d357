#!/usr/bin/env bash
# Usage: run.sh OLD NEW [ROUNDS]
# Alternates the shipped-model benchmark of two CostModelTests binaries,
# each pinned to core 0, ROUNDS times (default 4). Each run prints, for 9
# passes over the same 4096 random candidates of a fill + matmul, the
# fastest and median predictions per second by the wall clock and per
# second of the thread's CPU time (the machine is shared: the wall clock
# also counts other processes' turns on the core), from configs and with
# the search's cached plans.
set -euo pipefail
old=$1 new=$2 rounds=${3:-4}
echo "# $(date -u +%FT%TZ) $(uname -n) load: $(cut -d' ' -f1-3 /proc/loadavg)"
for ((i = 1; i <= rounds; i++)); do
  for which in old new; do
    bin=${!which}
    out=$(taskset -c 0 "$bin" --gtest_also_run_disabled_tests \
      --gtest_filter='*ShippedModel' 2>&1)
    echo "$which $i: $(grep '^shipped model' <<<"$out")"
    echo "$which $i: $(grep '^per CPU second' <<<"$out")"
  done
  echo "# load: $(cut -d' ' -f1-3 /proc/loadavg)"
done
echo "# done $(date -u +%FT%TZ) load: $(cut -d' ' -f1-3 /proc/loadavg)"
