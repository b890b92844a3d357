#!/usr/bin/env python3
"""Summary of probe.c's output: each column over its least time, quantiles,
the share of probes with the 256-KiB read over 1.15x, and how long such
spells last (in probes, 0.25 s each). Usage: summary.py probe.txt"""
import sys

import numpy as np

d = np.loadtxt(sys.argv[1])
r = d[:, 1:] / d[:, 1:].min(axis=0)
for c, name in enumerate(["64 MiB read", "8 MiB read", "256 KiB read",
                          "dependent FMA chain"]):
    q = np.quantile(r[:, c], [.5, .9, .95, 1.0])
    print(f"{name}: median {q[0]:.2f}x, 90 % {q[1]:.2f}x, 95 % {q[2]:.2f}x, "
          f"max {q[3]:.2f}x of its least")
slow = r[:, 2] > 1.15
runs, cur = [], 0
for x in slow:
    if x:
        cur += 1
    elif cur:
        runs.append(cur)
        cur = 0
print(f"{len(d)} probes; 256 KiB read over 1.15x in {100 * slow.mean():.0f} %, "
      f"in spells of {min(runs)}-{max(runs)} probes")
