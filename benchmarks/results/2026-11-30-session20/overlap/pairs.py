#!/usr/bin/env python3
"""Label noise and rate of the runs of run.sh: each group's runs compared
pairwise by python/measurement_noise.py (MAPE of the speedups,
within-program Spearman, baseline changes), every timing counted whatever
the foreign load its harness saw (--max-load 100: the shards' own load is
the point), and each run's wall time, samples and samples per hour.

Usage: pairs.py WORK_DIR LABEL=RUN,RUN,... [LABEL=RUN,RUN|RUN,RUN ...] > pairs.md
(WORK_DIR holds run.out and the runs; "A,B,C" compares every pair of the
runs, "A,B|C,D" every run left of the bar with every run right of it)
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


def run_samples(folder):
    ok, loads = 0, []
    for path in glob.glob(os.path.join(folder, "samples*.jsonl")):
        for line in open(path):
            r = json.loads(line)
            if r["status"] == "ok":
                ok += 1
                loads.append(r["foreign_load"])
    return ok, loads


def speedups(folder):
    out = {}
    for path in glob.glob(os.path.join(folder, "samples*.jsonl")):
        for line in open(path):
            r = json.loads(line)
            if r["status"] == "ok":
                out[(r["program"], json.dumps(r["config"], sort_keys=True))] = (
                    r["speedup"], r["foreign_load"])
    return out


def loaded_mape(a, b):
    """measurement_noise.py's MAPE (|a - b| / b) over the configs that
    either run timed beside a load above 0.5 cores, and their number."""
    sa, sb = speedups(a), speedups(b)
    errors = [abs(sa[k][0] - sb[k][0]) / sb[k][0] for k in sa
              if k in sb and max(sa[k][1], sb[k][1]) > 0.5]
    return (float(np.mean(errors)) if errors else float("nan")), len(errors)


def by_kind(a, b):
    """MAPE (|a - b| / b) by whether the config runs a loop in parallel
    (OpenMP, both cores) and whether run a timed it beside a load."""
    sa, sb = speedups(a), speedups(b)
    out = {}
    for k in sa:
        if k not in sb:
            continue
        config = json.loads(k[1])
        parallel = any(v is True for name, v in config.items()
                       if name.endswith(".parallel"))
        kind = ("parallel" if parallel else "serial",
                "beside a load" if sa[k][1] > 0.5 else "quiet")
        out.setdefault(kind, []).append(abs(sa[k][0] - sb[k][0]) / sb[k][0])
    return out


def main():
    work = sys.argv[1]
    runs = {}
    for line in open(os.path.join(work, "run.out")):
        m = re.match(r"(\S+) (\S+) (\S+) (\S+) s", line)
        if m:
            runs[m.group(1)] = (m.group(2), m.group(3), float(m.group(4)))
    print("| run | mode | ended (UTC) | wall s | samples ok | ok per hour | "
          "harness s (summed) | foreign load of the samples: median, 90th "
          "percentile |")
    print("|---|---|---|---|---|---|---|---|")
    for name, (mode, ended, wall) in sorted(runs.items()):
        harness = 0.0
        for log in glob.glob(os.path.join(work, name + "*.log")):
            m = re.search(r"harness runs ([0-9.]+) s", open(log).read())
            harness += float(m.group(1)) if m else 0.0
        ok, loads = run_samples(os.path.join(work, name))
        print(f"| {name} | {mode} | {ended} | {wall:.1f} | {ok} | "
              f"{ok * 3600 / wall:.0f} | {harness:.1f} | "
              f"{np.median(loads):.2f}, {np.percentile(loads, 90):.2f} |")
    print()
    print("| group | pair | MAPE | Spearman | within programs | "
          "baselines: median, largest change | MAPE of the configs timed "
          "beside a load (configs) |")
    print("|---|---|---|---|---|---|---|")
    summary = {}
    cross = {}
    for group in sys.argv[2:]:
        label, names = group.split("=")
        if "|" in names:
            left, right = (side.split(",") for side in names.split("|"))
            pairs = list(itertools.product(left, right))
            for a, b in pairs:
                for kind, errors in by_kind(os.path.join(work, a),
                                            os.path.join(work, b)).items():
                    cross.setdefault(kind, []).extend(errors)
        else:
            pairs = list(itertools.combinations(names.split(","), 2))
        for a, b in pairs:
            with tempfile.NamedTemporaryFile(suffix=".json") as tmp:
                subprocess.run([sys.executable, NOISE, os.path.join(work, a),
                                os.path.join(work, b), "--max-load", "100",
                                "--json", tmp.name],
                               check=True, capture_output=True)
                f = json.load(open(tmp.name))
            lm, ln = loaded_mape(os.path.join(work, a), os.path.join(work, b))
            summary.setdefault(label, []).append(
                (f["mape"], f["within_program_spearman"], lm))
            print(f"| {label} | {a}-{b} | {f['mape']:.3f} | {f['spearman']:.3f} "
                  f"| {f['within_program_spearman']:.3f} | "
                  f"{100 * f['baseline_median_change']:.1f} %, "
                  f"{100 * f['baseline_max_change']:.0f} % | {lm:.3f} ({ln}) |")
    if cross:
        print()
        print("| configs (timed by the left run of each pair) | configs | "
              "MAPE |")
        print("|---|---|---|")
        for kind in sorted(cross):
            print(f"| {kind[0]}, {kind[1]} | {len(cross[kind])} | "
                  f"{np.mean(cross[kind]):.3f} |")
    print()
    print("| group | pairs | mean MAPE (range) | pairs at most 0.10 | "
          "mean within-program Spearman | mean MAPE of the configs timed "
          "beside a load |")
    print("|---|---|---|---|---|---|")
    for label, rows in summary.items():
        a = np.array(rows)
        loaded = (np.nanmean(a[:, 2]) if np.isfinite(a[:, 2]).any()
                  else float("nan"))
        print(f"| {label} | {len(rows)} | {a[:, 0].mean():.3f} "
              f"({a[:, 0].min():.3f}-{a[:, 0].max():.3f}) | "
              f"{int((a[:, 0] <= 0.10).sum())} of {len(rows)} | "
              f"{a[:, 1].mean():.3f} | {loaded:.3f} |")


if __name__ == "__main__":
    main()
