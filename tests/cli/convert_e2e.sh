#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# convert_e2e.sh CONVERT VALIDATE POSE DATA_DIR WORK_DIR: Spine and Godot fixtures imported, validated
# and rendered; the same run twice gives the same bytes; rig -> Spine -> rig and rig -> Godot -> rig
# keep the rig (compared by number); a failed run writes nothing.
set -euo pipefail
convert=$1 validate=$2 pose=$3 data=$4 work=$5
rm -rf "$work" && mkdir -p "$work/spine" "$work/godot" "$work/out"
cp "$data"/spine/* "$work/spine/"
cp "$data"/godot/* "$work/godot/"
fail() { echo "FAIL: $*" >&2; exit 1; }

# Spine in: the rig, the page sidecar with both slices, one clip per animation, warnings with codes.
"$convert" "$work/spine/hero.json" -o "$work/spine/hero.rig2d.json" 2> "$work/spine.log" || fail "spine import"
grep -q "\[convert.spine.constraint.applied\]" "$work/spine.log" || fail "the IK constraint was not reported"
grep -q "\[convert.spine.skin\]" "$work/spine.log" || fail "the extra skin was not reported"
[ -s "$work/spine/hero.png.meta.json" ] || fail "no sidecar"
[ -s "$work/spine/hero.wave.anim.json" ] || fail "no clip"
"$validate" "$work/spine/hero.rig2d.json" "$work/spine/hero.png.meta.json" -q || fail "the imported rig does not validate"
"$pose" "$work/spine/hero.rig2d.json" -o "$work/spine/bind.png" -q || fail "the imported rig does not render"
"$pose" "$work/spine/hero.rig2d.json" --anim "$work/spine/hero.wave.anim.json" --time 0.5 -o "$work/spine/wave.png" -q \
  2> "$work/pose.log" || fail "the imported clip does not render"
grep -q "anim.track" "$work/pose.log" && fail "a clip track did not bind: $(cat "$work/pose.log")"
cmp -s "$work/spine/bind.png" "$work/spine/wave.png" && fail "the clip does not move anything"

# Deterministic: a second run over the same inputs rewrites the same bytes (sidecar GUIDs kept).
cp "$work/spine/hero.rig2d.json" "$work/first.rig2d.json"
cp "$work/spine/hero.png.meta.json" "$work/first.meta.json"
"$convert" "$work/spine/hero.json" -o "$work/spine/hero.rig2d.json" -q
cmp -s "$work/spine/hero.rig2d.json" "$work/first.rig2d.json" || fail "second import differs"
cmp -s "$work/spine/hero.png.meta.json" "$work/first.meta.json" || fail "second sidecar differs"

# Godot in.
"$convert" "$work/godot/hero.tscn" -o "$work/godot/hero.rig2d.json" -q || fail "godot import"
"$validate" "$work/godot/hero.rig2d.json" "$work/godot/hero.png.meta.json" -q || fail "the Godot rig does not validate"
"$pose" "$work/godot/hero.rig2d.json" -o "$work/godot/bind.png" -q || fail "the Godot rig does not render"

# A mesh reaching into whitespace the atlas packer stripped: its slice grows over the page pixels the
# uvs reach (the packed 20 x 20 at 10,10 of a 30 x 30 original), so the rig validates.
mkdir -p "$work/stripped" && cp "$data"/stripped/* "$work/stripped/"
"$convert" "$work/stripped/arm.json" -o "$work/stripped/arm.rig2d.json" 2> "$work/stripped.log" || fail "stripped import"
grep -q "\[convert.spine.uv.slice\]" "$work/stripped.log" || fail "the grown slice was not reported"
tr -d ' \n' < "$work/stripped/page.png.meta.json" | grep -q '"rect":{"x":5,"y":5,"w":30,"h":30}' || fail "slice not grown"
"$validate" "$work/stripped/arm.rig2d.json" "$work/stripped/page.png.meta.json" -q || fail "the stripped import does not validate"

# Two characters imported into one asset tree from same-named files (hero.json, hero.png; hero.tscn)
# get GUIDs of their own: texture, slices, rig id and clips are named by their path under assets/.
for d in a b; do
  mkdir -p "$work/tree/assets/$d" "$work/tree/assets/g$d" "$work/tree/src/$d"
  cp "$data"/spine/* "$work/tree/src/$d/" && cp "$data"/spine/hero.png "$data"/spine/hero.atlas "$work/tree/assets/$d/"
  "$convert" "$work/tree/src/$d/hero.json" --atlas "$work/tree/assets/$d/hero.atlas" -o "$work/tree/assets/$d/hero.rig2d.json" -q ||
    fail "spine import into assets/$d"
  cp "$data"/godot/* "$work/tree/assets/g$d/"
  "$convert" "$work/tree/assets/g$d/hero.tscn" -o "$work/tree/assets/g$d/hero.rig2d.json" -q || fail "godot import into assets/g$d"
  rm "$work/tree/assets/g$d/hero.tscn"
done
"$validate" "$work/tree/assets" > "$work/tree.log" 2>&1 || fail "one asset tree of two imports does not validate: $(cat "$work/tree.log")"
grep -q "guid.duplicate" "$work/tree.log" && fail "two imports share GUIDs"

# Out and back: rig -> Spine (+ atlas) -> rig, rig -> Godot -> rig.
"$convert" "$work/spine/hero.rig2d.json" -o "$work/out/hero.json" --anim "$work/spine/hero.wave.anim.json" -q
[ -s "$work/out/hero.atlas" ] || fail "no atlas written"
grep -q '"spine": "4.2.43"' "$work/out/hero.json" || fail "not Spine 4.2 JSON as the 4.2 editor writes it"
# The atlas names its page by bare file name, and the page is copied beside it, where loaders look:
# the import finds it from another working directory, with no --assets.
[ "$(head -n 1 "$work/out/hero.atlas")" = "hero.png" ] || fail "the atlas page is not named hero.png"
cmp -s "$work/out/hero.png" "$work/spine/hero.png" || fail "the page was not copied beside the atlas"
mkdir -p "$work/elsewhere"
(cd "$work/elsewhere" && "$convert" ../out/hero.json -o ../out/back_spine.rig2d.json -q) || fail "the export does not import"
"$convert" "$work/spine/hero.rig2d.json" -o "$work/out/hero.tscn" --anim "$work/spine/hero.wave.anim.json" -q
grep -q 'type="Skeleton2D"' "$work/out/hero.tscn" || fail "no Skeleton2D"
grep -q 'type="AnimationPlayer"' "$work/out/hero.tscn" || fail "no AnimationPlayer for the clip"
grep -q 'tracks/0/path = NodePath("Skeleton2D/root/hip/shoulder:rotation")' "$work/out/hero.tscn" || fail "no rotation track"
"$convert" "$work/out/hero.tscn" -o "$work/out/back_godot.rig2d.json" -q
python3 - "$work/spine/hero.png.meta.json" "$work/out/hero.png.meta.json" "$work/spine/hero.rig2d.json" \
  "$work/out/back_spine.rig2d.json" "$work/out/back_godot.rig2d.json" <<'PY'
import json, sys
# The Spine round trip reads a copy of the page, whose new sidecar gives the slices GUIDs of their own:
# a sprite is compared by its slice's name and rect.
slices = {s["guid"]: (s["name"], s["rect"]) for m in sys.argv[1:3] for s in json.load(open(m))["sprites"]}
sprite = lambda guid: slices.get(guid, guid)
a = json.load(open(sys.argv[3]))
for path in sys.argv[4:]:
    b = json.load(open(path))
    assert [x["name"] for x in a["bones"]] == [x["name"] for x in b["bones"]], path
    for x, y in zip(a["bones"], b["bones"]):
        assert x["parent"] == y["parent"] and all(abs(x[k] - y[k]) < 1e-5 for k in ("x", "y", "rot")), (path, x, y)
    assert len(a["parts"]) == len(b["parts"]), path
    for p, q in zip(a["parts"], b["parts"]):
        assert p["name"] == q["name"] and sprite(p["sprite"]) == sprite(q["sprite"]), path
        # Spine lists a mesh's outline (hull) first, so vertices may come back in another order: match
        # each by position and UV, then compare triangles and weights through that match.
        pv, qv = p["mesh"]["verts"], q["mesh"]["verts"]
        assert len(pv) == len(qv), path
        match = []
        for i, (v, uv) in enumerate(zip(qv, q["mesh"]["uvs"])):
            near = [j for j, (u, uu) in enumerate(zip(pv, p["mesh"]["uvs"]))
                    if max(abs(u[0] - v[0]), abs(u[1] - v[1]), abs(uu[0] - uv[0]), abs(uu[1] - uv[1])) < 1e-4]
            assert len(near) >= 1, (path, i, v)
            match.append(near[0])
        assert sorted(match) == list(range(len(pv))), path
        def rotations(tris):
            out = set()
            for k in range(0, len(tris), 3):
                t = tris[k:k + 3]
                out.add(min(tuple(t[r:] + t[:r]) for r in range(3)))
            return out
        assert rotations([match[i] for i in q["mesh"]["tris"]]) == rotations(p["mesh"]["tris"]), path
        for i, j in enumerate(match):
            assert all(abs(x - y) < 1e-6 for x, y in zip(p["skinWeights"][4 * j:4 * j + 4], q["skinWeights"][4 * i:4 * i + 4])), path
print("round trips ok")
PY

# A failed run (an output folder that cannot be made: a file stands in its way) leaves nothing behind.
: > "$work/out/blocker"
before=$(ls -A "$work/out" | sort)
if "$convert" "$work/spine/hero.rig2d.json" -o "$work/out/blocker/dir/x.json" -q 2>/dev/null; then fail "wrote below a file"; fi
[ "$(ls -A "$work/out" | sort)" = "$before" ] || fail "a failed run left files behind"
echo "ok"
