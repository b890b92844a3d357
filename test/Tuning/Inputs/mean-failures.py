#!/usr/bin/env python3
"""Compares the mean number of failed configs per run of --runs summaries.

Prints one line per summary, then the strategy with the fewest failures.
Usage: mean-failures.py SUMMARY.json...
"""
import json
import sys

means = []
for path in sys.argv[1:]:
    with open(path) as f:
        summary = json.load(f)
    failed = [sum(run["failed"].values()) for run in summary["runs"]]
    mean = sum(failed) / len(failed)
    means.append((mean, summary["strategy"]))
    print("%s: %.2f failed per run of %d" % (summary["strategy"], mean,
                                             len(failed)))
print("fewest failures: %s" % min(means)[1])
