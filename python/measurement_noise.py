#!/usr/bin/env python3
"""How well the dataset's labels agree with themselves: the noise floor.

Compares two datasets of `tuner-gen` in which the same programs and configs
were measured twice: the recorded dataset, and a re-measurement made by
rerunning its `tuner-gen` command (same --seed, same options, fewer
--programs) into another folder. Samples are paired by program and config;
pairs that failed, or whose timing or whose program's baseline was disturbed
by another busy process (a foreign load above --max-load, as `tuner-train`
leaves out), are not compared.

It prints, for the paired speedups, the same figures `tuner-train
--evaluate` prints for a model, with the re-measurement in the place of the
model: the MAPE of the recorded speedups against the re-measured ones, the
mean absolute log error, Pearson and Spearman overall, and the mean
Spearman within programs; then how much the programs' baselines moved.
No model can be expected to agree with the measurements better than the
measurements agree with themselves.

Usage: measurement_noise.py RECORDED_DIR REMEASURED_DIR [--max-load 0.5]
                            [--json FILE]

Needs numpy (Debian: python3-numpy).
"""

import argparse
import glob
import json
import os
import sys

import numpy as np

PROG = "measurement_noise.py"


def fail(message):
    sys.exit(f"{PROG}: error: {message}")


def read_lines(path):
    """The JSON objects of a JSON-lines file; errors name file and line."""
    records = []
    try:
        with open(path) as f:
            for number, line in enumerate(f, 1):
                if not line.strip():
                    continue
                try:
                    record = json.loads(line)
                except json.JSONDecodeError as e:
                    fail(f"{path}:{number}: malformed JSON: {e}")
                if not isinstance(record, dict):
                    fail(f"{path}:{number}: expected a JSON object")
                records.append((path, number, record))
    except OSError as e:
        fail(f"cannot read {path}: {e.strerror}")
    return records


def read_dataset(folder):
    """(programs by id, samples by (program, config)) of a dataset folder."""
    if not os.path.isdir(folder):
        fail(f"{folder} is not a dataset folder (no such directory)")
    program_files = sorted(glob.glob(os.path.join(folder, "programs*.jsonl")))
    sample_files = sorted(glob.glob(os.path.join(folder, "samples*.jsonl")))
    if not program_files or not sample_files:
        fail(f"{folder} holds no programs*.jsonl and samples*.jsonl "
             "(is it a tuner-gen output folder?)")
    programs = {}
    for path, number, record in (r for p in program_files
                                 for r in read_lines(p)):
        try:
            programs[str(record["id"])] = {
                "mlir": str(record["mlir"]),
                "baseline": float(record["baseline_seconds"]),
                "load": float(record.get("baseline_foreign_load", 0.0)),
            }
        except (KeyError, TypeError, ValueError) as e:
            fail(f"{path}:{number}: malformed program record: {e}")
    samples = {}
    for path, number, record in (r for p in sample_files
                                 for r in read_lines(p)):
        try:
            key = (str(record["program"]),
                   json.dumps(record["config"], sort_keys=True))
            samples[key] = {
                "ok": record["status"] == "ok",
                "speedup": float(record.get("speedup", 0.0)),
                "seconds": float(record.get("median_seconds", 0.0)),
                "load": float(record.get("foreign_load", 0.0)),
            }
        except (KeyError, TypeError, ValueError) as e:
            fail(f"{path}:{number}: malformed sample record: {e}")
    return programs, samples


def ranks(values):
    """Ranks (1-based), ties sharing their mean rank."""
    order = np.argsort(values, kind="stable")
    result = np.empty(len(values))
    sorted_values = values[order]
    start = 0
    while start < len(values):
        end = start
        while end + 1 < len(values) and sorted_values[end + 1] == sorted_values[start]:
            end += 1
        result[order[start:end + 1]] = (start + end) / 2 + 1
        start = end + 1
    return result


def pearson(x, y):
    if len(x) < 2 or np.std(x) == 0 or np.std(y) == 0:
        return float("nan")
    return float(np.corrcoef(x, y)[0, 1])


