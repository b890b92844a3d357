#!/bin/bash
# Old (main's build/bin) against new (this branch's build/bin), side by side:
# the schedule the default strategy delivered for matmul 1021³ and 1024³ in
# session 8 (seed 1: 64x256x256 cache tiles, 8x32 micro-kernel, fill fused,
# the 64-row tiles on the cores, partial = pad; seed1-config.json) applied
# by each binary (tuner-opt --tuner-apply) to 1021³, 1023³, 1000³ (its space
# offers 50x200x200, the delivered 1000³ schedule) and 1024³, and, as a
# diagnostic, to 1021³ computed on 1021x1024 arrays (rows 64-byte aligned:
# mld). Then ROUNDS rounds: per module one tuner-measure call of the
# binary that built it (7 repetitions, 2 threads), the order of the modules
# reversed in even rounds. Each module is lowered by its own binary's
# tuner-measure (the new one lowers strided copies differently).
# Run from the repository root:
#   benchmarks/results/2026-11-25-ragged3/run.sh OLD NEW OUT [ROUNDS]
set -eu
OLD=$1; NEW=$2; OUT=$3; ROUNDS=${4:-4}
R=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$OUT"
gen() { # name M N K
cat > "$OUT/$1.mlir" <<MLIR
func.func @mm(%A: tensor<$2x$4xf32>, %B: tensor<$4x$3xf32>) -> tensor<$2x$3xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<$2x$3xf32>
  %C = linalg.fill ins(%zero : f32) outs(%empty : tensor<$2x$3xf32>) -> tensor<$2x$3xf32>
  %D = linalg.matmul ins(%A, %B : tensor<$2x$4xf32>, tensor<$4x$3xf32>) outs(%C : tensor<$2x$3xf32>) -> tensor<$2x$3xf32>
  return %D : tensor<$2x$3xf32>
}
MLIR
}
gen m1021 1021 1021 1021; gen m1023 1023 1023 1023; gen m1000 1000 1000 1000
gen m1024 1024 1024 1024
cp "$R/mld.mlir" "$OUT/mld.mlir"
mods=""
for m in m1021 m1023 m1000 m1024 mld; do
  $NEW/tuner-opt "$OUT/$m.mlir" "--tuner-extract-space=output=$OUT/$m.space.json" -o /dev/null
  python3 "$R/snap-config.py" "$R/seed1-config.json" "$OUT/$m.space.json" "$OUT/$m.config.json"
  for v in old new; do
    BIN=$OLD; [ $v = new ] && BIN=$NEW
    $BIN/tuner-opt "$OUT/$m.mlir" "--tuner-apply=function=mm config=$OUT/$m.config.json" -o "$OUT/$m.$v.mlir"
  done
  mods="$mods $m.old $m.new"
done
[ -n "${MODS:-}" ] && mods=$MODS
list=($mods)
for r in $(seq $ROUNDS); do
  order=("${list[@]}")
  if [ $((r % 2)) = 0 ]; then
    order=(); for ((i=${#list[@]}-1; i>=0; i--)); do order+=("${list[$i]}"); done
  fi
  for m in "${order[@]}"; do
    BIN=$OLD; [ "${m##*.}" = new ] && BIN=$NEW
    l=$(cut -d' ' -f1 /proc/loadavg)
    OMP_NUM_THREADS=2 $BIN/tuner-measure --function=mm --repetitions=7 \
        --timeout=300 "$OUT/$m.mlir" 2>&1 | grep -a median |
      sed "s|^|$(date -u +%T) round $r $m: |;s|$| load $l|"
  done
done
