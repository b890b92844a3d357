#!/usr/bin/env python3
"""Time the schedules that searches found side by side, in one run.

A search reports the speedup of its best schedule as it was timed during
the search: the largest of all the timings it took. A search that timed
800 schedules picks its best among 800 noisy timings and a search that
timed 8 among 8, so the first one's figure is the more flattered of the
two (the winner's curse). To compare what searches found, their best
schedules are timed again together: each search's tuning database gives
its best schedule (`tuner-opt --tuner-apply-best`), and one `tuner-measure`
run times them all beside the untransformed kernel (rounds, the baseline
timed in every process), so that every speedup comes from the same run.

    benchmarks/retime.py KERNEL.mlir LABEL=DATABASE [LABEL=DATABASE ...]
        [--rounds 3] [--bin build/bin] [--work-dir DIR] [--json OUT]

Prints one line per search: the speedup it recorded and the speedup
retimed. Searches whose best schedule is the same config share one
timing. Standard library only; `compare_search.py --retime` calls it.
"""

import argparse
import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path

REPO_DIR = Path(__file__).resolve().parent.parent


def function_name(kernel):
    match = re.search(r"func\.func\s+@([\w$.]+)", Path(kernel).read_text())
    if not match:
        raise RuntimeError(f"{kernel}: no func.func")
    return match.group(1)


def recorded_best(tuner_db, database):
    """(speedup, config) of the best verified record (status ok) in a
    database of one workload, from `tuner-db export`."""
    listed = subprocess.run([str(tuner_db), "--db", str(database), "export"],
                            capture_output=True, text=True)
    if listed.returncode != 0:
        raise RuntimeError(f"{database}: {listed.stderr.strip()}")
    best = None
    for line in listed.stdout.splitlines():
        record = json.loads(line)
        if record.get("kind") != "measurement" or record.get("status") != "ok":
            continue
        speedup = record.get("speedup")
        if speedup is not None and (best is None or speedup > best[0]):
            config = record["config"]
            if isinstance(config, str):
                config = json.loads(config)
            best = (speedup, json.dumps(config, sort_keys=True))
    return best


def retime(kernel, searches, bin_dir, work_dir, rounds=3):
    """{label: {"recorded": x, "retimed": y, "config": c}} for the searches
    {label: database} of one kernel; "retimed" is None where the candidate
    failed (its status in "status")."""
    bin_dir = Path(bin_dir)
    work_dir = Path(work_dir)
    work_dir.mkdir(parents=True, exist_ok=True)
    kernel = Path(kernel)
    name = kernel.stem
    results, files, by_config = {}, [], {}
    for label, database in searches.items():
        best = recorded_best(bin_dir / "tuner-db", database)
        if best is None:
            raise RuntimeError(f"{database}: no verified measurement")
        speedup, config = best
        results[label] = {"recorded": speedup, "config": json.loads(config)}
        if config in by_config:
            results[label]["file"] = by_config[config]
            continue
        out = work_dir / (name + "-" + re.sub(r"[^\w.]", "-", label) + ".mlir")
        applied = subprocess.run(
            [str(bin_dir / "tuner-opt"), str(kernel),
             f"--tuner-apply-best=database={database}", "-o", str(out)],
            capture_output=True, text=True)
        if applied.returncode != 0:
            raise RuntimeError(f"{name}: applying {label}'s best: "
                               f"{applied.stderr.strip()}")
        by_config[config] = str(out)
        results[label]["file"] = str(out)
        files.append(str(out))
    measured = subprocess.run(
        [str(bin_dir / "tuner-measure"), str(kernel), *files, "--function",
         function_name(kernel), "--rounds", str(rounds), "--json"],
        capture_output=True, text=True)
    if measured.returncode != 0:
        raise RuntimeError(f"{name}: tuner-measure: {measured.stderr.strip()}")
    report = json.loads(measured.stdout)
    by_file = {c["file"]: c for c in report["candidates"]}
    for label, result in results.items():
        timed = by_file[result["file"]]
        result["status"] = timed.get("status", "ok")
        result["retimed"] = timed.get("speedup") if result["status"] == "ok" \
            else None
    return results


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("kernel")
    parser.add_argument("searches", nargs="+", metavar="LABEL=DATABASE")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--bin", default=str(REPO_DIR / "build" / "bin"))
    parser.add_argument("--work-dir")
    parser.add_argument("--json", help="also write the results here")
    args = parser.parse_args()
    searches = {}
    for item in args.searches:
        label, sep, database = item.partition("=")
        if not sep or not Path(database).exists():
            parser.error(f"'{item}' is not LABEL=DATABASE of an existing file")
        searches[label] = database
    with tempfile.TemporaryDirectory() as tmp:
        try:
            results = retime(args.kernel, searches, args.bin,
                             args.work_dir or tmp, args.rounds)
        except (RuntimeError, KeyError, json.JSONDecodeError) as e:
            print(f"retime.py: {e}", file=sys.stderr)
            return 1
    for label, result in results.items():
        retimed = result["retimed"]
        print(f"{label}: recorded {result['recorded']:.3f}x, retimed "
              + (f"{retimed:.3f}x" if retimed is not None
                 else result["status"]))
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
