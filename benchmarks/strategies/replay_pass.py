#!/usr/bin/env python3
"""Replays the autotune pass on recorded tables: each table is imported into
a tuning database (`--tuner-import-table`), and each run is the pass itself
(its strategy, cost model, seeds and options) on the table's kernel and
narrowed space, recalling every config from that database, so only the
baseline is measured and runs differ only in what they propose.

usage: replay_pass.py [--tables matmul,conv,...] [--seeds 15] [--first-seed 1]
                      [--jobs 2] [--json out.json.xz] [--markdown out.md]
                      RUN...

A RUN is STRATEGY:BUDGET[:OPTIONS] as live.py reads it (OPTIONS: autotune
pass options separated by spaces, e.g.
"bo:32:strategy-options=initial-design=mixed" or "mcts:32:top-k=32").
Prints, per table and run, the mean best found as a fraction of the
table's optimum, with random sampling's exact expectation at each budget
(compare.py), and the geometric mean over the tables. The recalled runs
measure only their baselines; a run that measured anything else (a config
missing from the table) is counted in the notes below the table."""
import argparse
import concurrent.futures
import datetime
import json
import lzma
import math
import os
import shutil
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.dirname(HERE))
from compare import expected_random_best, read_table  # noqa: E402
from machine import machine_line  # noqa: E402


# Space options a table needs: the conv table was recorded before the space
# had its convolution parameter (direct, im2col or decomposed), so it is the
# space without it (every config direct).
TABLE_OPTIONS = {"conv": "convolution=false"}


def parse_run(text):
    parts = text.split(":", 2)
    if len(parts) < 2 or not parts[1].isdigit() or int(parts[1]) < 1:
        sys.exit(f"replay_pass.py: run '{text}' is not "
                 "STRATEGY:BUDGET[:OPTIONS] with a positive budget")
    return {"name": text, "strategy": parts[0], "budget": int(parts[1]),
            "options": parts[2] if len(parts) == 3 else ""}


def relative(path):
    return os.path.relpath(path, ROOT)


def prepare(table, args):
    """Decompresses the table, imports it into the table's database and
    returns what the runs need."""
    compressed = os.path.join(args.table_dir, table + ".jsonl.xz")
    space = os.path.join(args.table_dir, table + ".space.json")
    kernel = os.path.join(args.kernel_dir, table + ".mlir")
    for path in (compressed, space, kernel):
        if not os.path.exists(path):
            sys.exit(f"replay_pass.py: no {path}")
    plain = os.path.join(args.work, table + ".jsonl")
    with lzma.open(compressed, "rb") as f, open(plain, "wb") as out:
        out.write(f.read())
    db = os.path.join(args.work, table + ".db")
    for stale in (db, db + "-wal", db + "-shm"):
        if os.path.exists(stale):
            os.remove(stale)
    command = [args.tuner_opt, kernel,
               f"--tuner-import-table=table={plain} space={space} "
               f"database={db} {TABLE_OPTIONS.get(table, '')}".rstrip(),
               "-o", os.devnull]
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"replay_pass.py: importing {table} failed:\n{done.stderr}")
    values = read_table(compressed)
    return {"table": table, "kernel": kernel, "space": space, "db": db,
            "values": values, "optimum": min(v for v in values if v),
            "import": " ".join(relative(c) if c.startswith(ROOT) else c
                               for c in command)}


def replay(prepared, run, seed, args):
    """One autotune run on a private copy of the table's database."""
    tag = f"{prepared['table']}.run{run['index']}.{seed}"
    db = os.path.join(args.work, "runs", tag + ".db")
    summary = os.path.join(args.work, "runs", tag + ".json")
    shutil.copyfile(prepared["db"], db)
    options = " ".join(filter(None, [
        f"space={prepared['space']} strategy={run['strategy']} "
        f"budget={run['budget']} seed={seed} database={db} "
        f"summary-output={summary}", TABLE_OPTIONS.get(prepared["table"]),
        run["options"]]))
    command = [args.tuner_opt, prepared["kernel"],
               f"--tuner-autotune={options}", "-o", os.devnull]
    done = subprocess.run(command, capture_output=True, text=True)
    for path in (db, db + "-wal", db + "-shm"):
        if os.path.exists(path):
            os.remove(path)
    if done.returncode != 0:
        sys.exit(f"replay_pass.py: {' '.join(command)} failed:\n"
                 f"{done.stderr}")
    s = json.load(open(summary))
    best = (s.get("best") or {}).get("median_s")
    return {"seed": seed,
            "fraction": prepared["optimum"] / best if best else 0.0,
            "best_s": best, "baseline_s": s["baseline"]["median_s"],
            "candidates": s["candidates"], "evaluated": s["evaluated"],
            "cached": s["cached"],
            "strategy_statistics": s.get("strategy_statistics", {}),
            "best_config": (s.get("best") or {}).get("config")}


