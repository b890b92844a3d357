#!/usr/bin/env bash
# The cost model on the Zen 5 data of session 9 (data/2026-11-28-znver5-2c):
# the shipped model (grown to the layout of issue 13's last features, zero
# weights for them), the same fine-tuned on this data (every network starts
# from the shipped one's weights), and a model trained from scratch on it,
# evaluated on the same test programs (the fine-tuned model's split). About
# 5 minutes on 2 cores. Usage: run.sh [WORK]
set -euo pipefail
cd "$(dirname "$0")/../../../.."
out=benchmarks/results/2026-11-28-session9/model
work=${1:-build/model9}
mkdir -p "$work"
tar -xJf data/2026-11-28-znver5-2c/dataset.tar.xz -C "$work"
data=$work/dataset
bin=build/bin
$bin/tuner-gen -o "$data" --summarize > "$out/summary.txt"
$bin/tuner-train "$data" -o "$work/ft.json" --seed 1 --loss log+ranknet --ensemble 4 --jobs 2 \
    --init-from models/cpu-default.model.json --lr 0.001 --epochs 60 --patience 20 \
    > "$out/train-ft.log" 2>&1
$bin/tuner-train "$data" -o "$work/scratch.json" --seed 1 --loss log+ranknet --ensemble 4 --jobs 2 \
    > "$out/train-scratch.log" 2>&1
for model in ft scratch; do
  $bin/tuner-train --evaluate --model "$work/$model.json" "$data" --json "$out/eval-$model.json" \
      > "$out/eval-$model.txt"
done
$bin/tuner-train --evaluate --model models/cpu-default.model.json "$data" \
    --test-programs-of "$work/ft.json" --json "$out/eval-shipped.json" > "$out/eval-shipped.txt"
