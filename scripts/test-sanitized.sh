#!/usr/bin/env bash
# Builds everything with AddressSanitizer + UndefinedBehaviorSanitizer in
# ./build-asan (-DTUNER_SANITIZE=ON) and runs every test there: the lit +
# FileCheck tests and the GoogleTest unit tests. Any ASan, UBSan or leak
# report fails its test (test/lit_sanitizers.py sets the options; leaks that
# LLVM/MLIR make by design are listed in scripts/sanitizers/lsan.supp).
# Arguments: lit test paths (default: all; e.g. build-asan/test/Space), or
# --quick for the unit tests of the libraries that read user input.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/configure.sh build-asan -DTUNER_SANITIZE=ON
# --quick: the unit tests of the libraries that read user input (Support,
# Space, Database, Search, CostModel: knobs, spaces, databases, replay
# tables, model files); scripts/test.sh runs these.
if [ "${1:-}" = --quick ]; then
  shift
  quick=(SupportTests SpaceTests DatabaseTests SearchTests CostModelTests)
  ninja -C build-asan "${quick[@]}"
  suites=(build-asan/test/Unit/Support build-asan/test/Unit/Space
          build-asan/test/Unit/Database build-asan/test/Unit/Search
          build-asan/test/Unit/CostModel)
else
  ninja -C build-asan
  suites=("$@")
  if [ ${#suites[@]} -eq 0 ]; then
    suites=(build-asan/test build-asan/test/Unit)
  fi
fi
set +e
/usr/lib/llvm-22/bin/lit -sv "${suites[@]}" | tee build-asan/lit.log
status=${PIPESTATUS[0]}
set -e
count() { sed -nE "s/^ *($1) *: *([0-9]+).*/\2/p" build-asan/lit.log | awk '{s+=$1} END {print s+0}'; }
passed=$(count 'Passed')
failed=$(count 'Failed|Unresolved|Timed Out|Unexpectedly Passed')
echo "sanitized: ${passed:-0} passed, ${failed:-0} failed"
exit "$status"
