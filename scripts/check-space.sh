#!/usr/bin/env bash
# The space's property test over a corpus: every .mlir file of the test suite
# (test/**/*.mlir, Inputs included) and a set of programs printed by
# tuner-gen. Each function's space is sampled uniformly and every sampled
# config is applied (--tuner-check-space; nothing is lowered or measured).
# Files the tuner refuses (deliberately invalid inputs, files without loop
# nests, kinds of IR it does not tune) are counted as refused, detected from
# the pass's report, not from a list.
#
# Usage: scripts/check-space.sh [--samples N] [--seed S] [--generated N]
#                               [--report FILE] [--tuner-opt PATH]
#                               [FILE.mlir...]
# Prints the failing configs (with their JSON and error) and a summary line;
# exits 1 when some config failed to apply. Needs build/bin/tuner-opt and
# build/bin/tuner-gen (scripts/build.sh tuner-opt tuner-gen).
set -euo pipefail
cd "$(dirname "$0")/.."

samples=20
seed=1
opt=build/bin/tuner-opt
generated=200
report=""
files=()
while [ $# -gt 0 ]; do
  case "$1" in
    --samples) samples="$2"; shift 2 ;;
    --seed) seed="$2"; shift 2 ;;
    --generated) generated="$2"; shift 2 ;;
    --report) report="$2"; shift 2 ;;
    --tuner-opt) opt="$2"; shift 2 ;;
    -h|--help) sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "check-space.sh: unknown option '$1'" >&2; exit 2 ;;
    *) files+=("$1"); shift ;;
  esac
done

gen=build/bin/tuner-gen
for tool in "$opt" "$gen"; do
  if [ ! -x "$tool" ]; then
    echo "check-space.sh: $tool is missing (scripts/build.sh tuner-opt tuner-gen)" >&2
    exit 2
  fi
done

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if [ ${#files[@]} -eq 0 ]; then
  while IFS= read -r f; do files+=("$f"); done \
    < <(find test -name '*.mlir' | LC_ALL=C sort)
  if [ "$generated" -gt 0 ]; then
    "$gen" --print-only --programs "$generated" --seed "$seed" \
      > "$work/generated.mlir"
    files+=("$work/generated.mlir")
  fi
fi

all="$work/all.txt"
: > "$all"
unparsed=0
splits=0
for f in "${files[@]}"; do
  # Each split of a file ('// -----') is a module of its own.
  rm -f "$work"/split-*.mlir
  awk -v prefix="$work/split-" '
    BEGIN { n = 0; file = sprintf("%s%05d.mlir", prefix, n) }
    /^\/\/ -----/ { n++; file = sprintf("%s%05d.mlir", prefix, n); next }
    { print > file }' "$f"
  for split in "$work"/split-*.mlir; do
    splits=$((splits + 1))
    out="$work/one.txt"
    : > "$out"
    # A split that does not parse or verify, or holds no function to check,
    # leaves no line in the report.
    "$opt" "$split" --mlir-print-op-on-diagnostic=false \
      --tuner-check-space="samples=$samples seed=$seed output=$out" \
      -o /dev/null > /dev/null 2> "$work/stderr.txt" || true
    if [ ! -s "$out" ]; then
      unparsed=$((unparsed + 1))
      continue
    fi
    sed "s|^|$f: |" "$out" >> "$all"
  done
done
[ -n "$report" ] && cp "$all" "$report"

grep -F ': apply-failed ' "$all" || true
awk -v files="${#files[@]}" -v splits="$splits" -v unparsed="$unparsed" '
  / check-space @/ {
    functions++
    for (i = 1; i <= NF; i++) {
      if ($i == "samples") drawn += $(i - 1)
      if ($i == "distinct),") distinct += substr($(i - 1), 2)
      if ($i == "failed") failed += $(i - 1)
    }
    if ($0 !~ / 0 failed$/) failing++
  }
  / refused @/ { refused++ }
  END {
    printf "check-space: %d files, %d modules (%d without a function to " \
           "check), %d functions checked, %d refused; %d samples (%d " \
           "distinct configs) applied, %d failed to apply (in %d " \
           "functions)\n", files, splits, unparsed, functions, refused,
           drawn, distinct, failed, failing
    exit failed > 0
  }' "$all"
