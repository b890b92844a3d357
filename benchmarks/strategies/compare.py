#!/usr/bin/env python3
"""Compare search strategies on replayed tables (issue 14's evidence).

For every table (a fully measured space: JSON lines or CSV as `tuner-search
--replay` reads them, with its space JSON), every strategy and every budget,
runs `tuner-search --replay TABLE --space SPACE --strategy S --budget B
--runs N --seed K --summary-output F` (N seeded runs, seeds K..K+N-1) and
tabulates, per table x strategy x budget:

- the best objective found as a fraction of the table's optimum (optimum /
  best when minimizing, best / optimum when maximizing; 1 is the optimum, a
  run that found nothing ok counts 0): mean, standard deviation, quartiles,
  and how many runs found the optimum;
- the methodology score of Willemsen et al., (E[random best] - best) /
  (E[random best] - optimum), averaged over the runs: 1 when every run finds
  the optimum, 0 when a strategy does as well as random sampling, negative
  when worse. E[random best] is the exact expectation of the best of B
  configs drawn uniformly without replacement from the table (order
  statistics over its values; a failed row is a draw that finds nothing,
  and a sample that finds nothing, like a run that finds nothing, counts as
  the table's worst ok value);

and, per table x strategy, the score averaged over the budgets. A budget
larger than the table is capped at its size (equal capped budgets run once);
a budget where random sampling surely finds the optimum has no score.
Python 3 standard library only.

    benchmarks/strategies/compare.py --table T.jsonl --space S.json
        [--table T2.csv --space S2.json ...] [--strategies random,evolution]
        [--budgets 20,50,100,200] [--seeds 25] [--first-seed 1]
        [--maximize] [--markdown results.md] [--json results.json]
"""

import argparse
import csv
import json
import lzma
import math
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

BENCH_DIR = Path(__file__).resolve().parent
REPO_DIR = BENCH_DIR.parent.parent
# Strategies of the registry that need an MLIR function (a decision tree or
# the cost model), and exhaustive search (one fixed order, no seed).
NOT_COMPARED = {"exhaustive", "beam", "beam-exec", "mcts"}


class Failure(Exception):
    """An error worth one line to the user."""


# ---------------------------------------------------------------------------
# Tables and the exact expectation of random sampling
# ---------------------------------------------------------------------------

def read_table(path):
    """The table's objectives, None for a failed row (JSON lines or CSV)."""
    path = Path(path)
    try:
        if path.suffix == ".xz":
            with lzma.open(path, "rt") as f:
                text = f.read()
        else:
            text = path.read_text()
    except (OSError, lzma.LZMAError) as error:
        raise Failure(f"cannot read the table '{path}': "
                      f"{getattr(error, 'strerror', None) or error}")
    values = []
    if plain_suffix(path) == ".csv":
        rows = list(csv.DictReader(text.splitlines()))
        for number, row in enumerate(rows, 2):
            values.append(row_value(path, number, row.get("status"),
                                    row.get("time")))
    else:
        for number, line in enumerate(text.splitlines(), 1):
            if not line.strip():
                continue
            try:
                row = json.loads(line)
            except json.JSONDecodeError as error:
                raise Failure(f"{path}:{number}: not JSON: {error.msg}")
            values.append(row_value(path, number, row.get("status"),
                                    row.get("time")))
    if not values:
        raise Failure(f"the table '{path}' has no rows")
    if all(v is None for v in values):
        raise Failure(f"the table '{path}' has no ok row")
    return values


def plain_suffix(path):
    """The suffix of a table's name without .xz (.jsonl or .csv)."""
    path = Path(path)
    return Path(path.stem).suffix if path.suffix == ".xz" else path.suffix


def table_name(path):
    """matmul for tables/matmul.jsonl.xz."""
    path = Path(path)
    if path.suffix == ".xz":
        path = Path(path.stem)
    return Path(path.stem).name


def default_space(path):
    """tables/K.space.json beside tables/K.jsonl(.xz) (record_tables.py)."""
    return Path(path).parent / (table_name(path) + ".space.json")


def replayable(path, work):
    """A path tuner-search can replay: compressed tables are decompressed
    into `work`."""
    path = Path(path)
    if path.suffix != ".xz":
        return path
    out = Path(work) / path.stem
    with lzma.open(path, "rb") as f:
        out.write_bytes(f.read())
    return out


def row_value(path, number, status, time):
    if status is None:
        raise Failure(f"{path}:{number}: the row has no status")
    if status != "ok":
        return None
    try:
        value = float(time)
    except (TypeError, ValueError):
        raise Failure(f"{path}:{number}: an ok row needs a numeric time, "
                      f"not {time!r}")
    if not math.isfinite(value):
        raise Failure(f"{path}:{number}: the time is not finite")
    return value