def spearman(x, y):
    return pearson(ranks(x), ranks(y))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("recorded", help="the dataset folder")
    parser.add_argument("remeasured",
                        help="a folder where the same tuner-gen command "
                             "measured (some of) the same programs again")
    parser.add_argument("--max-load", type=float, default=0.5,
                        help="leave out timings disturbed by more than this "
                             "many busy cores (default: 0.5, as tuner-train)")
    parser.add_argument("--json", help="also write the figures to this file")
    args = parser.parse_args()
    if not args.max_load >= 0:
        fail("--max-load must not be negative")

    programs_a, samples_a = read_dataset(args.recorded)
    programs_b, samples_b = read_dataset(args.remeasured)
    common = sorted(set(programs_a) & set(programs_b))
    if not common:
        fail(f"{args.recorded} and {args.remeasured} have no program in "
             "common: rerun the recorded dataset's tuner-gen command (same "
             "--seed and options) into the second folder")
    for pid in common:
        if programs_a[pid]["mlir"] != programs_b[pid]["mlir"]:
            fail(f"program {pid} differs between the two folders: the "
                 "second was not made with the same tuner-gen options")

    def quiet(programs, sample, pid):
        return (sample["ok"] and sample["speedup"] > 0
                and sample["load"] <= args.max_load
                and programs[pid]["load"] <= args.max_load)

    recorded, remeasured, owners = [], [], []
    compared = left_out = 0
    for key, b in samples_b.items():
        a = samples_a.get(key)
        if a is None or key[0] not in programs_a:
            continue
        compared += 1
        if not (quiet(programs_a, a, key[0]) and quiet(programs_b, b, key[0])):
            left_out += 1
            continue
        recorded.append(a["speedup"])
        remeasured.append(b["speedup"])
        owners.append(key[0])
    if len(recorded) < 2:
        fail(f"{len(recorded)} pair(s) of quiet, successful measurements of "
             f"the same config ({compared} configs measured in both): too "
             "few to compare")
    a = np.array(recorded)
    b = np.array(remeasured)
    within = []
    for pid in sorted(set(owners)):
        members = [i for i, owner in enumerate(owners) if owner == pid]
        if len(members) >= 3:
            value = spearman(a[members], b[members])
            if not np.isnan(value):
                within.append(value)
    baseline_moves = np.array([
        abs(np.log(programs_a[p]["baseline"] / programs_b[p]["baseline"]))
        for p in common
        if programs_a[p]["load"] <= args.max_load
        and programs_b[p]["load"] <= args.max_load
        and programs_a[p]["baseline"] > 0 and programs_b[p]["baseline"] > 0])

    figures = {
        "pairs": len(a),
        "programs": len(set(owners)),
        "left_out": left_out,
        "mape": float(np.mean(np.abs(a - b) / b)),
        "mean_abs_log_error": float(np.mean(np.abs(np.log(a / b)))),
        "pearson": pearson(a, b),
        "spearman": spearman(a, b),
        "within_program_spearman": (float(np.mean(within)) if within
                                    else float("nan")),
        "within_programs": len(within),
        "baseline_programs": len(baseline_moves),
        "baseline_median_change": (float(np.exp(np.median(baseline_moves)) - 1)
                                   if len(baseline_moves) else float("nan")),
        "baseline_max_change": (float(np.exp(np.max(baseline_moves)) - 1)
                                if len(baseline_moves) else float("nan")),
    }
    f = figures
    print(f"{f['pairs']} configs of {f['programs']} programs measured twice "
          f"({f['left_out']} more left out: failed or disturbed)")
    print(f"recorded against re-measured speedups: MAPE {f['mape']:.4f}, "
          f"mean abs log error {f['mean_abs_log_error']:.4f}, "
          f"Pearson {f['pearson']:.4f}, Spearman {f['spearman']:.4f}")
    print(f"within programs ({f['within_programs']} with 3 or more pairs): "
          f"mean Spearman {f['within_program_spearman']:.4f}")
    print(f"baselines of {f['baseline_programs']} programs: median change "
          f"{100 * f['baseline_median_change']:.1f}%, largest "
          f"{100 * f['baseline_max_change']:.1f}%")
    if args.json:
        try:
            with open(args.json, "w") as out:
                json.dump({k: (None if isinstance(v, float) and np.isnan(v)
                               else v) for k, v in figures.items()},
                          out, indent=2, sort_keys=True)
                out.write("\n")
        except OSError as e:
            fail(f"cannot write {args.json}: {e.strerror}")


if __name__ == "__main__":
    main()
