#!/usr/bin/env bash
# confirm=N measured (session 25, on a 2-core Intel Emerald Rapids VM: the
# earlier sessions' databases are another machine's, so every search is
# made here): BSE and MCTS (defaults, the shipped model) search each kernel
# with confirm=4, then each search's best with and without the
# confirmation's records is timed side by side (confirm.py). Held-out
# kernels blur1d, rowsumsq, vecmat; suite kernels seidel2d, cvtcolor.
# Writes heldout.md and suite.md beside this script, the work folder's
# databases and summaries into confirm.tar.xz.
# The held-out searches of the committed run were made 20:11-20:22 UTC by a
# first version of this script (the same tuner-opt options, on copies of
# sessions 21's databases, which hold another machine's records and so
# gave nothing: every node was measured here; those records were removed
# before the retiming) and taken into the work folder as they were.
# Usage: run.sh [WORK]   (quiet machine: it measures; a cut run resumes)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cd "$here/../../../.."
work=${1:-build/confirm25}
mkdir -p "$work/heldout" "$work/suite"
python3 "$here/confirm.py" "$work/heldout" blur1d rowsumsq vecmat > "$here/heldout.md"
python3 "$here/confirm.py" "$work/suite" --kernel-dir benchmarks/kernels seidel2d cvtcolor > "$here/suite.md"
for f in "$work"/*/*.db; do
  python3 -c 'import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); c.execute("PRAGMA wal_checkpoint(TRUNCATE)"); c.close()' "$f"
done
tar -cJf "$here/confirm.tar.xz" -C "$work" --exclude='*.mlir' --exclude='*-wal' --exclude='*-shm' heldout suite
