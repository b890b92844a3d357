#!/usr/bin/env python3
"""Checks a tuner-measure --json report against the harness's own events.

Usage: check-rounds.py REPORT.json WORK_DIR ROUNDS paired|unpaired

For the baseline and every candidate, reads the reports the harness wrote
(the `*.stdout` files of the kept work directory: one harness process per
round, `STEM.stdout` then `STEM.rN.stdout`, and `.pK` for a round's later
processes after a crash) and checks that it was timed in
ROUNDS processes of its own (not counting retries for foreign load; the
baseline's own are those of `baseline.*`) and that the measurement
tuner-measure reports is the one the protocol keeps: of the timings with a
foreign load of at most 0.5 cores, the least median; when none is, the
least disturbed. Then checks each candidate's speedup: `paired`, every
process that timed candidates timed the baseline too, and the speedup is the
geometric mean over the candidate's processes of the baseline's kept median
in that process over the candidate's (pairs with a disturbed timing only
when no pair is undisturbed); `unpaired`, no candidate process timed the
baseline and the speedup is the baseline's median over the candidate's.
Prints one line per function and exits 1 on the first disagreement.
"""
import glob
import json
import math
import os
import sys

MAX_LOAD = 0.5


def kept_timing(timings):
    calm = [t for t in timings if t["foreign_load"] <= MAX_LOAD]
    if calm:
        return min(calm, key=lambda t: t["median_seconds"])
    return min(timings, key=lambda t: t["foreign_load"])


def paired_speedup(pairs):
    calm = [(b, c) for b, c in pairs
            if b["foreign_load"] <= MAX_LOAD and c["foreign_load"] <= MAX_LOAD]
    used = calm or pairs
    return math.exp(sum(math.log(b["median_seconds"] / c["median_seconds"])
                        for b, c in used) / len(used))


def main():
    report_path, work = sys.argv[1], sys.argv[2]
    rounds, mode = int(sys.argv[3]), sys.argv[4]
    with open(report_path) as f:
        report = json.load(f)
    folder = glob.glob(os.path.join(work, "tuner-measure-*"))[0]
    # The symbol of each line of each batch list names the function; the
    # events of a batch refer to its lines by number. Timings by process
    # (batch stem) and function.
    processes = {}
    for batch in glob.glob(os.path.join(folder, "*.batch")):
        stem = os.path.basename(batch)[: -len(".batch")]
        symbols = [line.split("\t")[0] for line in open(batch) if line.strip()]
        names = [s.rsplit("__tuner_", 1)[1] for s in symbols]
        timed = processes.setdefault(stem, {n: [] for n in names})
        for line in open(batch[: -len(".batch")] + ".stdout"):
            if not line.startswith("{"):
                continue
            event = json.loads(line)
            if "median_seconds" in event:
                timed[names[event["candidate"]]].append(event)
    measured = {"baseline": report["baseline"]}
    for i, candidate in enumerate(report["candidates"]):
        measured[f"c{i}"] = candidate
    for name in sorted(measured):
        own = {stem: timed[name] for stem, timed in processes.items()
               if name in timed and (name != "baseline"
                                     or stem.startswith("baseline"))}
        events = [e for timings in own.values() for e in timings]
        first = [e for e in events if e["attempt"] == 0]
        if len(first) != rounds:
            print(f"{name}: timed {len(first)} times, expected {rounds}")
            return 1
        if measured[name]["median_seconds"] != kept_timing(events)[
                "median_seconds"]:
            print(f"{name}: reported median {measured[name]['median_seconds']}"
                  " is not the kept one, "
                  f"{kept_timing(events)['median_seconds']}")
            return 1
        line = (f"{name}: timed {len(first)}x and retried "
                f"{len(events) - len(first)}x, kept the least undisturbed "
                "median")
        if name != "baseline":
            beside = [stem for stem in own if "baseline" in processes[stem]]
            if mode == "paired":
                if len(beside) != rounds:
                    print(f"{name}: the baseline was timed beside it in "
                          f"{len(beside)} processes, expected {rounds}")
                    return 1
                expected = paired_speedup(
                    [(kept_timing(processes[stem]["baseline"]),
                      kept_timing(own[stem])) for stem in beside])
                line += ", speedup paired with the baseline in each round"
            else:
                if beside:
                    print(f"{name}: the baseline was timed beside it")
                    return 1
                expected = (report["baseline"]["median_seconds"]
                            / measured[name]["median_seconds"])
                line += ", speedup against the baseline's own median"
            reported = measured[name]["speedup"]
            if abs(reported - expected) > 1e-9 * expected:
                print(f"{name}: reported speedup {reported}, expected "
                      f"{expected}")
                return 1
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
