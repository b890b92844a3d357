#!/usr/bin/env bash
# Trees against the network on data/2026-11-24-znver4-2c (issue 15, "an
# honest baseline"). Usage, from the repository root after a build:
#   benchmarks/results/2026-11-24-session4/gbt/run.sh build/gbt [SEEDS...]
# Unpacks the dataset into WORK, trains per seed one network (--loss log),
# trees on the squared log error and trees with rank:pairwise, all on the
# seed's split, evaluates each on the seed's test programs, and the shipped
# model on the same test programs (and on all programs), and, for seed 1,
# an ensemble of four networks; writes eval-*.json there. summarize.py makes the table.
set -euo pipefail
root=$(cd "$(dirname "$0")/../../../.." && pwd)
work=$1; shift
seeds=("$@"); [ ${#seeds[@]} -gt 0 ] || seeds=(1 2 3 4 5)
train=$root/build/bin/tuner-train
mkdir -p "$work" && cd "$work"
[ -d dataset ] || tar -xJf "$root/data/2026-11-24-znver4-2c/dataset.tar.xz"
shipped=$root/models/cpu-default.model.json
"$train" --evaluate --model "$shipped" dataset --all --json eval-shipped-all.json > /dev/null
for s in "${seeds[@]}"; do
  "$train" dataset -o net-s$s.json --seed $s --loss log > net-s$s.log
  "$train" dataset -o gbt-s$s.json --seed $s --model-kind gbt > gbt-s$s.log
  "$train" dataset -o gbtpw-s$s.json --seed $s --model-kind gbt --gbt-objective pairwise > gbtpw-s$s.log
  for m in net gbt gbtpw; do
    "$train" --evaluate --model $m-s$s.json dataset --json eval-$m-s$s.json > /dev/null
  done
  # The shipped model on the same test programs: a dataset of only those.
  rm -rf test-s$s && mkdir test-s$s
  /usr/bin/python3 - net-s$s.json test-s$s <<'PY'
import json, sys
test = set(json.load(open(sys.argv[1]))["dataset"]["test_programs"])
for kind, key in (("programs", "id"), ("samples", "program")):
    with open(f"dataset/{kind}-s0-of-1.jsonl") as src, open(f"{sys.argv[2]}/{kind}.jsonl", "w") as out:
        for line in src:
            if json.loads(line)[key] in test:
                out.write(line)
PY
  "$train" --evaluate --model "$shipped" test-s$s --all --json eval-shipped-s$s.json > /dev/null
done
# Four networks by cross-validation, seed 1 only (the shipped model's recipe).
"$train" dataset -o net4-s1.json --seed 1 --loss log --ensemble 4 --jobs 2 > net4-s1.log
"$train" --evaluate --model net4-s1.json dataset --json eval-net4-s1.json > /dev/null
