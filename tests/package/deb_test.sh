#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The Debian packages of a build, end to end, on this machine (root: it installs into /usr).
# Usage: deb_test.sh BUILD_DIR
#   cpack makes rig2d_*.deb, rig2d-dev_*.deb and rig2d-*.tar.gz; lintian reports no error on either
#   package; `dpkg -i` installs them; from a folder with no build tree and a bare environment the
#   tools run (--version), re-rig the repository's samples byte for byte, validate and render them;
#   man finds and renders every page, bash and zsh load the completions (tool_docs_check.sh); a
#   find_package(rig2d) consumer builds against /usr; `dpkg -r` then leaves none of the files behind.
set -euo pipefail
build=$(realpath "$1")
src=$(realpath "$(dirname "$0")/../..")
fail() { echo "FAIL: $*" >&2; exit 1; }
[ "$(id -u)" -eq 0 ] || fail "run as root (dpkg -i)"
if dpkg-query -W -f='${Status}' rig2d rig2d-dev 2>/dev/null | grep -q installed; then
  fail "rig2d is already installed on this machine; remove it first (dpkg -r rig2d-dev rig2d)"
fi

work=$(mktemp -d)
installed=0
cleanup() {
  if [ "$installed" = 1 ]; then dpkg -r rig2d-dev rig2d >/dev/null 2>&1 || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

echo "== cpack"
(cd "$build" && cpack -B "$work/packages" >/dev/null)
deb=$(ls "$work"/packages/rig2d_*.deb)
dev=$(ls "$work"/packages/rig2d-dev_*.deb)
tgz=$(ls "$work"/packages/rig2d-*.tar.gz)
version=$(dpkg-deb -f "$deb" Version)
grep -q "project(rig2d VERSION $version " "$src/CMakeLists.txt" || fail "package version $version is not the project's"
dpkg-deb -f "$deb" Depends | grep -q "libstdc++6" || fail "Depends lacks the C++ runtime: $(dpkg-deb -f "$deb" Depends)"
tar -tzf "$tgz" >"$work/archive.txt"
for f in bin/rig2d-autorig lib/librig2d.so.0 include/rig2d/export.h lib/cmake/rig2d/rig2dConfig.cmake \
         share/man/man1/rig2d-autorig.1.gz share/rig2d/rig2d.schema.json; do
  grep -qx "rig2d-$version-Linux/$f" "$work/archive.txt" || fail "the archive has no $f"
done

echo "== lintian"
lintian "$deb" "$dev" >"$work/lintian.txt" 2>&1 || true
grep -v "^running with root" "$work/lintian.txt" || true
! grep -q "^E: " "$work/lintian.txt" || fail "lintian reports errors"

echo "== dpkg -i"
installed=1
dpkg -i "$deb" "$dev" >/dev/null
files=$(dpkg -L rig2d rig2d-dev | sort -u)

echo "== the installed tools, away from the build tree"
cd "$work"
bare() { env -i PATH=/usr/bin:/bin HOME="$work" "$@"; }
for tool in rig2d-autorig rig2d-validate rig2d-pose rig2d-convert; do
  [ "$(command -v "$tool")" = "/usr/bin/$tool" ] || fail "$tool is not /usr/bin/$tool"
  [ "$(bare "$tool" --version)" = "$tool $version" ] || fail "$tool --version"
  man -w "$tool" | grep -q "^/usr/share/man/man1/$tool.1.gz$" || fail "man does not find $tool"
done
# The samples' rigs are the tools' default output (their bones kept): an installed run remakes them.
cp -r "$src/samples" "$work/samples"
rm -f "$work"/samples/*.stamp
bare rig2d-autorig samples --keep-bones -q
for rig in "$src"/samples/*.rig2d.json; do
  cmp "$rig" "samples/$(basename "$rig")" || fail "the installed rig2d-autorig remade $(basename "$rig") differently"
done
bare rig2d-validate samples -q
bare rig2d-pose samples/hero.rig2d.json -o hero.png -q
[ -s hero.png ] || fail "rig2d-pose wrote no PNG"

echo "== man pages and completion as installed"
bash "$src/tests/package/tool_docs_check.sh" /usr/bin -- /usr/share/man/man1 /usr/share/bash-completion/completions \
  /usr/share/zsh/vendor-completions
bash -c 'source /usr/share/bash-completion/completions/rig2d-autorig; complete -p rig2d-autorig'

# The Bazel module's links reach the installed tools and library.
[ "$(readlink -f /usr/share/rig2d/bazel/bin/rig2d-autorig)" = /usr/bin/rig2d-autorig ] || fail "bazel/bin/rig2d-autorig"
lib=$(sed -n 's/.*srcs = \["\(.*\)"\],/\1/p' /usr/share/rig2d/bazel/BUILD.bazel)
[ -f "/usr/share/rig2d/bazel/$lib" ] || fail "the Bazel module's $lib does not reach the library"

echo "== find_package(rig2d) from /usr"
cmake -S "$src/tests/package/consumer" -B "$work/consumer" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$work/consumer" >/dev/null
(cd "$work" && bare "$work/consumer/rig2d_consumer") | grep "consumer: ok"

echo "== dpkg -r"
dpkg -r rig2d-dev rig2d >/dev/null
installed=0
left=()
while IFS= read -r f; do
  # Folders the packages share with others (/usr/bin, /usr/share/man/man1, ...) stay; their own go.
  if [ -e "$f" ] && { [ ! -d "$f" ] || [[ "$f" == *rig2d* ]]; }; then left+=("$f"); fi
done <<<"$files"
[ "${#left[@]}" -eq 0 ] || fail "dpkg -r left ${left[*]}"
! dpkg-query -W -f='${Status}' rig2d 2>/dev/null | grep -q "ok installed" || fail "rig2d is still installed"
echo "deb package: ok"
