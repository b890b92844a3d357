#!/usr/bin/python3
"""How a flag set moves the code's times against -O3: geometric means of
the candidates' and the baselines' time ratios (run over reference).
  shift.py RUN REFERENCE"""
import math
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[4] / "python"))
from measurement_noise import read_dataset  # noqa: E402


def times(folder):
    programs, samples = read_dataset(folder)
    return ({key: s["seconds"] for key, s in samples.items() if s["ok"]},
            {name: p["baseline"] for name, p in programs.items()})


def gm(pairs):
    logs = [math.log(a / b) for a, b in pairs if a > 0 and b > 0]
    return math.exp(sum(logs) / len(logs)), len(logs), \
        sum(1 for l in logs if l > math.log(1.1)), sum(1 for l in logs if l < -math.log(1.1))


run, ref = times(sys.argv[1]), times(sys.argv[2])
for name, (a, b) in (("candidates", (run[0], ref[0])), ("baselines", (run[1], ref[1]))):
    common = [(a[k], b[k]) for k in a if k in b]
    g, n, slower, faster = gm(common)
    print(f"{name}: {n} pairs, time ratio geometric mean {g:.3f}, "
          f"{slower} over 10 % slower, {faster} over 10 % faster")
