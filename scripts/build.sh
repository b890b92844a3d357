#!/usr/bin/env bash
# Configures (once) and builds tuner in ./build. Extra arguments are ninja
# targets (default: everything).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/configure.sh build
ninja -C build "$@"
