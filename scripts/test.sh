#!/usr/bin/env bash
# Builds everything and runs every test: lit + FileCheck tests of the passes
# and tools, and the GoogleTest unit tests of the libraries (through lit).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build.sh
set +e
/usr/lib/llvm-22/bin/lit -sv build/test build/test/Unit | tee build/lit.log
status=${PIPESTATUS[0]}
set -e
passed=$(grep -E '^ *Passed *:' build/lit.log | awk '{print $NF}')
failed=$(grep -E '^ *(Failed|Unresolved|Timed Out|Unexpectedly Passed) *:' build/lit.log | awk '{s+=$NF} END {print s+0}')
echo "${passed:-0} passed, ${failed:-0} failed"
exit "$status"
