#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# rig2d-autorig as a build step: content-based up-to-date decision, restat, --check, --depfile,
# --list-inputs, --shard, -o layouts. Usage: autorig_build.sh TOOL SOURCE_DIR SCENARIO
set -uo pipefail
tool=$1
src=$2
scenario=$3
work=$(mktemp -d "${TMPDIR:-/tmp}/rig2d-build-$scenario.XXXXXX")
trap 'rm -rf "$work"' EXIT

source "$(dirname "$0")/autorig_lib.sh"
mtime() { stat -c %Y.%y "$1"; }

case "$scenario" in
  content)
    # Up to date is decided by content, never by file times.
    copy_samples "$work/s"
    run 0 "$work/s" -j2
    expect "6 written, 0 up to date"
    [ -f "$work/s/bar.rig2d.json.stamp" ] || fail "no stamp beside the rig"
    [ -z "$(find "$work/s" -name '*.json' -newer "$work/s/bar.png" ! -name '*.rig2d.json' ! -name '*.meta.json')" ] ||
      fail "a .json file besides rigs and sidecars was written"
    run 0 "$work/s" -j2
    expect "0 written, 6 up to date"
    # A PNG whose content changed but whose mtime went back (a checkout, a restored backup) is re-rigged.
    cp "$work/s/bar.rig2d.json" "$work/bar.before"
    cp "$work/s/tentacle.png" "$work/s/bar.png"
    touch -d '2001-01-01' "$work/s/bar.png"
    run 0 "$work/s" -j2
    expect "1 written, 5 up to date"
    expect "wrote .*/bar.rig2d.json"
    cmp -s "$work/bar.before" "$work/s/bar.rig2d.json" && fail "bar's rig did not change with its PNG"
    # Only the mtime changes (same bytes): nothing is re-rigged.
    touch "$work/s/ring.png"
    run 0 "$work/s" -j2
    expect "0 written, 6 up to date"
    # An option that changes the rig re-rigs every sprite; one that does not (-j, -v, --color,
    # --write-meta) is not even re-rigged.
    run 0 "$work/s" -j1 -v --color always --write-meta
    expect "0 written, 6 up to date"
    expect "bar.png: up to date"
    grep -q "re-rigged" "$work/out.txt" && fail "an option outside the digest re-rigged a sprite"
    run 0 "$work/s" -j2 --mesh grid
    expect "6 written, 0 up to date"
    run 0 "$work/s" -j2 --mesh grid
    expect "0 written, 6 up to date"
    # An option in the digest re-rigs all six; the ring (a closed loop: one bone under any budget)
    # comes out the same bytes.
    run 0 "$work/s" -j2 --mesh grid --max-bones 3
    expect "5 written, 1 remade, unchanged, 0 up to date"
    # A sidecar edit re-rigs its sprite; so does a hand edit of the rig itself.
    sed -i 's/"type": "2d"/"type": "2d", "note": 1/' "$work/s/ring.png.meta.json"
    run 0 "$work/s" -j2 --mesh grid --max-bones 3 -v
    expect "ring.png: re-rigged, unchanged"
    expect "0 written, 1 remade, unchanged, 5 up to date"
    echo '{}' >"$work/s/figure.rig2d.json"
    run 0 "$work/s" -j2 --mesh grid --max-bones 3
    expect "1 written, 5 up to date"
    expect "wrote .*/figure.rig2d.json"
    # A missing rig is rebuilt, a missing stamp costs a re-rig but no rewrite.
    rm "$work/s/islands.rig2d.json" "$work/s/ring.rig2d.json.stamp"
    before=$(mtime "$work/s/ring.rig2d.json")
    sleep 1
    run 0 "$work/s" -j2 --mesh grid --max-bones 3 -v
    expect "1 written, 1 remade, unchanged, 4 up to date"
    [ "$(mtime "$work/s/ring.rig2d.json")" = "$before" ] || fail "an unchanged rig was rewritten"
    [ -f "$work/s/ring.rig2d.json.stamp" ] || fail "the stamp was not restored"
    # --force re-rigs everything, but rewrites nothing whose bytes stay the same (restat).
    before=$(mtime "$work/s/bar.rig2d.json")
    sleep 1
    run 0 "$work/s" -j2 --mesh grid --max-bones 3 --force
    expect "0 written, 6 remade, unchanged, 0 up to date"
    [ "$(mtime "$work/s/bar.rig2d.json")" = "$before" ] || fail "--force rewrote identical bytes"
    # --shadow-bones is part of the digest; no sample has a drop shadow, so nothing is rewritten.
    run 0 "$work/s" -j2 --mesh grid --max-bones 3 --shadow-bones -v
    expect "figure.png: re-rigged, unchanged"
    expect "0 written, 6 remade, unchanged, 0 up to date"
    ;;
  bones)
    # The bones file's bytes are in the digest; with --keep-bones, an edit of the kept rig re-rigs.
    copy_samples "$work/s"
    cp "$src/scripts/bar.bones.json" "$work/b.bones.json"
    run 0 "$work/s/bar.png" --bones "$work/b.bones.json"
    run 0 "$work/s/bar.png" --bones "$work/b.bones.json"
    expect "0 written, 1 up to date"
    sed -i '0,/"y": -96/s//"y": -90/' "$work/b.bones.json"
    run 0 "$work/s/bar.png" --bones "$work/b.bones.json"
    expect "1 written, 0 up to date"
    run 0 "$work/s/bar.png" --keep-bones
    expect "0 written, 1 remade, unchanged, 0 up to date"  # same bones, now kept from the rig: same bytes
    sed -i '0,/"y": -90,/s//"y": -80,/' "$work/s/bar.rig2d.json"
    run 0 "$work/s/bar.png" --keep-bones -v
    expect "bar.png: (re-rigged, unchanged|.*bones kept from the existing rig)"  # re-rigged either way
    grep -q '"y": -80,' "$work/s/bar.rig2d.json" || fail "the hand edit was lost"
    run 0 "$work/s/bar.png" --keep-bones -v
    expect "bar.png: up to date"
    ;;
  check)
    copy_samples "$work/s"
    run 1 "$work/s" --check
    expect "^missing $work/s/bar.rig2d.json$"
    expect "6 would change, 0 current, 0 failed"
    [ -z "$(ls "$work"/s/*.rig2d.json* 2>/dev/null)" ] || fail "--check wrote files"
    run 0 "$work/s" -j2
    run 0 "$work/s" --check -j2
    expect "0 would change, 6 current"
    # The check regenerates: it needs no stamps (a fresh CI checkout has none) and ignores them.
    rm "$work"/s/*.stamp
    run 0 "$work/s" --check -j2
    cp "$work/s/bar.png" "$work/bar.png.orig"
    cp "$work/s/tentacle.png" "$work/s/bar.png"
    touch -d '2001-01-01' "$work/s/bar.png"
    listing=$(ls -l --time-style=full-iso "$work/s")
    run 1 "$work/s" --check -j2
    expect "^stale $work/s/bar.rig2d.json$"
    expect "1 would change, 5 current"
    [ "$(ls -l --time-style=full-iso "$work/s")" = "$listing" ] || fail "--check changed the folder"
    run 1 "$work/s" --check --mesh grid -j2
    expect "6 would change"
    # A sidecar --write-meta would create is an output that would change.
    rm "$work/s/ring.png.meta.json"
    run 1 "$work/s/ring.png" --check --write-meta
    expect "^missing $work/s/ring.png.meta.json$"
    run 3 "$work/s/ring.png" --check
    expect "meta.missing"
    ;;
  depfile)
    mkdir -p "$work/art dir"
    cp "$src/samples/bar.png" "$src/samples/bar.png.meta.json" "$work/art dir/"
    cp "$src/scripts/bar.bones.json" "$work/b.bones.json"
    run 0 "$work/art dir/bar.png" -o "$work/out/bar.rig2d.json" --bones "$work/b.bones.json" --depfile "$work/bar.d"
    esc=$(printf '%s' "$work" | sed 's/ /\\ /g')
    python3 - "$work/bar.d" "$work" <<'PY' || fail "the depfile does not name the rig, PNG, sidecar and bones file"
import sys
text, work = open(sys.argv[1]).read(), sys.argv[2]
want = (f"{work}/out/bar.rig2d.json: \\\n  {work}/art\\ dir/bar.png \\\n  {work}/art\\ dir/bar.png.meta.json \\\n"
        f"  {work}/b.bones.json\n")
assert text == want, repr(text)
PY
    # GNU make reads it: the rig is out of date exactly when a listed file is newer.
    if command -v make >/dev/null; then
      printf 'include %s\n%s:\n\t@echo remade\n' "$(printf '%s' "$work/bar.d" | sed 's/ /\\ /g')" \
        "$(printf '%s' "$work/out/bar.rig2d.json")" >"$work/Makefile"
      (cd "$work" && make -q -f Makefile "$work/out/bar.rig2d.json") || fail "make thinks the fresh rig is stale"
      touch "$work/b.bones.json"
      (cd "$work" && make -q -f Makefile "$work/out/bar.rig2d.json") && fail "make missed the bones file"
    fi
    run 0 "$work/art dir/bar.png" -o "$work/out/bar.rig2d.json" --bones "$work/b.bones.json" --list-inputs
    [ "$(cat "$work/out.txt")" = "$work/art dir/bar.png
$work/art dir/bar.png.meta.json
$work/b.bones.json" ] || fail "--list-inputs lists other files"
    # --keep-bones: the kept rig is an input to list, but not its own prerequisite in the depfile.
    run 0 "$work/art dir/bar.png" -o "$work/out/bar.rig2d.json" --keep-bones --list-inputs
    expect "^$work/out/bar.rig2d.json$"
    run 0 "$work/art dir/bar.png" -o "$work/out/bar.rig2d.json" --keep-bones --depfile "$work/keep.d"
    [ "$(grep -c 'bar.rig2d.json' "$work/keep.d")" -eq 1 ] || fail "the kept rig is its own prerequisite"
    # A folder: one rule per rig, a shared input listed once by --list-inputs.
    copy_samples "$work/s"
    run 0 "$work/s" -o "$work/o" --bones "$work/b.bones.json" --depfile "$work/all.d" -j2
    [ "$(grep -c '^[^ ].*: \\$' "$work/all.d")" -eq 6 ] || fail "expected 6 rules"
    run 0 "$work/s" -o "$work/o" --bones "$work/b.bones.json" --list-inputs
    [ "$(wc -l <"$work/out.txt")" -eq 13 ] || fail "expected 6 PNGs, 6 sidecars and one bones file"
    ;;
  shard)
    # Shards 1/3, 2/3, 3/3 are disjoint and together write exactly what one run writes.
    copy_samples "$work/s"
    mkdir -p "$work/s/more"
    cp "$src/samples/bar.png" "$src/samples/bar.png.meta.json" "$work/s/more/"
    run 0 "$work/s" -o "$work/full" -j2
    expect "7 written"
    total=0
    for k in 1 2 3; do
      run 0 "$work/s" -o "$work/shard$k" --shard $k/3 -j2
      n=$(find "$work/shard$k" -name '*.rig2d.json' | wc -l)
      [ "$n" -ge 2 ] && [ "$n" -le 3 ] || fail "shard $k/3 has $n rigs"
      total=$((total + n))
      cp -r "$work/shard$k/." "$work/union/" 2>/dev/null || { mkdir -p "$work/union"; cp -r "$work/shard$k/." "$work/union/"; }
    done
    [ "$total" -eq 7 ] || fail "the shards hold $total rigs, not 7"
    diff -r "$work/full" "$work/union" || fail "the union of the shards differs from one run"
    # The merge job of docs/pipelines.md: --check passes on the merged folder, and names the rigs of a
    # shard whose artifacts never arrived as missing.
    run 0 "$work/s" -o "$work/union" --check
    mkdir -p "$work/partial" && cp -r "$work/shard1/." "$work/shard3/." "$work/partial/"
    run 1 "$work/s" -o "$work/partial" --check
    for rig in $(cd "$work/shard2" && find . -name '*.rig2d.json' | sed 's|^\./||'); do
      expect "missing .*partial/$rig"
    done
    # The same shard twice is the same set.
    run 0 "$work/s" -o "$work/shard1" --shard 1/3 -j2
    expect "0 written, 3 up to date"
    run 0 "$work/s" --shard 2/3 --list-inputs
    [ "$(wc -l <"$work/out.txt")" -eq 4 ] || fail "shard 2/3 should read 2 PNGs and 2 sidecars"
    for bad in 0/3 4/3 3 a/b 1/0 /3 1/; do
      run 2 "$work/s" --shard "$bad" --dry-run
      expect "--shard"
    done
    # More shards than sprites: some are empty, and that is fine.
    run 0 "$work/s/bar.png" --shard 2/2 --dry-run
    expect "no PNG files in this shard"
    ;;
  layout)
    # File inputs from different folders keep their layout under -o (relative to their common
    # folder, or to --base).
    mkdir -p "$work/art/hero" "$work/art/enemy"
    for d in hero enemy; do cp "$src/samples/bar.png" "$src/samples/bar.png.meta.json" "$work/art/$d/"; done
    run 0 "$work/art/hero/bar.png" "$work/art/enemy/bar.png" -o "$work/out"
    [ -f "$work/out/hero/bar.rig2d.json" ] && [ -f "$work/out/enemy/bar.rig2d.json" ] || fail "layout not kept: $(find "$work/out")"
    run 0 "$work/art/hero/bar.png" "$work/art/enemy/bar.png" -o "$work/out2" --base "$work"
    [ -f "$work/out2/art/hero/bar.rig2d.json" ] || fail "--base not used: $(find "$work/out2")"
    run 0 "$work/art" -o "$work/out3" --base "$work"
    [ -f "$work/out3/art/enemy/bar.rig2d.json" ] || fail "--base not used for a folder: $(find "$work/out3")"
    run 2 "$work/art/hero/bar.png" "$work/art/enemy/bar.png" -o "$work/out4" --base "$work/art/hero"
    expect "enemy/bar.png: error: not inside .*\[autorig.base\]"
    # One file into a folder: just its name, as before.
    run 0 "$work/art/hero/bar.png" -o "$work/one/"
    [ -f "$work/one/bar.rig2d.json" ] || fail "single file into a folder"
    ;;
  *) fail "unknown scenario $scenario" ;;
esac
echo "PASS: $scenario"
