#!/usr/bin/env bash
# Usage: scripts/configure.sh DIR [CMAKE_ARGS...]
# Configures a build of tuner in DIR (once: nothing happens when
# DIR/build.ninja exists) with clang-22, Ninja and a Release build, plus
# CMAKE_ARGS (e.g. -DTUNER_SANITIZE=ON). ccache, where installed, makes
# rebuilds in other checkouts (git worktrees, clean clones) cheap; the build
# does not need it. Used by build.sh, test-sanitized.sh and fuzz.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
dir=$1
shift
[ -f "$dir/build.ninja" ] && exit 0
launcher=()
if command -v ccache >/dev/null; then
  launcher=(-DCMAKE_C_COMPILER_LAUNCHER=ccache
            -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
fi
cmake -S . -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 \
  "${launcher[@]}" "$@" >/dev/null
