#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# rig2d-autorig end-to-end scenarios. Usage: autorig.sh TOOL SOURCE_DIR SCENARIO
set -uo pipefail
tool=$1
src=$2
scenario=$3
work=$(mktemp -d "${TMPDIR:-/tmp}/rig2d-autorig-$scenario.XXXXXX")
trap 'rm -rf "$work"' EXIT

source "$(dirname "$0")/autorig_lib.sh"
no_temp_files() { [ -z "$(find "$1" -name '*.tmp*')" ] || fail "temp files left in $1: $(find "$1" -name '*.tmp*')"; }

case "$scenario" in
  samples-reproduce)
    # Re-rigging the committed samples as scripts/run-samples.sh does reproduces them byte for byte:
    # over the committed rigs (--keep-bones), and from nothing (the bar's bones from scripts/).
    copy_samples "$work/s"
    cp "$src"/samples/*.rig2d.json "$work/s/"
    run 0 "$work/s" -j2 --keep-bones --force
    expect "0 written, 6 remade, unchanged, 0 up to date, 0 failed"  # re-rigged to the same bytes: nothing rewritten
    for rig in "$src"/samples/*.rig2d.json; do
      cmp "$rig" "$work/s/$(basename "$rig")" || fail "$(basename "$rig") differs from the committed sample"
    done
    copy_samples "$work/fresh"
    run 0 "$work/fresh/bar.png" --bones "$src/scripts/bar.bones.json"
    run 0 "$work/fresh" -j2 --keep-bones
    expect "5 written, 1 remade, unchanged, 0 up to date, 0 failed"
    for rig in "$src"/samples/*.rig2d.json; do
      cmp "$rig" "$work/fresh/$(basename "$rig")" || fail "$(basename "$rig") from scratch differs from the committed sample"
    done
    [ "$(ls "$work"/fresh/*.rig2d.json | wc -l)" -eq 6 ] || fail "expected 6 rigs"
    ;;
  deterministic)
    # -j1 and -j2 give identical bytes, and a forced second run rewrites identical bytes.
    copy_samples "$work/in"
    run 0 "$work/in" -o "$work/j1" -j1
    run 0 "$work/in" -o "$work/j2" -j2
    diff -r "$work/j1" "$work/j2" || fail "-j1 and -j2 outputs differ"
    run 0 "$work/in" -o "$work/e1" -j1 --mesh grid --weights joint --skeleton chain
    run 0 "$work/in" -o "$work/e3" -j3 --mesh grid --weights joint --skeleton chain
    diff -r "$work/e1" "$work/e3" || fail "engine mode: -j1 and -j3 outputs differ"
    cp -r "$work/j1" "$work/first"
    run 0 "$work/in" -o "$work/j1" -j2 --force
    expect "0 written, 6 remade, unchanged, 0 up to date"  # same bytes: files are not rewritten
    diff -r "$work/first" "$work/j1" || fail "second run changed the outputs"
    run 0 "$work/in" -o "$work/j1" -j2
    expect "0 written, 6 up to date, 0 failed"
    diff -r "$work/first" "$work/j1" || fail "skip run changed the outputs"
    no_temp_files "$work"
    ;;
  single)
    copy_samples "$work/s"
    run 0 "$work/s/bar.png"
    expect "wrote .*bar.rig2d.json \(.* verts, .* tris, 4 bones\)"  # 64x256: round(256/96) + 1
    [ -f "$work/s/bar.rig2d.json" ] || fail "no bar.rig2d.json beside the PNG"
    run 0 "$work/s/ring.png" -o "$work/ring-out.rig2d.json" --mesh grid --cols 8 --rows 8 --bone-count 3 --axis x -v
    expect "ring.png: 160x160 px, mask 160x160"
    expect "grid 8x8"
    grep -q '"sprite": "' "$work/ring-out.rig2d.json" || fail "no sprite in the rig"
    mkdir "$work/dir"
    run 0 "$work/s/islands.png" -o "$work/dir"
    [ -f "$work/dir/islands.rig2d.json" ] || fail "-o FOLDER did not put the rig in it"
    # Bare file names from the folder they sit in, into a folder: mirrored under the current folder.
    (cd "$work/s" && run 0 bar.png ring.png -o ../rel/) || exit 1
    [ -f "$work/rel/bar.rig2d.json" ] && [ -f "$work/rel/ring.rig2d.json" ] || fail "bare names with -o DIR/ did not land in it"
    mkdir -p "$work/s/sub" && cp "$work/s/hero.png" "$work/s/hero.png.meta.json" "$work/s/sub/"
    (cd "$work/s" && run 0 sub/hero.png bar.png -o ../rel2/) || exit 1
    [ -f "$work/rel2/sub/hero.rig2d.json" ] && [ -f "$work/rel2/bar.rig2d.json" ] || fail "relative paths with -o DIR/ are not mirrored"
    ;;
  ids-and-meta)
    # The rig id is derived from the sprite GUID, then kept from the existing rig on a re-run;
    # --write-meta mints a deterministic sidecar.
    copy_samples "$work/s"
    rm "$work/s/figure.png.meta.json"
    run 3 "$work/s/figure.png"
    expect "figure.png.meta.json: error: .*--write-meta.*\[meta.missing\]"
    [ ! -e "$work/s/figure.rig2d.json" ] || fail "a rig was written without a sidecar"
    run 0 "$work/s/figure.png" --write-meta
    expect "created .*figure.png.meta.json"
    guid=$(grep -o '"id": "[^"]*"' "$work/s/figure.png.meta.json")
    grep -q '"type": "2d"' "$work/s/figure.png.meta.json" || fail "minted sidecar lacks type 2d"
    rm "$work/s/figure.png.meta.json" "$work/s/figure.rig2d.json"
    run 0 "$work/s/figure.png" --write-meta
    [ "$(grep -o '"id": "[^"]*"' "$work/s/figure.png.meta.json")" = "$guid" ] || fail "minted GUID not deterministic"
    # Same-named copies of one PNG in two folders of a batch get GUIDs of their own (counted from the
    # folder given), so their rigs do not share an id either.
    mkdir -p "$work/copies/a" "$work/copies/b"
    cp "$work/s/figure.png" "$work/copies/a/figure.png" && cp "$work/s/figure.png" "$work/copies/b/figure.png"
    run 0 "$work/copies" --write-meta
    ida=$(grep -o '"id": "[^"]*"' "$work/copies/a/figure.png.meta.json")
    idb=$(grep -o '"id": "[^"]*"' "$work/copies/b/figure.png.meta.json")
    [ -n "$ida" ] && [ "$ida" != "$idb" ] || fail "same-named copies got one GUID: $ida"
    rig_a=$(grep -m1 -o '"id": "[^"]*"' "$work/copies/a/figure.rig2d.json")
    rig_b=$(grep -m1 -o '"id": "[^"]*"' "$work/copies/b/figure.rig2d.json")
    [ "$rig_a" != "$rig_b" ] || fail "the copies' rigs share an id"
    # Keep a hand-edited id on re-run.
    sed -i 's/"id": "[^"]*"/"id": "12345678-aaaa-4bbb-8ccc-123456789abc"/' "$work/s/figure.rig2d.json"
    run 0 "$work/s/figure.png" --force
    grep -q '"id": "12345678-aaaa-4bbb-8ccc-123456789abc"' "$work/s/figure.rig2d.json" || fail "existing id not kept"
    # A sidecar without a type: warned, and --write-meta adds "type": "2d" keeping the id.
    printf '{"version": 2, "id": "aaaaaaaa-0000-4000-8000-000000000001"}' > "$work/s/ring.png.meta.json"
    run 0 "$work/s/ring.png"
    expect "warning: .*\[meta.type\]"
    run 0 "$work/s/ring.png" --write-meta --force
    expect "updated .*ring.png.meta.json"
    grep -q '"type": "2d"' "$work/s/ring.png.meta.json" || fail "type not added"
    grep -q '"sprite": "3ab58b97-ab98-26c0-162f-c87db96331fe"' "$work/s/ring.rig2d.json" ||
      fail "sprite is not the derived whole-image sprite GUID"
    ;;
  bad-inputs)
    # Every bad input fails with its own code and leaves no file; the good sprite is still rigged.
    python3 "$src/tests/cli/autorig_bad_inputs.py" "$work/in"
    run 1 "$work/in" -o "$work/out" -j2
    expect "b_not_a_png.png: error: .*\[png.signature\]"
    expect "c_truncated.png: error: .*\[png.corrupt\]"
    expect "d_transparent.png: error: .*\[autorig.empty\]"
    expect "e_huge.png: error: .*100000x100000.*\[png.too_large\]"
    expect "f_missing_meta.png.meta.json: error: .*\[meta.missing\]"
    expect "1 written, 0 up to date, 5 failed"
    [ "$(ls "$work/out")" = "a_good.rig2d.json
a_good.rig2d.json.stamp" ] || fail "unexpected outputs: $(ls "$work/out")"
    no_temp_files "$work"
    # Single bad file: exit 3 (bad input).
    run 3 "$work/in/c_truncated.png" -o "$work/t.rig2d.json"
    [ ! -e "$work/t.rig2d.json" ] || fail "partial output for a truncated PNG"
    run 3 "$work/nope.png"
    expect "nope.png: error: no such file or folder \[autorig.input\]"
    ;;
  unwritable)
    # The output folder cannot be created (its parent is a file): exit 4, nothing else touched.
    python3 "$src/tests/cli/autorig_bad_inputs.py" "$work/in"
    echo "a file" > "$work/blocker"
    run 4 "$work/in/a_good.png" -o "$work/blocker/sub/good.rig2d.json"
    expect "error: .*\[io.write\]"
    # An existing rig is never clobbered by a failed run.
    echo "previous" > "$work/in/d_transparent.rig2d.json"
    run 3 "$work/in/d_transparent.png" --force
    [ "$(cat "$work/in/d_transparent.rig2d.json")" = "previous" ] || fail "failed run clobbered the old rig"
    # Batch: the unwritable sprite fails, the others are still written.
    mkdir -p "$work/out"
    mkdir "$work/out/a_good.rig2d.json"  # a folder where the rig file should go
    run 1 "$work/in" -o "$work/out"
    expect "a_good.rig2d.json: error: .*\[io.write\]"
    no_temp_files "$work"
    ;;
  dry-run)
    copy_samples "$work/s"
    run 0 "$work/s" --dry-run
    expect "6 would be written, 0 up to date, 0 failed"
    [ -z "$(ls "$work"/s/*.rig2d.json 2>/dev/null)" ] || fail "--dry-run wrote files"
    ;;
  bones)
    copy_samples "$work/s"
    printf '[\n  {"name": "a"},\n  {"name": "b", "parent": 7}\n]' > "$work/bad.bones.json"
    run 3 "$work/s/bar.png" --bones "$work/bad.bones.json"
    expect "bad.bones.json:3:.*: error: /1/parent: .*\[bones.parent\]"
    run 0 "$work/s/tentacle.png" --bones "$src/scripts/bar.bones.json" -o "$work/t.rig2d.json"
    grep -q '"name": "mid"' "$work/t.rig2d.json" || fail "--bones not used"
    # --keep-bones: the bones of the rig already there survive a re-run, hand edits included.
    run 0 "$work/s/bar.png" --bones "$src/scripts/bar.bones.json"
    sed -i '0,/"y": -96/s//"y": -90/' "$work/s/bar.rig2d.json"
    run 0 "$work/s/bar.png" --keep-bones --force -v
    expect "bones kept from the existing rig"
    grep -q '"name": "tip"' "$work/s/bar.rig2d.json" || fail "--keep-bones lost the bones"
    grep -q '"y": -90,' "$work/s/bar.rig2d.json" || fail "--keep-bones lost the hand edit"
    run 0 "$work/s/bar.png" --force
    grep -q '"name": "spine_1"' "$work/s/bar.rig2d.json" || fail "without --keep-bones the skeleton is suggested"
    run 0 "$work/s/bar.png" --force --skeleton chain
    grep -q '"name": "bone1"' "$work/s/bar.rig2d.json" || fail "--skeleton chain gives the engine's chain"
    # The engine's autoRig2D on the 64x256 bar: 4 bones, joints at -128, -42.67, 42.67, 128 (ENGINE-SPEC 3.3).
    run 0 "$work/s/bar.png" -o "$work/engine.rig2d.json" --skeleton chain --mesh grid --weights joint
    python3 - "$work/engine.rig2d.json" <<'PY' || fail "--skeleton chain --mesh grid --weights joint is not the engine's chain"
import json, sys
bones = json.load(open(sys.argv[1]))["bones"]
ys = [b["y"] for b in bones]
assert [b["name"] for b in bones] == ["root", "bone1", "bone2", "bone3"], bones
assert ys[0] == -128 and all(abs(y - 256 / 3) < 1e-9 for y in ys[1:]), ys
PY
    # A broken existing rig is reported against that rig, and left as it was.
    printf '{"bones": [{"name": "a", "parent": 3}]}' > "$work/s/ring.rig2d.json"
    run 3 "$work/s/ring.png" --keep-bones --force
    expect "ring.rig2d.json:1:.*: error: /bones/0/parent: .*\[bones.parent\]"
    [ "$(cat "$work/s/ring.rig2d.json")" = '{"bones": [{"name": "a", "parent": 3}]}' ] || fail "broken rig was touched"
    ;;
  usage)
    run 0 --help
    expect "--alpha-threshold"
    expect "--max-influences"
    run 2 "$src/samples/bar.png" --pivot 0.5
    expect "--pivot"
    run 2 "$src/samples/bar.png" --max-influences 5
    run 2 "$src/samples/bar.png" --falloff 0 --dry-run
    expect "falloff"
    run 2 "$src/samples/bar.png" --cols 0 --dry-run
    run 2
    ;;
  weights)
    # heat (the default) and joint give different weights on the same mesh; both rigs pass the tool's checks.
    copy_samples "$work/s"
    run 0 "$work/s/figure.png" -o "$work/heat.rig2d.json" --cell-size 16 -v
    expect "heat weights"
    # A tip joint on the sprite's bottom edge has nothing beyond it: a note with -v, silence without.
    echo '[{"name":"root","parent":-1,"x":0,"y":-128,"rot":0},{"name":"mid","parent":0,"x":0,"y":128,"rot":0},
           {"name":"tip","parent":1,"x":0,"y":128,"rot":0}]' >"$work/edge.bones.json"
    run 0 "$work/s/bar.png" -o "$work/edge.rig2d.json" --bones "$work/edge.bones.json" -v
    expect "edge.rig2d.json: note: /bones/2: bone \"tip\" .*gets no weight \\[weights.heat.bone_unweighted\\]"
    run 0 "$work/s/bar.png" -o "$work/edge.rig2d.json" --bones "$work/edge.bones.json" --force
    grep -q "note:" "$work/out.txt" && fail "notes printed without -v"
    run 0 "$work/s/figure.png" -o "$work/joint.rig2d.json" --cell-size 16 --weights joint -v
    expect "joint weights"
    cmp -s "$work/heat.rig2d.json" "$work/joint.rig2d.json" && fail "heat and joint rigs are identical"
    run 0 "$work/s/figure.png" -o "$work/smooth.rig2d.json" --cell-size 16 --smooth 3 --min-weight 0.05 --max-influences 2
    cmp -s "$work/heat.rig2d.json" "$work/smooth.rig2d.json" && fail "--smooth/--min-weight changed nothing"
    run 2 "$work/s/figure.png" --weights bogus --dry-run
    expect "--weights"
    run 2 "$work/s/figure.png" --min-weight 0.25 --dry-run
    expect "min_weight = 0.25 is outside its limit"
    run 2 "$work/s/figure.png" --smooth 101 --dry-run
    expect "smooth_passes = 101 is outside its limit"
    run 0 --help
    expect "--min-weight"
    expect "--smooth"
    ;;
  *) fail "unknown scenario $scenario" ;;
esac
echo "PASS: $scenario"
