#!/usr/bin/env python3
"""Narrows a space JSON file (as tuner-extract-space writes it) to the
values a spec keeps, for spaces small enough to measure every config.

usage: narrow.py SPACE.json SPEC.json -o NARROWED.json

SPEC maps parameter names to the list of values to keep ("*": every value);
a parameter the spec leaves out keeps only its default. A value that is not
in the parameter's domain is an error, so a spec cannot widen a space
(`tuner-autotune space=...` checks that again)."""
import argparse
import json
import sys


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("space")
    parser.add_argument("spec")
    parser.add_argument("-o", "--output", required=True)
    args = parser.parse_args()
    space = json.load(open(args.space))
    spec = json.load(open(args.spec))
    names = {p["name"] for p in space["parameters"]}
    for name in spec:
        if name not in names:
            sys.exit(f"narrow.py: {args.spec}: no parameter '{name}' in {args.space}")
    for p in space["parameters"]:
        keep = spec.get(p["name"], [p["default"]])
        if keep == "*":
            continue
        if p["kind"] in ("ordinal", "categorical"):
            missing = [v for v in keep if v not in p["values"]]
            if missing:
                sys.exit(f"narrow.py: parameter '{p['name']}': {missing} not in {p['values']}")
            p["values"] = [v for v in p["values"] if v in keep]
        elif p["kind"] == "boolean":
            if keep not in ([False], [True], [False, True], [True, False]):
                sys.exit(f"narrow.py: parameter '{p['name']}': booleans keep false and/or true")
            if len(keep) == 1:
                # A boolean with one value is an ordinal over nothing: spell
                # it as a categorical would not match the kind, so keep the
                # kind and pin the value with a constraint instead.
                space["constraints"].append(
                    f"{'' if keep[0] else '!'}{p['name']}")
        elif p["kind"] == "permutation":
            p["allowed"] = keep
        elif p["kind"] in ("integer", "real"):
            p["lower"], p["upper"] = min(keep), max(keep)
        if p["kind"] != "boolean" and p.get("default") not in keep:
            p["default"] = keep[0]
        elif p["kind"] == "boolean" and p.get("default") not in keep:
            p["default"] = keep[0]
    # The size the extraction estimated is the full space's.
    space.get("attributes", {}).pop("size", None)
    json.dump(space, open(args.output, "w"), indent=1)


if __name__ == "__main__":
    main()
