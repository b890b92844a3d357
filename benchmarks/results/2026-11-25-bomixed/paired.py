#!/usr/bin/env python3
"""Pairs the replays of bo:32 (the uniform initial design, the default
before this change) and bo:32 with initial-design=mixed seed by seed over
every result file given, and prints per table the means, the mean paired
difference with its standard error, and the geometric means over tables."""
import json
import lzma
import math
import statistics
import sys

UNIFORM = "bo:32"
MIXED = "bo:32:strategy-options=initial-design=mixed"
runs = {}
for path in sys.argv[1:]:
    data = json.load(lzma.open(path, "rt"))
    for entry in data["runs"]:
        for r in entry["results"]:
            runs[(entry["table"], entry["run"], r["seed"])] = r["fraction"]
tables = ["matmul", "conv", "stencil", "affine", "doitgen"]
print("| table | seeds | uniform (old default) | mixed | mixed - uniform "
      "(± s.e.) | runs better / worse / equal |")
print("|---|---|---|---|---|---|")
means = {UNIFORM: [], MIXED: []}
for table in tables:
    seeds = sorted(s for (t, run, s) in runs if t == table and run == UNIFORM
                   and (t, MIXED, s) in runs)
    if not seeds:
        continue
    u = [runs[(table, UNIFORM, s)] for s in seeds]
    m = [runs[(table, MIXED, s)] for s in seeds]
    d = [b - a for a, b in zip(u, m)]
    se = statistics.stdev(d) / math.sqrt(len(d))
    means[UNIFORM].append(statistics.mean(u))
    means[MIXED].append(statistics.mean(m))
    print(f"| {table} | {seeds[0]}-{seeds[-1]} | {statistics.mean(u):.3f} | "
          f"{statistics.mean(m):.3f} | {statistics.mean(d):+.3f} (± {se:.3f}) "
          f"| {sum(x > 1e-9 for x in d)} / {sum(x < -1e-9 for x in d)} / "
          f"{sum(abs(x) <= 1e-9 for x in d)} |")
g = {k: math.exp(statistics.mean(math.log(x) for x in v))
     for k, v in means.items()}
print(f"| **geomean** | | **{g[UNIFORM]:.3f}** | **{g[MIXED]:.3f}** | "
      f"{g[MIXED] - g[UNIFORM]:+.3f} | |")
