#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# rig2d-autorig on layered documents (.psd, .ora) and rig2d-convert to a layout: the files written,
# validation, re-runs, the build plumbing, and bad documents (exit 3, nothing written).
# Usage: autorig_layered.sh AUTORIG VALIDATE CONVERT SOURCE_DIR SCENARIO
set -uo pipefail
tool=$1
validate=$2
convert=$3
src=$4
scenario=$5
work=$(mktemp -d "${TMPDIR:-/tmp}/rig2d-layered-$scenario.XXXXXX")
trap 'rm -rf "$work"' EXIT
data="$src/tests/data/layered"

source "$(dirname "$0")/autorig_lib.sh"

case "$scenario" in
  atlas)
    cp "$data/agpsd-figure.psd" "$work/hero.psd"
    cp "$data/krita-figure.ora" "$work/side.ora"
    run 0 "$work/hero.psd"
    expect "wrote .*hero.rig2d.json \(9 parts"
    for f in hero.rig2d.json hero.rig2d.json.stamp hero.atlas.png hero.atlas.png.meta.json; do
      [ -f "$work/$f" ] || fail "no $f"
    done
    grep -q '"name": "hat"' "$work/hero.atlas.png.meta.json" || fail "no slice for the #rigid layer"
    grep -q '"sketch"' "$work/hero.rig2d.json" && fail "the hidden layer became a part"
    run 0 "$work/side.ora"
    "$validate" "$work" >"$work/out.txt" 2>&1 || { cat "$work/out.txt"; fail "rig2d-validate failed"; }
    expect "0 errors, 0 warnings"
    # Unchanged document: up to date; --force: the same bytes.
    sum=$(cd "$work" && md5sum hero.* side.*)
    run 0 "$work/hero.psd"
    expect "up to date"
    run 0 --force "$work/hero.psd"
    expect "unchanged"
    [ "$(cd "$work" && md5sum hero.* side.*)" = "$sum" ] || fail "a re-run changed bytes"
    # A deleted atlas is rigged again.
    rm "$work/hero.atlas.png"
    run 0 "$work/hero.psd"
    [ -f "$work/hero.atlas.png" ] || fail "the deleted atlas was not written again"
    echo "PASS: $scenario"
    ;;
  build)
    cp "$data/gimp-figure.psd" "$work/hero.psd"
    run 0 --list-inputs "$work/hero.psd"
    [ "$(cat "$work/out.txt")" = "$work/hero.psd" ] || fail "--list-inputs is not the document"
    run 1 --check "$work/hero.psd"
    expect "missing .*hero.rig2d.json"
    expect "missing .*hero.atlas.png"
    run 0 --depfile "$work/hero.d" "$work/hero.psd"
    grep -q "hero.rig2d.json: .*hero.psd" <(tr -d '\\\n' <"$work/hero.d") || { cat "$work/hero.d"; fail "depfile"; }
    run 0 --check "$work/hero.psd"
    run 1 --check --groups flatten --pivot 0.5,1 "$work/hero.psd"
    expect "stale .*hero.rig2d.json"
    run 0 --dry-run --layers-out "$work/layers" -o "$work/lo.rig2d.json" "$work/hero.psd"
    [ -e "$work/layers" ] && fail "--dry-run wrote the layers"
    run 0 --layers-out "$work/layers" -o "$work/lo.rig2d.json" "$work/hero.psd"
    [ -f "$work/layers/torso.png.meta.json" ] || fail "no layer PNG sidecar"
    run 2 "$work/hero.psd" "$work/other.psd"
    expect "rigged alone"
    echo "PASS: $scenario"
    ;;
  bad)
    printf 'GIF89a' >"$work/bad.psd"
    run 3 "$work/bad.psd"
    expect "layered.format"
    head -c 100 "$data/agpsd-figure.psd" >"$work/cut.psd"
    run 3 "$work/cut.psd"
    expect "cut.psd: error: .*\[psd.truncated\]"
    head -c 3000 "$data/krita-figure.ora" >"$work/cut.ora"
    run 3 "$work/cut.ora"
    expect "\[ora.zip\]"
    ls "$work" | grep -q rig2d.json && fail "a bad document wrote a rig"
    ls "$work" | grep -q atlas && fail "a bad document wrote an atlas"
    echo "PASS: $scenario"
    ;;
  convert)
    cp "$data/gimp-figure.psd" "$work/hero.psd"
    "$convert" "$work/hero.psd" -o "$work/hero.layout.json" >"$work/out.txt" 2>&1 || { cat "$work/out.txt"; fail "convert"; }
    [ -f "$work/hero.layers/head.png" ] || fail "no layer PNG"
    run 0 --layout "$work/hero.layout.json"
    expect "wrote .*hero.rig2d.json \(4 parts"
    "$validate" "$work" >"$work/out.txt" 2>&1 || { cat "$work/out.txt"; fail "rig2d-validate failed"; }
    "$convert" "$work/hero.psd" -o "$work/hero.rig2d.json" >"$work/out.txt" 2>&1
    [ $? -eq 2 ] || fail "a document to a rig by convert is not a usage error"
    echo "PASS: $scenario"
    ;;
  *) fail "unknown scenario $scenario" ;;
esac
