#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The pictures of docs/templates.md, from the sample art: the humanoid template fitted into two
# sprites (samples/figure.png, samples/hero.png) and a layered character (samples/layered/puppet.psd),
# and the bundled humanoid/walk clip played on all three. Deterministic: re-running on an unchanged
# tree rewrites the same bytes.
# Usage: scripts/make-template-pictures.sh [BUILD_DIR]   (default build/release, tools built)
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-build/release}/tools
autorig="$bin/rig2d-autorig/rig2d-autorig"
pose="$bin/rig2d-pose/rig2d-pose"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
out=docs/images

# Copies, so the samples' own rigs and stamps stay as they are.
cp samples/figure.png samples/figure.png.meta.json samples/hero.png samples/hero.png.meta.json "$work"/
cp samples/layered/puppet.psd "$work"/
"$autorig" "$work"/figure.png "$work"/hero.png --template humanoid -q
"$autorig" "$work"/puppet.psd --template humanoid -q

for name in figure hero puppet; do
  rig="$work/$name.rig2d.json"
  # The fitted skeleton over the bind pose, bones named.
  "$pose" "$rig" --overlay bones,names --scale 1.25 --background '#262626' -o "$out/templates-fit-$name.png" -q
  # One loop of the walk in four frames.
  "$pose" "$rig" --anim humanoid/walk --time 0,0.25,0.5,0.75 --columns 4 --fit --scale 0.75 --overlay bones \
    --background '#262626' --sheet "$out/templates-walk-$name.png" -q
done
ls -l "$out"/templates-*.png
