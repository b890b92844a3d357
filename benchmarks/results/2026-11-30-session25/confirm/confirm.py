#!/usr/bin/env python3
"""What confirm=N does to the best a search delivers: BSE (every node of its
beam width 4 tree measured) and MCTS (the shipped model, top-k 8) search
each kernel once with confirm=4, on this machine; then the best schedule of
each search's database as --tuner-apply-best chooses it is timed side by
side (retime.py, RUNS runs of three rounds) twice: from a copy of the
database without the confirmation's records (the search's best by its
first timing, what confirm=0 delivers) and from the database itself (the
best by each schedule's latest timing, what confirm=4 delivers).

    confirm.py WORK KERNEL... [--runs 2] [--confirm 4] [--bin build/bin]
               [--kernel-dir benchmarks/heldout/kernels]

A search whose summary is already in WORK is taken from there (a cut run
resumes by kernel). Prints a markdown table; writes WORK/confirm.json.
"""
import argparse
import json
import shutil
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[4]
sys.path.insert(0, str(REPO / "benchmarks"))
from compare_search import extra_options  # noqa: E402
from retime import retime  # noqa: E402


def now():
    return time.strftime("%H:%M:%S", time.gmtime())


def without_confirmation(source, target):
    """A copy of the database without the records of the confirmation."""
    for suffix in ("", "-wal", "-shm"):
        Path(str(target) + suffix).unlink(missing_ok=True)
    c = sqlite3.connect(source)
    c.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    c.close()
    shutil.copyfile(source, target)
    c = sqlite3.connect(target)
    c.execute("DELETE FROM measurements WHERE strategy = 'confirm'")
    c.commit()
    c.close()


def main():
    p = argparse.ArgumentParser()
    p.add_argument("work")
    p.add_argument("kernels", nargs="+")
    p.add_argument("--runs", type=int, default=2)
    p.add_argument("--confirm", type=int, default=4)
    p.add_argument("--bin", default=str(REPO / "build" / "bin"))
    p.add_argument("--kernel-dir", default=str(REPO / "benchmarks" / "heldout" / "kernels"))
    a = p.parse_args()
    work = Path(a.work).resolve()
    work.mkdir(parents=True, exist_ok=True)
    results = {}
    for kernel in a.kernels:
        mlir = Path(a.kernel_dir) / f"{kernel}.mlir"
        results[kernel] = {}
        dbs = {}
        for label, strategy, budget in (("BSE", "beam-exec", 5000),
                                        ("MCTS", "mcts", 8)):
            db = work / f"{kernel}-{label}.db"
            summary = work / f"{kernel}-{label}.json"
            if not summary.exists():
                for suffix in ("", "-wal", "-shm"):
                    Path(str(db) + suffix).unlink(missing_ok=True)
                # compare_search.py's options for BSE and MCTS.
                options = [f"strategy={strategy}", f"budget={budget}",
                           "seed=1", "beam-width=4", "top-k=8",
                           "mcts-iterations=200", f"database={db}",
                           f"summary-output={summary}.part",
                           f"confirm={a.confirm}"]
                extra = extra_options(mlir)
                if extra:
                    options.append(extra)
                print(f"{kernel} {label} {now()}", file=sys.stderr, flush=True)
                run = subprocess.run([f"{a.bin}/tuner-opt", str(mlir),
                                      "--tuner-autotune=" + " ".join(options),
                                      "-o", "/dev/null"],
                                     capture_output=True, text=True)
                if run.returncode != 0:
                    sys.exit(f"{kernel} {label}: {run.stderr[-2000:]}")
                Path(f"{summary}.part").rename(summary)
            data = json.loads(summary.read_text())
            results[kernel][label] = data["functions"][0]
            first = work / f"{kernel}-{label}-first.db"
            without_confirmation(db, first)
            dbs[label] = first
            dbs[label + "+confirm"] = db
        print(f"{kernel} retime {now()}", file=sys.stderr, flush=True)
        results[kernel]["retimed"] = retime(mlir, dbs, a.bin, work / "retimed",
                                            rounds=3, runs=a.runs)
    print(f"done {now()}", file=sys.stderr, flush=True)
    (work / "confirm.json").write_text(json.dumps(results, indent=1) + "\n")

    fmt = lambda x: "failed" if x is None else f"{x:.2f}x"
    print("| kernel | search | measured | search s | timed again (s) "
          "| best by first timing | timed again | delivered with confirm "
          "| its latest timing | retimed: confirm=0 | retimed: confirm=4 |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for kernel, r in results.items():
        for label in ("BSE", "MCTS"):
            s = r[label]
            c = s["confirmation"]
            entries = c["candidates"]
            before = c["best_before"]
            again = next((e["again"] for e in entries
                          if e["config"] == before["config"]), None)
            best = s["best"]
            rank = next((i + 1 for i, e in enumerate(entries)
                         if e["config"] == best["config"]), None)
            t = r["retimed"]
            chosen = ("the same" if best["config"] == before["config"]
                      else f"#{rank} timed again" if rank else "not timed again")
            print(f"| {kernel} | {label} | {s['measured']} | "
                  f"{s['search_seconds'] - c['seconds']:.1f} | "
                  f"{len(entries)} ({c['seconds']:.1f}) | "
                  f"{before['value']:.2f}x | {fmt(again)} | {chosen} | "
                  f"{best['speedup']:.2f}x | {fmt(t[label]['retimed'])} | "
                  f"{fmt(t[label + '+confirm']['retimed'])} |")


if __name__ == "__main__":
    main()
