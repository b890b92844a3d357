#!/usr/bin/env python3
"""Sums up run.sh's retimings: per kernel, BSE's speedup as its search
recorded it and as retimed; per search family (a label without its round,
e.g. MCTS/shipped), the mean loss against BSE over its rounds, recorded
(each search's own best timing against BSE's) and retimed (every best
schedule of a kernel timed in one run), per kernel and averaged over the
suite and the held-out kernels.

Usage: table.py DIR [DIR ...] > table.md   (DIR: a run.sh output, e.g.
first; with several, a retimed loss is the mean of each DIR's loss and
BSE's retimed speedup is listed per DIR)
"""
import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SUITE = ["cvtcolor", "heat2d", "heat3d", "jacobi2d", "mvt", "seidel2d"]
HELDOUT = ["blur1d", "rowsumsq", "vecmat"]


def family(label):
    """The search without its round; session 13's MCTS used the shipped
    model too, so it is a fourth round of MCTS/shipped."""
    return re.sub(r"/r\d$", "", label).replace("MCTS/s13", "MCTS/shipped")


def main():
    dirs = sys.argv[1:] or ["first"]
    runs_of = [{k: json.load(open(os.path.join(HERE, d, k + ".json")))
                for k in SUITE + HELDOUT} for d in dirs]
    data = runs_of[0]
    families = []
    for results in data.values():
        for label in results:
            if label != "BSE" and family(label) not in families:
                families.append(family(label))
    print("| kernel | BSE recorded | BSE retimed (" + ", ".join(dirs)
          + ") | distinct schedules timed |")
    print("|---|---|---|---|")
    for kernel, results in data.items():
        bse = results["BSE"]
        files = {r["file"] for r in results.values()}
        retimed = ", ".join(f"{run[kernel]['BSE']['retimed']:.2f}x"
                            for run in runs_of)
        print(f"| {kernel} | {bse['recorded']:.2f}x | {retimed} | "
              f"{len(files)} |")
    print()
    print("Mean loss against BSE over a family's rounds, recorded / "
          "**retimed** (negative: better than BSE):")
    print()
    print("| search | " + " | ".join(SUITE + HELDOUT)
          + " | suite mean | held-out mean | runs |")
    print("|---|" + "---|" * (len(SUITE) + len(HELDOUT) + 3))
    for fam in families:
        cells, means = [], {"suite": [], "heldout": []}
        runs = 0
        for kernel in SUITE + HELDOUT:
            results = data[kernel]
            bse = results["BSE"]
            labels = [label for label in results
                      if label != "BSE" and family(label) == fam]
            runs = max(runs, len(labels))
            if not labels or any(run[kernel][label]["retimed"] is None
                                 for run in runs_of for label in labels):
                cells.append("—")
                continue
            recorded = sum(1 - results[label]["recorded"] / bse["recorded"]
                           for label in labels) / len(labels)
            retimed = sum(1 - run[kernel][label]["retimed"]
                          / run[kernel]["BSE"]["retimed"]
                          for run in runs_of for label in labels) \
                / (len(labels) * len(runs_of))
            means["suite" if kernel in SUITE else "heldout"].append(
                (recorded, retimed))
            cells.append(f"{100 * recorded:.1f} / **{100 * retimed:.1f}** %")
        for key, kernels in (("suite", SUITE), ("heldout", HELDOUT)):
            rows = means[key]
            if len(rows) == len(kernels):
                cells.append(f"{100 * sum(r[0] for r in rows) / len(rows):.1f}"
                             f" / **{100 * sum(r[1] for r in rows) / len(rows):.1f}** %")
            else:
                cells.append("—")
        print(f"| {fam} | " + " | ".join(cells) + f" | {runs} |")


if __name__ == "__main__":
    main()
