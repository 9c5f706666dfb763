#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# rig2d-autorig --mesh outline end to end. Usage: outline.sh AUTORIG POSE SOURCE_DIR SCENARIO
set -uo pipefail
autorig=$1
pose=$2
src=$3
scenario=$4
work=$(mktemp -d "${TMPDIR:-/tmp}/rig2d-outline-$scenario.XXXXXX")
trap 'rm -rf "$work"' EXIT

fail() { echo "FAIL: $*" >&2; exit 1; }
run() {
  local want=$1; shift
  "$@" >"$work/out.txt" 2>&1
  local got=$?
  cat "$work/out.txt"
  [ "$got" -eq "$want" ] || fail "exit $got, expected $want: $*"
}
expect() { grep -qE -- "$1" "$work/out.txt" || fail "output lacks /$1/"; }
copy_samples() {
  mkdir -p "$1"
  cp "$src"/samples/*.png "$src"/samples/*.png.meta.json "$1"/
}

case "$scenario" in
  stats)
    # Outline is the default; -v prints the stage statistics, nothing opaque is clipped, and the
    # rigs pose and render.
    copy_samples "$work/s"
    run 0 "$autorig" "$work/s" -j2 -v
    for name in bar figure ring tentacle islands hero; do
      expect "$name.png: outline: contour [0-9]+ rings [0-9]+ points -> simplified [0-9]+ rings [0-9]+ points -> [0-9]+ verts [0-9]+ tris, min angle (2[0-9]|[3-5][0-9])\.[0-9] deg \(0 under 20\), coverage IoU 0\.[89][0-9]{3}|1\.0000 recall 1\.0000"
    done
    expect "6 written, 0 up to date, 0 failed"
    grep -c "recall 1.0000" "$work/out.txt" | grep -qx 6 || fail "some sprite lost covered pixels"
    # The yardstick: no alpha mass lost beyond 0.05 %, no pixel with alpha >= 128 outside the mesh.
    grep -cE "yardstick (met|missed): alpha mass inside (1\.00000|0\.999[5-9][0-9]) \(>= 0\.9995\), 0 px with alpha >= 128 outside" \
      "$work/out.txt" | grep -qx 6 || fail "some sprite misses the yardstick's alpha mass or opaque bound"
    run 0 "$pose" "$work/s/figure.rig2d.json" --assets "$work/s" --pose down_l_1.rot=0.4 -o "$work/figure-posed.png"
    [ -s "$work/figure-posed.png" ] || fail "no posed render"
    ;;
  options)
    copy_samples "$work/s"
    # The outline options reach the mesher: a tighter outline has more vertices.
    run 0 "$autorig" "$work/s/ring.png" -o "$work/loose.rig2d.json" -v
    loose=$(grep -oE "outline: .* -> ([0-9]+) verts" "$work/out.txt" | grep -oE "[0-9]+ verts" | grep -oE "[0-9]+")
    run 0 "$autorig" "$work/s/ring.png" -o "$work/tight.rig2d.json" --margin 0 --outline-tolerance 0.25 --max-edge 0 \
      --detail high -v
    tight=$(grep -oE "outline: .* -> ([0-9]+) verts" "$work/out.txt" | grep -oE "[0-9]+ verts" | grep -oE "[0-9]+")
    expect "coverage IoU 0\.99[0-9]{2}"
    [ "$tight" -gt "$loose" ] || fail "tighter outline did not add vertices ($tight <= $loose)"
    # --detail: medium (the default) spends fewer vertices than high, and -v says where they went.
    run 0 "$autorig" "$work/s/ring.png" -o "$work/high.rig2d.json" --detail high -v
    high=$(grep -oE "outline: .* -> ([0-9]+) verts" "$work/out.txt" | grep -oE "[0-9]+ verts" | grep -oE "[0-9]+")
    [ "$loose" -lt "$high" ] || fail "--detail medium did not spend fewer vertices than high ($loose >= $high)"
    run 0 "$autorig" "$work/s/ring.png" -o "$work/medium.rig2d.json" --detail medium -v
    expect "outline error: within 1\.[0-9]{2} px of the alpha outline grown by 1\.[0-9]{2} px"
    expect "ring.png: vertices per bone: root [0-9]+"
    run 2 "$autorig" "$work/s/ring.png" --detail fine
    expect "--detail"
    run 0 "$autorig" "$work/s/ring.png" -o "$work/capped.rig2d.json" --max-verts 30 --max-edge 4 --detail high -v
    expect "vertex budget reached"
    # --mesh grid is still the engine's grid.
    run 0 "$autorig" "$work/s/bar.png" -o "$work/grid.rig2d.json" --mesh grid -v
    expect "grid 1x5 -> 12 verts 10 tris \\(coverage IoU 1\\.0000\\)"
    ;;
  usage)
    copy_samples "$work/s"
    run 2 "$autorig" "$work/s/bar.png" --margin -1
    expect "error: margin must be within 0..64 px \[autorig.options\]"
    run 2 "$autorig" "$work/s/bar.png" --min-angle 40
    expect "error: min angle must be within 0..34 degrees \[autorig.options\]"
    run 2 "$autorig" "$work/s/bar.png" --max-verts 2
    expect "max vertices must be within 3\.\.[0-9]+ \[autorig.options\]"
    run 2 "$autorig" "$work/s/bar.png" --mesh hex
    expect "--mesh: hex not in \{outline,grid\}"
    [ -z "$(ls "$work"/s/*.rig2d.json 2>/dev/null)" ] || fail "a usage error wrote a rig"
    ;;
  *)
    fail "unknown scenario $scenario"
    ;;
esac
echo "PASS: $scenario"
