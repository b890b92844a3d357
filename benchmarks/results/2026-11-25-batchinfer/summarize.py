#!/usr/bin/env python3
"""Summarizes run.sh logs: per binary, the median and the best of the
runs' medians and the fastest run, by CPU time and by the wall clock, from
configs and with cached plans. Usage: summarize.py timing-*.log"""
import re
import statistics
import sys

runs = {}
for path in sys.argv[1:]:
    for line in open(path):
        m = re.match(r'(\w+) \d+: per CPU second: (\d+) fastest, (\d+) median; '
                     r'plans cached: (\d+) fastest, (\d+) median', line)
        if m:
            runs.setdefault((m[1], 'cpu'), []).append(tuple(map(int, m.groups()[1:])))
            continue
        m = re.match(r'(\w+) \d+: shipped model .*: (\d+) predictions/s fastest, '
                     r'(\d+) median .*: (\d+) fastest, (\d+) median', line)
        if m:
            runs.setdefault((m[1], 'wall'), []).append(tuple(map(int, m.groups()[1:])))
for (name, clock), values in sorted(runs.items()):
    for label, fastest, median in (('from configs', 0, 1), ('cached plans', 2, 3)):
        medians = [v[median] for v in values]
        print(f'{name:4} {clock:4} {label}: median of medians '
              f'{statistics.median(medians):.0f}, best median {max(medians)}, '
              f'fastest {max(v[fastest] for v in values)} ({len(values)} runs)')
