#!/usr/bin/env bash
# Installs dependencies, builds rig2d and runs the whole test suite (the command CI runs).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
jobs=${RIG2D_JOBS:-2}

echo "== release build + tests"
cmake -S . -B build/release -DCMAKE_BUILD_TYPE=Release -DRIG2D_WERROR=ON
cmake --build build/release -j"$jobs"
ctest --test-dir build/release --output-on-failure -j"$jobs"
