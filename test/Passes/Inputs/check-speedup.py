"""Checks an autotune summary: the function the pass leaves behind is never
slower than the untransformed one. Either the best verified schedule beats
it and was applied, or none did and the function was kept as it is. Prints
the strategy that ran and how many candidates were measured."""
import json
import sys

summary = json.load(open(sys.argv[1]))
best = summary["best"]
if best is not None and best["speedup"] > 1.0 and not best["applied"]:
    sys.exit("a faster schedule (%.2fx) was found but not applied" % best["speedup"])
if best is not None and best["applied"] and best["speedup"] <= 1.0:
    sys.exit("a schedule no faster than the baseline (%.2fx) was applied" % best["speedup"])
print("%s: never slower than the baseline, %d measured"
      % (summary["strategy"], summary["measured"]))
