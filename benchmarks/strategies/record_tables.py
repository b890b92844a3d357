#!/usr/bin/env python3
"""Records the replay tables of the strategy comparison: every config of a
narrowed space of each kernel in kernels/, measured once (failures kept).

usage: record_tables.py [--kernels matmul,conv,...] [--build build]
                        [--out tables] [--work build/strategies]

For each kernel K: the function's space (tuner-extract-space, default
options) is narrowed by spaces/K.spec.json (narrow.py) and saved as
tables/K.space.json; `tuner-opt --tuner-autotune="space=... strategy=exhaustive"`
measures every config into a tuning database (a killed run resumes: the
database is kept in --work); the database's records become the replay table
tables/K.jsonl.xz ({"config", "time" (median seconds, null when failed),
"status"}, the form `tuner-search --replay` reads once decompressed), and
tables/K.meta.json says what made it (command, machine, date, counts)."""
import argparse
import datetime
import json
import lzma
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                os.pardir))
from machine import machine_line  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


def run(cmd, **kw):
    print("+", " ".join(cmd), file=sys.stderr)
    return subprocess.run(cmd, check=True, **kw)


def record(kernel, build, out, work):
    tuner_opt = os.path.join(build, "bin", "tuner-opt")
    tuner_search = os.path.join(build, "bin", "tuner-search")
    tuner_db = os.path.join(build, "bin", "tuner-db")
    mlir = os.path.join(HERE, "kernels", kernel + ".mlir")
    full = os.path.join(work, kernel + ".full.json")
    space = os.path.join(out, kernel + ".space.json")
    db = os.path.join(work, kernel + ".db")
    run([tuner_opt, mlir, f"--tuner-extract-space=output={full}", "-o", os.devnull])
    run([sys.executable, os.path.join(HERE, "narrow.py"), full,
         os.path.join(HERE, "spaces", kernel + ".spec.json"), "-o", space])
    count = int(subprocess.run([tuner_search, "--space", space, "--count"],
                               check=True, capture_output=True, text=True).stdout.split()[0])
    options = (f"space={space} strategy=exhaustive budget={count} "
               f"database={db} summary-output={os.path.join(work, kernel + '.summary.json')}")
    command = [tuner_opt, mlir, f"--tuner-autotune={options}", "-o", os.devnull]
    started = datetime.datetime.now(datetime.timezone.utc)
    run(command)
    exported = subprocess.run([tuner_db, f"--db={db}", "export"], check=True,
                              capture_output=True, text=True).stdout
    fingerprint = json.load(open(space))
    rows, seen = [], set()
    for line in exported.splitlines():
        record = json.loads(line)
        if record.get("kind") != "measurement":
            continue
        config = json.loads(record["config"])
        key = json.dumps(config, sort_keys=True)
        if key in seen:
            continue
        seen.add(key)
        ok = record["status"] == "ok"
        rows.append({"config": config,
                     "time": record["median_s"] if ok else None,
                     "status": record["status"]})
    if len(rows) != count:
        sys.exit(f"record_tables.py: {kernel}: {len(rows)} records for {count} configs")
    rows.sort(key=lambda r: json.dumps(r["config"], sort_keys=True))
    with lzma.open(os.path.join(out, kernel + ".jsonl.xz"), "wt") as f:
        for row in rows:
            f.write(json.dumps(row, sort_keys=True) + "\n")
    times = [r["time"] for r in rows if r["time"] is not None]
    meta = {
        "kernel": kernel,
        "configs": count,
        "failed": sum(r["time"] is None for r in rows),
        "best_s": min(times),
        "median_s": sorted(times)[len(times) // 2],
        "command": " ".join(command).replace(ROOT + "/", ""),
        "recorded_by": "benchmarks/strategies/record_tables.py --kernels " + kernel,
        "machine": machine_line(),
        "started": started.isoformat(timespec="seconds"),
        "finished": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
    }
    json.dump(meta, open(os.path.join(out, kernel + ".meta.json"), "w"), indent=1)
    print(json.dumps(meta), file=sys.stderr)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--kernels", default="matmul,conv,stencil,affine")
    parser.add_argument("--build", default=os.path.join(ROOT, "build"))
    parser.add_argument("--out", default=os.path.join(HERE, "tables"))
    parser.add_argument("--work", default=os.path.join(ROOT, "build", "strategies"))
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    os.makedirs(args.work, exist_ok=True)
    for kernel in args.kernels.split(","):
        record(kernel, args.build, args.out, args.work)


if __name__ == "__main__":
    main()
