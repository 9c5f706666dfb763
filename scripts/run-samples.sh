#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The main job on the bundled samples: install dependencies, build Release into build/release,
# auto-rig every sprite of samples/ IN PLACE (samples/<name>.rig2d.json, committed; the run is
# deterministic, so an unchanged tree stays unchanged), then validate the rigs and render previews
# into out/ with rig2d-validate / rig2d-pose when those tools are part of the build. A tool that exists
# and fails fails this script.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
jobs=${RIG2D_JOBS:-2}

echo "== release build"
cmake -S . -B build/release -DCMAKE_BUILD_TYPE=Release
# Only the tools (the tests are scripts/test.sh's job); rig2d-validate / rig2d-pose when they exist.
targets=(rig2d-autorig)
available=$(cmake --build build/release --target help)
for tool in rig2d-validate rig2d-pose; do
  if grep -q "\b$tool\b" <<<"$available"; then targets+=("$tool"); fi
done
cmake --build build/release -j"$jobs" --target "${targets[@]}"
bin=build/release/tools

echo "== rig2d-autorig samples/"
autorig="$bin/rig2d-autorig/rig2d-autorig"
# The bar fixture has hand-placed bones (base->mid->tip, kept in scripts/: any other .json under an
# asset root would count as a scene); rig it from them when its rig is missing.
[ -f samples/bar.rig2d.json ] || "$autorig" samples/bar.png --bones scripts/bar.bones.json
# Default options (outline meshes, heat weights). --keep-bones: every rig keeps its bones; --force:
# re-rig even when a rig's stamp says it is current (the output is byte-identical, so no committed
# rig is rewritten; the stamps are build state, ignored by git).
# The PNGs at the top of samples/ only: samples/layered/ holds a layered document's atlas, which is
# its rig's texture, not a sprite of its own.
"$autorig" samples/*.png -j"$jobs" --keep-bones --force
# The layered character: a PSD (written by ag-psd, scripts/make-layered-fixtures.sh) straight to a
# multi-part rig and its atlas (docs/layered.md).
"$autorig" samples/layered/puppet.psd --force

mkdir -p out
validate="$bin/rig2d-validate/rig2d-validate"
if [ -x "$validate" ]; then
  echo "== rig2d-validate samples/"
  "$validate" samples/
else
  echo "== rig2d-validate is not built yet: skipping validation"
fi

pose="$bin/rig2d-pose/rig2d-pose"
if [ -x "$pose" ]; then
  echo "== rig2d-pose previews into out/"
  for rig in samples/*.rig2d.json samples/layered/*.rig2d.json; do
    name=$(basename "$rig" .rig2d.json)
    "$pose" "$rig" --assets samples -o "out/$name.png"
    "$pose" "$rig" --assets samples --overlay wireframe,bones -o "out/$name-wireframe.png"
    "$pose" "$rig" --assets samples --overlay bones,dominant,names --scale 2 -o "out/$name-bones.png"
    # One bend per limb: the first bone of every chain ("<limb>_1"; "mid" in the hand-placed bar)
    # turns by 0.6 rad (about 34 degrees) while the rest of the rig stays at its bind pose.
    for bone in $(grep -oE '"name": "([^"]*_1|mid)"' "$rig" | cut -d'"' -f4); do
      "$pose" "$rig" --assets samples --pose "$bone.rot=0.6" --fit --overlay bones -o "out/$name-bend-$bone.png"
    done
    # Range of motion: every bone swings +-45 degrees in turn (a sheet row per bone, and an APNG),
    # triangles turned inside out in red.
    "$pose" "$rig" --assets samples --rom --fit --overlay bones,folds --sheet "out/$name-rom.png" --columns 12 \
      --apng "out/$name-rom-anim.png" --save-clip "out/$name.rom.anim.json"
  done
  # One review sheet of every sample: bind pose, wireframe, dominant bones, a bend and the figures.
  "$pose" samples --contact-sheet out/contact-sheet.png
  # The same rigs as one interactive HTML page (open it in a browser), playing the hero's
  # range-of-motion clip.
  "$pose" samples --anim out/hero.rom.anim.json --html out/review.html
  echo "previews: $(ls out/*.png out/*.html | tr '\n' ' ')"
else
  echo "== rig2d-pose is not built yet: skipping previews"
fi
echo "run-samples: done"
