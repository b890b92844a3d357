#!/bin/sh
# The shipped model's predictions per CPU second on one core, the binary
# before (old: main at 78a2ce5) and after (new) this session's change to
# ProgramPredictor::predict (each config's computation vectors kept only as
# their differences from the untransformed schedule's, taken while in
# cache; InferenceBatch built from them), alternating 8 times on the quiet Zen 5 VM (ab.txt: each
# line one run of 9 rounds, "per CPU second: fastest, median; plans cached:
# fastest, median"). old and new are CostModelTests built from the two trees.
for i in 1 2 3 4 5 6 7 8; do for b in old new; do echo -n "$b "
  taskset -c 0 /tmp/CMT-$b --gtest_also_run_disabled_tests --gtest_filter='*ShippedModel' 2>&1 | grep -E "per CPU"
done; done
