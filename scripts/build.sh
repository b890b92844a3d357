#!/usr/bin/env bash
# Configures (once) and builds tuner in ./build. Extra arguments are ninja
# targets (default: everything).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
if [ ! -f build/build.ninja ]; then
  # ccache, where installed, makes rebuilds in other checkouts (git
  # worktrees, clean clones) cheap; the build does not need it.
  launcher=()
  if command -v ccache >/dev/null; then
    launcher=(-DCMAKE_C_COMPILER_LAUNCHER=ccache
              -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
  fi
  cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 \
    "${launcher[@]}" >/dev/null
fi
ninja -C build "$@"
