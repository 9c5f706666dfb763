#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The pictures of docs/skeleton.md, from the committed sample rigs (samples/*.rig2d.json, as
# scripts/run-samples.sh makes them): each bone's dominant region in its own colour, with the bones,
# at twice the sprite's size; and the hero with three limbs bent. Run it after the samples change.
# Deterministic: re-running on an unchanged tree rewrites the same bytes.
# Usage: scripts/make-skeleton-pictures.sh [BUILD_DIR]   (default build/release, rig2d-pose built)
set -euo pipefail
cd "$(dirname "$0")/.."
pose=${1:-build/release}/tools/rig2d-pose/rig2d-pose
out=docs/images

for name in hero tentacle ring islands; do
  "$pose" "samples/$name.rig2d.json" --assets samples --overlay bones,dominant --scale 2 \
    -o "$out/skeleton-$name.png" -q
done
# Every limb turns on its own: a leg forward, the other leg back, the arm up.
"$pose" samples/hero.rig2d.json --assets samples --overlay bones,dominant --scale 2 --fit \
  --pose down_l_1.rot=0.5 --pose down_r2_1.rot=-0.7 --pose up_1.rot=0.3 -o "$out/skeleton-hero-bent.png" -q
ls -l "$out"/skeleton-*.png
