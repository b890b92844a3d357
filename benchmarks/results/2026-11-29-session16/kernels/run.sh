#!/usr/bin/env bash
# Does the cost model learn from the records of tuning runs to rank, and
# to search, kernels it never saw?
#
# The records: session 13's complete BSE searches (beam width 4, every node
# of the tree measured) of six suite kernels and four held-out kernels
# (benchmarks/results/2026-11-29-session13/search/searches.tar.xz; matmul_tn's
# BSE capped at 250 measurements), measured on the quiet 2-core Zen 5 VM.
#
# Three models, each fine-tuned from the shipped one with session 12's recipe
# (log + RankNet, ensemble of 4, lr 0.001, 60 epochs, patience 20, seed 1):
#   shipped  models/cpu-default.model.json (Zen 3 random programs)
#   random   fine-tuned on this machine's random programs (seeds 2028, 2029
#            and the large-tensor 2030: data/2026-11-2[89]-znver5-2c*)
#   records  fine-tuned on the same random programs plus the BSE records of
#            the suite kernels: for a suite kernel, those of the five other
#            suite kernels (it is left out); for a held-out kernel, those of
#            all six (no held-out kernel is ever trained on)
# Part 1 (ranking): each model on each kernel's BSE records (table.md).
# Part 2 (search): MCTS with its defaults (top-k 8) guided by each model,
# against the BSE of session 13 (taken as it is, --resume), on the six suite
# kernels and the three held-out kernels whose BSE is complete (search.md),
# in three rounds (the models in one order, then in the other, then in the
# first again, so that the machine's drift does not favour one).
# Part 3 (search): the same with a diverse top k (MCTS+diverse,
# diverse-top-k=true, session 14's best variant), the shipped and the records
# model, three rounds (diverse.md).
#
# About 55 minutes on 2 cores, nothing else running (parts 2 and 3 measure).
# A run that is stopped resumes: what WORK holds already is taken as it is.
# Usage: run.sh [WORK]
set -euo pipefail
cd "$(dirname "$0")/../../../.."
out=benchmarks/results/2026-11-29-session16/kernels
work=${1:-build/kernels16}
bin=build/bin
suite="cvtcolor heat2d heat3d jacobi2d mvt seidel2d"
heldout="blur1d matmul_tn rowsumsq vecmat"
mkdir -p "$work/searches" "$work/random" "$work/eval"
[ -d "$work/searches/suite" ] ||
  tar -xJf benchmarks/results/2026-11-29-session13/search/searches.tar.xz -C "$work/searches"
[ -f "$work/random/samples-2026-11-29-znver5-2c-large.jsonl" ] ||
for d in data/2026-11-28-znver5-2c data/2026-11-29-znver5-2c data/2026-11-29-znver5-2c-large; do
  t=$(mktemp -d)
  tar -xJf "$d/dataset.tar.xz" -C "$t"
  for kind in programs samples; do
    cp "$t/dataset/$kind-s0-of-1.jsonl" "$work/random/$kind-$(basename "$d").jsonl"
  done
  rm -rf "$t"
done
db() { # db KERNEL: its BSE records
  if [ -f "$work/searches/suite/$1-BSE.db" ]; then echo "$work/searches/suite/$1-BSE.db"
  else echo "$work/searches/heldout/$1-BSE.db"; fi
}
train() { # train NAME INPUT...
  local name=$1; shift
  [ -f "$work/$name.json" ] && return
  $bin/tuner-train "$@" -o "$work/$name.json" --seed 1 --loss log+ranknet \
      --ensemble 4 --jobs 2 --init-from models/cpu-default.model.json --lr 0.001 \
      --epochs 60 --patience 20 > "$work/train-$name.log" 2>&1
}
model() { # model NAME KERNEL: the model file NAME ranks and searches KERNEL with
  case $1 in
    shipped) echo models/cpu-default.model.json ;;
    random) echo "$work/random.json" ;;
    records) if [ -f "$work/records-$2.json" ]; then echo "$work/records-$2.json"
             else echo "$work/records-suite.json"; fi ;;
  esac
}
train random "$work/random"
suite_dbs=()
for k in $suite; do suite_dbs+=("$(db "$k")"); done
train records-suite "$work/random" "${suite_dbs[@]}"
for k in $suite; do
  others=()
  for o in $suite; do [ "$o" = "$k" ] || others+=("$(db "$o")"); done
  train "records-$k" "$work/random" "${others[@]}"
done
for k in $suite $heldout; do
  for m in shipped random records; do
    $bin/tuner-train --evaluate --all --model "$(model $m "$k")" "$(db "$k")" \
        --json "$work/eval/$m-on-$k.json" > "$work/eval/$m-on-$k.txt" 2>&1
  done
done
python3 "$out/table.py" "$work" $suite $heldout > "$out/table.md"
cat "$out/table.md"

# Parts 2 and 3: the searches guided by each model; BSE taken from session
# 13's searches.
search() { # search STRATEGY LOG MODEL...: three rounds, the models reversed in the second
  local strategy=$1 log=$2; shift 2
  local round m w set dir k models
  for round in 1 2 3; do
    models=("$@")
    [ $round = 2 ] && models=($(printf '%s\n' "$@" | tac))
    for m in "${models[@]}"; do
      w="$work/search-$m-r$round"
      for set in suite heldout; do
        mkdir -p "$w/$set"
        cp "$work/searches/$set/"*-BSE.* "$w/$set/"
      done
      for k in $suite blur1d rowsumsq vecmat; do
        case " $suite " in *" $k "*) set=suite; dir=benchmarks/kernels ;;
                           *) set=heldout; dir=benchmarks/heldout/kernels ;; esac
        python3 benchmarks/compare_search.py --tuner-opt $bin/tuner-opt --beam-width 4 \
            --bse-budget 5000 --top-k 8 --strategies "$strategy" --resume --kernel-dir $dir \
            --work-dir "$w/$set" --kernels "$k" --model "$(model $m "$k")" \
            > /dev/null 2>> "$work/$log"
      done
    done
  done
}
search MCTS search.log shipped random records
python3 "$out/search_table.py" "$work" $suite -- blur1d rowsumsq vecmat > "$out/search.md"
cat "$out/search.md"
# the MCTS searches (BSE is in session 13's archive)
tar -cJf "$out/searches.tar.xz" -C "$work" --exclude='*-BSE.*' --exclude='*MCTS-diverse*' \
    search-shipped-r1 search-random-r1 search-records-r1 \
    search-shipped-r2 search-random-r2 search-records-r2 \
    search-shipped-r3 search-random-r3 search-records-r3
cp "$work"/train-*.log "$work/search.log" "$out/"
xz -9f "$out"/train-*.log "$out/search.log"

search MCTS+diverse diverse.log shipped records
python3 "$out/search_table.py" --label MCTS-diverse --models shipped,records "$work" \
    $suite -- blur1d rowsumsq vecmat > "$out/diverse.md"
cat "$out/diverse.md"
(cd "$work" && find search-shipped-r[123] search-records-r[123] \
    -name '*MCTS-diverse*' | sort) |
  tar -cJf "$out/diverse-searches.tar.xz" -C "$work" -T -
cp "$work/diverse.log" "$out/"
xz -9f "$out/diverse.log"
