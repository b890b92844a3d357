#!/bin/sh
# Usage: interrupt.sh DIR SIGNAL TOOL ARGS...
# Starts TOOL, whose command records the pid of a background `sleep` in
# DIR/pid, sends SIGNAL to TOOL once that file exists, and checks that the
# sleep is gone within 10 s. Prints the tool's exit status (128 + the
# signal when the signal ended it), then "orphan killed" or "orphan left".
# The tool starts with the signals' default actions: a test suite run under
# nohup ignores SIGHUP, and an ignored signal stays ignored (by design) in
# the tool, which a shell cannot undo.
dir=$1; signal=$2; shift 2
python3 -c 'import os, signal, sys
for s in (signal.SIGHUP, signal.SIGTERM, signal.SIGINT):
    signal.signal(s, signal.SIG_DFL)
os.execvp(sys.argv[1], sys.argv[1:])' "$@" > "$dir/out" 2>&1 &
tool=$!
i=0
while [ ! -s "$dir/pid" ]; do
  i=$((i + 1))
  if [ $i -gt 1200 ]; then echo "no pid file"; kill -KILL $tool; exit 1; fi
  sleep 0.1
done
kill -"$signal" $tool
wait $tool
echo "tool exit $?"
pid=$(cat "$dir/pid")
i=0
while [ -d "/proc/$pid" ] && ! grep -q ') Z' "/proc/$pid/stat" 2>/dev/null; do
  i=$((i + 1))
  if [ $i -gt 100 ]; then echo "orphan left"; kill -KILL "$pid"; exit 1; fi
  sleep 0.1
done
echo "orphan killed"
