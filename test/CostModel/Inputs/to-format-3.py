"""Rewrites a model file of format 4 (weights as base64 little-endian
float32) in the layout of format 3 (weights as JSON numbers)."""
import base64
import json
import struct
import sys

model = json.load(open(sys.argv[1]))
model["version"] = 3
for member in model["members"]:
    for parameter in member["parameters"]:
        data = base64.b64decode(parameter.pop("data"))
        parameter["values"] = list(struct.unpack("<%df" % (len(data) // 4), data))
json.dump(model, open(sys.argv[2], "w"))
