# SPDX-License-Identifier: Apache-2.0
# Shared by the rig2d-autorig scenario scripts; they set $tool, $src and $work before sourcing it.
fail() { echo "FAIL: $*" >&2; exit 1; }
# run EXPECTED_EXIT ARGS...: runs the tool, output in $work/out.txt, checks the exit code.
run() {
  local want=$1; shift
  "$tool" "$@" >"$work/out.txt" 2>&1
  local got=$?
  cat "$work/out.txt"
  [ "$got" -eq "$want" ] || fail "exit $got, expected $want: $tool $*"
}
expect() { grep -qE -- "$1" "$work/out.txt" || fail "output lacks /$1/"; }
copy_samples() {
  mkdir -p "$1"
  cp "$src"/samples/*.png "$src"/samples/*.png.meta.json "$1"/
}
