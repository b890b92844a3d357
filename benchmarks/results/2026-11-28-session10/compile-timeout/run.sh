#!/bin/sh
# The one program of data/2026-11-28-znver5-2c that ran into the 300 s
# compile limit (s2028-p000024, an i32 channel convolution), generated and
# measured again alone (--shard 24/600), with tuner-gen's new default
# (--compile-timeout 60, big candidates compiled alone) and with the
# binaries of before (NEW and OLD: folders holding tuner-gen and tuner-run).
NEW=${NEW:-build/bin}; OLD=${OLD:-/tmp/live-bin/bin}
OUT=benchmarks/results/2026-11-28-session10/compile-timeout
for which in new old; do
  BIN=$NEW; [ $which = old ] && BIN=$OLD
  rm -rf /tmp/ct-$which
  /usr/bin/time -f "$which: %e s wall" $BIN/tuner-gen -o /tmp/ct-$which --programs 600 --shard 24/600 \
    --configs-per-program 12 --seed 2028 --flavour both --max-elements 2097152 \
    --max-work 33554432 --min-time 0.01 --patterns all > $OUT/$which.log 2>&1
  tail -1 $OUT/$which.log
  $BIN/tuner-gen -o /tmp/ct-$which --summarize >> $OUT/$which.log 2>&1
done