def ordered_values(values, maximize):
    """The ok values, best first."""
    return sorted((v for v in values if v is not None), reverse=maximize)


def expected_random_best(values, budget, maximize=False, of=None,
                         nothing=None):
    """E[best of `budget` rows drawn without replacement], exactly.

    `values` holds every row's objective, None for a failed row. The i-th
    best ok value (0-based) is the best of a sample when it is drawn and the
    i better ones are not: C(n - 1 - i, B - 1) of the C(n, B) samples. A
    sample of failures only finds nothing and counts as the worst ok value.
    With `of`, the expectation of of(best) instead, a sample that finds
    nothing counting `nothing`.
    """
    n = len(values)
    budget = min(budget, n)
    ok = ordered_values(values, maximize)
    if of is None:
        of, nothing = (lambda v: v), ok[-1]
    total = math.comb(n, budget)
    expected = 0.0
    for i, value in enumerate(ok):
        expected += math.comb(n - 1 - i, budget - 1) / total * of(value)
    return expected + math.comb(n - len(ok), budget) / total * nothing


# ---------------------------------------------------------------------------
# Running tuner-search
# ---------------------------------------------------------------------------

def find_tuner_search(given):
    if given:
        return given
    built = REPO_DIR / "build" / "bin" / "tuner-search"
    if built.exists():
        return str(built)
    found = shutil.which("tuner-search")
    if found:
        return found
    raise Failure("cannot find tuner-search: build it (ninja -C build "
                  "tuner-search) or pass --tuner-search")


