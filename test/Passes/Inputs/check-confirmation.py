"""Checks the confirmation of an autotune run against its summary and the
tuning database's export, and prints what it found.

Usage: check-confirmation.py SUMMARY.json EXPORT.jsonl N [BEST.jsonl]
The first N confirmed (the top batch) come best first by their first
timing; the summary's best must be the confirmed candidate with the best
second timing (with a space of few candidates every leader is confirmed);
the export must hold one "confirm" record per confirmed candidate, with
that second timing's speedup; BEST.jsonl (`tuner-db best`), when given,
must be the record of the summary's best config and speedup."""
import json
import sys

summary = json.load(open(sys.argv[1]))
function = summary["functions"][0] if "functions" in summary else summary
confirmation = function["confirmation"]
candidates = confirmation["candidates"]
ok = [c for c in candidates if c["status"] == "ok"]
firsts = [c["first"] for c in candidates[:int(sys.argv[3])]]
configs = [json.dumps(c["config"], sort_keys=True) for c in candidates]
print("confirmed at least %s, each once, the top batch best first: %s" %
      (sys.argv[3], len(candidates) >= len(firsts) == int(sys.argv[3]) and
       len(set(configs)) == len(configs) and
       firsts == sorted(firsts, reverse=True)))
best = max(ok, key=lambda c: c["again"])
print("best is the best second timing: %s" %
      (function["best"]["config"] == best["config"] and
       abs(function["best"]["speedup"] - best["again"]) < 1e-9))
print("best before: %s" % (confirmation["best_before"]["value"] == firsts[0]))
records = [json.loads(line) for line in open(sys.argv[2]) if line.strip()]
confirms = [r for r in records
            if r.get("kind") == "measurement" and r["strategy"] == "confirm"]
speedups = sorted(r["speedup"] for r in confirms if r["status"] == "ok")
print("a confirm record each, speedups as confirmed: %s" %
      (len(confirms) == len(candidates) and
       speedups == sorted(c["again"] for c in ok)))
if len(sys.argv) > 4:
    best_record = json.loads(open(sys.argv[4]).read())
    print("tuner-db best is the pass's best: %s" %
          (json.loads(best_record["config"]) == function["best"]["config"] and
           abs(best_record["speedup"] - function["best"]["speedup"]) < 1e-9))
