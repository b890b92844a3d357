"""Summarizes run.sh logs: per module the best median (the quietest
round's), the median of the rounds' medians, the best minimum, GFLOP/s of
the best median and its share of the same binary's 1024³ GFLOP/s; then per
round the ratio old/new of each size."""
import collections, re, statistics, sys
med = collections.defaultdict(list)
mins = collections.defaultdict(list)
rounds = collections.defaultdict(dict)
for path in sys.argv[1:]:
    for line in open(path):
        m = re.search(r'round (\d+) (\S+): .*median ([\d.]+) ms\s+min ([\d.]+)',
                      line)
        if m:
            name = m.group(2).removesuffix('.mlir')
            med[name].append(float(m.group(3)))
            mins[name].append(float(m.group(4)))
            rounds[(path, m.group(1))][name] = float(m.group(3))
n = {'m1024': 1024, 'm1021': 1021, 'm1023': 1023, 'm1000': 1000, 'mld': 1021}
def gflops(name, ms):
    return 2 * n[name.split('.')[0]] ** 3 / ms / 1e6
print('| module | rounds | best median ms | median of medians ms | best min ms'
      ' | GFLOP/s (best median) | of 1024³, same binary |')
print('|---|---|---|---|---|---|---|')
for name in sorted(med):
    best = min(med[name])
    variant = name.split('.')[-1]
    ref = med.get('m1024.' + variant)
    share = (f'{100 * gflops(name, best) / gflops("m1024", min(ref)):.0f} %'
             if ref else '-')
    print(f'| {name} | {len(med[name])} | {best:.2f} | '
          f'{statistics.median(med[name]):.2f} | {min(mins[name]):.2f} | '
          f'{gflops(name, best):.0f} | {share} |')
print()
print('Ratio old/new of the medians, per round:')
for size in sorted(n):
    ratios = [r[size + '.old'] / r[size + '.new'] for r in rounds.values()
              if size + '.old' in r and size + '.new' in r]
    if ratios:
        print(f'- {size}: ' + ', '.join(f'{x:.2f}' for x in ratios) +
              f' (median {statistics.median(ratios):.2f})')
