#!/usr/bin/env python3
"""Live comparison of search strategies: each strategy tunes each kernel by
measurement (the autotune pass), in one run, and the table says how fast
the best schedule each found runs, next to how many measurements it spent.

usage: live.py [--kernels K1,K2,...] [--kernel-dir D] [--seed S]
               [--retime ROUNDS] [--out FILE.md] RUN [RUN ...]

A RUN is STRATEGY:BUDGET[:OPTIONS], OPTIONS being extra `--tuner-autotune`
options separated by spaces (e.g. "mcts:32:top-k=32", or
"bo:32:strategy-options=prior=model"). Every run of a kernel measures its
own baseline; speedups are over it, and the table's geometric means are
over the kernels. Measurements go to no database (each run starts cold).

With --retime, the tuned module of every run of a kernel is timed again
after its runs, side by side with the untuned kernel in one `tuner-measure`
call (outputs verified), ROUNDS times; the table then gives the median of
those speedups beside the tuning run's own figure. A run's best time is the
fastest of the candidates it measured, so the more it measured the more its
figure profits from noise (the winner's curse); the retimed figure does
not."""
import argparse
import datetime
import json
import math
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                os.pardir))
from machine import machine_line  # noqa: E402
from retime import function_name as retime_function_name  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


def parse_run(text):
    parts = text.split(":", 2)
    if len(parts) < 2 or not parts[1].isdigit() or int(parts[1]) <= 0:
        sys.exit(f"live.py: run '{text}' is not STRATEGY:BUDGET[:OPTIONS] with a positive budget")
    return {"name": text, "strategy": parts[0], "budget": int(parts[1]),
            "options": parts[2] if len(parts) == 3 else ""}


def kernel_options(path):
    # A kernel may ask for autotune options (e.g. a longer timeout) on a
    # line "// autotune: ...", as benchmarks/run.py reads it.
    for line in open(path):
        if line.startswith("// autotune:"):
            return line.split(":", 1)[1].strip()
    return ""


def run_stem(work, kernel_path, run):
    return os.path.join(work, f"{os.path.basename(kernel_path)}.{run['name'].replace(':', '_').replace(' ', '_').replace('=', '-')}")


def tune(tuner_opt, kernel_path, run, seed, work):
    stem = run_stem(work, kernel_path, run)
    summary, tuned = stem + ".json", stem + ".tuned.mlir"
    options = " ".join(filter(None, [
        f"strategy={run['strategy']} budget={run['budget']} seed={seed}",
        "database=none", f"summary-output={summary}",
        kernel_options(kernel_path), run["options"]]))
    command = [tuner_opt, kernel_path, f"--tuner-autotune={options}", "-o", tuned]
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        return {"error": done.stderr.strip().splitlines()[-1] if done.stderr.strip() else "failed",
                "command": command}
    s = json.load(open(summary))
    best = s.get("best") or {}
    baseline = s["baseline"]["median_s"]
    best_s = best.get("median_s") if best else None
    return {"baseline_s": baseline,
            "best_s": best_s,
            "speedup": (baseline / best_s) if best_s else 1.0,
            "measured": s.get("measured", 0),
            "failed": sum(s.get("failed", {}).values()) if isinstance(s.get("failed"), dict) else 0,
            "search_s": s.get("search_seconds", 0),
            "tuned": tuned,
            "command": " ".join(command).replace(ROOT + "/", "")}


def function_name(path):
    """The kernel's function, as retime.py reads it."""
    try:
        return retime_function_name(path)
    except RuntimeError:
        sys.exit(f"live.py: no func.func in {path}")


