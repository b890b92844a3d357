#!/usr/bin/env python3
"""Checks a tuner-measure --json report against the harness's own events.

Usage: check-rounds.py REPORT.json WORK_DIR ROUNDS

For the baseline and every candidate, reads the reports the harness wrote
(the `*.stdout` files of the kept work directory: one harness process per
round, `STEM.stdout` then `STEM.rN.stdout`) and checks that it was timed in
ROUNDS processes (not counting retries for foreign load) and that the
measurement tuner-measure reports is the one the protocol keeps: of the
timings with a foreign load of at most 0.5 cores, the least median; when
none is, the least disturbed. Prints one line per function and exits 1 on
the first disagreement.
"""
import glob
import json
import os
import sys

MAX_LOAD = 0.5


def kept(timings):
    calm = [t for t in timings if t["foreign_load"] <= MAX_LOAD]
    if calm:
        return min(t["median_seconds"] for t in calm)
    return min(timings, key=lambda t: t["foreign_load"])["median_seconds"]


def main():
    report_path, work, rounds = sys.argv[1], sys.argv[2], int(sys.argv[3])
    with open(report_path) as f:
        report = json.load(f)
    folder = glob.glob(os.path.join(work, "tuner-measure-*"))[0]
    # The symbol of each line of each batch list names the function; the
    # events of a batch refer to its lines by number.
    timings = {}
    for batch in glob.glob(os.path.join(folder, "*.batch")):
        symbols = [line.split("\t")[0] for line in open(batch) if line.strip()]
        for line in open(batch[: -len(".batch")] + ".stdout"):
            if not line.startswith("{"):
                continue
            event = json.loads(line)
            if "median_seconds" not in event:
                continue
            name = symbols[event["candidate"]].rsplit("__tuner_", 1)[1]
            timings.setdefault(name, []).append(event)
    measured = {"baseline": report["baseline"]}
    for i, candidate in enumerate(report["candidates"]):
        measured[f"c{i}"] = candidate
    for name in sorted(measured):
        events = timings.get(name, [])
        first = [e for e in events if e["attempt"] == 0]
        if len(first) != rounds:
            print(f"{name}: timed {len(first)} times, expected {rounds}")
            return 1
        if measured[name]["median_seconds"] != kept(events):
            print(f"{name}: reported median {measured[name]['median_seconds']}"
                  f" is not the kept one, {kept(events)}")
            return 1
        print(f"{name}: timed {len(first)}x and retried "
              f"{len(events) - len(first)}x, kept the least undisturbed median")
    return 0


if __name__ == "__main__":
    sys.exit(main())
