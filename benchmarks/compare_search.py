#!/usr/bin/env python3
"""Compare the model-guided searches with the search by execution.

The Tiramisu paper's Table 2, on this suite: for each kernel, tune it with
beam search with execution (BSE: `strategy=beam-exec`, every node measured:
the reference for quality), beam search guided by the cost model alone
(BSM: `strategy=beam top-k=1`, only the schedule it ranks first is
measured), the same followed by the execution step (BSM+exec: `top-k=K`)
and MCTS guided by the model (`strategy=mcts top-k=K`), and MCTS whose
execution step corrects the model by the measurements as they come in
(MCTS+correction: `model-correction=true`, the errors' Gaussian process),
MCTS whose execution step adapts the model to the function (MCTS+adapt:
`model-correction=adapt`) and MCTS measuring a diverse top k
(MCTS+diverse: `diverse-top-k=true`), each from a fresh
database, and tabulate search time and the speedup of the schedule found,
then the search-time ratio to BSE and the loss of performance against BSE
(1 - speedup / BSE speedup), and the mean loss of the kernel each search
delivers (the autotune pass keeps the untransformed kernel when no schedule
beats it, so a search delivers max(1, speedup)). Kernels run one at a time.
Standard library only.

    benchmarks/compare_search.py [--kernels matmul mvt ...] [--beam-width 4]
        [--bse-budget 400] [--top-k 8] [--strategies BSM MCTS ...]
        [--retime] [--resume] [--out table.md]

`--retime` times each search's best schedule again, all of a kernel's
side by side in one `tuner-measure` run (`retime.py`), and adds their
speedups and losses to the table: a search's own figure is the largest of
the timings it took, which flatters a search that took 800 over one that
took 8.

`--resume` takes each search that an earlier, interrupted run with the same
options finished in `--work-dir` from there (searches by execution take
hours on a whole suite), and continues a search that was cut short from its
database: only what it had not measured is measured, and its time is that
of all its runs.
"""

import argparse
import datetime
import json
import os
import shlex
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

from machine import machine_line
from retime import retime

BENCH_DIR = Path(__file__).resolve().parent
REPO_DIR = BENCH_DIR.parent
KERNEL_DIR = BENCH_DIR / "kernels"
# (label, strategy, whether it executes the top k at the end, more options)
STRATEGIES = [("BSE", "beam-exec", False, []), ("BSM", "beam", False, []),
              ("BSM+exec", "beam", True, []), ("MCTS", "mcts", True, []),
              ("MCTS+correction", "mcts", True, ["model-correction=true"]),
              ("MCTS+adapt", "mcts", True, ["model-correction=adapt"]),
              ("MCTS+diverse", "mcts", True, ["diverse-top-k=true"])]


def extra_options(kernel):
    """The kernel's own `// autotune:` options (e.g. a longer timeout)."""
    for line in kernel.read_text().splitlines():
        if line.startswith("// autotune:"):
            return line.split(":", 1)[1].strip()
    return ""


def database_path(work, name, label):
    """Where the search `label` of kernel `name` keeps its measurements."""
    return work / f"{name}-{label.replace('+', '-')}.db"


