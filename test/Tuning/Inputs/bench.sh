#!/bin/sh
# A pretend benchmark with a known objective: (bx-4)^2 + (by-2)^2 + 1, plus 1
# for mode a. Three configs of mode a misbehave: bx=1 by=8 exits 3, bx=16
# by=1 hangs, bx=2 by=1 prints no number. Every run appends its arguments to
# $BENCH_LOG when set, so tests can count runs. With KILL_AFTER=N, the run
# that finds N lines in $BENCH_LOG kills the tuner-search that runs it
# (SIGKILL, as a crash or an impatient user would).
bx=$1 by=$2 mode=$3
[ -n "$BENCH_LOG" ] && echo "$bx $by $mode" >> "$BENCH_LOG"
if [ -n "$KILL_AFTER" ] && [ "$(wc -l < "$BENCH_LOG")" -ge "$KILL_AFTER" ]; then
  pid=$$
  while [ "$pid" -gt 1 ]; do
    pid=$(awk '{print $4}' /proc/$pid/stat)
    if [ "$(cat /proc/$pid/comm)" = tuner-search ]; then kill -9 "$pid"; exit 0; fi
  done
fi
if [ "$mode" = a ]; then
  [ "$bx" = 1 ] && [ "$by" = 8 ] && { echo "out of registers" >&2; exit 3; }
  [ "$bx" = 16 ] && [ "$by" = 1 ] && { sleep 30; }
  [ "$bx" = 2 ] && [ "$by" = 1 ] && { echo "kernel failed silently"; exit 0; }
fi
extra=0
[ "$mode" = a ] && extra=1
echo "bench bx=$bx by=$by"
echo "time: $(( (bx - 4) * (bx - 4) + (by - 2) * (by - 2) + 1 + extra ))"
