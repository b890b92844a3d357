"""Appends to a tuner-db export a record of CONFIG (JSON text) for the same
workload and target as the export's first measurement, with the given
speedup, and prints the lines to import.

Usage: add-record.py EXPORT CONFIG SPEEDUP [SPACE] [HASH]
SPACE is the record's space fingerprint: "same" (the default) keeps the
first measurement's, "none" leaves it out (a record of database schema 1),
anything else is written as it is. HASH (hex) is the config hash, 7e57 by
default (records of one workload need distinct hashes)."""
import json
import sys

export, config, speedup = sys.argv[1], sys.argv[2], float(sys.argv[3])
space = sys.argv[4] if len(sys.argv) > 4 else "same"
config_hash = int(sys.argv[5], 16) if len(sys.argv) > 5 else 0x7E57
lines = [json.loads(line) for line in open(export) if line.strip()]
first = next(line for line in lines if line["kind"] == "measurement")
record = dict(first)
record.update(
    config=json.dumps(json.loads(config), sort_keys=True, separators=(",", ":")),
    config_hash="%016x" % config_hash,
    status="ok", repetitions=5, strategy="test",
    timestamp=first["timestamp"] + 1,
    message="", median_s=1e-9, min_s=1e-9, max_s=1e-9, speedup=speedup,
)
# The schedule was the first measurement's config's.
record.pop("schedule", None)
if space == "none":
    record.pop("space_fingerprint", None)
elif space != "same":
    record["space_fingerprint"] = space
print(json.dumps(record, separators=(",", ":")))