def tune(tuner, kernel, label, strategy, top_k, more, args, work):
    name = kernel.stem
    db = database_path(work, name, label)
    summary = db.with_suffix(".json")
    done = db.with_suffix(".done.json")
    progress = db.with_suffix(".progress.json")
    options_now = comparison_options(args, label, top_k)
    if args.resume and done.exists():
        # A finished search of an earlier, interrupted comparison with the
        # same options (the file records them; others are searched again).
        record = json.loads(done.read_text())
        if record.get("options") == options_now:
            print(f"  taken from {done}", file=sys.stderr, flush=True)
            return record["result"]
    earlier = continued_search(db, progress, options_now) \
        if args.resume and not done.exists() else None
    if earlier is None:
        for path in (db, Path(f"{db}-wal"), Path(f"{db}-shm"), summary, done,
                     progress):
            if path.exists():
                path.unlink()
        earlier = {"seconds": 0.0, "runs": 0, "measurements": 0}
    else:
        print(f"  continued from {db}: {earlier['measurements']} "
              f"measurements, {earlier['seconds']:.1f} s in "
              f"{earlier['runs']} earlier run(s)", file=sys.stderr, flush=True)
    # Written before the search starts: a run cut short leaves it, and its
    # database, for --resume to continue from.
    progress.write_text(json.dumps({
        "options": options_now, "started": time.time(),
        "seconds": earlier["seconds"], "runs": earlier["runs"]}) + "\n")
    budget = args.bse_budget if strategy == "beam-exec" else top_k
    options = [f"strategy={strategy}", f"budget={budget}", f"seed={args.seed}",
               f"beam-width={args.beam_width}", f"top-k={top_k}",
               f"mcts-iterations={args.mcts_iterations}",
               f"database={db}", f"summary-output={summary}"] + more
    if args.confirm:
        options.append(f"confirm={args.confirm}")
    if args.model and label != "BSE":
        options.append(f"model={args.model}")
    extra = extra_options(kernel)
    if extra:
        options.append(extra)
    command = [str(tuner), str(kernel),
               "--tuner-autotune=" + " ".join(options), "-o", os.devnull]
    start = time.monotonic()
    result = subprocess.run(command, capture_output=True, text=True)
    wall = time.monotonic() - start
    if result.returncode != 0 or not summary.exists():
        raise RuntimeError(f"{name} ({strategy}) failed:\n{result.stderr[-2000:]}")
    data = json.loads(summary.read_text())
    best = data.get("best")
    outcome = {
        # An interrupted search continued: its earlier runs' time too.
        "seconds": data["search_seconds"] + earlier["seconds"],
        "wall": wall,
        "speedup": best["speedup"] if best else 1.0,
        # The pass counts what it measured, not what it took from the
        # database: a continued search's earlier measurements too.
        "measured": data["measured"] + earlier["measurements"],
        "predicted": data.get("model_predictions"),
        "warnings": [l for l in result.stderr.splitlines() if "warning:" in l],
    }
    if earlier["runs"]:
        outcome["runs"] = earlier["runs"] + 1
    done.write_text(json.dumps({
        "options": options_now, "result": outcome}) + "\n")
    progress.unlink()
    return outcome


def continued_search(db, progress, options):
    """What the earlier, unfinished runs of this search took, when they were
    made with these options and left a database to continue from; None when
    there is nothing to continue.

    The tuning pass takes every config its database holds from there (the
    same seed proposes the same candidates), so rerunning the search
    measures only what is missing. The run that was cut short counts from
    its start to its last recorded measurement: what it measured after that
    is measured again."""
    if not progress.exists() or not db.exists():
        return None
    try:
        record = json.loads(progress.read_text())
        started, seconds = float(record["started"]), float(record["seconds"])
        runs = int(record["runs"])
    except (ValueError, KeyError, TypeError) as e:
        raise RuntimeError(f"{progress}: not a progress record of this "
                           f"script ({e}): remove it to search again")
    if record.get("options") != options:
        return None
    try:
        connection = sqlite3.connect(db)
        try:
            count, last = connection.execute(
                "SELECT count(*), max(timestamp) FROM measurements").fetchone()
        finally:
            connection.close()
    except sqlite3.Error as e:
        raise RuntimeError(f"{db}: cannot read its measurements ({e}): "
                           "remove it and its .progress.json to search again")
    if last is not None:
        seconds += max(0.0, last - started)
    return {"seconds": seconds, "runs": runs + 1, "measurements": count}