def retime(tuner_measure, kernel_path, runs, results, rounds):
    """Times every run's tuned module against the untuned kernel in one
    tuner-measure call per round; sets each result's 'retimed' to the median
    speedup over the rounds (None where a round failed it)."""
    tuned = [(run["name"], results[run["name"]]["tuned"]) for run in runs
             if "error" not in results[run["name"]]]
    if not tuned:
        return
    speedups = {name: [] for name, _ in tuned}
    command = [tuner_measure, kernel_path] + [path for _, path in tuned] + [
        "--function", function_name(kernel_path), "--json"]
    for _ in range(rounds):
        done = subprocess.run(command, capture_output=True, text=True)
        if done.returncode != 0:
            print(f"live.py: retiming {kernel_path} failed: {done.stderr.strip()[-300:]}", file=sys.stderr)
            continue
        report = json.loads(done.stdout)
        for (name, _), candidate in zip(tuned, report["candidates"]):
            if candidate.get("status") == "ok":
                speedups[name].append(candidate["speedup"])
    for name, values in speedups.items():
        values.sort()
        results[name]["retimed"] = values[len(values) // 2] if len(values) == rounds else None
        results[name]["retimed_all"] = values


def fmt_time(seconds):
    if seconds is None:
        return "—"
    if seconds >= 1:
        return f"{seconds:.3g} s"
    if seconds >= 1e-3:
        return f"{seconds * 1e3:.3g} ms"
    return f"{seconds * 1e6:.3g} µs"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("runs", nargs="+", type=parse_run)
    parser.add_argument("--kernels", default="doitgen,box_blur,heat3d,convolution")
    parser.add_argument("--kernel-dir", default=os.path.join(ROOT, "benchmarks", "kernels"))
    parser.add_argument("--tuner-opt", default=os.path.join(ROOT, "build", "bin", "tuner-opt"))
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--work-dir", default=os.path.join(ROOT, "build", "strategies", "live"))
    parser.add_argument("--retime", type=int, default=0, metavar="ROUNDS",
                        help="time every run's tuned module against the untuned kernel ROUNDS times, side by side")
    parser.add_argument("--out", help="also write the table (markdown) and the raw results (.json beside it)")
    args = parser.parse_args()
    os.makedirs(args.work_dir, exist_ok=True)
    kernels = args.kernels.split(",")
    for k in kernels:
        if not os.path.exists(os.path.join(args.kernel_dir, k + ".mlir")):
            sys.exit(f"live.py: no kernel '{k}' in {args.kernel_dir}")
    started = datetime.datetime.now(datetime.timezone.utc)
    results = {}
    tuner_measure = os.path.join(os.path.dirname(args.tuner_opt), "tuner-measure")
    for k in kernels:
        path = os.path.join(args.kernel_dir, k + ".mlir")
        for run in args.runs:
            r = tune(args.tuner_opt, path, run, args.seed, args.work_dir)
            results[(k, run["name"])] = r
            print(f"{k} {run['name']}: {json.dumps(r)}", file=sys.stderr)
        if args.retime:
            mine = {run["name"]: results[(k, run["name"])] for run in args.runs}
            retime(tuner_measure, path, args.runs, mine, args.retime)
            print(f"{k} retimed: " + json.dumps({n: r.get("retimed_all") for n, r in mine.items()}), file=sys.stderr)
    header = "| kernel | " + " | ".join(f"`{r['name']}`" for r in args.runs) + " |"
    lines = [header, "|---" * (len(args.runs) + 1) + "|"]
    for k in kernels:
        cells = []
        for run in args.runs:
            r = results[(k, run["name"])]
            if "error" in r:
                cells.append("error: " + r["error"][:60])
            else:
                retimed = ""
                if args.retime:
                    retimed = f"**{r['retimed']:.2f}x** retimed, " if r.get("retimed") else "retiming failed, "
                cells.append(f"{retimed}{r['speedup']:.2f}x ({fmt_time(r['best_s'])}; {r['measured']} meas., {r['search_s']:.0f} s)")
        lines.append(f"| {k} | " + " | ".join(cells) + " |")
    def geomean(key):
        cells = []
        for run in args.runs:
            values = [results[(k, run["name"])].get(key) for k in kernels]
            values = [v for v in values if v]
            cells.append(f"**{math.exp(sum(map(math.log, values)) / len(values)):.2f}x**"
                         if len(values) == len(kernels) else "—")
        return cells
    if args.retime:
        lines.append("| geomean, retimed | " + " | ".join(geomean("retimed")) + " |")
    lines.append("| geomean, tuning run | " + " | ".join(geomean("speedup")) + " |")
    lines.append("")
    lines.append(f"Machine: {machine_line()}. {started.strftime('%Y-%m-%d %H:%M')} UTC.")
    lines.append("Command: `benchmarks/strategies/live.py " + " ".join(sys.argv[1:]) + "`")
    lines.append("Speedup: each run's baseline (the untuned kernel, measured in that run) over the best schedule it found; "
                 "`meas.` counts measured candidates, the search seconds include compiling and timing them." +
                 (f" Retimed: the median over {args.retime} rounds of the tuned module's speedup over the untuned kernel, "
                  "every run's module of a kernel timed side by side with it in one `tuner-measure` call (outputs verified)."
                  if args.retime else ""))
    table = "\n".join(lines)
    print(table)
    if args.out:
        open(args.out, "w").write(table + "\n")
        raw = {f"{k}|{n}": v for (k, n), v in results.items()}
        json.dump(raw, open(os.path.splitext(args.out)[0] + ".json", "w"), indent=1)


if __name__ == "__main__":
    main()
