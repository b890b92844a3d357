#!/usr/bin/env python3
"""Checks compare.py's exact expectation of random sampling against a
brute-force enumeration of every sample, and its score arithmetic.

    python3 benchmarks/strategies/test_compare.py
"""

import itertools
import math
import sys
from pathlib import Path

sys.dont_write_bytecode = True
sys.path.insert(0, str(Path(__file__).resolve().parent))
import compare  # noqa: E402


def brute_force(values, budget, maximize, of=lambda v: v, nothing=None):
    """The mean over every sample of `budget` rows of of(its best ok value)
    (`nothing`, by default the worst ok value, when the sample holds only
    failures)."""
    ok = [v for v in values if v is not None]
    if nothing is None:
        nothing = of(min(ok) if maximize else max(ok))
    pick = max if maximize else min
    samples = list(itertools.combinations(range(len(values)), budget))
    total = 0.0
    for sample in samples:
        found = [values[i] for i in sample if values[i] is not None]
        total += of(pick(found)) if found else nothing
    return total / len(samples)


def main():
    tables = [
        [3.0, 1.0, 2.0],
        [5.0, None, 2.5, 2.5, None, 7.0, 1.5, None],
        [None, None, None, 4.0],
        [0.25, 8.0, 1.0, None, 1.0, 3.0, 0.5, 6.0, None, 2.0],
    ]
    checked = 0
    for values in tables:
        for maximize in (False, True):
            for budget in range(1, len(values) + 1):
                exact = compare.expected_random_best(values, budget, maximize)
                enumerated = brute_force(values, budget, maximize)
                assert math.isclose(exact, enumerated, rel_tol=1e-12), \
                    (values, budget, maximize, exact, enumerated)
                # The expected fraction of the optimum, as tabulated.
                optimum = compare.ordered_values(values, maximize)[0]
                share = lambda v: compare.fraction(v, optimum, maximize)
                exact = compare.expected_random_best(values, budget, maximize,
                                                     of=share, nothing=0.0)
                enumerated = brute_force(values, budget, maximize, of=share,
                                         nothing=0.0)
                assert math.isclose(exact, enumerated, rel_tol=1e-12), \
                    (values, budget, maximize, exact, enumerated)
                checked += 1
    # A budget beyond the table is the whole table: the optimum.
    assert compare.expected_random_best([3.0, None, 1.0], 10) == 1.0

    # Scores: the optimum scores 1, random's expectation 0, a run that
    # found nothing counts as the worst value.
    values = [4.0, 1.0, 2.0, None]
    expected = compare.expected_random_best(values, 2)
    stats = compare.score_budget(values, [1.0, expected, None], 2, False)
    worst_score = (expected - 4.0) / (expected - 1.0)
    assert math.isclose(stats["score"], (1 + 0 + worst_score) / 3)
    assert stats["found_optimum"] == 1 and stats["found_nothing"] == 1
    assert math.isclose(stats["fraction_mean"], (1 + 1 / expected + 0) / 3)
    assert math.isclose(stats["random_fraction"], brute_force(
        values, 2, False, of=lambda v: 1 / v, nothing=0.0))
    # Maximized: the same formula with the order reversed.
    stats = compare.score_budget(values, [4.0, 4.0], 1, True)
    assert stats["score"] == 1 and stats["fraction_mean"] == 1
    # Where random sampling surely finds the optimum there is no score.
    assert compare.score_budget(values, [1.0], 4, False)["score"] is None
    print(f"expectation: {checked} cases match the enumeration; scores ok")


if __name__ == "__main__":
    main()