def expectation(prepared, budget):
    optimum = prepared["optimum"]
    values = prepared["values"]
    worst = max(v for v in values if v)
    return expected_random_best(values, budget, of=lambda v: optimum / v,
                                nothing=optimum / worst)


def geomean(values):
    return math.exp(sum(math.log(v) for v in values) / len(values))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("runs", nargs="+")
    parser.add_argument("--tables",
                        default="matmul,conv,stencil,affine,doitgen")
    parser.add_argument("--seeds", type=int, default=15)
    parser.add_argument("--first-seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--build", default=os.path.join(ROOT, "build"))
    parser.add_argument("--tuner-opt",
                        help="default: BUILD/bin/tuner-opt (tuner-run beside)")
    parser.add_argument("--table-dir", default=os.path.join(HERE, "tables"))
    parser.add_argument("--kernel-dir", default=os.path.join(HERE, "kernels"))
    parser.add_argument("--work", default=os.path.join(ROOT, "build", "replay"))
    parser.add_argument("--json")
    parser.add_argument("--markdown")
    args = parser.parse_args()
    if not args.tuner_opt:
        args.tuner_opt = os.path.join(args.build, "bin", "tuner-opt")
    runs = [dict(parse_run(text), index=i) for i, text in enumerate(args.runs)]
    tables = args.tables.split(",")
    os.makedirs(os.path.join(args.work, "runs"), exist_ok=True)
    started = datetime.datetime.now(datetime.timezone.utc)
    loads = [open("/proc/loadavg").read().split()[0]]

    prepared = {table: prepare(table, args) for table in tables}
    jobs = [(table, run, seed) for table in tables for run in runs
            for seed in range(args.first_seed, args.first_seed + args.seeds)]
    results = {}
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        futures = {pool.submit(replay, prepared[t], r, s, args): (t, r, s)
                   for t, r, s in jobs}
        for future in concurrent.futures.as_completed(futures):
            table, run, seed = futures[future]
            try:
                result = future.result()
            except SystemExit:
                pool.shutdown(cancel_futures=True)
                raise
            results.setdefault((table, run["name"]), []).append(result)
    loads.append(open("/proc/loadavg").read().split()[0])

    budgets = sorted({run["budget"] for run in runs})
    header = (["table", "configs"] + [f"`{run['name']}`" for run in runs] +
              [f"random, {b} (exact)" for b in budgets])
    lines = ["| " + " | ".join(header) + " |",
             "|" + "---|" * len(header)]
    means = {run["name"]: [] for run in runs}
    expected = {b: [] for b in budgets}
    measured = 0
    for table in tables:
        cells = [table, str(len(prepared[table]["values"]))]
        for run in runs:
            rows = results[(table, run["name"])]
            fractions = [r["fraction"] for r in rows]
            mean = statistics.mean(fractions)
            means[run["name"]].append(mean)
            at_optimum = sum(f > 0.999 for f in fractions)
            measured += sum(r["evaluated"] for r in rows)
            cells.append(f"{mean:.3f} ({at_optimum}/{len(rows)})")
        for b in budgets:
            e = expectation(prepared[table], b)
            expected[b].append(e)
            cells.append(f"{e:.3f}")
        lines.append("| " + " | ".join(cells) + " |")
    lines.append("| **geomean** | | " + " | ".join(
        [f"**{geomean(means[run['name']]):.3f}**" for run in runs] +
        [f"{geomean(expected[b]):.3f}" for b in budgets]) + " |")
    finished = datetime.datetime.now(datetime.timezone.utc)
    notes = [
        "",
        "Mean best found / table optimum over seeds "
        f"{args.first_seed}-{args.first_seed + args.seeds - 1} (runs at the "
        "optimum in parentheses); every config recalled from the table's "
        f"database, {measured} measured besides the baselines.",
        f"Machine: {machine_line()}; {started.isoformat(timespec='seconds')}"
        f" to {finished.isoformat(timespec='seconds')}, load "
        f"{loads[0]} at the start, {loads[1]} at the end.",
        "Command: `benchmarks/strategies/replay_pass.py " +
        " ".join(f"'{a}'" if " " in a or ":" in a else a
                 for a in sys.argv[1:]) + "`",
    ]
    text = "\n".join(lines + notes) + "\n"
    print(text)
    if args.markdown:
        open(args.markdown, "w").write(text)
    if args.json:
        out = {"started": started.isoformat(timespec="seconds"),
               "finished": finished.isoformat(timespec="seconds"),
               "machine": machine_line(), "load": loads,
               "command": sys.argv[1:],
               "tables": {t: {"optimum_s": p["optimum"],
                              "configs": len(p["values"]),
                              "import": p["import"],
                              "random_expectation": {
                                  str(b): expectation(p, b) for b in budgets}}
                          for t, p in prepared.items()},
               "runs": [{"table": t, "run": name,
                         "results": sorted(rows, key=lambda r: r["seed"])}
                        for (t, name), rows in sorted(results.items())]}
        with lzma.open(args.json, "wt") as f:
            json.dump(out, f, indent=1)


if __name__ == "__main__":
    main()
