#!/bin/bash
# The outlier of seed 2030's large-tensor run (data/2026-11-29-znver5-2c-large,
# gen.log: s2030-p000027 took 797.8 s, 5 candidates compile_failed, with the
# group limit at the per-candidate limit times the members) generated again
# alone by the tuner-gen in BIN (the dataset minus its lines, resumed).
#   BIN=build/bin benchmarks/results/2026-11-29-session14/group-limit/run.sh
set -u
R=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$R/../../../.." && pwd)
BIN=$(cd "${BIN:-$REPO/build/bin}" && pwd)
W=$(mktemp -d)
cd "$W"
tar -xJf "$REPO/data/2026-11-29-znver5-2c-large/dataset.tar.xz"
for f in dataset/*.jsonl; do grep -v 's2030-p000027' $f > $f.tmp; mv $f.tmp $f; done
"$BIN/tuner-gen" -o dataset --programs 28 --configs-per-program 12 --seed 2030 --flavour both \
  --max-elements 67108864 --max-work 536870912 --min-time 0.01 --patterns all 2>&1 | grep -v ': complete$'
rm -rf "$W"
