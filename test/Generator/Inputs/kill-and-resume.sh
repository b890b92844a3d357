#!/usr/bin/env bash
# Starts a tuner-gen run, kills it with SIGKILL once the samples file holds
# at least one line, reruns the same command, and prints what the dataset
# holds and any (program, config) pair measured twice.
# Usage: kill-and-resume.sh DIR
set -u
dir=$1
rm -rf "$dir"
args=(-o "$dir" --programs 2 --configs-per-program 2 --seed 4
      --max-elements 4096 --min-time 0.001 --jobs 1)
samples=$dir/samples-s0-of-1.jsonl
count() {
  if [ -f "$samples" ]; then grep -c '' "$samples"; else echo 0; fi
}
tuner-gen "${args[@]}" > /dev/null 2>&1 &
pid=$!
for _ in $(seq 1 1200); do
  [ "$(count)" -ge 1 ] && break
  kill -0 $pid 2> /dev/null || break
  sleep 0.02
done
kill -9 $pid 2> /dev/null
wait $pid 2> /dev/null
before=$(count)
echo "killed after $before samples"
[ "$before" -ge 1 ] && [ "$before" -lt 4 ] && echo "killed mid-run"
# The rerun measures only what is missing.
tuner-gen "${args[@]}" 2>&1 | grep -E 'resuming|samples written'
echo "after the rerun: $(count) samples"
sed -E 's/.*("config":\{[^}]*\}).*("program":"[^"]*").*/\2 \1/' "$samples" |
  sort | uniq -d | sed 's/^/duplicate: /'
tuner-gen --summarize -o "$dir"
