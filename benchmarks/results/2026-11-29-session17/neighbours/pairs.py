#!/usr/bin/env python3
"""pairs.py SAMPLES GROUP EVALUATION.json...: how often models order a
config and its neighbour right.

SAMPLES is a tuner-gen samples file written with --neighbours GROUP-1 (each
program's configs in groups of an anchor and its neighbours); each
EVALUATION is `tuner-train --evaluate --all --json` of one model on that
dataset. Prints, per evaluation, the within-program Spearman, the fraction
of anchor-neighbour pairs the model orders as measured (pairs whose
measured speedups differ by more than 10 %, so that noise does not decide
them), and the same over every other pair of configs of a program (configs
of different groups: far apart)."""
import json, os, sys
from collections import defaultdict

samples, group, evaluations = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
# (program, measured speedup) -> (group index, position in the group)
where = {}
index = defaultdict(int)
for line in open(samples):
    s = json.loads(line)
    i = index[s['program']]
    index[s['program']] += 1
    if s['status'] == 'ok':
        where[(s['program'], s['speedup'])] = (i // group, i % group)


def right(a, b):
    return (a['measured'] > b['measured']) == (a['predicted'] > b['predicted'])


print('| model | within-program Spearman | anchor-neighbour pairs ordered right | pairs across groups ordered right |')
print('|---|---|---|---|')
for path in evaluations:
    e = json.load(open(path))
    programs = defaultdict(list)
    for r in e['rows']:
        key = (r['program'], r['measured'])
        if key in where:
            programs[r['program']].append((where[key], r))
    near, far = [0, 0, 0], [0, 0, 0]  # right, differing by 10 %, all
    for rows in programs.values():
        for i, (wa, a) in enumerate(rows):
            for wb, b in rows[i + 1:]:
                if wa[0] == wb[0] and 0 in (wa[1], wb[1]):
                    tally = near
                elif wa[0] != wb[0]:
                    tally = far
                else:
                    continue
                tally[2] += 1
                hi, lo = max(a['measured'], b['measured']), min(a['measured'], b['measured'])
                if hi < 1.1 * lo:
                    continue
                tally[0] += right(a, b)
                tally[1] += 1
    name = os.path.basename(e.get('model', path)).replace('.model.json', '').replace('.json', '')
    print('| %s | %.3f | %.3f (%d) | %.3f (%d) |' % (
        name, e['ranking']['mean_spearman'], near[0] / max(1, near[1]), near[1],
        far[0] / max(1, far[1]), far[1]))
print('\n(pairs whose measured speedups differ by more than 10 %%: %d of %d '
      'anchor-neighbour pairs, %d of %d across groups)' % (near[1], near[2], far[1], far[2]))
