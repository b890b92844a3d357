"""Copies a dataset folder, its programs' target replaced by the target of
the first measurement of a tuning database export, so that the dataset and
the database hold measurements of one machine.

Usage: retarget.py DATASET EXPORT OUTPUT"""
import json
import os
import shutil
import sys

dataset, export, output = sys.argv[1:4]
target = next(record["target"] for record in map(json.loads, open(export))
              if record["kind"] == "measurement")
os.makedirs(output, exist_ok=True)
for name in os.listdir(dataset):
    if not name.startswith("programs"):
        shutil.copy(os.path.join(dataset, name), output)
        continue
    with open(os.path.join(output, name), "w") as out:
        for line in open(os.path.join(dataset, name)):
            program = json.loads(line)
            program["target"] = target
            out.write(json.dumps(program, sort_keys=True) + "\n")
