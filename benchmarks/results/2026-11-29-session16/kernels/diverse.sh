#!/usr/bin/env bash
# run.sh's part 2 again with a diverse top k (MCTS+diverse: diverse-top-k=true,
# session 14's best variant with the shipped model), guided by the shipped
# model and by the records model, in two rounds (the models in one order,
# then in the other), on run.sh's WORK (its models and BSE copies), after
# run.sh. About 12 minutes on 2 cores, nothing else running.
# Usage: diverse.sh [WORK]
set -euo pipefail
cd "$(dirname "$0")/../../../.."
out=benchmarks/results/2026-11-29-session16/kernels
work=${1:-build/kernels16}
bin=build/bin
suite="cvtcolor heat2d heat3d jacobi2d mvt seidel2d"
model() { # as in run.sh
  case $1 in
    shipped) echo models/cpu-default.model.json ;;
    records) if [ -f "$work/records-$2.json" ]; then echo "$work/records-$2.json"
             else echo "$work/records-suite.json"; fi ;;
  esac
}
for round in 1 2; do
  models="shipped records"
  [ $round = 2 ] && models="records shipped"
  for m in $models; do
    w="$work/search-$m-r$round"
    for k in $suite blur1d rowsumsq vecmat; do
      case " $suite " in *" $k "*) set=suite; dir=benchmarks/kernels ;;
                         *) set=heldout; dir=benchmarks/heldout/kernels ;; esac
      python3 benchmarks/compare_search.py --tuner-opt $bin/tuner-opt --beam-width 4 \
          --bse-budget 5000 --top-k 8 --strategies MCTS+diverse --resume --kernel-dir $dir \
          --work-dir "$w/$set" --kernels "$k" --model "$(model $m "$k")" \
          > /dev/null 2>> "$work/diverse.log"
    done
  done
done
python3 "$out/search_table.py" --label MCTS-diverse --models shipped,records "$work" \
    $suite -- blur1d rowsumsq vecmat > "$out/diverse.md"
cat "$out/diverse.md"
(cd "$work" && find search-shipped-r1 search-records-r1 search-shipped-r2 \
    search-records-r2 -name '*MCTS-diverse*' | sort) |
  tar -cJf "$out/diverse-searches.tar.xz" -C "$work" -T -
cp "$work/diverse.log" "$out/"
xz -9f "$out/diverse.log"
