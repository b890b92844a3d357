#!/usr/bin/env bash
# Builds everything and runs every test: lit + FileCheck tests of the passes
# and tools, and the GoogleTest unit tests of the libraries (through lit),
# then the unit tests of the input readers sanitized (ASan + UBSan).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build.sh
set +e
/usr/lib/llvm-22/bin/lit -sv build/test build/test/Unit | tee build/lit.log
status=${PIPESTATUS[0]}
# The unit tests of the input readers again, under AddressSanitizer and
# UndefinedBehaviorSanitizer (build-asan; scripts/test-sanitized.sh runs
# every test so).
scripts/test-sanitized.sh --quick | tee -a build/lit.log
sanitized=${PIPESTATUS[0]}
[ "$status" -ne 0 ] || status=$sanitized
set -e
# lit's closing lines read "  Passed: 199 (99.50%)": the count follows the colon.
count() { sed -nE "s/^ *($1) *: *([0-9]+).*/\2/p" build/lit.log | awk '{s+=$1} END {print s+0}'; }
passed=$(count 'Passed')
failed=$(count 'Failed|Unresolved|Timed Out|Unexpectedly Passed')
echo "${passed:-0} passed, ${failed:-0} failed"
exit "$status"
