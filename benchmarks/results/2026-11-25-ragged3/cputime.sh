#!/bin/bash
# CPU seconds per call (user + system, both threads), which time-slicing by
# other processes does not inflate the way it inflates wall time: each module
# of run.sh's OUT folder is compiled once by its own binary's tuner-measure
# (--keep-files), then in ROUNDS rounds (order reversed in even rounds) its
# library is called by tuner-run with --repetitions=0 (one call) and with
# --repetitions=N --min-time=0 (N more calls), OMP_NUM_THREADS=2 and
# KMP_BLOCKTIME=0 (a thread that waits at a barrier sleeps instead of
# spinning, so waiting for a preempted thread costs no CPU time); CPU per
# call = (CPU(N) - CPU(0)) / N. A schedule's load imbalance (one core
# working while the other waits) does not show here: it shows in wall time.
# Run from the repository root:
#   benchmarks/results/2026-11-25-ragged3/cputime.sh OLD NEW OUT [ROUNDS] [N]
set -eu
OLD=$1; NEW=$2; OUT=$3; ROUNDS=${4:-5}; N=${5:-40}
mods=${MODS:-"m1021.old m1021.new m1023.old m1023.new m1000.old m1000.new m1024.old m1024.new mld.old mld.new"}
for m in $mods; do
  BIN=$OLD; [ "${m##*.}" = new ] && BIN=$NEW
  rm -rf "$OUT/keep/$m"; mkdir -p "$OUT/keep/$m"
  $BIN/tuner-measure --function=mm --repetitions=1 --keep-files \
      --work-directory="$OUT/keep/$m" "$OUT/$m.mlir" > /dev/null
done
list=($mods)
for r in $(seq $ROUNDS); do
  order=("${list[@]}")
  if [ $((r % 2)) = 0 ]; then
    order=(); for ((i=${#list[@]}-1; i>=0; i--)); do order+=("${list[$i]}"); done
  fi
  for m in "${order[@]}"; do
    BIN=$OLD; [ "${m##*.}" = new ] && BIN=$NEW
    d=$(ls -d "$OUT/keep/$m"/tuner-measure-*)
    cpu() {
      OMP_NUM_THREADS=2 KMP_BLOCKTIME=0 /usr/bin/time -f "%U %S %e" \
        $BIN/tuner-run --batch "$d/baseline.batch" --retries=0 --min-time=0 \
        --repetitions=$1 "$d/spec.json" 2>&1 >/dev/null | tail -1
    }
    l=$(cut -d' ' -f1 /proc/loadavg)
    read u0 s0 e0 <<< "$(cpu 0)"
    read u1 s1 e1 <<< "$(cpu $N)"
    python3 -c "import sys; u0,s0,e0,u1,s1,e1=map(float,sys.argv[1:]); print(f'cpu {1000*(u1+s1-u0-s0)/$N:.2f} ms/call wall {1000*(e1-e0)/$N:.2f} ms/call')" $u0 $s0 $e0 $u1 $s1 $e1 |
      sed "s|^|$(date -u +%T) round $r $m: |;s|$| load $l|"
  done
done
