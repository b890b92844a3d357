#!/usr/bin/env python3
"""search_table.py [--label L] [--models M,...] WORK SUITE-KERNEL... --
HELD-OUT-KERNEL...: run.sh's part 2 (part 3 with --label MCTS-diverse)
as a Markdown table: per kernel, BSE's speedup (session 13), and for the
search L (default MCTS) guided by each model its speedups in the three rounds,
their losses against BSE (1 - speedup / BSE's) and the time ratio (BSE's
search time / the search's, the mean of the rounds); per set, the mean loss
of each round and of all."""
import json, os, sys

args = sys.argv[1:]
label, models = 'MCTS', ['shipped', 'random', 'records']
while args and args[0].startswith('--') and args[0] != '--':
    if args[0] == '--label':
        label = args[1]
    elif args[0] == '--models':
        models = args[1].split(',')
    else:
        raise SystemExit(f'unknown option {args[0]}')
    args = args[2:]
work = args[0]
split = args.index('--')
sets = {'suite': args[1:split], 'held-out': args[split + 1:]}
rounds = [1, 2, 3]


def result(model, rnd, folder, kernel, label):
    path = os.path.join(work, f'search-{model}-r{rnd}', folder, f'{kernel}-{label}.done.json')
    return json.load(open(path))['result']


head = ['set', 'kernel', 'BSE measured', 'BSE time (s)', 'BSE speedup']
for m in models:
    head += [f'{m}: {label} speedup (rounds 1, 2, 3)', 'loss', f'BSE/{label} time']
print('| ' + ' | '.join(head) + ' |')
print('|' + '---|' * len(head))
for name, kernels in sets.items():
    folder = 'suite' if name == 'suite' else 'heldout'
    losses = {m: {r: [] for r in rounds} for m in models}
    ratios = {m: [] for m in models}
    for k in kernels:
        bse = result('shipped', 1, folder, k, 'BSE')
        cells = [name, k, str(bse['measured']), '%.1f' % bse['seconds'], '%.2fx' % bse['speedup']]
        for m in models:
            rs = [result(m, r, folder, k, label) for r in rounds]
            ls = [1 - x['speedup'] / bse['speedup'] for x in rs]
            for r, l in zip(rounds, ls):
                losses[m][r].append(l)
            ratio = sum(bse['seconds'] / x['seconds'] for x in rs) / len(rs)
            ratios[m].append(ratio)
            cells += [', '.join('%.2fx' % x['speedup'] for x in rs),
                      ', '.join('%.1f %%' % (100 * l) for l in ls), '%.1fx' % ratio]
        print('| ' + ' | '.join(cells) + ' |')
    cells = [f'**{name}**', '**mean**', '', '', '']
    for m in models:
        per = [sum(losses[m][r]) / len(kernels) for r in rounds]
        cells += ['', ', '.join('%.1f %%' % (100 * p) for p in per) +
                  '; **%.1f %%**' % (100 * sum(per) / len(per)),
                  '%.1fx' % (sum(ratios[m]) / len(kernels))]
    print('| ' + ' | '.join(cells) + ' |')
print()
print("BSE: session 13's searches (every node of the beam-width-4 tree measured), "
      f'taken as they are. {label}: top-k 8, the defaults otherwise, with each model; '
      f'rounds 1 and 3 ran the models in the order {", ".join(models)}, round 2 in the other. '
      f'Loss: 1 - {label} speedup / BSE speedup (negative: better than BSE); the mean '
      'row gives each round\'s mean loss and, in bold, the mean of all.')
