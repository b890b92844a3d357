#!/usr/bin/env python3
"""Carries a cost model over to a feature layout that inserted new features.

The network's first layer gets zero weights for the inserted features, and
their input normalization is the identity (mean 0, scale 1): the grown model
predicts exactly what the old one did for schedules whose new features are
zero, and nothing it learned is lost. It knows nothing about the new
features until trained on data that has them; use it where a retrained
model has too little data to beat it (and measure which is better, with
`tuner-train --evaluate` on data of the new layout).

  grow_model_features.py OLD.json NEW.json --insert 124:5 --insert 573:740 \\
      --layout HASH --features 1313 --maximum accesses=32

Each --insert AT:COUNT inserts COUNT features before feature AT of the
layout as it stands after the insertions listed before it (so list them in
increasing order of AT, each AT in the grown numbering).
"""
import argparse
import base64
import json
import struct
import sys


def insertion(text):
    try:
        at, count = (int(part) for part in text.split(":"))
    except ValueError:
        raise argparse.ArgumentTypeError("expected AT:COUNT, got %r" % text)
    if at < 0 or count <= 0:
        raise argparse.ArgumentTypeError(
            "AT must be >= 0 and COUNT > 0, got %r" % text)
    return at, count


def grow_member(member, old, insertions, path):
    norm = member["input_normalization"]
    first = member["parameters"][0]
    if first["name"] != "computation.0.weight" or first["cols"] != old:
        sys.exit("%s: unexpected first parameter %s (%s columns, expected "
                 "computation.0.weight with %d)"
                 % (path, first["name"], first["cols"], old))
    rows = first["rows"]
    data = base64.b64decode(first["data"])
    count = old
    for at, inserted in insertions:
        norm["mean"][at:at] = [0.0] * inserted
        norm["scale"][at:at] = [1.0] * inserted
        # Column-major: feature j's column is rows consecutive floats.
        cut = at * rows * 4
        data = (data[:cut] + struct.pack("<%df" % (rows * inserted),
                                         *([0.0] * rows * inserted))
                + data[cut:])
        count += inserted
    first["data"] = base64.b64encode(data).decode()
    first["cols"] = count


def maximum(text):
    key, _, value = text.partition("=")
    if not key or not value.isdigit():
        raise argparse.ArgumentTypeError("expected KEY=N, got %r" % text)
    return key, int(value)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("old")
    parser.add_argument("new")
    parser.add_argument("--insert", type=insertion, action="append",
                        required=True, metavar="AT:COUNT",
                        help="insert COUNT zero-weight features before "
                             "feature AT (repeatable, increasing AT)")
    parser.add_argument("--layout", required=True,
                        help="the new layout hash (tuner-train --list-features)")
    parser.add_argument("--features", type=int, required=True,
                        help="features per computation in the new layout")
    parser.add_argument("--maximum", type=maximum, action="append",
                        default=[], metavar="KEY=N",
                        help="a maximum of the new layout that changed "
                             "(e.g. accesses=32; repeatable)")
    args = parser.parse_args()

    try:
        model = json.load(open(args.old))
    except (OSError, ValueError) as error:
        sys.exit("%s: %s" % (args.old, error))
    if model.get("format") != "tuner-cost-model":
        sys.exit("%s: not a tuner network model (format %r)"
                 % (args.old, model.get("format")))
    old = model["features"]["count"]
    count = old
    previous = -1
    for at, inserted in args.insert:
        if at <= previous or at > count:
            sys.exit("--insert %d:%d: AT must increase and be at most the "
                     "feature count so far (%d)" % (at, inserted, count))
        previous = at
        count += inserted
    if count != args.features:
        sys.exit("%d features + %s inserted is %d, not %d" % (
            old, " + ".join(str(c) for _, c in args.insert), count,
            args.features))
    for member in model["members"]:
        grow_member(member, old, args.insert, args.old)
    old_layout = model["features"]["layout"]
    model["features"]["count"] = args.features
    maxima = model["features"].setdefault("maxima", {})
    for key, value in args.maximum:
        if key not in maxima:
            sys.exit("--maximum %s=%d: the model has no maximum %r (it has %s)"
                     % (key, value, key, ", ".join(sorted(maxima))))
        maxima[key] = value
    model["features"]["layout"] = args.layout
    model.setdefault("notes", []).append(
        "grown from layout %s (%d features) to %s (%d): zero-weight "
        "features inserted at %s" % (
            old_layout, old, args.layout, args.features,
            ", ".join("%d (%d)" % insertion_ for insertion_ in args.insert)))
    json.dump(model, open(args.new, "w"))


if __name__ == "__main__":
    main()
