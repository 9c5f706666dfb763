#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# rig2d-pose for build systems: --depfile names every output and every file read; --list-inputs
# prints those files and writes nothing. Usage: pose_build.sh TOOL POSE_DATA_DIR
set -uo pipefail
pose=$1
data=$2
work=$(mktemp -d "${TMPDIR:-/tmp}/rig2d-pose-build.XXXXXX")
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
rig=$data/assets/rigs/bar.rig2d.json
clip=$data/assets/anims/wave.anim.json

"$pose" "$rig" --anim "$clip" --time 0.25,0.5 -o "$work/f.png" --sheet "$work/s.png" --depfile "$work/f.d" -q ||
  fail "rig2d-pose failed"
python3 - "$work/f.d" "$work" "$rig" "$clip" <<'PY' || fail "the depfile is not one rule per output naming the rig, clip, texture and sidecar"
import re, sys
text, work, rig, clip = open(sys.argv[1]).read(), sys.argv[2], sys.argv[3], sys.argv[4]
rules = [r for r in text.split("\n") if r and not r.startswith(" ")]
targets = [r.split(":")[0] for r in rules]
assert targets == [f"{work}/f_0000.png", f"{work}/f_0001.png", f"{work}/s.png"], targets
deps = [line.strip(" \\") for line in text.split("\n") if line.startswith("  ")]
assert len(deps) == 3 * 4, deps
first = deps[:4]
assert first[0] == rig and first[1] == clip, first
assert first[2].endswith("textures/bar.png") and first[3].endswith("textures/bar.png.meta.json"), first
PY
"$pose" "$rig" --anim "$clip" --list-inputs >"$work/list.txt" || fail "--list-inputs failed"
[ "$(wc -l <"$work/list.txt")" -eq 4 ] || fail "--list-inputs: $(cat "$work/list.txt")"
head -1 "$work/list.txt" | grep -qx -- "$rig" || fail "--list-inputs does not start with the rig"
[ "$(ls "$work")" = "f.d
f_0000.png
f_0001.png
list.txt
s.png" ] || fail "unexpected files: $(ls "$work")"
echo "PASS: pose build"
