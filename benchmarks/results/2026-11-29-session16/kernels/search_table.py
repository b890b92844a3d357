#!/usr/bin/env python3
"""search_table.py WORK SUITE-KERNEL... -- HELD-OUT-KERNEL...: run.sh's part 2
as a Markdown table: per kernel, BSE's speedup (session 13), and for MCTS
guided by each model its speedups in the two rounds, their losses against
BSE (1 - speedup / BSE's) and the time ratio (BSE's search time / MCTS's,
the mean of the rounds); per set, the mean loss of each round and of both."""
import json, os, sys

work = sys.argv[1]
split = sys.argv.index('--')
sets = {'suite': sys.argv[2:split], 'held-out': sys.argv[split + 1:]}
models = ['shipped', 'random', 'records']
rounds = [1, 2]


def result(model, rnd, folder, kernel, label):
    path = os.path.join(work, f'search-{model}-r{rnd}', folder, f'{kernel}-{label}.done.json')
    return json.load(open(path))['result']


head = ['set', 'kernel', 'BSE measured', 'BSE time (s)', 'BSE speedup']
for m in models:
    head += [f'{m}: MCTS speedup (rounds 1, 2)', 'loss', 'BSE/MCTS time']
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
            rs = [result(m, r, folder, k, 'MCTS') for r in rounds]
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
      'taken as they are. MCTS: top-k 8, the defaults, with each model; round 1 '
      'ran the models in the order shipped, random, records, round 2 in the other. '
      'Loss: 1 - MCTS speedup / BSE speedup (negative: better than BSE); the mean '
      'row gives each round\'s mean loss and, in bold, the mean of both.')
