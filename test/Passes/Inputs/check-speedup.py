"""Checks an autotune summary: the best verified schedule is at least as fast
as the untransformed function, and it was applied. Prints the strategy."""
import json
import sys

summary = json.load(open(sys.argv[1]))
best = summary["best"]
if best is None:
    sys.exit("no candidate was verified")
if best["speedup"] < 1.0:
    sys.exit("the best schedule is slower than the baseline: %.2fx" % best["speedup"])
if not best["applied"]:
    sys.exit("the best schedule was not applied")
print("%s: at least as fast as the baseline" % summary["strategy"])
