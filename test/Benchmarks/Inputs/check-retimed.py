"""Checks retime.py's --json output against the databases it read: every
label's recorded speedup is the largest speedup of an ok record in its
database, its config is that record's, labels with one config share one
applied file, and every retimed speedup is positive.

Usage: check-retimed.py RETIMED.json TUNER_DB LABEL=DATABASE ...
"""
import json
import subprocess
import sys

results = json.load(open(sys.argv[1]))
tuner_db = sys.argv[2]
files = {}
for item in sys.argv[3:]:
    label, database = item.split("=", 1)
    exported = subprocess.run([tuner_db, "--db", database, "export"],
                              check=True, capture_output=True, text=True)
    best = max((r for r in map(json.loads, exported.stdout.splitlines())
                if r.get("kind") == "measurement" and r.get("status") == "ok"),
               key=lambda r: r["speedup"])
    result = results[label]
    if abs(result["recorded"] - best["speedup"]) > 1e-12:
        sys.exit(f"{label}: recorded {result['recorded']}, the database's "
                 f"best is {best['speedup']}")
    if result["config"] != json.loads(best["config"]):
        sys.exit(f"{label}: config {result['config']} is not the best "
                 f"record's {best['config']}")
    if not (result["retimed"] and result["retimed"] > 0):
        sys.exit(f"{label}: retimed {result['retimed']}")
    key = json.dumps(result["config"], sort_keys=True)
    if files.setdefault(key, result["file"]) != result["file"]:
        sys.exit(f"{label}: one config applied to two files")
print("ok")
