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
A search whose best schedule did not beat the kernel is timed as the pass
delivers it: the untransformed kernel.

    benchmarks/retime.py KERNEL.mlir LABEL=DATABASE [LABEL=DATABASE ...]
        [--rounds 3] [--runs 1] [--bin build/bin] [--work-dir DIR]
        [--json OUT]

Prints one line per search: the speedup it recorded and the speedup
retimed. Searches whose best schedules apply to the same module share one
timing. One run is one sample of the host's hour: `--runs N` times the
schedules in N tuner-measure runs and takes each speedup's geometric
mean. Standard library only; `compare_search.py --retime` calls it.
"""

import argparse
import json
import math
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
    """(speedup, config) of the best verified record of this machine in a
    database of one workload: `tuner-db best`, the record
    `--tuner-apply-best` applies (the highest speedup among each config's
    latest record; a config timed again, e.g. by the pass's confirm=N,
    counts by its new timing; other machines' records do not count)."""
    best = subprocess.run([str(tuner_db), "--db", str(database), "best"],
                          capture_output=True, text=True)
    if best.returncode != 0:
        message = best.stderr.strip().removeprefix("tuner-db: error: ")
        raise RuntimeError(f"{database}: tuner-db best: {message}")
    record = json.loads(best.stdout)
    if record.get("speedup") is None:
        raise RuntimeError(f"{database}: the best record has no speedup")
    config = json.loads(record["config"])
    return record["speedup"], json.dumps(config, sort_keys=True)


def retime(kernel, searches, bin_dir, work_dir, rounds=3, runs=1):
    """{label: {"recorded": x, "retimed": y, "retimed_runs": [...],
    "config": c, "file": f}} for the searches {label: database} of one
    kernel. Each search's best schedule is applied; searches whose applied
    modules are the same text share one file and one timing. The files are
    timed `runs` times, one tuner-measure run each (`rounds` rounds);
    "retimed" is the geometric mean over the runs, None where a run failed
    the candidate (its status in "status")."""
    bin_dir = Path(bin_dir)
    work_dir = Path(work_dir)
    work_dir.mkdir(parents=True, exist_ok=True)
    kernel = Path(kernel)
    name = kernel.stem
    results, files, by_text = {}, [], {}
    for label, database in searches.items():
        speedup, config = recorded_best(bin_dir / "tuner-db", database)
        results[label] = {"recorded": speedup, "config": json.loads(config)}
        out = work_dir / (name + "-" + re.sub(r"[^\w.]", "-", label) + ".mlir")
        applied = subprocess.run(
            [str(bin_dir / "tuner-opt"), str(kernel),
             f"--tuner-apply-best=database={database}", "-o", str(out)],
            capture_output=True, text=True)
        if applied.returncode != 0:
            raise RuntimeError(f"{name}: applying {label}'s best: "
                               f"{applied.stderr.strip()}")
        text = out.read_text()
        if text in by_text:
            out.unlink()
        else:
            by_text[text] = str(out)
            files.append(str(out))
        results[label]["file"] = by_text[text]
    timings = {f: [] for f in files}
    for _ in range(runs):
        measured = subprocess.run(
            [str(bin_dir / "tuner-measure"), str(kernel), *files, "--function",
             function_name(kernel), "--rounds", str(rounds), "--json"],
            capture_output=True, text=True)
        if measured.returncode != 0:
            raise RuntimeError(
                f"{name}: tuner-measure: {measured.stderr.strip()}")
        for candidate in json.loads(measured.stdout)["candidates"]:
            timings[candidate["file"]].append(candidate)
    for label, result in results.items():
        timed = timings[result["file"]]
        failed = [t.get("status") for t in timed if t.get("status") != "ok"]
        result["status"] = failed[0] if failed else "ok"
        result["retimed_runs"] = [t.get("speedup") for t in timed]
        result["retimed"] = None if failed else math.exp(
            sum(math.log(t["speedup"]) for t in timed) / len(timed))
    return results


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("kernel")
    parser.add_argument("searches", nargs="+", metavar="LABEL=DATABASE")
    parser.add_argument("--rounds", type=int, default=3,
                        help="harness rounds of each tuner-measure run")
    parser.add_argument("--runs", type=int, default=1,
                        help="tuner-measure runs, one after the other; a "
                             "speedup is their geometric mean")
    parser.add_argument("--bin", default=str(REPO_DIR / "build" / "bin"))
    parser.add_argument("--work-dir")
    parser.add_argument("--json", help="also write the results here")
    args = parser.parse_args()
    if args.rounds < 1 or args.runs < 1:
        parser.error("--rounds and --runs must be at least 1")
    searches = {}
    for item in args.searches:
        label, sep, database = item.partition("=")
        if not sep or not Path(database).exists():
            parser.error(f"'{item}' is not LABEL=DATABASE of an existing file")
        searches[label] = database
    with tempfile.TemporaryDirectory() as tmp:
        try:
            results = retime(args.kernel, searches, args.bin,
                             args.work_dir or tmp, args.rounds, args.runs)
        except (RuntimeError, KeyError, json.JSONDecodeError) as e:
            print(f"retime.py: {e}", file=sys.stderr)
            return 1
    for label, result in results.items():
        retimed = result["retimed"]
        runs = ""
        if args.runs > 1 and retimed is not None:
            runs = " (" + ", ".join(f"{x:.3f}x"
                                    for x in result["retimed_runs"]) + ")"
        print(f"{label}: recorded {result['recorded']:.3f}x, retimed "
              + (f"{retimed:.3f}x" if retimed is not None
                 else result["status"]) + runs)
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
