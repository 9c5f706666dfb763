#!/usr/bin/env bash
# Installs dependencies, builds rig2d and runs the whole test suite (the command CI runs).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
jobs=${RIG2D_JOBS:-2}

# configure <build dir> <cmake args...>: Ninja for a new build dir (it schedules both cores better than
# make); a dir configured earlier keeps its generator, which CMake cannot change in place.
configure() {
  local dir=$1
  shift
  local generator=()
  if [ ! -f "$dir/CMakeCache.txt" ] && command -v ninja >/dev/null; then generator=(-G Ninja); fi
  cmake -S . -B "$dir" "${generator[@]}" "$@"
}

echo "== release build + tests"
configure build/release -DCMAKE_BUILD_TYPE=Release -DRIG2D_WERROR=ON
cmake --build build/release -j"$jobs"
ctest --test-dir build/release --output-on-failure -j"$jobs"

echo "== Debian packages: cpack, lintian, dpkg -i, the installed tools, dpkg -r"
# Installs into /usr and removes it again, so it needs root (CI runs as root).
if [ "$(id -u)" -eq 0 ]; then bash tests/package/deb_test.sh build/release; else sudo bash tests/package/deb_test.sh build/release; fi

echo "== ASan+UBSan build + tests"
# -g1: the line tables the sanitizers' stack traces need, without full debug info (about a quarter
# less compile time per file than -g). A unity build: the sanitizers instrument every inline function
# of nlohmann/json, fmt and CLI11 once per translation unit, so fewer, larger units build in about
# half the time. The release build above stays one unit per file, so a missing #include still fails.
configure build/asan -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG="-O1 -g1" -DRIG2D_WERROR=ON \
  -DRIG2D_SANITIZE="address;undefined" -DCMAKE_UNITY_BUILD=ON
cmake --build build/asan -j"$jobs"
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  ctest --test-dir build/asan --output-on-failure -j"$jobs"
