#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Large real sprites for bench_autorig: every PNG of SRC_DIR upscaled x3 and x5 into OUT_DIR
# (<name>_x3.png, <name>_x5.png; ImageMagick's Lanczos filter, 8-bit RGBA, no metadata chunks, so the
# same bytes every run), each with the sidecar rig2d-autorig --write-meta creates (the rigs it writes
# go to a temporary folder and are deleted).
# Usage: bench/upscale_sprites.sh SRC_DIR OUT_DIR [BUILD_DIR]  (BUILD_DIR: build/release)
# Then: BUILD_DIR/bench/bench_autorig /tmp/none OUT_DIR files
set -euo pipefail
src=${1:?SRC_DIR}
out=${2:?OUT_DIR}
build=${3:-build/release}
convert=$(command -v magick || command -v convert) || { echo "needs ImageMagick (convert)" >&2; exit 1; }
mkdir -p "$out"
for png in "$src"/*.png; do
  name=$(basename "$png" .png)
  for k in 3 5; do "$convert" "$png" -strip -filter Lanczos -resize "$((k * 100))%" "PNG32:$out/${name}_x$k.png"; done
done
rigs=$(mktemp -d)
trap 'rm -rf "$rigs"' EXIT
"$build/tools/rig2d-autorig/rig2d-autorig" -q --write-meta "$out" -o "$rigs"
echo "upscale_sprites: $(ls "$out"/*.png | wc -l) sprites in $out"
