#!/usr/bin/env python3
"""Summarizes run.sh logs: per binary, the fastest run and the median of
the runs' medians, from configs and with cached plans (predictions/s)."""
import re
import statistics
import sys

PATTERN = re.compile(
    r'(before|after) \d+: .*?: (\d+) predictions/s fastest, (\d+) median'
    r'.*?: (\d+) fastest, (\d+) median')
for path in sys.argv[1:]:
    rows = {'before': [], 'after': []}
    for line in open(path):
        m = PATTERN.match(line)
        if m:
            rows[m.group(1)].append([int(x) for x in m.groups()[1:]])
    print(path)
    for which, runs in rows.items():
        if not runs:
            continue
        print(f'  {which}: {len(runs)} runs; from configs: fastest '
              f'{max(r[0] for r in runs)}, median {statistics.median(r[1] for r in runs):.0f}; '
              f'cached plans: fastest {max(r[2] for r in runs)}, median '
              f'{statistics.median(r[3] for r in runs):.0f}')
