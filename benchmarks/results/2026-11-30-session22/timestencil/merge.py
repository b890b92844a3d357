#!/usr/bin/env python3
"""merge.py OUT MODEL...: one cost-model file whose ensemble holds the
members of all the given files (trained alike: same features, network
shape and target), so that its prediction averages over their training
seeds. The first file's training record is kept, its members' records
joined with the others'."""
import json
import sys

if len(sys.argv) < 4:
    sys.exit("usage: merge.py OUT MODEL MODEL...")
out, paths = sys.argv[1], sys.argv[2:]
models = [json.load(open(p)) for p in paths]
first = models[0]
for path, m in zip(paths[1:], models[1:]):
    for key in ("format", "version", "features", "shape", "target"):
        if m[key] != first[key]:
            sys.exit(f"merge.py: {path}: its {key} differs from {paths[0]}'s")
merged = dict(first)
merged["members"] = [member for m in models for member in m["members"]]
merged["training"] = dict(first["training"])
merged["training"]["members"] = [r for m in models for r in m["training"]["members"]]
merged["training"]["merged_from"] = paths
with open(out, "w") as f:
    json.dump(merged, f)
print(f"{out}: {len(merged['members'])} members from {len(paths)} files")
