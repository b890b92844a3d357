#!/usr/bin/env bash
# Installs what tuner needs on Debian 12 (LLVM/MLIR 22 come from Debian's
# bookworm-security suite). Does nothing when everything is there already.
# libblis-dev, libdnnl-dev and libhalide14-0-dev are the benchmark peers of
# benchmarks/run.py (BLIS, oneDNN 2.x, Halide 14 and its autoschedulers);
# liblbfgspp-dev (LBFGS++, header-only, on Eigen) fits the Gaussian
# processes of Bayesian optimization; libxgboost-dev (XGBoost's C API)
# trains and runs the cost model's gradient-boosted trees.
set -euo pipefail
packages=(
  cmake ninja-build clang-22 llvm-22 llvm-22-dev llvm-22-tools
  libmlir-22-dev mlir-22-tools libomp-22-dev libpolly-22-dev
  libgtest-dev libgmock-dev libeigen3-dev liblbfgspp-dev libxgboost-dev libsqlite3-dev sqlite3
  libopenblas-dev python3-numpy python3-matplotlib
  libblis-dev libdnnl-dev libhalide14-0-dev
)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "installing: ${missing[*]}"
  sudo_cmd=""
  [ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq "${missing[@]}" >/dev/null
fi
