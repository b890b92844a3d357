#!/usr/bin/env python3
"""parallel.py SAMPLES GROUP EVALUATION.json...: what the models predict
for `parallel` on random programs.

SAMPLES is a tuner-gen samples file written with --neighbours GROUP-1; the
pairs are an anchor and a neighbour that differ only in one nest's
`parallel` flag, both measured ok. Prints the measured parallel/serial
speedup ratio over them (geometric mean, quartiles), and per evaluation
(`tuner-train --evaluate --all --json` of one model on that dataset) the
predicted ratio and the correlation of predicted and measured log ratios."""
import json, math, os, sys
from collections import defaultdict

samples, group, evaluations = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
programs = defaultdict(list)
for line in open(samples):
    s = json.loads(line)
    programs[s['program']].append(s)
pairs = []  # (program, parallel speedup, serial speedup)
for program, ss in programs.items():
    for i, s in enumerate(ss):
        anchor = ss[i - i % group]
        if i % group == 0 or s['status'] != 'ok' or anchor['status'] != 'ok':
            continue
        changed = [k for k in anchor['config'] if anchor['config'][k] != s['config'].get(k)]
        if len(changed) == 1 and changed[0].endswith('.parallel'):
            par, ser = (s, anchor) if s['config'][changed[0]] else (anchor, s)
            pairs.append((program, par['speedup'], ser['speedup']))
ratios = sorted(p / s for _, p, s in pairs)
print('%d pairs differing only in a `parallel` flag; measured parallel/serial: '
      'geometric mean %.2fx, quartiles %s\n' % (
          len(pairs), math.exp(sum(map(math.log, ratios)) / len(ratios)),
          ' / '.join('%.2f' % ratios[int(q * (len(ratios) - 1))] for q in (0, .25, .5, .75, 1))))
print('| model | pairs | predicted parallel/serial | correlation of log ratios |')
print('|---|---|---|---|')
for path in evaluations:
    e = json.load(open(path))
    predicted = {(r['program'], r['measured']): r['predicted'] for r in e['rows']}
    m, p = [], []
    for program, par, ser in pairs:
        if (program, par) in predicted and (program, ser) in predicted:
            m.append(math.log(par / ser))
            p.append(math.log(predicted[(program, par)] / predicted[(program, ser)]))
    mm, pm = sum(m) / len(m), sum(p) / len(p)
    cov = sum((x - mm) * (y - pm) for x, y in zip(m, p))
    corr = cov / math.sqrt(sum((x - mm) ** 2 for x in m) * sum((y - pm) ** 2 for y in p))
    name = os.path.basename(e.get('model', path)).replace('.model.json', '').replace('.json', '')
    print('| %s | %d | %.2fx | %.2f |' % (name, len(m), math.exp(pm), corr))
