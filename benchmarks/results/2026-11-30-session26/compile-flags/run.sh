#!/bin/bash
# Cheaper native compiles for tuner-gen (session 26): seed 2029's first 20
# programs (12 configs each, the recorded dataset's options) generated back
# to back on the quiet 2-core VM, alternating clang -O3 (the default) with
# -O3 plus extra flags, given by a clang-22 wrapper first on PATH (the
# Measurer takes clang-22 from PATH).
#   run.sh NAME:FLAGSET ...    # FLAGSET: o3 | nounroll | noslp | cheap
# runs into $WORK (default /tmp/s26/flags); run.out has the wall times.
set -euo pipefail
WORK=${WORK:-/tmp/s26/flags}
BIN=${BIN:-$(cd "$(dirname "$0")/../../../.." && pwd)/build/bin}
mkdir -p "$WORK"
cd "$WORK"
for run in "$@"; do
  name=${run%%:*}; set=${run##*:}
  case $set in
    o3) extra="" ;;
    cheap) extra="-fno-slp-vectorize -fno-unroll-loops" ;;
    noslp) extra="-fno-slp-vectorize" ;;
    nounroll) extra="-fno-unroll-loops" ;;
    *) echo "unknown flag set $set" >&2; exit 2 ;;
  esac
  # The Measurer finds libomp.so in the lib folder beside clang's bin folder.
  mkdir -p "wrap-$set/bin"
  ln -sfn /usr/lib/llvm-22/lib "wrap-$set/lib"
  printf '#!/bin/sh\nexec /usr/lib/llvm-22/bin/clang "$@" %s\n' "$extra" > "wrap-$set/bin/clang-22"
  chmod +x "wrap-$set/bin/clang-22"
  rm -rf "$name"
  start=$(date +%s.%N)
  PATH="$WORK/wrap-$set/bin:$PATH" "$BIN/tuner-gen" -o "$name" --programs 20 \
    --configs-per-program 12 --seed 2029 --flavour both --max-elements 2097152 \
    --max-work 33554432 --min-time 0.01 --patterns all > "$name.log" 2>&1
  echo "$name flags=$set $(date -u +%H:%M:%S) $(echo "$(date +%s.%N) - $start" | bc) s" | tee -a run.out
done
