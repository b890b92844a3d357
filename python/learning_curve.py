#!/usr/bin/env python3
"""How the cost model's accuracy grows with its training data.

Trains one model per fraction of the dataset's training and validation
programs (`tuner-train --train-fraction F`, every other option as given
after `--`), evaluates each on the same held-out test programs (those of
the whole dataset's split), and prints a table of the test figures against
the number of programs trained on. Then it fits each error to a power law
of that number, error = a * programs^b (a straight line in log-log, by least
squares), and says how many programs the fit puts at the target: a rough
extrapolation, but the one figure that says how far more data would go.

Each point also says what its training data cost to measure: the hours
`tuner-gen` spent on the samples of the programs trained on (each sample's
`generation_seconds`; `--seconds-per-sample S` stands in for samples that
have none, recorded by an older tuner-gen; without it such a point has no
hours). The errors are then fitted against those hours too, which says how
long a machine must measure to reach the target, the figure that compares
two pipelines (a faster generator, a model that learns more from each
sample). The costs are kept in DIR/costs.json for --summarize.

Errors: MAPE, 1 - Spearman (overall), 1 - within-program Spearman, and
1 - top1 (the part of the best measured speedup the schedule predicted
best misses). The table also shows top3 and top5 (TenSet's top-k score:
the best measured of the model's first k, as a part of the best measured;
n/a for evaluations written before tuner-train reported it).

    learning_curve.py DATASET --work-dir DIR [--tuner-train PATH]
        [--fractions 0.125 0.25 0.5 1] [--jobs 2] [--seconds-per-sample S]
        [--target-mape 0.16] [--target-spearman 0.90] [--json FILE]
        [-- more tuner-train options]
    learning_curve.py --summarize DIR [--target-mape ...] [--json FILE]

DIR keeps each fraction's model (model-F.json), training log (train-F.log)
and evaluation (eval-F.json); --summarize reads them again without training.
Standard library only.
"""

import argparse
import concurrent.futures
import glob
import json
import math
import os
import re
import subprocess
import sys
from pathlib import Path

PROG = "learning_curve.py"
REPO_DIR = Path(__file__).resolve().parent.parent


def fail(message):
    sys.exit(f"{PROG}: error: {message}")


def fraction_name(fraction):
    return f"{fraction:g}"


def train_and_evaluate(tuner_train, dataset, work, fraction, extra):
    """Trains and evaluates one fraction; returns an error message or None."""
    name = fraction_name(fraction)
    model = work / f"model-{name}.json"
    log = work / f"train-{name}.log"
    evaluation = work / f"eval-{name}.json"
    train = [str(tuner_train), str(dataset), "-o", str(model),
             f"--train-fraction={name}"] + extra
    with open(log, "w") as out:
        result = subprocess.run(train, stdout=out, stderr=subprocess.PIPE,
                                text=True)
    if result.returncode != 0:
        return (f"training with --train-fraction {name} failed:\n"
                f"{result.stderr.strip()}")
    result = subprocess.run(
        [str(tuner_train), "--evaluate", "--model", str(model), str(dataset),
         "--json", str(evaluation)], capture_output=True, text=True)
    if result.returncode != 0:
        return (f"evaluating the model of --train-fraction {name} failed:\n"
                f"{result.stderr.strip()}")
    return None


def read_json(path):
    try:
        with open(path) as f:
            return json.load(f)
    except OSError as err:
        fail(f"cannot read '{path}': {err.strerror}")
    except json.JSONDecodeError as err:
        fail(f"{path}: invalid JSON: {err}")


def field(data, path, keys):
    value = data
    for key in keys:
        if not isinstance(value, dict) or key not in value:
            fail(f"{path}: missing field '{'.'.join(keys)}'")
        value = value[key]
    return value


def program_costs(dataset, seconds_per_sample):
    """Per program of the dataset folder: the seconds its samples cost to
    make (None where a sample has no cost and no stand-in was given), and
    how many samples took the stand-in."""
    costs, estimated = {}, 0
    files = sorted(glob.glob(os.path.join(dataset, "samples*.jsonl")))
    if not files:
        fail(f"no samples*.jsonl in '{dataset}'")
    for path in files:
        with open(path) as f:
            for number, line in enumerate(f, 1):
                if not line.strip():
                    continue
                try:
                    sample = json.loads(line)
                except json.JSONDecodeError:
                    # A killed generator's truncated last line: tuner-train
                    # skips it too.
                    continue
                program = sample.get("program") if isinstance(sample, dict) \
                    else None
                if not isinstance(program, str):
                    fail(f"{path}:{number}: a sample without a program")
                seconds = sample.get("generation_seconds")
                if seconds is None:
                    seconds = seconds_per_sample
                    estimated += 1
                elif not isinstance(seconds, (int, float)) or seconds < 0:
                    fail(f"{path}:{number}: generation_seconds must be a "
                         "number >= 0")
                known = costs.get(program, 0.0)
                costs[program] = None if seconds is None or known is None \
                    else known + seconds
    return costs, estimated


