#!/bin/sh
# Issue 14's first live goal again with bo's new default (the model's list):
# bo with 32 measurements against random with 128, in one run, seed 1,
# every run's tuned module retimed side by side with the untuned kernel.
# Run from the repository root on a quiet machine.
set -e
mkdir -p /tmp/live-bin && cp -r build/bin /tmp/live-bin/
python3 benchmarks/strategies/live.py --tuner-opt /tmp/live-bin/bin/tuner-opt \
  --kernels doitgen,box_blur,heat3d,convolution --work-dir /tmp/live-session11-random \
  --seed 1 --retime 5 --out benchmarks/results/2026-11-29-session11/live-random.md \
  random:128 bo:32
