"""Reads a tuner-gen samples file written with --neighbours B: each
program's configs come in groups of an anchor followed by its neighbours.
Prints, per program, how many anchors and neighbours it has and how many
parameters a neighbour changes of its anchor (fewest to most); with a
second samples file (the uniform sampling of the same seed), whether each
program's first anchor is that file's first config of the program.

Usage: neighbours.py SAMPLES B [UNIFORM_SAMPLES]"""
import json
import sys


def configs_by_program(path):
    programs = {}
    for line in open(path):
        sample = json.loads(line)
        programs.setdefault(sample["program"], []).append(sample["config"])
    return programs


def changed(a, b):
    return sum(1 for key in set(a) | set(b) if a.get(key) != b.get(key))


programs = configs_by_program(sys.argv[1])
group = int(sys.argv[2]) + 1
uniform = configs_by_program(sys.argv[3]) if len(sys.argv) > 3 else None
for program, configs in sorted(programs.items()):
    anchors = configs[::group]
    changes = [changed(configs[i - i % group], configs[i])
               for i in range(len(configs)) if i % group]
    line = "%s: %d anchors, %d neighbours" % (program, len(anchors),
                                             len(changes))
    if changes:
        line += "; a neighbour changes %d to %d parameters of its anchor" % (
            min(changes), max(changes))
    # Anchors are drawn uniformly: they differ from one another in more.
    if len(anchors) > 1:
        line += "; anchors differ in %d parameters" % min(
            changed(a, b) for i, a in enumerate(anchors) for b in anchors[i + 1:])
    if uniform is not None:
        line += "; first anchor is the uniform first config: %s" % (
            "yes" if uniform[program][0] == anchors[0] else "no")
    print(line)