def read_point(work, name, costs):
    """One fraction's figures from its model and evaluation files (and the
    hours its training programs cost, from `costs`, when known)."""
    model_path = work / f"model-{name}.json"
    eval_path = work / f"eval-{name}.json"
    model = read_json(model_path)
    evaluation = read_json(eval_path)
    trained = set(field(model, model_path, ["dataset", "train_programs"]))
    trained |= set(field(model, model_path, ["dataset",
                                             "validation_programs"]))
    test = field(model, model_path, ["dataset", "test_programs"])
    point = {"fraction": float(name), "programs": len(trained),
             "test_programs": len(test), "hours": None}
    if costs is not None:
        seconds = [costs.get(program) for program in trained]
        # A program without samples cost nothing tuner-train could use.
        if all(c is not None for c in seconds):
            point["hours"] = sum(seconds) / 3600
    for key, keys in (("samples", ["overall", "count"]),
                      ("mape", ["overall", "mape"]),
                      ("spearman", ["overall", "spearman"]),
                      ("within", ["ranking", "mean_spearman"]),
                      ("top1", ["ranking", "top1"]),
                      ("top3", ["ranking", "top3"]),
                      ("top5", ["ranking", "top5"])):
        # top5 is missing from the evaluations of older tuner-train builds.
        if key == "top5" and "top5" not in evaluation.get("ranking", {}):
            point[key] = None
            continue
        value = field(evaluation, eval_path, keys)
        if not isinstance(value, (int, float)):
            fail(f"{eval_path}: field '{'.'.join(keys)}' is not a number")
        point[key] = value
    return point, sorted(test)


def power_law(xs, ys):
    """(a, b) of y = a * x^b by least squares in log-log, or None."""
    pairs = [(math.log(x), math.log(y)) for x, y in zip(xs, ys)
             if x > 0 and y > 0]
    if len(pairs) < 2 or len({lx for lx, _ in pairs}) < 2:
        return None
    n = len(pairs)
    mx = sum(lx for lx, _ in pairs) / n
    my = sum(ly for _, ly in pairs) / n
    sxx = sum((lx - mx) ** 2 for lx, _ in pairs)
    sxy = sum((lx - mx) * (ly - my) for lx, ly in pairs)
    b = sxy / sxx
    return math.exp(my - b * mx), b


ERRORS = [  # (key, label, error of a point, error at the target)
    ("mape", "MAPE", lambda p: p["mape"], lambda t: t["mape"]),
    ("spearman", "1 - Spearman", lambda p: 1 - p["spearman"],
     lambda t: 1 - t["spearman"]),
    ("within", "1 - within-program Spearman", lambda p: 1 - p["within"],
     None),
    ("top1", "1 - top1", lambda p: 1 - p["top1"], None),
]


def fit_lines(points, targets, unit, size, fits, suffix):
    """The power-law fit of each error against size(point), in `unit`s."""
    lines = []
    largest = size(points[-1])
    xs = [size(p) for p in points]
    for key, label, error, target_error in ERRORS:
        fit = power_law(xs, [error(p) for p in points])
        if fit is None:
            lines.append(f"{label}: no fit (needs two or more sizes with a "
                         "positive error)")
            continue
        a, b = fit
        entry = {"a": a, "b": b}
        text = f"{label} = {a:.4g} * {unit}^{b:.3f}"
        if target_error:
            goal = target_error(targets)
            if b < 0 and goal > 0:
                # In logs: a flat fit puts the target beyond any float.
                log_needed = (math.log(goal) - math.log(a)) / b
                log10_needed = log_needed / math.log(10)
                entry[f"log10_{unit}_at_target"] = log10_needed
                if log10_needed < 9:
                    needed = math.exp(log_needed)
                    amount = (f"{needed:,.0f}" if unit == "programs"
                              else f"{needed:,.3g}")
                    text += (f"; {goal:.3g} (the target) at about "
                             f"{amount} {unit}, "
                             f"{needed / largest:,.1f}x the largest run")
                else:
                    text += (f"; {goal:.3g} (the target) at about "
                             f"10^{log10_needed:.1f} {unit}")
            else:
                text += f"; does not fall with more {unit}"
        fits[key + suffix] = entry
        lines.append(text)
    return lines


