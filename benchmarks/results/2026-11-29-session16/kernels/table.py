#!/usr/bin/env python3
"""table.py WORK KERNEL...: run.sh's evaluations as a Markdown table.

Per kernel and model: the within-kernel Spearman of predicted against
measured speedups over the kernel's BSE records, top1 and top5 (the best
measured among the model's first 1 and 5, as a fraction of the best
measured), and how the model sees parallelism: over the pairs of records
that differ only in one nest's `parallel` flag, the geometric mean of the
measured parallel/serial time ratio and of the predicted one."""
import json, math, os, sqlite3, sys

work, kernels = sys.argv[1], sys.argv[2:]
models = ['shipped', 'random', 'records']


def db_of(k):
    p = os.path.join(work, 'searches', 'suite', k + '-BSE.db')
    return p if os.path.exists(p) else os.path.join(work, 'searches', 'heldout', k + '-BSE.db')


def configs(k):
    """Measured speedup -> config of the kernel's ok records (the evaluation
    rows carry the measured speedup, in the records' order)."""
    db = sqlite3.connect(db_of(k))
    rows = db.execute("select config, speedup from measurements where status='ok' order by id").fetchall()
    return [(json.loads(c), s) for c, s in rows]


def parallel_pairs(recs, rows):
    """Geometric means of measured and predicted speedup ratios over pairs
    that differ only in one parallel flag (parallel over serial)."""
    by_key = {}
    for (cfg, s), r in zip(recs, rows):
        if abs(r['measured'] - s) > 1e-9 * max(1.0, s):
            raise SystemExit('records and evaluation rows are not in the same order')
        by_key[json.dumps(cfg, sort_keys=True)] = (s, r['predicted'])
    m, p = [], []
    for key, (s, pred) in by_key.items():
        cfg = json.loads(key)
        for name, v in cfg.items():
            if name.endswith('.parallel') and v is True:
                other = dict(cfg, **{name: False})
                o = by_key.get(json.dumps(other, sort_keys=True))
                if o:
                    m.append(math.log(s / o[0]))
                    p.append(math.log(pred / o[1]))
    if not m:
        return None
    return len(m), math.exp(sum(m) / len(m)), math.exp(sum(p) / len(p))


head = ['kernel', 'schedules']
for m in models:
    head += [f'{m} within', f'{m} top1', f'{m} top5']
head += ['parallel/serial: pairs, measured', 'predicted: shipped', 'random', 'records']
print('| ' + ' | '.join(head) + ' |')
print('|' + '---|' * len(head))
sums = {m: [0.0, 0.0, 0.0, 0] for m in models}
for k in kernels:
    recs = configs(k)
    cells = [k, str(len(recs))]
    par = {}
    for m in models:
        e = json.load(open(os.path.join(work, 'eval', f'{m}-on-{k}.json')))
        r = e['ranking']
        cells += ['%.2f' % r['mean_spearman'], '%.2f' % r['top1'], '%.2f' % r['top5']]
        if len(recs) > 5:
            sums[m][0] += r['mean_spearman']; sums[m][1] += r['top1']; sums[m][2] += r['top5']; sums[m][3] += 1
        par[m] = parallel_pairs(recs, e['rows'])
    if par['shipped']:
        cells += ['%d, %.2fx' % par['shipped'][:2]] + ['%.2fx' % par[m][2] for m in models]
    else:
        cells += ['no pairs', '', '', '']
    print('| ' + ' | '.join(cells) + ' |')
cells = ['**mean** (kernels with more than 5 schedules)', '']
for m in models:
    n = sums[m][3]
    cells += ['**%.2f**' % (sums[m][0] / n), '%.2f' % (sums[m][1] / n), '%.2f' % (sums[m][2] / n)]
cells += ['', '', '', '']
print('| ' + ' | '.join(cells) + ' |')
