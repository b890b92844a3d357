#!/usr/bin/env python3
"""How a flag set moves the code's times against -O3: geometric means of
the candidates' and the baselines' time ratios (run over reference).
  shift.py RUN REFERENCE"""
import json, math, sys
from pathlib import Path

def load(folder):
    samples, baselines = {}, {}
    for f in Path(folder).glob("samples-*.jsonl"):
        for line in f.open():
            s = json.loads(line)
            if s["status"] == "ok":
                key = (s["program"], json.dumps(s["config"], sort_keys=True))
                samples[key] = s["median_seconds"]
    for f in Path(folder).glob("programs-*.jsonl"):
        for line in f.open():
            p = json.loads(line)
            if p.get("baseline_seconds"):
                baselines[p["id"]] = p["baseline_seconds"]
    return samples, baselines

run, ref = load(sys.argv[1]), load(sys.argv[2])
def gm(pairs):
    logs = [math.log(a / b) for a, b in pairs if a > 0 and b > 0]
    return math.exp(sum(logs) / len(logs)), len(logs), \
        sum(1 for l in logs if l > math.log(1.1)), sum(1 for l in logs if l < -math.log(1.1))
for name, (a, b) in (("candidates", (run[0], ref[0])), ("baselines", (run[1], ref[1]))):
    common = [(a[k], b[k]) for k in a if k in b]
    g, n, slower, faster = gm(common)
    print(f"{name}: {n} pairs, time ratio geometric mean {g:.3f}, "
          f"{slower} over 10 % slower, {faster} over 10 % faster")
