"""Summarizes cputime.sh logs: per module the median and best CPU ms per
call over the rounds, the share of the same binary's 1024³ GFLOP per CPU
second, and per round the ratio old/new."""
import collections, re, statistics, sys
cpu = collections.defaultdict(list)
rounds = collections.defaultdict(dict)
for path in sys.argv[1:]:
    for line in open(path):
        m = re.search(r'round (\d+) (\S+): cpu ([\d.]+) ms/call', line)
        if m:
            cpu[m.group(2)].append(float(m.group(3)))
            rounds[(path, m.group(1))][m.group(2)] = float(m.group(3))
n = {'m1024': 1024, 'm1021': 1021, 'm1023': 1023, 'm1000': 1000, 'mld': 1021}
def rate(name, ms):  # GFLOP per CPU second (both threads)
    return 2 * n[name.split('.')[0]] ** 3 / ms / 1e6
print('| module | rounds | median CPU ms/call | best CPU ms/call |'
      ' GFLOP per CPU s (median) | of 1024³, same binary |')
print('|---|---|---|---|---|---|')
for name in sorted(cpu):
    med = statistics.median(cpu[name])
    ref = cpu.get('m1024.' + name.split('.')[-1])
    share = (f'{100 * rate(name, med) / rate("m1024", statistics.median(ref)):.0f} %'
             if ref else '-')
    print(f'| {name} | {len(cpu[name])} | {med:.2f} | {min(cpu[name]):.2f} | '
          f'{rate(name, med):.0f} | {share} |')
print()
print('Ratio old/new of CPU per call, per round:')
for size in sorted(n):
    ratios = [r[size + '.old'] / r[size + '.new'] for r in rounds.values()
              if size + '.old' in r and size + '.new' in r]
    if ratios:
        print(f'- {size}: ' + ', '.join(f'{x:.2f}' for x in ratios) +
              f' (median {statistics.median(ratios):.2f})')
