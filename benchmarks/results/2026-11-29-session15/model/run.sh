#!/usr/bin/env bash
# Does this machine's large-tensor data (seed 2030, 29 programs with tensors
# up to 256 MB, data/2026-11-29-znver5-2c-large) help the model rank
# programs it never saw? The shipped model fine-tuned with session 12's
# recipe (log + RankNet, ensemble of 4, --init-from the shipped model,
# lr 0.001, 60 epochs, patience 20, seed 1) on:
#   A. seed 2028 alone (session 12's model, rebuilt: data/2026-11-28-znver5-2c)
#   B. seed 2028 and the large-tensor seed 2030 together
#   C. seeds 2028 and 2029 (data/2026-11-29-znver5-2c) together
# A and B evaluated on every program of seed 2029 (164 programs, tensors up
# to 2M elements), A and C on every program of seed 2030 (large tensors),
# with the shipped model beside them.
#
# About 20 minutes on 2 cores. Usage: run.sh [WORK]
set -euo pipefail
cd "$(dirname "$0")/../../../.."
out=benchmarks/results/2026-11-29-session15/model
work=${1:-build/model15}
bin=build/bin
rm -rf "$work"
mkdir -p "$work/s2028" "$work/s2029" "$work/s2030" "$work/A" "$work/B" "$work/C"
tar -xJf data/2026-11-28-znver5-2c/dataset.tar.xz -C "$work/s2028"
tar -xJf data/2026-11-29-znver5-2c/dataset.tar.xz -C "$work/s2029"
tar -xJf data/2026-11-29-znver5-2c-large/dataset.tar.xz -C "$work/s2030"
add() { # add FOLDER SEED...
  local folder=$1; shift
  for seed in "$@"; do
    for kind in programs samples; do
      cp "$work/s$seed/dataset/$kind-s0-of-1.jsonl" "$work/$folder/$kind-s$seed.jsonl"
    done
  done
}
add A 2028
add B 2028 2030
add C 2028 2029
for m in A B C; do
  $bin/tuner-train "$work/$m" -o "$work/$m.json" --seed 1 --loss log+ranknet \
      --ensemble 4 --jobs 2 --init-from models/cpu-default.model.json --lr 0.001 \
      --epochs 60 --patience 20 > "$out/train-$m.log" 2>&1
done
evaluate() { # evaluate MODEL-NAME PATH SEED
  $bin/tuner-train --evaluate --model "$2" "$work/s$3/dataset" --all \
      > "$out/eval-$1-on-s$3.txt"
}
evaluate shipped models/cpu-default.model.json 2029
evaluate shipped models/cpu-default.model.json 2030
evaluate A "$work/A.json" 2029
evaluate A "$work/A.json" 2030
evaluate B "$work/B.json" 2029
evaluate C "$work/C.json" 2030
xz -9f "$out"/train-*.log
