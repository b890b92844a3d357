#!/bin/bash
# Timing beside compiling (session 20): is the paired baseline enough to let
# a second tuner-gen shard compile while the first one times?
# Seed 2029's first 20 programs (12 configs each, the recorded dataset's
# options, as session 19's paired/run.sh), on the quiet 2-core Zen 5 VM with
# nothing else running. Each argument is NAME:MODE, MODE one of
#   seq  one tuner-gen, the defaults (two rounds, paired baseline, a clang
#        job per core, the harness alone on the machine)
#   par2 two tuner-gen shards (--shard 0/2 and 1/2) at once into one folder,
#        one clang job each, --max-foreign-load 100 (each times beside the
#        other's compiling and timing; no timing is taken again for it)
# --max-foreign-load is not an option of tuner-gen: these runs were made by
# main at 0673fcd with max-foreign-load.patch (beside this script) applied,
# which passes it to the Measurer (MeasureOptions::maxForeignLoad).
# Run 2026-11-30 03:35-04:03 UTC on the quiet Zen 5 VM:
#   run.sh o1:par2 s1:seq o2:par2 o3:par2 s2:seq o4:par2
#   ./pairs.py $WORK "two shards at once=o1,o2,o3,o4" \
#     "one tuner-gen (default)=s1,s2" "shards against one=o1,o2,o3,o4|s1,s2" \
#     > pairs.md
# The runs' folders and logs: runs.tar.xz.
set -euo pipefail
WORK=${WORK:-/tmp/overlap}
BIN=${BIN:-$(cd "$(dirname "$0")/../../../.." && pwd)/build/bin}
mkdir -p "$WORK"
cd "$WORK"
COMMON=(--programs 20 --configs-per-program 12 --seed 2029 --flavour both
        --max-elements 2097152 --max-work 33554432 --min-time 0.01
        --patterns all)
for run in "$@"; do
  IFS=: read -r name mode <<< "$run"
  rm -rf "$name" "$name".log "$name".*.log
  start=$(date +%s.%N)
  case "$mode" in
    seq)
      "$BIN/tuner-gen" -o "$name" "${COMMON[@]}" > "$name.log" 2>&1 ;;
    par*)
      n=${mode#par}
      pids=()
      for ((k = 0; k < n; ++k)); do
        "$BIN/tuner-gen" -o "$name" "${COMMON[@]}" --shard "$k/$n" --jobs 1 \
          --max-foreign-load 100 > "$name.$k.log" 2>&1 &
        pids+=($!)
      done
      for pid in "${pids[@]}"; do wait "$pid"; done ;;
    *) echo "unknown mode $mode" >&2; exit 1 ;;
  esac
  echo "$name $mode $(date -u +%H:%M:%S) $(echo "$(date +%s.%N) - $start" | bc) s" | tee -a run.out
done