def summarize(points, targets):
    points.sort(key=lambda p: p["programs"])
    lines = ["| fraction | programs | hours | test samples | MAPE | "
             "Spearman | within | top1 | top3 | top5 |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    for p in points:
        top5 = "n/a" if p["top5"] is None else f"{p['top5']:.3f}"
        hours = "n/a" if p["hours"] is None else f"{p['hours']:.3g}"
        lines.append(
            f"| {fraction_name(p['fraction'])} | {p['programs']} | {hours} | "
            f"{p['samples']} | {p['mape']:.3f} | {p['spearman']:.3f} | "
            f"{p['within']:.3f} | {p['top1']:.3f} | {p['top3']:.3f} | "
            f"{top5} |")
    fits = {}
    lines.append("")
    lines += fit_lines(points, targets, "programs", lambda p: p["programs"],
                       fits, "")
    if all(p["hours"] for p in points):
        lines.append("")
        lines += fit_lines(points, targets, "hours", lambda p: p["hours"],
                           fits, "_hours")
    return "\n".join(lines), fits


def main():
    argv = sys.argv[1:]
    extra = []
    if "--" in argv:
        at = argv.index("--")
        argv, extra = argv[:at], argv[at + 1:]
    parser = argparse.ArgumentParser(prog=PROG,
                                     description=__doc__.splitlines()[0])
    parser.add_argument("dataset", nargs="?", help="tuner-gen dataset folder")
    parser.add_argument("--work-dir", help="where models and evaluations go")
    parser.add_argument("--summarize", metavar="DIR",
                        help="read the models and evaluations of an earlier "
                             "run from DIR instead of training")
    parser.add_argument("--tuner-train",
                        default=str(REPO_DIR / "build" / "bin" / "tuner-train"))
    parser.add_argument("--fractions", type=float, nargs="+",
                        default=[0.125, 0.25, 0.5, 1.0])
    parser.add_argument("--jobs", type=int, default=1,
                        help="trainings run at once")
    parser.add_argument("--target-mape", type=float, default=0.16)
    parser.add_argument("--target-spearman", type=float, default=0.90)
    parser.add_argument("--seconds-per-sample", type=float,
                        help="what a sample without a recorded "
                             "generation_seconds cost to make")
    parser.add_argument("--json", help="write the points and fits as JSON")
    args = parser.parse_args(argv)

    if args.summarize:
        if args.dataset or args.work_dir:
            fail("--summarize reads DIR only: give no dataset or --work-dir")
        work = Path(args.summarize)
        names = sorted(re.fullmatch(r"model-(.*)\.json", os.path.basename(p))
                       .group(1)
                       for p in glob.glob(str(work / "model-*.json")))
        if not names:
            fail(f"no model-*.json in '{work}'")
    else:
        if not args.dataset or not args.work_dir:
            fail("give a dataset folder and --work-dir (or --summarize DIR)")
        if not os.path.isdir(args.dataset):
            fail(f"no dataset folder '{args.dataset}'")
        for f in args.fractions:
            if not (0 < f <= 1):
                fail(f"--fractions: {f:g} is not in (0, 1]")
        if len(set(args.fractions)) < 2:
            fail("--fractions: give at least two different fractions")
        if args.jobs < 1:
            fail("--jobs must be at least 1")
        if args.seconds_per_sample is not None and \
                not args.seconds_per_sample > 0:
            fail("--seconds-per-sample must be positive")
        tuner_train = Path(args.tuner_train)
        if not os.access(tuner_train, os.X_OK):
            fail(f"no tuner-train at '{tuner_train}' (build it, or give "
                 "--tuner-train)")
        work = Path(args.work_dir)
        work.mkdir(parents=True, exist_ok=True)
        costs, estimated = program_costs(args.dataset,
                                         args.seconds_per_sample)
        with open(work / "costs.json", "w") as f:
            json.dump({"program_seconds": costs,
                       "samples_with_stand_in": estimated,
                       "seconds_per_sample": args.seconds_per_sample},
                      f, indent=1, sort_keys=True)
            f.write("\n")
        with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
            errors = list(pool.map(
                lambda f: train_and_evaluate(tuner_train, args.dataset, work,
                                             f, extra), args.fractions))
        for error in errors:
            if error:
                fail(error)
        names = [fraction_name(f) for f in args.fractions]

    costs = None
    if (work / "costs.json").exists():
        recorded = read_json(work / "costs.json")
        costs = recorded.get("program_seconds") if isinstance(recorded, dict) \
            else None
        if not isinstance(costs, dict):
            fail(f"{work / 'costs.json'}: missing field 'program_seconds'")
    points, tests = [], None
    for name in names:
        point, test = read_point(work, name, costs)
        if tests is not None and test != tests:
            fail(f"model-{name}.json was tested on other programs than the "
                 "other models: all must come from one dataset and seed")
        tests = test
        points.append(point)
    if len(points) < 2:
        fail("a learning curve needs models of at least two fractions")
    table, fits = summarize(points, {"mape": args.target_mape,
                                     "spearman": args.target_spearman})
    print(f"learning curve: {len(points)} models, each tested on the same "
          f"{len(tests)} programs")
    if costs is not None:
        stand_in = recorded.get("samples_with_stand_in", 0)
        print("hours: what tuner-gen spent on the samples of the programs "
              "trained on" +
              (f" ({stand_in} samples without a recorded cost counted at "
               f"{recorded.get('seconds_per_sample')} s)" if stand_in else ""))
    print(table)
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"points": points, "fits": fits,
                       "targets": {"mape": args.target_mape,
                                   "spearman": args.target_spearman}},
                      f, indent=2)
            f.write("\n")


if __name__ == "__main__":
    main()
