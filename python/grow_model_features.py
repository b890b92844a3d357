#!/usr/bin/env python3
"""Carries a cost model over to a feature layout that inserted new features.

The network's first layer gets zero weights for the inserted features, and
their input normalization is the identity (mean 0, scale 1): the grown model
predicts exactly what the old one did for schedules whose new features are
zero, and nothing it learned is lost. It knows nothing about the new
features until trained on data that has them; use it where a retrained
model has too little data to beat it (and measure which is better, with
`tuner-train --evaluate` on data of the new layout).

  grow_model_features.py OLD.json NEW.json --at 119 --count 5 \\
      --layout HASH --features 568
"""
import argparse
import base64
import json
import struct


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("old")
    parser.add_argument("new")
    parser.add_argument("--at", type=int, required=True,
                        help="index of the first inserted feature")
    parser.add_argument("--count", type=int, required=True,
                        help="features inserted there")
    parser.add_argument("--layout", required=True,
                        help="the new layout hash (tuner-train --list-features)")
    parser.add_argument("--features", type=int, required=True,
                        help="features per computation in the new layout")
    args = parser.parse_args()

    model = json.load(open(args.old))
    old = model["features"]["count"]
    if old + args.count != args.features or not 0 <= args.at <= old:
        raise SystemExit("%d features + %d inserted at %d is not %d"
                         % (old, args.count, args.at, args.features))
    for member in model["members"]:
        norm = member["input_normalization"]
        norm["mean"][args.at:args.at] = [0.0] * args.count
        norm["scale"][args.at:args.at] = [1.0] * args.count
        first = member["parameters"][0]
        if first["name"] != "computation.0.weight" or first["cols"] != old:
            raise SystemExit("unexpected first parameter %s (%s columns)"
                             % (first["name"], first["cols"]))
        rows = first["rows"]
        data = base64.b64decode(first["data"])
        # Column-major: feature j's column is rows consecutive floats.
        cut = args.at * rows * 4
        data = data[:cut] + struct.pack("<%df" % (rows * args.count),
                                        *([0.0] * rows * args.count)) + data[cut:]
        first["data"] = base64.b64encode(data).decode()
        first["cols"] = args.features
    model["features"]["count"] = args.features
    model["features"]["layout"] = args.layout
    model.setdefault("notes", []).append(
        "grown from layout %s: %d zero-weight features inserted at %d"
        % (args.layout, args.count, args.at))
    json.dump(model, open(args.new, "w"))


if __name__ == "__main__":
    main()
