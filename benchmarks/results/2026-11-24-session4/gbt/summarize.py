#!/usr/bin/env python3
"""Tabulates run.sh's evaluations: per model kind, each seed's test-split
metrics and their mean over seeds (Markdown). The "offline" rows are the
geometric mean of two models' predictions, computed here from the rows of
their evaluations with the definitions of lib/CostModel/Metrics.cpp: what
an ensemble of the two would score (no model file holds such a pair).

  summarize.py WORK        (or a folder of the eval-*.json[.xz] files)
"""
import glob, json, lzma, os, re, statistics, sys

KINDS = [("net", "network (`--loss log`)"),
         ("net4", "4 networks (`--ensemble 4 --jobs 2`; seed 1 only)"),
         ("gbt", "trees, squared log error"),
         ("gbtpw", "trees, `rank:pairwise`"),
         ("net+gbt", "geometric mean of network and squared-error trees "
                     "(offline)"),
         ("shipped", "shipped model (never saw this data)"),
         ("shipped+gbt", "geometric mean of shipped model and squared-error "
                         "trees (offline)"),
         ("shipped+gbtpw", "geometric mean of shipped model and pairwise "
                           "trees (offline)")]
COLUMNS = [("overall", "mape", "MAPE"), ("overall", "pearson", "Pearson"),
           ("overall", "spearman", "Spearman"),
           ("ranking", "mean_spearman", "within-program Spearman"),
           ("ranking", "top1", "top1"), ("ranking", "top3", "top3")]


def load(path):
    opener = lzma.open if path.endswith(".xz") else open
    with opener(path, "rt") as f:
        return json.load(f)


def ranks(values):
    order = sorted(range(len(values)), key=lambda i: values[i])
    result = [0.0] * len(values)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        for k in range(i, j + 1):
            result[order[k]] = (i + j) / 2 + 1
        i = j + 1
    return result


def pearson(x, y):
    if len(x) < 2:
        return None
    mx, my = statistics.mean(x), statistics.mean(y)
    sxy = sum((a - mx) * (b - my) for a, b in zip(x, y))
    sxx = sum((a - mx) ** 2 for a in x)
    syy = sum((b - my) ** 2 for b in y)
    return sxy / (sxx * syy) ** 0.5 if sxx > 0 and syy > 0 else None


def spearman(x, y):
    return pearson(ranks(x), ranks(y))


def evaluate(rows):
    """Metrics.cpp's Evaluation::of over (program, measured, predicted)."""
    measured = [r[1] for r in rows]
    predicted = [r[2] for r in rows]
    by = {}
    for program, m, p in rows:
        by.setdefault(program, ([], []))
        by[program][0].append(m)
        by[program][1].append(p)
    within, top1, top3 = [], [], []
    for m, p in by.values():
        if len(m) < 2:
            continue
        rho = spearman(m, p)
        if rho is not None:
            within.append(rho)
        order = sorted(range(len(m)), key=lambda i: -p[i])
        top1.append(m[order[0]] / max(m))
        top3.append(max(m[i] for i in order[:3]) / max(m))
    return {"overall": {"mape": statistics.mean(abs(a - b) / a for a, b in
                                                zip(measured, predicted)),
                        "pearson": pearson(measured, predicted),
                        "spearman": spearman(measured, predicted)},
            "ranking": {"programs": len(top1),
                        "mean_spearman": statistics.mean(within),
                        "top1": statistics.mean(top1),
                        "top3": statistics.mean(top3)}}


def geometric_mean_of(a, b):
    """The evaluation of the geometric mean of two models' predictions (the
    rows of both evaluations are in the same order)."""
    rows = []
    for x, y in zip(a["rows"], b["rows"]):
        assert x["program"] == y["program"] and x["measured"] == y["measured"]
        rows.append((x["program"], x["measured"],
                     (x["predicted"] * y["predicted"]) ** 0.5))
    return evaluate(rows)


def main(folder):
    runs = {}
    for path in glob.glob(os.path.join(folder, "eval-*-s*.json*")):
        m = re.search(r"eval-(\w+)-s(\d+)\.json", os.path.basename(path))
        if m:
            runs.setdefault(m.group(1), {})[int(m.group(2))] = load(path)
    # Network and trees averaged offline (not a model file tuner-train
    # writes): what an ensemble of the two would rank like.
    for a, b in (("net", "gbt"), ("shipped", "gbt"), ("shipped", "gbtpw")):
        if a in runs and b in runs:
            runs[a + "+" + b] = {s: geometric_mean_of(runs[a][s], runs[b][s])
                                 for s in runs[a] if s in runs[b]}
    seeds = sorted({s for kind in runs.values() for s in kind})
    header = "| model | " + " | ".join(c[2] for c in COLUMNS) + " |"
    print(f"Test programs of seeds {', '.join(map(str, seeds))} "
          "(mean over seeds; each seed its own split):\n")
    print(header)
    print("|---" * (len(COLUMNS) + 1) + "|")
    for kind, label in KINDS:
        if kind not in runs:
            continue
        cells = []
        for block, key, _ in COLUMNS:
            values = [r[block][key] for r in runs[kind].values()
                      if r[block][key] is not None]
            cells.append(f"{statistics.mean(values):.3f}" if values else "")
        print(f"| {label} | " + " | ".join(cells) + " |")
    print("\nPer seed (within-program Spearman / top1 / top3 / Spearman):\n")
    print("| seed | test programs | " +
          " | ".join(label for kind, label in KINDS if kind in runs) + " |")
    print("|---|---" + "|---" * sum(k in runs for k, _ in KINDS) + "|")
    for s in seeds:
        anyrun = next(runs[k][s] for k, _ in KINDS if s in runs.get(k, {}))
        cells = []
        for kind, _ in KINDS:
            if kind not in runs:
                continue
            r = runs[kind].get(s)
            cells.append("" if r is None else
                         "{:.3f} / {:.3f} / {:.3f} / {:.3f}".format(
                             r["ranking"]["mean_spearman"], r["ranking"]["top1"],
                             r["ranking"]["top3"], r["overall"]["spearman"]))
        print(f"| {s} | {anyrun['ranking']['programs']} | " +
              " | ".join(cells) + " |")


if __name__ == "__main__":
    main(sys.argv[1])
