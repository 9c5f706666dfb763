#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# rig2d-autorig on sprite sheets (sidecar slices, --slice) and layouts (--layout FILE|DIR): the files
# written, their names, validation, and the build plumbing over layout inputs.
# Usage: autorig_sheets.sh AUTORIG VALIDATE SOURCE_DIR SCENARIO
set -uo pipefail
tool=$1
validate=$2
src=$3
scenario=$4
work=$(mktemp -d "${TMPDIR:-/tmp}/rig2d-sheets-$scenario.XXXXXX")
trap 'rm -rf "$work"' EXIT

source "$(dirname "$0")/autorig_lib.sh"

# disc_grid PNG W H R2 [COL,ROW:R2 ...]: a W x H RGBA PNG of 32 px cells, each holding a disc of squared
# radius R2 (R2 given per cell for the cells listed).
disc_grid() {
  python3 - "$@" <<'PY'
import struct, sys, zlib
path, w, h, r2 = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4])
own = {tuple(map(int, c.split(":")[0].split(","))): float(c.split(":")[1]) for c in sys.argv[5:]}
cell, rows = 32, []
for y in range(h):
    row = bytearray([0])
    for x in range(w):
        cx, cy = x % cell - cell / 2 + 0.5, y % cell - cell / 2 + 0.5
        row += bytes([200, 80, 40, 255 if cx * cx + cy * cy < own.get((x // cell, y // cell), r2) else 0])
    rows.append(bytes(row))
def chunk(t, d): return struct.pack(">I", len(d)) + t + d + struct.pack(">I", zlib.crc32(t + d) & 0xffffffff)
png = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 6, 0, 0, 0)) + chunk(b"IDAT", zlib.compress(b"".join(rows))) + chunk(b"IEND", b"")
open(path, "wb").write(png)
PY
}

case "$scenario" in
  slices)
    # islands.png (192 x 96) sliced into its two blobs, and a third slice with an awkward name.
    mkdir -p "$work/s"
    cp "$src/samples/islands.png" "$work/s/sheet.png"
    cat >"$work/s/sheet.png.meta.json" <<'JSON'
{"version": 2, "id": "2ffb1576-687f-5bff-8577-1bad25f3f299", "type": "2d", "spriteSheet": {"width": 192, "height": 96},
 "sprites": [
  {"guid": "aaaaaaaa-0000-4000-8000-000000000001", "name": "left", "rect": {"x": 0, "y": 0, "w": 96, "h": 96}, "pivot": {"x": 0.5, "y": 1}},
  {"guid": "aaaaaaaa-0000-4000-8000-000000000002", "name": "right", "rect": {"x": 96, "y": 0, "w": 96, "h": 96}, "pivot": {"x": 0.5, "y": 0.5}},
  {"guid": "aaaaaaaa-0000-4000-8000-000000000003", "name": "all/of it", "rect": {"x": 0, "y": 0, "w": 192, "h": 96}}
 ]}
