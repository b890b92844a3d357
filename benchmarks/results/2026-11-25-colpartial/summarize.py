#!/usr/bin/env python3
"""Best median (and best min) per size and binary over the rounds of a
run.sh log, GFLOP/s, and each size's GFLOP/s relative to 1024³ of the same
binary. Usage: summarize.py LOG..."""
import re, sys
from collections import defaultdict

SIZES = {"matmul_1021": 1021, "matmul_1023": 1023, "matmul_1000": 1000,
         "matmul": 1024}
line_re = re.compile(r"round (\d+) (\w+) (\w+): \S+\.(\w+)\.(old|new)\.mlir"
                     r".*?median ([\d.]+) ms\s+min ([\d.]+) ms")
medians = defaultdict(list)
mins = defaultdict(list)
for path in sys.argv[1:]:
    for line in open(path):
        m = line_re.search(line)
        if not m:
            continue
        _, part, size, _, variant, median, best = m.groups()
        medians[(part, size, variant)].append(float(median))
        mins[(part, size, variant)].append(float(best))
parts = sorted({k[0] for k in medians})
for part in parts:
    print(f"## {part}: best median (best min) over "
          f"{len(medians[(part, 'matmul', 'old')])} rounds")
    print("| size | old ms | new ms | new/old speed | old GFLOP/s | "
          "new GFLOP/s | old vs 1024³ | new vs 1024³ |")
    print("|---|---|---|---|---|---|---|---|")
    gf = {}
    for size, n in SIZES.items():
        for v in ("old", "new"):
            t = min(medians[(part, size, v)])
            gf[(size, v)] = 2 * n**3 / (t * 1e-3) / 1e9
    for size, n in SIZES.items():
        o, w = min(medians[(part, size, "old")]), min(medians[(part, size, "new")])
        mo, mw = min(mins[(part, size, "old")]), min(mins[(part, size, "new")])
        print(f"| {n}³ | {o:.1f} ({mo:.1f}) | {w:.1f} ({mw:.1f}) | "
              f"{o / w:.2f}x | {gf[(size, 'old')]:.0f} | {gf[(size, 'new')]:.0f} | "
              f"{gf[(size, 'old')] / gf[('matmul', 'old')] * 100:.0f} % | "
              f"{gf[(size, 'new')] / gf[('matmul', 'new')] * 100:.0f} % |")
