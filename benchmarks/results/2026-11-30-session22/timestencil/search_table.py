#!/usr/bin/env python3
"""search_table.py MODEL,... ROUND...: run.sh's part 2 summed up (Markdown
on stdout).

Per kernel and model: MCTS's loss against BSE as retimed side by side
(compare_search.py's "MCTS retimed loss" column of suite-MODEL-ROUND.md and
heldout-MODEL-ROUND.md beside this script), the mean over the rounds and
each round's; per set, the mean over its kernels; and the BSE/MCTS time
ratio (mean over the rounds)."""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
# compare_search.py's tables read as session 21's one-run table does
sys.path.insert(0, os.path.join(HERE, "..", "..", "2026-11-30-session21", "onerun"))
from table import mean, number, rows  # noqa: E402


def cell(xs, unit=" %"):
    return f"{mean(xs):.1f}{unit} (" + ", ".join(f"{x:.1f}" for x in xs) + ")"


def main():
    if len(sys.argv) < 3:
        sys.exit("usage: search_table.py MODEL,... ROUND...")
    models, rounds = sys.argv[1].split(","), sys.argv[2:]
    print("| set | kernel | " + " | ".join(
        f"{m}: retimed loss ({', '.join(rounds)})" for m in models) + " | " +
        " | ".join(f"{m}: BSE/MCTS time" for m in models) + " |")
    print("|---|---|" + "---|" * (2 * len(models)))
    for name, label in (("suite", "suite"), ("heldout", "held out")):
        tables = {m: [rows(os.path.join(HERE, f"{name}-{m}-{r}.md")) for r in rounds]
                  for m in models}
        kernels = list(tables[models[0]][0])
        per_round = {m: [] for m in models}
        ratios = {m: [] for m in models}
        for k in kernels:
            losses, times = [], []
            for m in models:
                xs = [number(t[k]["MCTS retimed loss"]) for t in tables[m]]
                rs = [number(t[k]["BSE/MCTS time"]) for t in tables[m]]
                per_round[m].append(xs)
                ratios[m].append(rs)
                losses.append(cell(xs))
                times.append(f"{mean(rs):.1f}x")
            print(f"| {label} | {k} | " + " | ".join(losses) + " | " + " | ".join(times) + " |")
        cells = []
        for m in models:
            by_round = [mean(col) for col in zip(*per_round[m])]
            cells.append("**" + cell(by_round) + "**")
        times = [f"{mean([mean(col) for col in zip(*ratios[m])]):.1f}x" for m in models]
        print(f"| **{label}** | **mean of {len(kernels)}** | " + " | ".join(cells) + " | "
              + " | ".join(times) + " |")


if __name__ == "__main__":
    main()
