#!/usr/bin/env python3
"""table.py ROUND...: run.sh's rounds summed up (Markdown on stdout).

Per kernel, the MCTS loss against BSE as the searches recorded it and as
retimed side by side (compare_search.py's "MCTS loss" and "MCTS retimed
loss" columns of suite-ROUND.md and heldout-ROUND.md beside this script),
each round's and their mean; per set, the mean over its kernels; and the
BSE/MCTS time ratio."""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def rows(path):
    """kernel -> {column: text} of a compare_search.py table."""
    lines = [l for l in open(path) if l.startswith("|")]
    header = [c.strip() for c in lines[0].strip().strip("|").split("|")]
    out = {}
    for line in lines[2:]:
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if cells[0].startswith("**"):
            continue
        out[cells[0]] = dict(zip(header, cells))
    return out


def number(text):
    return float(text.rstrip("%x"))


def mean(xs):
    return sum(xs) / len(xs)


def main():
    rounds = sys.argv[1:]
    if not rounds:
        sys.exit("usage: table.py ROUND...")
    print("| set | kernel | recorded loss (" + ", ".join(rounds) +
          ") | **retimed loss** (" + ", ".join(rounds) +
          ") | BSE/MCTS time |")
    print("|---|---|---|---|---|")
    for name, label in (("suite", "suite"), ("heldout", "held out")):
        tables = [rows(os.path.join(HERE, f"{name}-{r}.md")) for r in rounds]
        kernels = list(tables[0])
        means = {"recorded": [], "retimed": [], "ratio": []}
        for k in kernels:
            recorded = [number(t[k]["MCTS loss"]) for t in tables]
            retimed = [number(t[k]["MCTS retimed loss"]) for t in tables]
            ratio = [number(t[k]["BSE/MCTS time"]) for t in tables]
            means["recorded"].append(recorded)
            means["retimed"].append(retimed)
            means["ratio"].append(ratio)
            print(f"| {label} | {k} | {mean(recorded):.1f} % ("
                  + ", ".join(f"{x:.1f}" for x in recorded) + f") | {mean(retimed):.1f} % ("
                  + ", ".join(f"{x:.1f}" for x in retimed) + f") | {mean(ratio):.1f}x |")
        per_round = lambda key: [sum(col) / len(col) for col in zip(*means[key])]
        rec, ret, rat = per_round("recorded"), per_round("retimed"), per_round("ratio")
        print(f"| **{label}** | **mean of {len(kernels)}** | {mean(rec):.1f} % ("
              + ", ".join(f"{x:.1f}" for x in rec) + f") | **{mean(ret):.1f} %** ("
              + ", ".join(f"{x:.1f}" for x in ret) + f") | {mean(rat):.1f}x |")


if __name__ == "__main__":
    main()
