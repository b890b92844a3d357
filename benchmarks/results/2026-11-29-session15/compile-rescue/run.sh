#!/bin/bash
# Seed 2029's slowest programs (data/2026-11-29-znver5-2c: s2029-p000081,
# -p000091, -p000031, -p000019, each over 130 s in the recorded run, with a
# candidate that runs into the 60-s compile limit or lowers for a minute),
# each generated again alone by the tuner-gen in BIN (the dataset minus the
# program's lines, resumed; one tuner-gen per program, so that its last
# lines say where that program's time went).
#   BIN=/path/to/old/bin benchmarks/results/2026-11-29-session15/compile-rescue/run.sh > output-old.txt
#   BIN=build/bin        benchmarks/results/2026-11-29-session15/compile-rescue/run.sh > output-new.txt
set -u
R=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$R/../../../.." && pwd)
BIN=$(cd "${BIN:-$REPO/build/bin}" && pwd)
for prog in ${PROGRAMS:-s2029-p000081 s2029-p000091 s2029-p000031 s2029-p000019}; do
  W=$(mktemp -d)
  cd "$W"
  tar -xJf "$REPO/data/2026-11-29-znver5-2c/dataset.tar.xz"
  for f in dataset/*.jsonl; do grep -v "$prog" "$f" > "$f.tmp"; mv "$f.tmp" "$f"; done
  echo "== $prog"
  /usr/bin/time -f "wall %e s maxrss %M KB" "$BIN/tuner-gen" -o dataset --programs 164 \
    --configs-per-program 12 --seed 2029 --flavour both --max-elements 2097152 \
    --max-work 33554432 --min-time 0.01 --patterns all 2>&1 | grep -v ': complete$'
  cd /
  rm -rf "$W"
done
