#!/usr/bin/env python3
"""Ratios of one benchmarks/run.py table (its .json): per kernel, the tuned
kernel against C -O3, Polly parallel, OpenBLAS and Halide Adams2019 (peer
time / tuned time: above 1, the tuner is faster), and the geometric mean
over C -O3.

  ratios.py suite-t2.json [heldout-t2.json ...]
"""
import json
import math
import sys


def tuned_seconds(row):
    best = row["summary"]["best"]
    if best.get("applied"):
        return best["median_s"]
    return row["summary"]["baseline"]["median_s"]


def main():
    for path in sys.argv[1:]:
        data = json.load(open(path))
        print("%s (%s, threads %s)" % (path, data["machine"], data["threads"]))
        print("%-14s %10s %8s %8s %8s %8s" % (
            "kernel", "tuned", "C -O3", "Polly-p", "OpenBLAS", "Adams"))
        logs = []
        for row in data["rows"]:
            tuned = tuned_seconds(row)
            cells = []
            for key in ("c_o3", "polly_parallel", "openblas",
                        "halide_adams2019"):
                peer = row.get(key)
                if peer and peer.get("median_s"):
                    cells.append("%7.2fx" % (peer["median_s"] / tuned))
                    if key == "c_o3":
                        logs.append(math.log(peer["median_s"] / tuned))
                else:
                    cells.append("%8s" % "—")
            print("%-14s %8.3gms %s" % (row["kernel"], tuned * 1e3,
                                         " ".join(cells)))
        if logs:
            print("geometric mean over C -O3: %.2fx (%d kernels)"
                  % (math.exp(sum(logs) / len(logs)), len(logs)))


if __name__ == "__main__":
    main()