JSON
    run 0 "$work/s/sheet.png"
    expect "3 written"
    for name in left right all_of_it; do
      [ -f "$work/s/sheet.$name.rig2d.json" ] || fail "no sheet.$name.rig2d.json"
    done
    [ -f "$work/s/sheet.rig2d.json" ] && fail "a sliced texture got a whole-image rig"
    grep -q '"sprite": "aaaaaaaa-0000-4000-8000-000000000002"' "$work/s/sheet.right.rig2d.json" || fail "right's sprite is not its slice GUID"
    "$validate" "$work/s" >"$work/out.txt" 2>&1 || { cat "$work/out.txt"; fail "rig2d-validate failed on the slice rigs"; }
    run 0 "$work/s/sheet.png"
    expect "0 written, 3 up to date"
    # --slice: one slice only; an unknown one is a usage error naming the sidecar.
    rm "$work/s"/sheet.*.rig2d.json*
    run 0 "$work/s/sheet.png" --slice right -o "$work/o/hero.rig2d.json"
    [ -f "$work/o/hero.right.rig2d.json" ] || fail "--slice right with -o did not write hero.right.rig2d.json"
    [ "$(ls "$work/o" | grep -c 'rig2d.json$')" -eq 1 ] || fail "--slice wrote more than one rig"
    run 2 "$work/s/sheet.png" --slice nope
    expect "sheet.png.meta.json.*no slice of that name.*\[autorig.slice\]"
    # A rect outside the image fails that slice, naming its pointer.
    sed -i 's/"x": 96, "y": 0, "w": 96/"x": 150, "y": 0, "w": 96/' "$work/s/sheet.png.meta.json"
    run 1 "$work/s/sheet.png"
    expect "/sprites/1/rect.*\[autorig.slice.bounds\]"
    expect "2 written, 0 up to date, 1 failed"
    # A slice list that does not parse fails the texture with its own error, not a whole-image rig.
    sed -i 's/"x": 150, "y": 0, "w": 96/"x": 96, "y": 0, "w": 0/' "$work/s/sheet.png.meta.json"
    rm -f "$work/s"/sheet*.rig2d.json*
    run 3 "$work/s/sheet.png"
    expect "sheet.png.meta.json.*/sprites/1/rect.*\[meta.slice.rect\]"
    [ -f "$work/s/sheet.rig2d.json" ] && fail "a texture with a broken slice list got a whole-image rig"
    echo "PASS: slices"
    ;;
  sheet-warning)
    # An unsliced image of many separate sprites on a grid is rigged, with a warning to slice it.
    mkdir -p "$work/s"
    disc_grid "$work/s/grid.png" 256 128 100
    echo '{"version": 2, "id": "2ffb1576-687f-5bff-8577-1bad25f3f2aa", "type": "2d"}' >"$work/s/grid.png.meta.json"
    run 0 "$work/s/grid.png" --max-verts 200
    expect "grid.png: warning: looks like a sprite sheet: 32 separate islands on about 4 x 8 .*\[autorig.sheet\]"
    n=$(python3 -c "import json,sys; print(len(json.load(open(sys.argv[1]))['mesh']['verts']))" "$work/s/grid.rig2d.json")
    [ "$n" -le 200 ] || fail "$n vertices, over --max-verts 200"
    # A budget even the coarsest outline cannot meet: an error, and no rig over budget is written.
    run 3 "$work/s/grid.png" --max-verts 40 -o "$work/s/tight.rig2d.json"
    expect "over the budget of 40 .*\[autorig.budget\]"
    [ -f "$work/s/tight.rig2d.json" ] && fail "a rig was written over budget"
    echo "PASS: sheet-warning"
    ;;
  slice-sheets)
    # --slice-sheets: a 4 x 2 grid of discs with no sidecar is sliced and rigged per disc. One disc is
    # too small to count towards the sheet (under 5% of the largest) but gets its slice all the same.
    mkdir -p "$work/s"
    disc_grid "$work/s/coins.png" 128 64 144 1,1:6
    run 2 "$work/s" --slice-sheets --check
    expect "--slice-sheets writes sidecars and adds jobs: slice the sheets in a run of their own, then --check"
    run 2 "$work/s" --slice-sheets --shard 1/2
    expect "then --shard"
    run 0 "$work/s" --slice-sheets --write-meta --dry-run
    expect "coins.png: looks like a sprite sheet: would write 8 slices, one per sprite"
    [ -f "$work/s/coins.png.meta.json" ] && fail "--dry-run wrote a sidecar"
    run 0 "$work/s" --slice-sheets --write-meta
    expect "wrote 8 slices, one per sprite, into .*coins.png.meta.json \(new\)"
    expect "8 written, 0 up to date, 0 failed"
    [ -f "$work/s/coins.rig2d.json" ] && fail "a sliced sheet got a whole-image rig"
    # Reading order: row 1 left to right, then row 2; the small disc (row 2, column 2) is coins_05.
    python3 - "$work/s/coins.png.meta.json" <<'PY' || fail "the slices are not the discs in reading order"
