#!/usr/bin/env python3
"""Writes the replay table of bo-space.json (696 configs) as JSON lines.

A pretend kernel whose time is smooth in the logs of the tile sizes, in the
loop order (the squared displacements from [1, 0, 2]) and in vectorization:
    1 + 0.3 (log2 tx - 4)^2 + 0.5 (log2 ty - 3)^2
      + 0.4 sum_i (order_i - [1, 0, 2]_i)^2 + (0 if vec else 1.5),
so the optimum is tx=16, ty=8, order=[1, 0, 2], vec=true with time 1. Every
config with ty >= 32 crashes: a whole region beside the optimum fails.
Usage: bo-table.py OUT.jsonl
"""
import itertools
import json
import math
import sys

sizes = [1, 2, 4, 8, 16, 32, 64, 128]
with open(sys.argv[1], "w") as out:
    for tx, ty in itertools.product(sizes, sizes):
        if tx * ty > 2048:
            continue
        for order in itertools.permutations(range(3)):
            for vec in (False, True):
                config = {"tx": tx, "ty": ty, "order": list(order), "vec": vec}
                row = {"config": config, "compile_s": 0.5, "run_s": 0.25}
                if ty >= 32:
                    row.update(time=None, status="crashed")
                else:
                    time = (1 + 0.3 * (math.log2(tx) - 4) ** 2
                            + 0.5 * (math.log2(ty) - 3) ** 2
                            + 0.4 * sum((o - b) ** 2
                                        for o, b in zip(order, (1, 0, 2)))
                            + (0 if vec else 1.5))
                    row.update(time=round(time, 6), status="ok")
                out.write(json.dumps(row, sort_keys=True) + "\n")
