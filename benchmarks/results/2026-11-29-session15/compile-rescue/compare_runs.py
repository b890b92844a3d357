#!/usr/bin/env python3
"""Per-program wall time of seed 2029's recorded run (data/2026-11-29-znver5-2c,
the samples' generation_seconds summed per program) against a new run's log
(tuner-gen's 'in X s' line per program)."""
import json, re, sys, collections
old_samples, new_log = sys.argv[1], sys.argv[2]
old = collections.defaultdict(float)
for line in open(old_samples):
    s = json.loads(line)
    old[s['program']] += s.get('generation_seconds') or 0
new = {}
prog = None
for line in open(new_log):
    m = re.match(r'\[\d+/\d+\] (s\d+-p\d+):', line)
    if m:
        prog = m.group(1)
    m = re.search(r'samples .* in ([0-9.]+) s$', line)
    if m and prog:
        new[prog] = float(m.group(1))
common = sorted(set(old) & set(new))
to, tn = sum(old[p] for p in common), sum(new[p] for p in common)
print(f'{len(common)} programs: recorded {to:.0f} s, new {tn:.0f} s, ratio {to / tn:.2f}x')
print('largest differences (recorded, new):')
for p in sorted(common, key=lambda p: -abs(old[p] - new[p]))[:12]:
    print(f'  {p}: {old[p]:.1f} s, {new[p]:.1f} s')
ws = sorted(new.values(), reverse=True)
print(f'new: median program {ws[len(ws)//2]:.1f} s; slowest 5 % of programs {sum(ws[:max(1, len(ws)//20)]) / sum(ws):.0%} of the time')
