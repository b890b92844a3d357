#!/usr/bin/env bash
# Builds the libFuzzer targets of fuzz/ in ./build-fuzz (clang-22 with
# -fsanitize=fuzzer,address,undefined; -DTUNER_FUZZ=ON) and runs them.
#
#   scripts/fuzz.sh [TARGET|all] [RUNS]     (default: all, 1000000 runs each)
#
# TARGET is one of: constraint space-json config-json knob-script model-file
# db-import replay-table. Each run starts from the committed seeds in
# fuzz/corpus/TARGET and keeps what it finds in build-fuzz/corpus/TARGET; a
# crash is saved under build-fuzz/artifacts/TARGET/ and stops the script with
# an error. The last line per target: executions, seconds, executions/s.
set -euo pipefail
cd "$(dirname "$0")/.."
all=(constraint space-json config-json knob-script model-file db-import
     replay-table)
which=${1:-all}
runs=${2:-1000000}
if [ "$which" = all ]; then
  targets=("${all[@]}")
elif [[ " ${all[*]} " == *" $which "* ]]; then
  targets=("$which")
else
  echo "scripts/fuzz.sh: unknown target '$which' (one of: ${all[*]}, all)" >&2
  exit 2
fi

scripts/install-deps.sh
scripts/configure.sh build-fuzz -DTUNER_FUZZ=ON -DTUNER_BUILD_TESTS=OFF
ninja -C build-fuzz "${targets[@]/#/fuzz-}"

# Any report is fatal; leaks LLVM makes by design are suppressed (the file
# says which).
export ASAN_OPTIONS=halt_on_error=1:detect_leaks=1:strict_string_checks=1
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
export LSAN_OPTIONS=suppressions=$PWD/scripts/sanitizers/lsan.supp
# The database target's file lives here (tmpfs where there is one).
if [ -d /dev/shm ]; then export TMPDIR=/dev/shm; fi

for target in "${targets[@]}"; do
  corpus=build-fuzz/corpus/$target
  artifacts=build-fuzz/artifacts/$target
  log=build-fuzz/fuzz-$target.log
  mkdir -p "$corpus" "$artifacts"
  start=$(date +%s.%N)
  status=0
  build-fuzz/fuzz/fuzz-"$target" -runs="$runs" -timeout=30 \
    -print_final_stats=1 -artifact_prefix="$artifacts/" \
    "$corpus" "fuzz/corpus/$target" >"$log" 2>&1 || status=$?
  end=$(date +%s.%N)
  execs=$(sed -nE 's/^stat::number_of_executed_units: *([0-9]+)/\1/p' "$log")
  awk -v t="$target" -v n="${execs:-0}" -v a="$start" -v b="$end" \
    'BEGIN { s = b - a; printf "fuzz-%s: %d executions in %.0f s (%.0f/s)\n", t, n, s, n / s }'
  if [ "$status" -ne 0 ]; then
    grep -E "ERROR|SUMMARY|fuzz property|Test unit written" "$log" >&2 || true
    echo "fuzz-$target failed (exit $status): see $log and $artifacts/" >&2
    exit 1
  fi
done
