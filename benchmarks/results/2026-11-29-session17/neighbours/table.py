#!/usr/bin/env python3
"""table.py WORK MODEL,... KERNEL...: run.sh's evaluations on the kernels'
BSE records as Markdown tables.
table.py --random WORK MODEL,... NAME: its evaluations on the random
programs of WORK/NAME.

Models named NAME-sSEED are one model trained with several seeds: the
tables give, per NAME, the mean over its seeds (and their range).

Per kernel and model: the within-kernel Spearman of predicted against
measured speedups over the kernel's BSE records, top1 and top5 (the best
measured among the model's first 1 and 5, as a fraction of the best
measured), and how the model sees parallelism: over the pairs of records
that differ only in one nest's `parallel` flag, the geometric mean of the
measured parallel/serial time ratio and of the predicted one. With
--random: per model, overall Spearman, within-program Spearman, top1 and
top5 over the programs."""
import json, math, os, re, sqlite3, sys
from collections import OrderedDict

args = sys.argv[1:]
random_programs = args[:1] == ['--random']
if random_programs:
    args = args[1:]
work, names = args[0], args[2:]
groups = OrderedDict()
for m in args[1].split(','):
    groups.setdefault(re.sub(r'-s[0-9]+$', '', m), []).append(m)


def evaluation(m, k):
    return json.load(open(os.path.join(work, 'eval', f'{m}-on-{k}.json')))


def mean(xs):
    return sum(xs) / len(xs)


def spread(xs, fmt='%.2f'):
    """The mean, with the range over seeds when there are several."""
    if len(xs) == 1:
        return fmt % xs[0]
    return (fmt + ' (' + fmt + '–' + fmt + ')') % (mean(xs), min(xs), max(xs))


if random_programs:
    print('| model (seeds) | programs | overall Spearman | within programs | top1 | top5 |')
    print('|---|---|---|---|---|---|')
    for g, ms in groups.items():
        es = [evaluation(m, names[0]) for m in ms]
        print('| %s (%d) | %d | %s | **%s** | %s | %s |' % (
            g, len(ms), es[0]['ranking']['programs'],
            spread([e['overall']['spearman'] for e in es], '%.3f'),
            spread([e['ranking']['mean_spearman'] for e in es], '%.3f'),
            spread([e['ranking']['top1'] for e in es], '%.3f'),
            spread([e['ranking']['top5'] for e in es], '%.3f')))
    sys.exit(0)


def db_of(k):
    p = os.path.join(work, 'searches', 'suite', k + '-BSE.db')
    return p if os.path.exists(p) else os.path.join(work, 'searches', 'heldout', k + '-BSE.db')


def configs(k):
    """Config and measured speedup of the kernel's ok records, in the order
    of the evaluation's rows."""
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
                o = by_key.get(json.dumps(dict(cfg, **{name: False}), sort_keys=True))
                if o:
                    m.append(math.log(s / o[0]))
                    p.append(math.log(pred / o[1]))
    if not m:
        return None
    return len(m), math.exp(mean(m)), math.exp(mean(p))


# Within-kernel Spearman per kernel, then the means over kernels with more
# than 5 schedules (within, top1, top5), each per seed.
counted = [k for k in names if len(configs(k)) > 5]
print('Within-kernel Spearman of each kernel\'s BSE records (mean over the seeds, their range):\n')
head = ['kernel', 'schedules'] + [f'{g} ({len(ms)})' for g, ms in groups.items()]
print('| ' + ' | '.join(head) + ' |')
print('|' + '---|' * len(head))
for k in names:
    cells = [k, str(len(configs(k)))]
    for g, ms in groups.items():
        cells.append(spread([evaluation(m, k)['ranking']['mean_spearman'] for m in ms]))
    print('| ' + ' | '.join(cells) + ' |')
for key, label in [('mean_spearman', '**mean within**'), ('top1', 'mean top1'), ('top5', 'mean top5')]:
    cells = [label + ' (kernels with more than 5 schedules)', '']
    for g, ms in groups.items():
        per_seed = [mean([evaluation(m, k)['ranking'][key] for k in counted]) for m in ms]
        cells.append(spread(per_seed))
    print('| ' + ' | '.join(cells) + ' |')

print('\nParallel over serial, over the pairs of records that differ only in one `parallel` flag (geometric means; predicted: mean over the seeds):\n')
head = ['kernel', 'pairs', 'measured'] + [f'{g}' for g in groups]
print('| ' + ' | '.join(head) + ' |')
print('|' + '---|' * len(head))
for k in names:
    recs = configs(k)
    cells = None
    for g, ms in groups.items():
        pars = [parallel_pairs(recs, evaluation(m, k)['rows']) for m in ms]
        if pars[0] is None:
            break
        if cells is None:
            cells = [k, str(pars[0][0]), '%.2fx' % pars[0][1]]
        cells.append('%.2fx' % math.exp(mean([math.log(p[2]) for p in pars])))
    if cells:
        print('| ' + ' | '.join(cells) + ' |')
