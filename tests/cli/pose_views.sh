#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# pose_views.sh TOOL DATA_DIR WORK_DIR: the review previews of rig2d-pose end to end: the 2.5D views
# and legends render, repeat byte for byte, and differ where they should.
set -euo pipefail
tool=$1 data=$2 work=$3
rm -rf "$work" && mkdir -p "$work"
rig=$data/assets/rigs/bar.rig2d.json clip=$data/assets/anims/wave.anim.json
fail() { echo "FAIL: $*" >&2; exit 1; }
be32() { od -An -tu1 -j "$2" -N4 "$1" | awk '{print $1*16777216 + $2*65536 + $3*256 + $4}'; }

for view in "--view billboard" "--view billboard --anchor center --facing spherical --camera-yaw 30" \
            "--view ground --heading 45 --camera-pitch 60" "--view billboard --orthographic --camera-pitch 0"; do
  # shellcheck disable=SC2086
  "$tool" "$rig" $view --anim "$clip" --time 0.3 --background '#202020' -o "$work/a.png" -q
  # shellcheck disable=SC2086
  "$tool" "$rig" $view --anim "$clip" --time 0.3 --background '#202020' -o "$work/b.png" -q
  cmp -s "$work/a.png" "$work/b.png" || fail "two identical runs of '$view' differ"
done
"$tool" "$rig" --view billboard -o "$work/bb.png" -q
"$tool" "$rig" -o "$work/flat.png" -q
! cmp -s "$work/bb.png" "$work/flat.png" || fail "the billboard view is the flat view"
"$tool" "$rig" --view billboard --no-grid -o "$work/nogrid.png" -q
! cmp -s "$work/bb.png" "$work/nogrid.png" || fail "--no-grid changed nothing"

# A legend panel grows the frame; viridis and grey differ.
"$tool" "$rig" --overlay weights:mid --weight-view -o "$work/w.png" -q
"$tool" "$rig" --overlay weights:mid --weight-view --legend -o "$work/wl.png" -q
"$tool" "$rig" --overlay weights:mid --weight-view --weight-ramp grey -o "$work/wg.png" -q
[ "$(be32 "$work/wl.png" 20)" -gt "$(be32 "$work/w.png" 20)" ] || fail "--legend did not add a panel"
! cmp -s "$work/w.png" "$work/wg.png" || fail "viridis and grey render the same"
# Bone names beside the joints: drawn, repeatable, and the same size of frame.
"$tool" "$rig" --overlay bones -o "$work/nb.png" -q
"$tool" "$rig" --overlay bones,names -o "$work/n1.png" -q
"$tool" "$rig" --overlay bones,names -o "$work/n2.png" -q
! cmp -s "$work/nb.png" "$work/n1.png" || fail "the names overlay drew nothing"
cmp -s "$work/n1.png" "$work/n2.png" || fail "two identical names overlays differ"
[ "$(be32 "$work/n1.png" 16)" -eq "$(be32 "$work/nb.png" 16)" ] || fail "the names overlay resized the frame"
# A contact sheet (labels in the embedded font, validation figures) repeats byte for byte.
"$tool" "$data/assets/rigs" --contact-sheet "$work/s1.png" -q
"$tool" "$data/assets/rigs" --contact-sheet "$work/s2.png" -q
cmp -s "$work/s1.png" "$work/s2.png" || fail "two identical contact sheets differ"
# Its output folder is created, as for every other output.
"$tool" "$data/assets/rigs" --contact-sheet "$work/new/folder/s3.png" -q || fail "contact sheet into a new folder failed"
cmp -s "$work/s1.png" "$work/new/folder/s3.png" || fail "the contact sheet in a new folder differs"
echo "PASS: pose views"