def comparison_options(args, label, top_k):
    """What a search's result depends on, besides the kernel and the build."""
    options = {"label": label, "top_k": top_k, "beam_width": args.beam_width,
               "mcts_iterations": args.mcts_iterations, "seed": args.seed,
               "bse_budget": args.bse_budget if label == "BSE" else None,
               # BSE measures every node and never asks the model: a search
               # of another model's comparison is as good.
               "model": None if label == "BSE" else args.model}
    if args.confirm:
        # Only when set: searches of a comparison without it still resume.
        options["confirm"] = args.confirm
    return options


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kernels", nargs="*", help="kernel names (default: all)")
    parser.add_argument("--beam-width", type=int, default=4)
    parser.add_argument("--top-k", type=int, default=8,
                        help="candidates BSM and MCTS measure at the end")
    parser.add_argument("--mcts-iterations", type=int, default=200)
    parser.add_argument("--bse-budget", type=int, default=400,
                        help="measurements BSE may take at most")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--model", help="cost model (default: the shipped one)")
    parser.add_argument("--strategies", nargs="*",
                        help="model-guided strategies to compare with BSE "
                             "(default: all of " + ", ".join(
                                 label for label, _, _, _ in STRATEGIES[1:])
                             + ")")
    parser.add_argument("--confirm", type=int, default=0,
                        help="every search times its best N schedules again "
                             "and delivers the best of those timings (the "
                             "autotune pass's confirm=N; default 0)")
    parser.add_argument("--resume", action="store_true",
                        help="take the searches an earlier run with the same "
                             "options finished in --work-dir from there, and "
                             "continue those it left unfinished")
    parser.add_argument("--retime", action="store_true",
                        help="time every search's best schedule again, a "
                             "kernel's side by side in one run, and report "
                             "those speedups and losses too")
    parser.add_argument("--retime-rounds", type=int, default=3,
                        help="harness rounds of each retiming run (default 3)")
    parser.add_argument("--retime-runs", type=int, default=1,
                        help="tuner-measure runs of the retiming, one after "
                             "the other; a speedup is their geometric mean "
                             "(default 1)")
    parser.add_argument("--out", help="also write the table here")
    parser.add_argument("--tuner-opt", help="tuner-opt to run (default: "
                        "build/bin/tuner-opt)")
    parser.add_argument("--kernel-dir", default=str(KERNEL_DIR),
                        help="folder of the kernels (default: "
                             "benchmarks/kernels)")
    parser.add_argument("--work-dir",
                        default=str(REPO_DIR / "build" / "benchmarks" / "search"),
                        help="folder for the databases and summaries")
    args = parser.parse_args()
    if args.confirm < 0:
        sys.exit("error: --confirm must not be negative")
    if args.retime_rounds < 1 or args.retime_runs < 1:
        sys.exit("error: --retime-rounds and --retime-runs must be at least 1")
    known = [label for label, _, _, _ in STRATEGIES]
    if args.strategies:
        unknown = [s for s in args.strategies if s not in known[1:]]
        if unknown:
            sys.exit(f"error: no such strategy: {', '.join(unknown)} "
                     f"(known: {', '.join(known[1:])})")
    chosen = [entry for entry in STRATEGIES
              if entry[0] == "BSE" or not args.strategies
              or entry[0] in args.strategies]

    tuner = Path(args.tuner_opt) if args.tuner_opt else \
        REPO_DIR / "build" / "bin" / "tuner-opt"
    if not tuner.exists():
        sys.exit(f"error: {tuner} is missing: build first (scripts/build.sh)")
    kernels = sorted(Path(args.kernel_dir).glob("*.mlir"))
    if not kernels:
        sys.exit(f"error: no kernels (*.mlir) in {args.kernel_dir}")
    if args.kernels:
        wanted = set(args.kernels)
        kernels = [k for k in kernels if k.stem in wanted]
        missing = wanted - {k.stem for k in kernels}
        if missing:
            sys.exit(f"error: no such kernel: {', '.join(sorted(missing))}")
    work = Path(args.work_dir)
    work.mkdir(parents=True, exist_ok=True)

    rows = []
    for kernel in kernels:
        results = {}
        for label, strategy, executes, more in chosen:
            print(f"{kernel.stem}: {label} ...", file=sys.stderr, flush=True)
            top_k = args.top_k if executes else 1
            try:
                results[label] = tune(tuner, kernel, label, strategy, top_k,
                                      more, args, work)
            except RuntimeError as e:
                sys.exit(f"error: {e}")
            for warning in results[label]["warnings"]:
                print("  " + warning, file=sys.stderr)
        if args.retime:
            print(f"{kernel.stem}: retiming ...", file=sys.stderr, flush=True)
            databases = {label: str(database_path(work, kernel.stem, label))
                         for label in results}
            try:
                retimed = retime(kernel, databases, tuner.parent,
                                 work / "retimed", args.retime_rounds,
                                 args.retime_runs)
            except (RuntimeError, KeyError, json.JSONDecodeError) as e:
                sys.exit(f"error: retiming {kernel.stem}: {e}")
            for label, result in retimed.items():
                results[label]["retimed"] = result["retimed"]
        rows.append((kernel.stem, results))

    guided = [label for label, _, _, _ in chosen if label != "BSE"]
    lines = [
        f"Search strategies on {machine_line()}, "
        f"{datetime.date.today().isoformat()}",
        "",
        "`" + " ".join(shlex.quote(a) for a in [str(Path(sys.argv[0]))] + sys.argv[1:]) + "`",
        "",
        "| kernel | BSE time (s) | BSE measured | tree (BSM scored) | "
        "BSE speedup | " + ("BSE retimed | " if args.retime else "")
        + " | ".join(f"{g} time (s) | {g} speedup | BSE/{g} time | {g} loss"
                     + (f" | {g} retimed | {g} retimed loss"
                        if args.retime else "")
                     for g in guided) + " |",
        "|---|---|---|---|---|" + ("---|" if args.retime else "")
        + ("---|---|---|---|" + ("---|---|" if args.retime else ""))
        * len(guided),
    ]
    ratios = {g: [] for g in guided}
    losses = {g: [] for g in guided}
    delivered = {g: [] for g in guided}
    retimed_losses = {g: [] for g in guided}

    def speedup_cell(value):
        return "failed" if value is None else f"{value:.2f}x"
    for name, r in rows:
        bse = r["BSE"]
        # The schedules beam search with the model scored: about what BSE,
        # on the same tree and beam width, measures when its budget allows.
        scored = next((r[g]["predicted"] for g in ("BSM", "BSM+exec")
                       if g in r and r[g]["predicted"] is not None), None)
        cells = [name, f"{bse['seconds']:.1f}", str(bse["measured"]),
                 "" if scored is None else str(scored),
                 f"{bse['speedup']:.2f}x"]
        if args.retime:
            cells.append(speedup_cell(bse["retimed"]))
        for g in guided:
            ratio = bse["seconds"] / max(r[g]["seconds"], 1e-9)
            loss = 1 - r[g]["speedup"] / bse["speedup"]
            ratios[g].append(ratio)
            losses[g].append(loss)
            delivered[g].append(1 - max(1.0, r[g]["speedup"])
                                / max(1.0, bse["speedup"]))
            cells += [f"{r[g]['seconds']:.1f}", f"{r[g]['speedup']:.2f}x",
                      f"{ratio:.1f}x", f"{100 * loss:.1f}%"]
            if args.retime:
                mine, reference = r[g]["retimed"], bse["retimed"]
                if mine is not None and reference is not None:
                    retimed_losses[g].append(1 - mine / reference)
                    loss_cell = f"{100 * (1 - mine / reference):.1f}%"
                else:
                    loss_cell = "—"
                cells += [speedup_cell(mine), loss_cell]
        lines.append("| " + " | ".join(cells) + " |")
    n = max(len(rows), 1)
    pad = [""] if args.retime else []
    cells = ["**mean**", "", "", "", ""] + pad
    for g in guided:
        cells += ["", "", f"{sum(ratios[g]) / n:.1f}x",
                  f"{100 * sum(losses[g]) / n:.1f}%"]
        if args.retime:
            both = retimed_losses[g]
            cells += ["", (f"{100 * sum(both) / len(both):.1f}%"
                           + ("" if len(both) == len(rows)
                              else f" ({len(both)} kernels)"))
                      if both else "—"]
    lines.append("| " + " | ".join(cells) + " |")
    cells = ["**mean, delivered**", "", "", "", ""] + pad
    for g in guided:
        cells += ["", "", "", f"{100 * sum(delivered[g]) / n:.1f}%"] + pad * 2
    lines.append("| " + " | ".join(cells) + " |")
    lines.append("")
    lines.append("Time: the autotune pass's search time, measurements "
                 "included (BSM measures the one schedule it ranks first, "
                 f"the others their top {args.top_k}). Speedup: of "
                 "the best verified schedule over the untransformed kernel, "
                 "measured in the same run. Loss: 1 - speedup / BSE speedup "
                 "(negative: better than BSE). Delivered: the same for the "
                 "kernel the pass leaves, max(1, speedup) (it keeps the "
                 "untransformed kernel when no schedule beats it). Tree: the "
                 "schedules beam search with the model scored, about what "
                 "BSE measures on the same tree when --bse-budget allows; "
                 "BSE stops at its budget."
                 + (f" Retimed: each search's best schedule timed again, "
                    f"a kernel's side by side in one tuner-measure run "
                    f"({args.retime_rounds} rounds, the baseline timed in "
                    "each process"
                    + (f"; the geometric mean of {args.retime_runs} such runs"
                       if args.retime_runs > 1 else "")
                    + "), and the loss from those speedups."
                    if args.retime else ""))
    table = "\n".join(lines)
    print(table)
    if args.out:
        Path(args.out).write_text(table + "\n")


if __name__ == "__main__":
    main()
