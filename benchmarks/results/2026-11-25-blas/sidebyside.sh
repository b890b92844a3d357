#!/usr/bin/env bash
# Side by side: the default strategy (MCTS guided by the shipped model, top 8
# measured, plus seeds=2) with the binaries of main at 69cc05b (old) and of
# branch blas (new), each run with OpenBLAS (cblas_sgemm, 2 threads) in the
# same run and every output checked against the C reference. Rounds
# alternate old/new (the order flips each round) on the suite's 2mm and
# matmul and on the held-out batch_matmul and matmul_tn.
# Usage: sidebyside.sh OLD_BIN_DIR NEW_BIN_DIR ROUNDS
# (the binaries were copied out of the build folders first, so that rebuilds
# during the run cannot change them: /tmp/blas/oldbin is a copy of
# /work/main/build/bin at 69cc05b, /tmp/blas/newbin of build/bin here).
set -u
old=$1 new=$2 rounds=${3:-3}
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../../.." && pwd)
work=${WORK:-/tmp/blas/work}
mkdir -p "$work"
one() {  # variant round set
  local variant=$1 round=$2 set=$3 bin
  [ "$variant" = old ] && bin=$old || bin=$new
  local extra=(--kernels 2mm,matmul)
  [ "$set" = heldout ] && extra=(--kernels batch_matmul,matmul_tn
    --kernel-dir "$repo/benchmarks/heldout/kernels"
    --reference-dir "$repo/benchmarks/heldout/reference")
  echo "== round $round $variant $set $(date -u +%H:%M:%S) load $(cat /proc/loadavg)"
  python3 "$repo/benchmarks/run.py" --threads 2 --check --columns openblas \
    --tuner-opt "$bin/tuner-opt" "${extra[@]}" \
    --work-dir "$work/$variant-$set-$round" \
    --out "$here/r$round-$variant-$set.md" > "$here/r$round-$variant-$set.log" 2>&1
  echo "   done $(date -u +%H:%M:%S) load $(cat /proc/loadavg) rc $?"
}
for round in $(seq 1 "$rounds"); do
  if [ $((round % 2)) = 1 ]; then order="old new"; else order="new old"; fi
  for set in suite heldout; do
    for variant in $order; do one "$variant" "$round" "$set"; done
  done
done
