"""Checks retime.py's --json output against the databases it read: every
label's recorded speedup is the largest speedup among each config's latest
record of this machine in its database (ok), its config is that record's,
labels with one config share one applied file, and its retimed speedup is
the geometric mean of RUNS positive speedups, one per tuner-measure run.

Usage: check-retimed.py RETIMED.json RUNS TUNER_DB LABEL=DATABASE ...
"""
import json
import math
import subprocess
import sys

results = json.load(open(sys.argv[1]))
runs = int(sys.argv[2])
tuner_db = sys.argv[3]
host = subprocess.run([tuner_db, "host"], check=True, capture_output=True,
                      text=True).stdout.strip()
files = {}
for item in sys.argv[4:]:
    label, database = item.split("=", 1)
    exported = subprocess.run([tuner_db, "--db", database, "export"],
                              check=True, capture_output=True, text=True)
    # Each config's latest record of this machine; the best ok one.
    latest = {}
    for r in map(json.loads, exported.stdout.splitlines()):
        if r.get("kind") == "measurement" and r["target"] == host:
            if (r["config_hash"] not in latest or
                    r["timestamp"] >= latest[r["config_hash"]]["timestamp"]):
                latest[r["config_hash"]] = r
    best = max((r for r in latest.values() if r["status"] == "ok"),
               key=lambda r: r["speedup"])
    result = results[label]
    if abs(result["recorded"] - best["speedup"]) > 1e-12:
        sys.exit(f"{label}: recorded {result['recorded']}, the database's "
                 f"best is {best['speedup']}")
    if result["config"] != json.loads(best["config"]):
        sys.exit(f"{label}: config {result['config']} is not the best "
                 f"record's {best['config']}")
    timings = result["retimed_runs"]
    if len(timings) != runs or not all(x and x > 0 for x in timings):
        sys.exit(f"{label}: {runs} runs expected, got {timings}")
    mean = math.exp(sum(map(math.log, timings)) / runs)
    if abs(result["retimed"] - mean) > 1e-9 * mean:
        sys.exit(f"{label}: retimed {result['retimed']}, the runs' "
                 f"geometric mean is {mean}")
    key = json.dumps(result["config"], sort_keys=True)
    if files.setdefault(key, result["file"]) != result["file"]:
        sys.exit(f"{label}: one config applied to two files")
print("ok")
