"""Appends to a tuner-db export a record of CONFIG (JSON text) for the same
workload and target as the export's first measurement, with the given
speedup, and prints the lines to import. Usage: add-record.py EXPORT CONFIG SPEEDUP"""
import json
import sys

export, config, speedup = sys.argv[1], sys.argv[2], float(sys.argv[3])
lines = [json.loads(line) for line in open(export) if line.strip()]
first = next(line for line in lines if line["kind"] == "measurement")
record = dict(first)
record.update(
    config=json.dumps(json.loads(config), sort_keys=True, separators=(",", ":")),
    config_hash="%016x" % 0x7E57,
    status="ok", repetitions=5, strategy="test", timestamp=first["timestamp"] + 1,
    message="", median_s=1e-9, min_s=1e-9, max_s=1e-9, speedup=speedup,
)
print(json.dumps(record, separators=(",", ":")))
