#!/usr/bin/env bash
# Starts an autotune run, kills it with SIGKILL once the database holds at
# least two measurements, reruns the same command, and prints what the
# database holds. Usage: kill-and-resume.sh INPUT.mlir DB
set -u
input=$1 db=$2
rm -f "$db" "$db-wal" "$db-shm"
args="budget=6 seed=5 database=$db"
count() {
  tuner-db --db "$db" export 2>/dev/null | grep -c '"kind":"measurement"'
}
tuner-opt "$input" --tuner-autotune="$args" -o /dev/null 2>/dev/null &
pid=$!
for _ in $(seq 1 600); do
  n=$(count)
  [ "${n:-0}" -ge 2 ] && break
  kill -0 $pid 2>/dev/null || break
  sleep 0.1
done
kill -9 $pid 2>/dev/null
wait $pid 2>/dev/null
before=$(count)
echo "killed after $before measurements"
[ "$before" -ge 2 ] && [ "$before" -lt 6 ] && echo "killed mid-run"
tuner-db --db "$db" check
# The rerun finishes the run without measuring anything twice.
tuner-opt "$input" --tuner-autotune="$args" -o /dev/null 2>&1 | grep -o '6 candidates ([0-9]* measured, [0-9]* from the database)'
after=$(count)
echo "after the rerun: $after measurements"
tuner-db --db "$db" export | grep -o '"config_hash":"[0-9a-f]*"' | sort | uniq -d | sed 's/^/duplicate: /'
