#!/usr/bin/env python3
"""Live comparison of search strategies: each strategy tunes each kernel by
measurement (the autotune pass), in one run, and the table says how fast
the best schedule each found runs, next to how many measurements it spent.

usage: live.py [--kernels K1,K2,...] [--kernel-dir D] [--seed S]
               [--out FILE.md] RUN [RUN ...]

A RUN is STRATEGY:BUDGET[:OPTIONS], OPTIONS being extra `--tuner-autotune`
options separated by spaces (e.g. "mcts:32:top-k=32", or
"bo:32:strategy-options=prior=model"). Every run of a kernel measures its
own baseline; speedups are over it, and the table's geometric means are
over the kernels. Measurements go to no database (each run starts cold)."""
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


def tune(tuner_opt, kernel_path, run, seed, work):
    summary = os.path.join(work, f"{os.path.basename(kernel_path)}.{run['name'].replace(':', '_').replace(' ', '_').replace('=', '-')}.json")
    options = " ".join(filter(None, [
        f"strategy={run['strategy']} budget={run['budget']} seed={seed}",
        "database=none", f"summary-output={summary}",
        kernel_options(kernel_path), run["options"]]))
    command = [tuner_opt, kernel_path, f"--tuner-autotune={options}", "-o", os.devnull]
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
            "command": " ".join(command).replace(ROOT + "/", "")}


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
    parser.add_argument("--out", help="also write the table (markdown) and the raw results (.json beside it)")
    args = parser.parse_args()
    os.makedirs(args.work_dir, exist_ok=True)
    kernels = args.kernels.split(",")
    for k in kernels:
        if not os.path.exists(os.path.join(args.kernel_dir, k + ".mlir")):
            sys.exit(f"live.py: no kernel '{k}' in {args.kernel_dir}")
    started = datetime.datetime.now(datetime.timezone.utc)
    results = {}
    for k in kernels:
        for run in args.runs:
            r = tune(args.tuner_opt, os.path.join(args.kernel_dir, k + ".mlir"), run, args.seed, args.work_dir)
            results[(k, run["name"])] = r
            print(f"{k} {run['name']}: {json.dumps(r)}", file=sys.stderr)
    header = "| kernel | " + " | ".join(f"`{r['name']}`" for r in args.runs) + " |"
    lines = [header, "|---" * (len(args.runs) + 1) + "|"]
    for k in kernels:
        cells = []
        for run in args.runs:
            r = results[(k, run["name"])]
            if "error" in r:
                cells.append("error: " + r["error"][:60])
            else:
                cells.append(f"{r['speedup']:.2f}x ({fmt_time(r['best_s'])}; {r['measured']} meas., {r['search_s']:.0f} s)")
        lines.append(f"| {k} | " + " | ".join(cells) + " |")
    geo = []
    for run in args.runs:
        values = [results[(k, run["name"])].get("speedup") for k in kernels]
        values = [v for v in values if v]
        geo.append(f"**{math.exp(sum(map(math.log, values)) / len(values)):.2f}x**" if values else "—")
    lines.append("| geomean | " + " | ".join(geo) + " |")
    lines.append("")
    lines.append(f"Machine: {machine_line()}. {started.strftime('%Y-%m-%d %H:%M')} UTC.")
    lines.append("Command: `benchmarks/strategies/live.py " + " ".join(sys.argv[1:]) + "`")
    lines.append("Speedup: each run's baseline (the untuned kernel, measured in that run) over the best schedule it found; "
                 "`meas.` counts measured candidates, the search seconds include compiling and timing them.")
    table = "\n".join(lines)
    print(table)
    if args.out:
        open(args.out, "w").write(table + "\n")
        raw = {f"{k}|{n}": v for (k, n), v in results.items()}
        json.dump(raw, open(os.path.splitext(args.out)[0] + ".json", "w"), indent=1)


if __name__ == "__main__":
    main()
