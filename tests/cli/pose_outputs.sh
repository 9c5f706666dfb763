#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# pose_outputs.sh TOOL DATA_DIR WORK_DIR: end-to-end output checks of rig2d-pose: PNG sizes, the
# numbered sequence, APNG structure, deterministic bytes, the vertex dump, and that a failed run
# leaves no new file and no temp file and does not touch an existing output.
set -euo pipefail
tool=$1 data=$2 work=$3
rm -rf "$work" && mkdir -p "$work"
rig=$data/assets/rigs/bar.rig2d.json clip=$data/assets/anims/wave.anim.json
fail() { echo "FAIL: $*" >&2; exit 1; }
be32() { od -An -tu1 -j "$2" -N4 "$1" | awk '{print $1*16777216 + $2*65536 + $3*256 + $4}'; }

# Bind pose at scale 1, margin 0: exactly the 64x256 sprite.
"$tool" "$rig" -o "$work/bind.png" --margin 0 -q
[ "$(be32 "$work/bind.png" 16)" = 64 ] || fail "bind width"
[ "$(be32 "$work/bind.png" 20)" = 256 ] || fail "bind height"

# Same inputs, same bytes.
"$tool" "$rig" --anim "$clip" --time 0.3 --overlay wireframe,bones,weights:mid --fit -o "$work/a.png" -q
"$tool" "$rig" --anim "$clip" --time 0.3 --overlay wireframe,bones,weights:mid --fit -o "$work/b.png" -q
cmp -s "$work/a.png" "$work/b.png" || fail "two identical runs differ"
# A different time really changes the picture.
"$tool" "$rig" --anim "$clip" --time 0.1 --overlay wireframe,bones,weights:mid --fit -o "$work/c.png" -q
! cmp -s "$work/a.png" "$work/c.png" || fail "time 0.1 and 0.3 render the same"

# A sequence, a sheet, an APNG and the vertex dump from one run.
"$tool" "$rig" --anim "$clip" --fps 4 --fit --size 96x128 -o "$work/seq.png" --sheet "$work/sheet.png" \
  --apng "$work/anim.png" --dump-vertices "$work/v.json" -q
for i in 0 1 2 3; do [ -s "$work/seq_000$i.png" ] || fail "missing frame $i"; done
[ ! -e "$work/seq_0004.png" ] || fail "a looping clip's end frame was rendered"
[ "$(be32 "$work/seq_0000.png" 16)" = 96 ] || fail "--size width"
grep -c fdAT "$work/anim.png" >/dev/null || fail "APNG has no fdAT chunk"
[ "$(be32 "$work/anim.png" 41)" = 4 ] || fail "acTL frame count"  # 8 sig + 25 IHDR + 4 len + 4 type
grep -q '"time": 0.75' "$work/v.json" || fail "vertex dump lacks the last frame time"
[ "$(grep -c '"positions"' "$work/v.json")" = 4 ] || fail "vertex dump frame count"

# Failures: no output, no temp file, an existing file untouched.
cp "$work/bind.png" "$work/keep.png"
if "$tool" "$rig" --pose elbow.rot=1 -o "$work/keep.png" -q 2>/dev/null; then fail "bad bone accepted"; fi
cmp -s "$work/bind.png" "$work/keep.png" || fail "failed run touched the existing output"
if "$tool" "$rig" --anim "$data/assets/anims/bad.anim.json" -o "$work/new.png" --sheet "$work/new_sheet.png" -q 2>/dev/null; then
  fail "bad clip accepted"
fi
[ ! -e "$work/new.png" ] && [ ! -e "$work/new_sheet.png" ] || fail "failed run left an output"
if ls -a "$work" | grep -q '\.tmp'; then fail "temp file left behind"; fi
echo ok