def known_strategies(tuner_search, table, space):
    """The registry's names, from the error tuner-search gives for a name
    it does not know."""
    result = subprocess.run(
        [tuner_search, "--space", str(space), "--strategy", "?",
         "--replay", str(table), "--budget", "1"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    text = result.stdout + result.stderr
    start = text.find("(known: ")
    if start < 0:
        raise Failure("cannot list the strategies of tuner-search: " +
                      text.strip())
    names = text[start + len("(known: "):text.find(")", start)]
    return [name.strip() for name in names.split(",")]


def run_strategy(tuner_search, table, space, strategy, budget, seeds,
                 first_seed, maximize, extra, output):
    """The best objective of each seeded run (None: found nothing)."""
    command = [tuner_search, "--replay", str(table), "--space", str(space),
               "--strategy", strategy, "--budget", str(budget),
               "--runs", str(seeds), "--seed", str(first_seed),
               "--summary-output", str(output)]
    command.append("--maximize" if maximize else "--minimize")
    command += extra
    result = subprocess.run(command, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    if result.returncode != 0:
        raise Failure(f"{strategy} on {table} (budget {budget}) failed: " +
                      (result.stderr.strip() or result.stdout.strip()))
    summary = json.loads(Path(output).read_text())
    runs = summary["runs"] if seeds > 1 else [summary]
    return [run["best"]["objective"] if run.get("best") else None
            for run in runs]


# ---------------------------------------------------------------------------
# Statistics and tables
# ---------------------------------------------------------------------------

def quartiles(values):
    if len(values) == 1:
        return values[0], values[0], values[0]
    q1, median, q3 = statistics.quantiles(values, n=4, method="inclusive")
    return q1, median, q3


def fraction(best, optimum, maximize):
    """`best` as a fraction of the optimum: 1 is the optimum."""
    if maximize:
        return best / optimum if optimum else 0.0
    return optimum / best if best else 0.0


def score_budget(values, bests, budget, maximize):
    """Statistics of one strategy's runs at one budget."""
    ok = ordered_values(values, maximize)
    optimum, worst = ok[0], ok[-1]
    fractions = []
    scores = []
    expected = expected_random_best(values, budget, maximize)
    scored = not math.isclose(expected, optimum, rel_tol=1e-12, abs_tol=0)
    for best in bests:
        if best is None:
            fractions.append(0.0)
            best = worst
        else:
            fractions.append(fraction(best, optimum, maximize))
        if scored:
            scores.append((expected - best) / (expected - optimum))
    q1, median, q3 = quartiles(fractions)
    return {
        "budget": budget,
        "expected_random_best": expected,
        "random_fraction": expected_random_best(
            values, budget, maximize,
            of=lambda v: fraction(v, optimum, maximize), nothing=0.0),
        "fraction_mean": statistics.fmean(fractions),
        "fraction_std": statistics.stdev(fractions) if len(fractions) > 1
        else 0.0,
        "fraction_q1": q1, "fraction_median": median, "fraction_q3": q3,
        "found_optimum": sum(1 for b in bests if b is not None and
                             math.isclose(b, optimum, rel_tol=1e-12)),
        "found_nothing": sum(1 for b in bests if b is None),
        "runs": len(bests),
        "score": statistics.fmean(scores) if scored else None,
        "bests": bests,
    }


def render(rows, header, markdown):
    """An aligned text table, or a markdown one."""
    cells = [header] + [[str(c) for c in row] for row in rows]
    if markdown:
        lines = ["| " + " | ".join(cells[0]) + " |",
                 "|" + "|".join("---" for _ in header) + "|"]
        lines += ["| " + " | ".join(row) + " |" for row in cells[1:]]
        return "\n".join(lines)
    widths = [max(len(row[i]) for row in cells) for i in range(len(header))]
    lines = ["  ".join(c.rjust(w) if i else c.ljust(w)
                       for i, (c, w) in enumerate(zip(row, widths)))
             for row in cells]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines)


def number(value, digits=3):
    return "-" if value is None else f"{value:.{digits}f}"


def report(results, args, markdown):
    out = []
    direction = "maximized" if args.maximize else "minimized"
    out.append(
        f"Strategies on replayed tables: {args.seeds} seeded runs each "
        f"(seeds {args.first_seed}..{args.first_seed + args.seeds - 1}), "
        f"objective {direction}. Best found as a fraction of the table's "
        "optimum (mean, standard deviation, quartiles; a run that found "
        "nothing counts 0), runs that found the optimum, the exact "
        "expectation of that fraction for random sampling, and the "
        "methodology "
        "score of Willemsen et al. (E[random best] - best) / (E[random best] "
        "- optimum): 1 = the optimum every time, 0 = random sampling's exact "
        "expectation.")
    header = ["strategy", "budget", "best/optimum", "std", "q1", "median",
              "q3", "found optimum", "random", "score"]
    for table in results["tables"]:
        out.append("")
        title = (f"{table['name']}: {table['rows']} configs, "
                 f"{table['failed']} failed, optimum {table['optimum']:g}")
        out.append(f"### {title}" if markdown else title)
        out.append("")
        rows = []
        for strategy in table["strategies"]:
            for b in strategy["budgets"]:
                rows.append([
                    strategy["name"], b["budget"], number(b["fraction_mean"]),
                    number(b["fraction_std"]), number(b["fraction_q1"]),
                    number(b["fraction_median"]), number(b["fraction_q3"]),
                    f"{b['found_optimum']}/{b['runs']}",
                    number(b["random_fraction"]), number(b["score"])])
            rows.append([strategy["name"], "mean", "", "", "", "", "", "", "",
                         number(strategy["mean_score"])])
        out.append(render(rows, header, markdown))
    out.append("")
    out.append("### Mean score over the budgets" if markdown
               else "Mean score over the budgets")
    out.append("")
    names = [t["name"] for t in results["tables"]]
    rows = []
    for strategy in results["strategies"]:
        scores = [next(s["mean_score"] for s in t["strategies"]
                       if s["name"] == strategy) for t in results["tables"]]
        known = [s for s in scores if s is not None]
        rows.append([strategy] + [number(s) for s in scores] +
                    [number(statistics.fmean(known) if known else None)])
    out.append(render(rows, ["strategy"] + names + ["mean"], markdown))
    return "\n".join(out) + "\n"


# ---------------------------------------------------------------------------

def parse_list(text, what, convert=str):
    items = [item.strip() for item in text.split(",") if item.strip()]
    if not items:
        raise Failure(f"{what}: empty list")
    try:
        return [convert(item) for item in items]
    except ValueError:
        raise Failure(f"{what}: not a list of integers: {text}")


def run_all(args, budgets, tuner_search, work):
    """Reads the tables and runs every strategy at every budget: the tables,
    the strategies and each run's bests, in table, strategy, budget order."""
    tables = []
    for table, space in zip(args.table, args.space):
        values = read_table(table)
        n = len(values)
        capped = sorted({min(b, n) for b in budgets})
        tables.append({"path": table, "space": space,
                       "replay": replayable(table, work),
                       "name": table_name(table), "values": values,
                       "budgets": capped})
    if args.strategies:
        strategies = parse_list(args.strategies, "--strategies")
    else:
        strategies = [s for s in known_strategies(
            tuner_search, tables[0]["replay"], tables[0]["space"])
            if s not in NOT_COMPARED]
    jobs = []
    for t, table in enumerate(tables):
        for strategy in strategies:
            for budget in table["budgets"]:
                output = work / f"{t}-{table['name']}-{strategy}-{budget}.json"
                jobs.append((t, strategy, budget, output))

    def run(job):
        t, strategy, budget, output = job
        table = tables[t]
        print(f"{table['name']}: {strategy}, budget {budget} ...",
              file=sys.stderr, flush=True)
        return run_strategy(tuner_search, table["replay"], table["space"],
                            strategy, budget, args.seeds, args.first_seed,
                            args.maximize, args.extra_arg, output)

    with ThreadPoolExecutor(max_workers=args.jobs) as pool:
        bests = list(pool.map(run, jobs))
    return tables, strategies, bests


def main(argv):
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--table", action="append", default=[],
                        help="replay table (JSON lines or CSV); repeat, "
                             "each with its --space")
    parser.add_argument("--space", action="append", default=[],
                        help="the space JSON of the table in the same "
                             "position")
    parser.add_argument("--strategies",
                        help="comma-separated (default: every strategy of "
                             "tuner-search's registry that searches a plain "
                             "space, exhaustive excepted)")
    parser.add_argument("--budgets", default="20,50,100,200")
    parser.add_argument("--seeds", type=int, default=25,
                        help="seeded runs per strategy and budget")
    parser.add_argument("--first-seed", type=int, default=1)
    parser.add_argument("--maximize", action="store_true",
                        help="higher objectives are better (default: "
                             "times, lower is better)")
    parser.add_argument("--tuner-search",
                        help="the tool (default: build/bin/tuner-search)")
    parser.add_argument("--extra-arg", action="append", default=[],
                        help="one more argument for every tuner-search run")
    parser.add_argument("--jobs", type=int, default=1,
                        help="tuner-search processes at a time")
    parser.add_argument("--work-dir",
                        help="where the summaries go (default: a temporary "
                             "directory, removed)")
    parser.add_argument("--markdown", help="write the tables here as "
                                           "markdown")
    parser.add_argument("--json", help="write every number (and every "
                                       "run's best) here")
    args = parser.parse_args(argv)

    if not args.table:
        raise Failure("no table: give --table T --space S (at least once)")
    if not args.space:
        args.space = [str(default_space(t)) for t in args.table]
        for table, space in zip(args.table, args.space):
            if not Path(space).exists():
                raise Failure(f"no space for the table '{table}': '{space}' "
                              "does not exist (give --space)")
    if len(args.table) != len(args.space):
        raise Failure(f"{len(args.table)} --table but {len(args.space)} "
                      "--space: give one space per table, in order (or "
                      "none, for tables/K.jsonl.xz beside tables/K.space.json)")
    if args.seeds < 1:
        raise Failure("--seeds must be positive")
    if args.jobs < 1:
        raise Failure("--jobs must be positive")
    budgets = parse_list(args.budgets, "--budgets", int)
    if any(b < 1 for b in budgets):
        raise Failure("--budgets must be positive")
    tuner_search = find_tuner_search(args.tuner_search)

    work = Path(args.work_dir) if args.work_dir else \
        Path(tempfile.mkdtemp(prefix="compare-strategies-"))
    work.mkdir(parents=True, exist_ok=True)
    try:
        tables, strategies, bests = run_all(args, budgets, tuner_search, work)
    finally:
        if not args.work_dir:
            shutil.rmtree(work, ignore_errors=True)

    results = {"seeds": args.seeds, "first_seed": args.first_seed,
               "maximize": args.maximize, "strategies": strategies,
               "tables": []}
    found = iter(bests)
    for table in tables:
        values = table["values"]
        ok = ordered_values(values, args.maximize)
        entry = {"name": table["name"], "table": table["path"],
                 "space": table["space"], "rows": len(values),
                 "failed": sum(1 for v in values if v is None),
                 "optimum": ok[0], "strategies": []}
        for strategy in strategies:
            per_budget = [score_budget(values, next(found), budget,
                                       args.maximize)
                          for budget in table["budgets"]]
            scores = [b["score"] for b in per_budget if b["score"] is not None]
            entry["strategies"].append({
                "name": strategy, "budgets": per_budget,
                "mean_score": statistics.fmean(scores) if scores else None})
        results["tables"].append(entry)

    sys.stdout.write(report(results, args, markdown=False))
    if args.markdown:
        Path(args.markdown).write_text(report(results, args, markdown=True))
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except Failure as error:
        print(f"error: {error}", file=sys.stderr)
        sys.exit(1)
