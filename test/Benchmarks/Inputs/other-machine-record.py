"""Prints, from a tuner-db export, its workloads and a record of another
machine (target "cpu:elsewhere:64c") for the first measurement's workload,
with a speedup of 999 that no record of this machine has.

Usage: other-machine-record.py EXPORT"""
import json
import sys

lines = [json.loads(line) for line in open(sys.argv[1]) if line.strip()]
first = next(line for line in lines if line["kind"] == "measurement")
record = dict(first, target="cpu:elsewhere:64c", speedup=999.0,
              status="ok", strategy="test", config_hash="%016x" % 0xE15E)
for line in lines:
    if line["kind"] == "workload":
        print(json.dumps(line))
print(json.dumps(record))
