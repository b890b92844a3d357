#!/usr/bin/env python3
"""merge.py OUT MODEL...: one ensemble of the networks of several models
trained alike (same data, shape and features; other seeds): their members
(and the training summaries of the members) in order, the rest of the
first model's file. An experiment's tool: tuner-train reads the result as
any ensemble."""
import json, sys

out, paths = sys.argv[1], sys.argv[2:]
models = [json.load(open(p)) for p in paths]
merged = models[0]
for m in models[1:]:
    for key in ('features', 'shape', 'target', 'version'):
        if m[key] != merged[key]:
            raise SystemExit(f'{key} differs between {paths[0]} and the others')
    merged['members'] += m['members']
    merged['training']['members'] += m['training']['members']
json.dump(merged, open(out, 'w'))
