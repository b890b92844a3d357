#!/usr/bin/env python3
"""The README's compact table of one or more benchmarks/run.py results
(.json): baseline, tuned, speedup, GFLOP/s and the peers most users
compare with, one row per kernel.

  table.py suite-t2.json
"""
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from run import fmt_time, tuned_time  # noqa: E402

PEERS = ("c_o3", "polly_parallel", "openblas", "onednn", "halide_adams2019")


def main():
    print("| kernel | baseline | tuned | speedup | GFLOP/s | C -O3 | "
          "Polly parallel | OpenBLAS | oneDNN | Halide Adams2019 | search |")
    print("|---" * 11 + "|")
    for path in sys.argv[1:]:
        for row in json.load(open(path))["rows"]:
            summary = row["summary"]
            baseline = summary["baseline"]["median_s"]
            tuned = tuned_time(row)
            speedup = baseline / tuned
            if not summary["best"].get("applied"):
                speedup_text = "1.00x (best %.2fx, not applied)" % (
                    summary["best"].get("speedup", 0))
            else:
                speedup_text = "%.2fx" % speedup
            peers = [fmt_time(row[k]["median_s"]) if row.get(k) else "—"
                     for k in PEERS]
            failed = sum(summary.get("failed", {}).values())
            search = "%d cand.%s, %.0f s" % (
                summary["candidates"],
                ", %d failed" % failed if failed else "",
                summary["search_seconds"])
            print("| %s | %s | %s | %s | %.1f | %s | %s |" % (
                row["kernel"], fmt_time(baseline), fmt_time(tuned),
                speedup_text, row["flops"] / tuned / 1e9, " | ".join(peers),
                search))


if __name__ == "__main__":
    main()
