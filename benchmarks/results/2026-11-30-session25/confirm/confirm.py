#!/usr/bin/env python3
"""What confirm=N does to the best a search delivers, on the four held-out
kernels' complete searches (sessions 21 and 23; their databases are
committed): each search is run again on a copy of its database with
confirm=4, so that it takes every measurement from there, measures nothing
new, and times its 4 best schedules again (then the leader while it is one
not timed again); then the best schedule of each database, as
--tuner-apply-best chooses it, is timed side by side with retime.py (the
original database: the search's best by its first timing; the confirmed
copy: the best by the latest timings).

    confirm.py WORK [--runs 2] [--confirm 4] [--bin build/bin]

WORK holds the unpacked searches: WORK/onerun-fresh (session 21's
fresh-searches.tar.xz) and WORK/bse (session 23's bse.tar.xz and
searches-shipped.tar.xz). Prints a markdown table; writes WORK/confirm.json.
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

KERNELS = REPO / "benchmarks" / "heldout" / "kernels"


def copy_db(source, target):
    """The database with its write-ahead log folded in."""
    for suffix in ("", "-wal", "-shm"):
        s = Path(str(source) + suffix)
        if s.exists():
            shutil.copyfile(s, str(target) + suffix)
    c = sqlite3.connect(target)
    c.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    c.close()


def main():
    p = argparse.ArgumentParser()
    p.add_argument("work")
    p.add_argument("--runs", type=int, default=2)
    p.add_argument("--confirm", type=int, default=4)
    p.add_argument("--bin", default=str(REPO / "build" / "bin"))
    a = p.parse_args()
    work = Path(a.work).resolve()
    sources = {k: work / "onerun-fresh" for k in ("blur1d", "rowsumsq", "vecmat")}
    sources["matmul_tn"] = work / "bse"
    out = work / "confirm"
    out.mkdir(exist_ok=True)
    results = {}
    for kernel, folder in sources.items():
        mlir = KERNELS / f"{kernel}.mlir"
        results[kernel] = {}
        dbs = {}
        for label, strategy, budget in (("BSE", "beam-exec", 5000),
                                        ("MCTS", "mcts", 8)):
            original = out / f"{kernel}-{label}.db"
            copy_db(folder / f"{kernel}-{label}.db", original)
            confirmed = out / f"{kernel}-{label}-confirm.db"
            copy_db(original, confirmed)
            summary = out / f"{kernel}-{label}-confirm.json"
            options = [f"strategy={strategy}", f"budget={budget}", "seed=1",
                       "beam-width=4", "top-k=8", "mcts-iterations=200",
                       f"database={confirmed}", f"summary-output={summary}",
                       f"confirm={a.confirm}"]
            extra = extra_options(mlir)
            if extra:
                options.append(extra)
            print(f"{kernel} {label} {time.strftime('%H:%M:%S', time.gmtime())}",
                  file=sys.stderr, flush=True)
            run = subprocess.run([f"{a.bin}/tuner-opt", str(mlir),
                                  "--tuner-autotune=" + " ".join(options),
                                  "-o", "/dev/null"],
                                 capture_output=True, text=True)
            if run.returncode != 0:
                sys.exit(f"{kernel} {label}: {run.stderr[-2000:]}")
            data = json.loads(summary.read_text())
            results[kernel][label] = {"summary": data,
                                      "remark": run.stderr.strip()}
            dbs[label] = original
            dbs[label + "+confirm"] = confirmed
        print(f"{kernel} retime {time.strftime('%H:%M:%S', time.gmtime())}",
              file=sys.stderr, flush=True)
        results[kernel]["retimed"] = retime(mlir, dbs, a.bin, out / "retimed",
                                            rounds=3, runs=a.runs)
    (work / "confirm.json").write_text(json.dumps(results, indent=1) + "\n")

    print("| kernel | search | measured now | confirm s | best, first timing "
          "| its second timing | chosen after | its second timing | "
          "retimed: search's best | retimed: confirmed best |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for kernel, r in results.items():
        for label in ("BSE", "MCTS"):
            s = r[label]["summary"]
            c = s["confirmation"]
            entries = c["candidates"]
            before = c["best_before"]
            first_again = next((e["again"] for e in entries
                                if e["config"] == before["config"]), None)
            best = s["best"]
            rank = next((i + 1 for i, e in enumerate(entries)
                         if e["config"] == best["config"]), None)
            t = r["retimed"]
            fmt = lambda x: "failed" if x is None else f"{x:.2f}x"
            print(f"| {kernel} | {label} | {s['measured']} | "
                  f"{c['seconds']:.1f} | {before['value']:.2f}x | "
                  f"{fmt(first_again)} | "
                  f"{'the same' if rank == 1 else f'#{rank} of the first timing'} | "
                  f"{best['speedup']:.2f}x | {fmt(t[label]['retimed'])} | "
                  f"{fmt(t[label + '+confirm']['retimed'])} |")


if __name__ == "__main__":
    main()
