#!/bin/bash
# tm.sh BIN ROUNDS mod1 mod2 ... : per round, each module timed alone by one
# tuner-measure call (7 repetitions), order reversed in even rounds.
BIN=$1; R=$2; shift 2
mods=("$@")
for r in $(seq $R); do
  list=("${mods[@]}")
  if [ $((r % 2)) = 0 ]; then list=(); for ((i=${#mods[@]}-1;i>=0;i--)); do list+=("${mods[$i]}"); done; fi
  for m in "${list[@]}"; do
    l=$(cut -d' ' -f1 /proc/loadavg)
    OMP_NUM_THREADS=2 $BIN/tuner-measure --function=mm --repetitions=7 --timeout=300 $m 2>&1 | grep -a median | sed "s|^|$(date -u +%T) round $r $m: |;s|$| load $l|"
  done
done
