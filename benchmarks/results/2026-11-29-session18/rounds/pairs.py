#!/usr/bin/env python3
"""Label noise of the runs of run.sh, by --rounds: every pair of runs with
the same --rounds compared by python/measurement_noise.py (MAPE of the
speedups, within-program Spearman, baseline changes), plus the MAPE of the
candidates' times once each program's common shift is taken out (what the
ordering within a program sees), and each run's wall and harness time.

Usage: pairs.py WORK_DIR LABEL=RUN,RUN,... [LABEL=...] > pairs.md
(WORK_DIR holds run.out and the runs; each group's runs are compared
pairwise, e.g. "1 round=a1,b1,c1")
"""
import glob
import itertools
import json
import os
import re
import subprocess
import sys
import tempfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
NOISE = os.path.join(HERE, "../../../../python/measurement_noise.py")


def samples(folder):
    out = {}
    for path in glob.glob(os.path.join(folder, "samples*.jsonl")):
        for line in open(path):
            r = json.loads(line)
            if r["status"] == "ok" and r["foreign_load"] <= 0.5:
                out[(r["program"], json.dumps(r["config"], sort_keys=True))] = r
    return out


def centred_time_mape(a, b):
    """MAPE of candidate times between two runs after removing each
    program's mean log shift."""
    sa, sb = samples(a), samples(b)
    keys = [k for k in sa if k in sb]
    logs = {}
    for k in keys:
        logs.setdefault(k[0], []).append(
            np.log(sa[k]["median_seconds"] / sb[k]["median_seconds"]))
    err = np.concatenate([np.array(v) - np.mean(v) for v in logs.values()])
    return float(np.mean(np.abs(np.exp(err) - 1)))


def main():
    work = sys.argv[1]
    runs = {}
    for line in open(os.path.join(work, "run.out")):
        m = re.match(r"(\S+) rounds=(\d+) (\S+) (\S+) s", line)
        if m:
            runs[m.group(1)] = (int(m.group(2)), m.group(3), float(m.group(4)))
    print("| run | rounds | ended (UTC) | wall s | harness s | timed s |")
    print("|---|---|---|---|---|---|")
    for name, (rounds, ended, wall) in sorted(runs.items()):
        log = open(os.path.join(work, name + ".log")).read()
        harness = re.search(r"harness runs ([0-9.]+) s", log).group(1)
        timed = re.search(r"timed repetitions ([0-9.]+) s", log).group(1)
        print(f"| {name} | {rounds} | {ended} | {wall:.1f} | {harness} | {timed} |")
    print()
    print("| timing | pair | MAPE | Spearman | within programs | "
          "centred time MAPE | baselines: median, largest change |")
    print("|---|---|---|---|---|---|---|")
    summary = {}
    for group in sys.argv[2:]:
        rounds, names = group.split("=")
        names = names.split(",")
        for a, b in itertools.combinations(names, 2):
            with tempfile.NamedTemporaryFile(suffix=".json") as tmp:
                subprocess.run([sys.executable, NOISE, os.path.join(work, a),
                                os.path.join(work, b), "--json", tmp.name],
                               check=True, capture_output=True)
                f = json.load(open(tmp.name))
            c = centred_time_mape(os.path.join(work, a), os.path.join(work, b))
            summary.setdefault(rounds, []).append(
                (f["mape"], f["within_program_spearman"], c))
            print(f"| {rounds} | {a}-{b} | {f['mape']:.3f} | {f['spearman']:.3f} "
                  f"| {f['within_program_spearman']:.3f} | {c:.3f} | "
                  f"{100 * f['baseline_median_change']:.1f} %, "
                  f"{100 * f['baseline_max_change']:.0f} % |")
    print()
    print("| timing | pairs | mean MAPE | mean within-program Spearman | "
          "mean centred time MAPE |")
    print("|---|---|---|---|---|")
    for rounds, rows in summary.items():
        m = np.mean(np.array(rows), axis=0)
        print(f"| {rounds} | {len(rows)} | {m[0]:.3f} | {m[1]:.3f} | {m[2]:.3f} |")


if __name__ == "__main__":
    main()
