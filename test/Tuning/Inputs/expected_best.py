"""Checks tuner-search --runs against the exact expectation of a table.

expected_best.py TABLE SUMMARY BUDGET: the mean best objective of random
search with BUDGET configs per run, over runs that found an ok config, must
match the table's expectation for uniform sampling without replacement
within four standard errors; prints both.
"""
import json
import math
import sys
from math import comb

table, summary, budget = sys.argv[1], sys.argv[2], int(sys.argv[3])
rows = [json.loads(line) for line in open(table) if line.strip()]
n = len(rows)
ok = sorted(r["time"] for r in rows if r["status"] == "ok")
# P(best = ok[i]) = P(ok[i] sampled, none of ok[:i] sampled): choose the
# other budget-1 configs among the n-1-i configs that are neither better
# ok ones nor ok[i] itself.
total = comb(n, budget)
weights = [comb(n - 1 - i, budget - 1) / total for i in range(len(ok))]
found = sum(weights)
expected = sum(w * v for w, v in zip(weights, ok)) / found

result = json.load(open(summary))
runs = [r for r in result["runs"] if r["best"] is not None]
values = [r["best"]["objective"] for r in runs]
mean = sum(values) / len(values)
deviation = math.sqrt(sum((v - mean) ** 2 for v in values) / (len(values) - 1))
error = deviation / math.sqrt(len(values))
print(f"expected {expected:.3f}, measured {mean:.3f} +- {error:.3f}")
assert abs(result["best_mean"] - mean) < 1e-9, "best_mean is not the mean"
sys.exit(0 if abs(mean - expected) <= 4 * error else 1)
