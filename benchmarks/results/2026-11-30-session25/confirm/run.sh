#!/usr/bin/env bash
# confirm=N on the four held-out kernels' complete searches (BSE measuring
# every node, MCTS with the shipped model and top-k 8): unpacks the
# committed databases of sessions 21 and 23, runs confirm.py on them (each
# search again on a copy of its database with confirm=4: nothing new
# measured, its 4 best timed again), and times both choices side by side
# (retime.py, two runs of three rounds). Writes table.md beside this
# script and the work folder's databases and summaries into confirm.tar.xz.
# Usage: run.sh [WORK]   (quiet machine: it measures)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cd "$here/../../../.."
work=${1:-build/confirm25}
rm -rf "$work" && mkdir -p "$work"
tar -xJf benchmarks/results/2026-11-30-session21/onerun/fresh-searches.tar.xz -C "$work"
tar -xJf benchmarks/results/2026-11-30-session23/matmul_tn/bse.tar.xz -C "$work"
tar -xJf benchmarks/results/2026-11-30-session23/matmul_tn/searches-shipped.tar.xz -C "$work"
echo "start $(date -u +%H:%M:%S)"
python3 "$here/confirm.py" "$work" > "$here/table.md"
echo "done $(date -u +%H:%M:%S)"
tar -cJf "$here/confirm.tar.xz" -C "$work" --exclude='*.mlir' confirm confirm.json