import json, sys
meta = json.load(open(sys.argv[1]))
assert meta["spriteSheet"] == {"width": 128, "height": 64}, meta["spriteSheet"]
got = [(s["name"], s["rect"]["x"] // 32, s["rect"]["y"] // 32, s["rect"]["w"]) for s in meta["sprites"]]
want = [("coins_%02d" % k, k % 4, k // 4, 4 if k == 5 else 24) for k in range(8)]
assert got == want, got
assert len({s["guid"] for s in meta["sprites"]}) == 8
PY
    for k in 00 05 07; do [ -f "$work/s/coins.coins_$k.rig2d.json" ] || fail "no coins.coins_$k.rig2d.json"; done
    "$validate" "$work/s" >"$work/val.txt" 2>&1 || { cat "$work/val.txt"; fail "rig2d-validate failed on the sliced sheet"; }
    # The sidecar now lists slices: a re-run slices nothing and finds every rig current.
    cp "$work/s/coins.png.meta.json" "$work/before.json"
    run 0 "$work/s" --slice-sheets
    expect "0 written, 8 up to date"
    cmp -s "$work/before.json" "$work/s/coins.png.meta.json" || fail "a re-run rewrote the sliced sidecar"
    # A PNG that is no sheet is rigged whole, and its stamp keeps the verdict: the next run with the
    # option does not decode it to guess again, until its bytes change.
    disc_grid "$work/s/coin.png" 32 32 144
    run 0 "$work/s" --slice-sheets --write-meta
    expect "1 written, 8 up to date"
    grep -qx "sheet no" "$work/s/coin.rig2d.json.stamp" || fail "the stamp does not record the sheet guess"
    run 0 "$work/s" --slice-sheets --write-meta -v
    expect "coin.png: no sheet \(its rig is current"
    expect "0 written, 9 up to date"
    disc_grid "$work/s/coin.png" 32 32 100
    run 0 "$work/s" --slice-sheets --write-meta -v
    grep -q "coin.png: no sheet" "$work/out.txt" && fail "a changed PNG was taken as no sheet without a guess"
    expect "1 written, 8 up to date"
    echo "PASS: slice-sheets"
    ;;
  layout)
    # A folder of two full-canvas 64 x 256 layers, then the same as a layout file with a placed part.
    mkdir -p "$work/hero/layers"
    cp "$src/samples/bar.png" "$work/hero/layers/0_bar.png"
    cp "$src/samples/bar.png.meta.json" "$work/hero/layers/0_bar.png.meta.json"
    cp "$src/samples/tentacle.png" "$work/hero/layers/1_tentacle.png"
    cp "$src/samples/tentacle.png.meta.json" "$work/hero/layers/1_tentacle.png.meta.json"
    run 0 --layout "$work/hero/layers" -o "$work/hero.rig2d.json" --depfile "$work/hero.d"
    expect "wrote .*hero.rig2d.json \(2 parts"
    grep -q '"parts": \[' "$work/hero.rig2d.json" || fail "not a v2 rig"
    grep -q '"name": "1_tentacle"' "$work/hero.rig2d.json" || fail "layer names are not the part names"
    grep -q 'layers/1_tentacle.png.meta.json' "$work/hero.d" || fail "the depfile lacks a layer sidecar"
    "$validate" "$work/hero.rig2d.json" >"$work/out.txt" 2>&1 || { cat "$work/out.txt"; fail "rig2d-validate failed on the v2 rig"; }
    run 0 --layout "$work/hero/layers" -o "$work/hero.rig2d.json"
    expect "up to date"
    run 0 --layout "$work/hero/layers" -o "$work/hero.rig2d.json" --check
    # A sidecar's new content re-rigs (its sprite GUID changes).
    sed -i 's/"type": "2d"/"type": "2d", "note": 1/' "$work/hero/layers/0_bar.png.meta.json"
    run 0 --layout "$work/hero/layers" -o "$work/hero.rig2d.json" --check
    run 0 --layout "$work/hero/layers" -o "$work/hero.rig2d.json"
    expect "unchanged .*hero.rig2d.json"
    cat >"$work/hero/hero.layout.json" <<'JSON'
{"canvas": {"width": 200, "height": 300}, "pivot": {"x": 0.5, "y": 1},
 "parts": [{"name": "body", "png": "layers/0_bar.png", "x": 68, "y": 40}, {"png": "layers/1_tentacle.png", "x": 100, "y": 20, "order": -1}]}
JSON
    run 0 --layout "$work/hero/hero.layout.json" --list-inputs
    expect "hero.layout.json"
    expect "layers/1_tentacle.png.meta.json"
    run 0 --layout "$work/hero/hero.layout.json"
    [ -f "$work/hero/hero.rig2d.json" ] || fail "no hero.rig2d.json beside the layout file"
    run 0 --layout "$work/hero/hero.layout.json" -o "$work/rigs/"
    [ -f "$work/rigs/hero.rig2d.json" ] || fail "-o FOLDER/ did not put hero.rig2d.json in it"
    grep -q '"order": -1' "$work/hero/hero.rig2d.json" || fail "order not written"
    # Layout errors carry the pointer; the output may not overwrite an input; no PNG inputs with --layout.
    echo '{"canvas": {"width": 8, "height": 8}, "parts": [{"png": "a.png", "ordr": 1}]}' >"$work/bad.layout.json"
    run 3 --layout "$work/bad.layout.json" -o "$work/bad.rig2d.json"
    expect "bad.layout.json:1:.*/parts/0/ordr: unknown key .*\[layout.key\]"
    run 2 --layout "$work/hero/hero.layout.json" -o "$work/hero/layers/0_bar.png"
    run 2 --layout "$work/hero/hero.layout.json" "$work/hero/layers/0_bar.png"
    echo "PASS: layout"
    ;;
  *)
    fail "unknown scenario $scenario"
    ;;
esac
