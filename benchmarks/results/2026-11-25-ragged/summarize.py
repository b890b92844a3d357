#!/usr/bin/env python3
"""Tabulates run.sh's output folder: per kernel and binary (before/after the
analytic seeds), the baseline, the best time and GFLOP/s, and every measured
candidate in measurement order (from the run's tuning database).
Usage: summarize.py FOLDER > results.md; also writes FOLDER/results.json."""
import json, sqlite3, sys, os

FLOPS = {"matmul_1021": 2 * 1021**3, "matmul_1000": 2 * 1000**3,
         "matmul": 2 * 1024**3, "batch_matmul": 2 * 16 * 192 * 160 * 224}
folder = sys.argv[1]
rows = []
for kernel in ["matmul_1021", "matmul_1000", "matmul", "batch_matmul"]:
    for variant in ["before", "after"]:
        summary_path = os.path.join(folder, f"{kernel}.{variant}.json")
        if not os.path.exists(summary_path):
            continue
        summary = json.load(open(summary_path))
        fn = summary["functions"][0] if "functions" in summary else summary
        if "best" not in fn:
            continue
        db = sqlite3.connect(os.path.join(folder, f"{kernel}.{variant}.db"))
        candidates = []
        for config, status, median in db.execute(
                "select config, status, median_seconds from measurements order by id"):
            config = json.loads(config)
            nest = {k.split(".", 1)[1]: v for k, v in config.items()
                    if k.startswith(("matmul_1.", "batch_matmul_1."))}
            candidates.append({"status": status, "median_s": median, "config": config,
                               "matmul": nest})
        best = fn["best"]
        rows.append({"kernel": kernel, "variant": variant,
                     "baseline_s": fn["baseline"]["median_s"],
                     "best_s": best["median_s"],
                     "gflops": FLOPS[kernel] / best["median_s"] / 1e9,
                     "best_config": best["config"],
                     "search_seconds": fn.get("search_seconds"),
                     "candidates": candidates})
json.dump(rows, open(os.path.join(folder, "results.json"), "w"), indent=1)

def short(c):
    m = c["matmul"]
    keys = sorted(k for k in m if k.startswith("tile."))
    t = "x".join(str(m[k]) for k in keys)
    r = "x".join(str(m["r" + k]) for k in keys)
    return (f"tiles {t}, rtile {r}, order {m.get('order')}, "
            f"{'vec ' + m.get('lowering', '') if m.get('vectorize') else 'scalar'}, "
            f"unroll {m.get('unroll')}, {'parallel ' + m.get('distribute', '') if m.get('parallel') else 'sequential'}")

print("| kernel | binary | baseline | best | GFLOP/s | candidates | best is |")
print("|---|---|---|---|---|---|---|")
for r in rows:
    seeds = 2 if r["variant"] == "after" else 0
    best_index = min(range(len(r["candidates"])),
                     key=lambda i: r["candidates"][i]["median_s"] or 1e9)
    kind = f"seed {best_index + 1}" if best_index < seeds else f"model pick {best_index + 1 - seeds}"
    print(f"| {r['kernel']} | {r['variant']} | {r['baseline_s']*1e3:.0f} ms | "
          f"{r['best_s']*1e3:.1f} ms | {r['gflops']:.1f} | {len(r['candidates'])} | {kind} |")
print()
for r in rows:
    print(f"{r['kernel']} {r['variant']}: candidates in measurement order")
    for c in r["candidates"]:
        t = f"{c['median_s']*1e3:8.2f} ms" if c['median_s'] else '       -   '
        print(f"  {t}  {c['status']:14s} {short(c)}")
    print()
