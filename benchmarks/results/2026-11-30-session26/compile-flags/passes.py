#!/usr/bin/env python3
"""Sums clang's -ftime-report pass timings over the modules of profile.sh.
  passes.py WORK > passes.md"""
import collections, glob, re, sys

work = sys.argv[1]
total = collections.Counter()
for report in glob.glob(f"{work}/rep/*.txt"):
    text = open(report).read()
    start = text.find("Pass execution timing report")
    if start < 0:
        continue
    section = text[start:]
    end = section.find("===", 200)
    section = section[:end] if end > 0 else section
    for line in section.splitlines():
        m = re.match(r"\s+(?:[\d.]+ \(.*?\)\s+){3}([\d.]+) \(.*?\)\s+(.*)$", line)
        if m and m.group(2).strip() != "Total":
            total[m.group(2).strip()] += float(m.group(1))
sizes, seconds = [], []
for line in open(f"{work}/times.txt"):
    _, size, secs = line.split()
    sizes.append(int(size)); seconds.append(float(secs))
whole = sum(total.values())
order = sorted(seconds, reverse=True)
print(f"{len(seconds)} modules, {sum(sizes) / 1e6:.0f} MB of LLVM IR, "
      f"{sum(seconds):.1f} s of clang -O3 -c one after the other "
      f"(the slowest 10 % of modules {sum(order[:len(order) // 10]):.1f} s); "
      f"pass timings sum to {whole:.1f} s\n")
print("| pass | seconds | share |\n|---|---|---|")
for name, secs in total.most_common(20):
    print(f"| {name} | {secs:.2f} | {100 * secs / whole:.1f} % |")
