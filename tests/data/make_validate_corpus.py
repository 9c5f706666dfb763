#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Writes the rig2d-validate corpora (stdlib only; re-run after editing a case):

  tests/data/valid/validate/      an asset root whose every file validates clean
  tests/data/invalid/validate/    assets/ (an asset root) with one file per finding code under
                                  assets/cases/, and manifest.json (skipped as the engine skips manifest.json): file -> code, JSON pointer, line, col

Files are written in the engine's JSON.stringify(v, null, 2) layout without a trailing newline, and
the writer records where each value starts, so the expected line:col are exact.
"""
import json
import os
import shutil
import struct
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))


def derive_guid(seed):
    """The engine's deriveGuid: FNV-1a over UTF-16 code units of n + ':' + seed, n = 0..3."""
    out = ""
    for n in range(4):
        h = 0x811C9DC5
        data = f"{n}:{seed}".encode("utf-16-le")
        for i in range(0, len(data), 2):
            h ^= data[i] | (data[i + 1] << 8)
            h = (h * 0x01000193) & 0xFFFFFFFF
        out += f"{h:08x}"
    return f"{out[0:8]}-{out[8:12]}-{out[12:16]}-{out[16:20]}-{out[20:32]}"


assert derive_guid("sprite:aaaaaaaa-0000-4000-8000-000000000001") == "3ab58b97-ab98-26c0-162f-c87db96331fe"


def js_number(x):
    if isinstance(x, bool):
        raise TypeError
    if isinstance(x, int) or float(x).is_integer() and abs(x) < 1e21:
        return str(int(x))
    r = repr(float(x))
    return r


def pointer_token(key):
    return key.replace("~", "~0").replace("/", "~1")


class Writer:
    """JSON.stringify(v, null, 2) that remembers the line:col where each value starts."""

    def __init__(self):
        self.out = []
        self.line = 1
        self.col = 1
        self.where = {}

    def emit(self, s):
        for ch in s:
            if ch == "\n":
                self.line += 1
                self.col = 1
            else:
                self.col += 1
        self.out.append(s)

    def value(self, v, indent, ptr):
        self.where[ptr] = (self.line, self.col)
        pad = " " * (indent + 2)
        if isinstance(v, dict):
            if not v:
                return self.emit("{}")
            self.emit("{\n")
            for i, (k, x) in enumerate(v.items()):
                self.emit(pad + json.dumps(k, ensure_ascii=False) + ": ")
                self.value(x, indent + 2, ptr + "/" + pointer_token(k))
                self.emit(",\n" if i + 1 < len(v) else "\n")
            self.emit(" " * indent + "}")
        elif isinstance(v, list):
            if not v:
                return self.emit("[]")
            self.emit("[\n")
            for i, x in enumerate(v):
                self.emit(pad)
                self.value(x, indent + 2, ptr + "/" + str(i))
                self.emit(",\n" if i + 1 < len(v) else "\n")
            self.emit(" " * indent + "]")
        elif v is True:
            self.emit("true")
        elif v is False:
            self.emit("false")
        elif v is None:
            self.emit("null")
        elif isinstance(v, (int, float)):
            self.emit(js_number(v))
        else:
            self.emit(json.dumps(v, ensure_ascii=False))


def write_json(path, value):
    w = Writer()
    w.value(value, 0, "")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        f.write("".join(w.out))
    return w.where


def write_png(path, w=4, h=4):
    """A tiny RGBA PNG (opaque), so texture files are real images."""
    raw = b"".join(b"\x00" + b"\xff\x80\x40\xff" * w for _ in range(h))

    def chunk(tag, data):
        return struct.pack(">I", len(data)) + tag + data + struct.pack(">I", zlib.crc32(tag + data) & 0xFFFFFFFF)

    png = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 6, 0, 0, 0))
    png += chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b"")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(png)


def guid(n, prefix="d0"):
    return f"{prefix}{n:06x}-0000-4000-8000-{n:012x}"


T_BAR = "aaaaaaaa-0000-4000-8000-000000000001"   # 2d texture: derived sprite exists
T_3D = "aaaaaaaa-0000-4000-8000-000000000002"    # no type, no format: 3d, no derived sprite
T_SHEET = "aaaaaaaa-0000-4000-8000-000000000003"  # 2d sheet with slices
S_ARM = "bbbbbbbb-0000-4000-8000-000000000001"    # slice of the sheet
S_LEG = "bbbbbbbb-0000-4000-8000-000000000002"
R_BAR = "cccccccc-0000-4000-8000-000000000001"    # the 3-bone bar rig
R_MANY = "cccccccc-0000-4000-8000-000000000002"   # over kMaxBones: unreadable for scene checks
R_PARTS = "cccccccc-0000-4000-8000-000000000003"  # v2 rig over the sheet's slices
A_WALK = "dddddddd-0000-4000-8000-00000000000a"   # an .anim.json clip
SPRITE_BAR = derive_guid("sprite:" + T_BAR)
SPRITE_SHEET = derive_guid("sprite:" + T_SHEET)


def bones3():
    return [{"name": "base", "parent": -1, "x": 0, "y": 64, "rot": 0},
            {"name": "mid", "parent": 0, "x": 0, "y": -64, "rot": 0},
            {"name": "tip", "parent": 1, "x": 0, "y": -64, "rot": 0}]


def quad_mesh(y0=-128, y1=128):
    return {"verts": [[-32, y0], [32, y0], [-32, y1], [32, y1]],
            "uvs": [[0, 0], [1, 0], [0, 1], [1, 1]],
            "tris": [0, 2, 1, 1, 2, 3]}


def v1_rig(rid, sprite=SPRITE_BAR, **over):
    rig = {"id": rid, "sprite": sprite, "bones": bones3(), "mesh": quad_mesh(),
           "skinIndices": [0, 1, 0, 0, 0, 1, 0, 0, 2, 1, 0, 0, 2, 1, 0, 0],
           "skinWeights": [0.75, 0.25, 0, 0, 0.75, 0.25, 0, 0, 0.5, 0.5, 0, 0, 0.5, 0.5, 0, 0]}
    rig.update(over)
    if rig.get("id") is None:
        del rig["id"]
    return rig


def v2_rig(rid, sprites):
    parts = []
    for i, s in enumerate(sprites):
        parts.append({"name": f"p{i}", "sprite": s, "mesh": quad_mesh(),
                      "skinIndices": [0, 0, 0, 0] * 4, "skinWeights": [1, 0, 0, 0] * 4, "order": i})
    return {"id": rid, "bones": bones3(), "parts": parts}


def sidecars(root):
    write_png(os.path.join(root, "textures/bar.png"))
    write_json(os.path.join(root, "textures/bar.png.meta.json"), {"version": 2, "id": T_BAR, "type": "2d"})
    write_png(os.path.join(root, "textures/raw3d.png"))
    write_json(os.path.join(root, "textures/raw3d.png.meta.json"), {"version": 2, "id": T_3D})
    write_png(os.path.join(root, "textures/sheet.png"), 64, 64)
    write_json(os.path.join(root, "textures/sheet.png.meta.json"), {
        "version": 2, "id": T_SHEET, "type": "2d", "texture": {"format": "webp", "maxSize": 2048},
        "spriteSheet": {"width": 64, "height": 64},
        "sprites": [
            {"guid": S_ARM, "name": "arm", "rect": {"x": 0, "y": 0, "w": 32, "h": 64}, "pivot": {"x": 0.5, "y": 0.5}},
            {"guid": S_LEG, "name": "leg", "rect": {"x": 32, "y": 0, "w": 32, "h": 64}, "pivot": {"x": 0.5, "y": 1}}]})


def anims(root):
    write_json(os.path.join(root, "anims/walk.anim.json"),
               {"id": A_WALK, "name": "walk", "duration": 1, "frameRate": 60, "loop": True, "tracks": []})


def animator(clips, clip="walk"):
    return {"Animator": {"clips": clips, "clip": clip, "time": 0, "speed": 1, "playing": True, "loop": True,
                         "fadeDuration": 0}}


def bank(*entries):
    return json.dumps([{"name": n, "clip": g} for n, g in entries], separators=(",", ":"))


def entity(eid, name, traits, parent_guid="", guid_=None):
    attrs = {"name": name, "isActive": True, "sortOrder": 0, "parentId": parent_guid, "layer": "2d",
             "guid": guid_ if guid_ is not None else f"e-{eid}", "editorFolder": ""}
    t = dict(traits)
    t["EntityAttributes"] = attrs
    return {"id": eid, "name": name, "traits": t}


def bar_entities(rig=R_BAR, root_traits=None, tip_parent="e-3", extra_bones=()):
    root = {"Transform": {"x": 0, "y": 0, "z": 0, "rx": 0, "ry": 0, "rz": 0, "sx": 1, "sy": 1, "sz": 1},
            "SkinnedSprite2D": {"rig": rig, "color": 16777215, "opacity": 1, "flipX": False, "flipY": False,
                                "isVisible": True}}
    if root_traits:
        root.update(root_traits)
    ents = [entity(1, "bar", root),
            entity(2, "base", {"Transform": {"x": 0, "y": 64, "rz": 0}, "Bone2D": {"name": "base"}}, "e-1"),
            entity(3, "mid", {"Transform": {"x": 0, "y": -64, "rz": 0}, "Bone2D": {"name": "mid"}}, "e-2"),
            entity(4, "tip", {"Transform": {"x": 0, "y": -64, "rz": 0}, "Bone2D": {"name": "tip"}}, tip_parent)]
    ents.extend(extra_bones)
    return ents


def scene(sid, entities, **over):
    s = {"id": sid, "version": 9, "createdAt": "2026-01-01T00:00:00.000Z",
         "resources": [{"type": "rig2d", "path": R_BAR}], "entities": entities}
    s.update(over)
    return {k: v for k, v in s.items() if v is not None}


def make_valid():
    root = os.path.join(HERE, "valid", "validate")
    shutil.rmtree(root, ignore_errors=True)
    sidecars(root)
    anims(root)
    write_json(os.path.join(root, "rigs/bar.rig2d.json"), v1_rig(R_BAR))
    write_json(os.path.join(root, "rigs/parts.rig2d.json"), v2_rig(R_PARTS, [S_ARM, S_LEG, SPRITE_BAR]))
    # A v1 rig with noScale and version, and a v2 part with visible false: optional fields in use.
    rig = v1_rig(guid(1, "c1"))
    rig["bones"][2]["noScale"] = True
    rig = {"id": rig["id"], "version": 1, **{k: v for k, v in rig.items() if k != "id"}}
    write_json(os.path.join(root, "rigs/noscale.rig2d.json"), rig)
    hidden = v2_rig(guid(2, "c1"), [S_ARM, S_LEG])
    hidden["parts"][1]["visible"] = False
    write_json(os.path.join(root, "rigs/hidden-part.rig2d.json"), hidden)
    animated = bar_entities(root_traits=animator(bank(("walk", A_WALK))))
    write_json(os.path.join(root, "scenes/bar.json"),
               scene(guid(1, "5c"), animated,
                     resources=[{"type": "animation", "path": A_WALK}, {"type": "rig2d", "path": R_BAR}]))
    # Billboard3D beside the SkinnedSprite2D, and a legacy scene linking parents by numeric id.
    bb = bar_entities(root_traits={"Billboard3D": {"mode": "cylindrical", "alphaTest": 0.5, "pixelsPerUnit": 100,
                                                   "anchor": "bottom"}})
    write_json(os.path.join(root, "scenes/billboard.json"), scene(guid(2, "5c"), bb))
    legacy = bar_entities()
    for e in legacy:
        attrs = e["traits"]["EntityAttributes"]
        attrs["parentId"] = int(attrs["parentId"][2:]) if attrs["parentId"] else 0
        attrs["guid"] = ""
    write_json(os.path.join(root, "scenes/legacy.json"), scene(guid(3, "5c"), legacy, version=8))
    prefab = {"id": guid(4, "5c"), "version": 1, "name": "bar", "rootLocalId": 1, "entities": []}
    for i, e in enumerate(bar_entities()):
        attrs = dict(e["traits"]["EntityAttributes"])
        attrs["parentId"] = int(attrs["parentId"][2:]) if attrs["parentId"] else 0
        attrs["guid"] = ""
        del attrs["editorFolder"]
        traits = dict(e["traits"])
        traits["EntityAttributes"] = attrs
        prefab["entities"].append({"localId": i + 1, "name": e["name"], "traits": traits})
    write_json(os.path.join(root, "prefabs/bar.prefab.json"), prefab)


def make_invalid():
    base = os.path.join(HERE, "invalid", "validate")
    shutil.rmtree(base, ignore_errors=True)
    root = os.path.join(base, "assets")
    sidecars(root)
    anims(root)
    write_json(os.path.join(root, "rigs/bar.rig2d.json"), v1_rig(R_BAR))
    many = v1_rig(R_MANY)
    many["bones"] = [{"name": f"b{i}", "parent": i - 1, "x": 0, "y": 1, "rot": 0} for i in range(1025)]
    write_json(os.path.join(root, "rigs/many-bones.rig2d.json"), many)

    cases = []
    counter = [100]

    def fresh():
        counter[0] += 1
        return guid(counter[0], "ca")

    def case(name, value, code, pointer, also=(), extra_files=()):
        rel = "cases/" + name
        where = write_json(os.path.join(root, rel), value)
        line, col = where[pointer] if pointer in where else (0, 0)
        cases.append({"file": "assets/" + rel, "code": code, "pointer": pointer, "line": line, "column": col,
                      "also": list(also)})

    # --- rigs
    case("rig.id.missing.rig2d.json", v1_rig(None), "rig.id.missing", "")
    case("rig.id.guid.rig2d.json", v1_rig("bar-rig"), "rig.id.guid", "/id")
    case("rig.sprite.empty.rig2d.json", v1_rig(fresh(), ""), "rig.sprite.empty", "/sprite")
    case("rig.sprite.url.rig2d.json", v1_rig(fresh(), "https://cdn.example.com/bar.png"), "rig.sprite.url", "/sprite")
    case("rig.sprite.path.rig2d.json", v1_rig(fresh(), "/games/x/assets/textures/bar.png"), "rig.sprite.path", "/sprite")
    case("rig.sprite.guid.rig2d.json", v1_rig(fresh(), "bar"), "rig.sprite.guid", "/sprite")
    case("rig.sprite.unresolved.rig2d.json", v1_rig(fresh(), "dddddddd-0000-4000-8000-000000000009"),
         "rig.sprite.unresolved", "/sprite")
    case("rig.sprite.texture.rig2d.json", v2_rig(fresh(), [S_ARM, T_BAR]), "rig.sprite.texture", "/parts/1/sprite")
    case("rig.sprite.texture.v1.rig2d.json", v1_rig(fresh(), T_BAR), "rig.sprite.texture.v1", "/sprite")
    case("rig.sprite.not_sprite.rig2d.json", v1_rig(fresh(), R_BAR), "rig.sprite.not_sprite", "/sprite")
    degenerate = v1_rig(fresh())
    degenerate["mesh"]["tris"] = [0, 2, 1, 1, 2, 3, 1, 1, 3]
    case("rig.mesh.tri.degenerate.rig2d.json", degenerate, "rig.mesh.tri.degenerate", "/mesh/tris/6")
    duplicate = v1_rig(fresh())
    duplicate["mesh"]["tris"] = [0, 2, 1, 1, 2, 3, 2, 1, 0]
    case("rig.mesh.tri.duplicate.rig2d.json", duplicate, "rig.mesh.tri.duplicate", "/mesh/tris/6")
    dup = guid(999, "ca")
    case("guid.duplicate.a.rig2d.json", v1_rig(dup), "guid.duplicate", "/id")
    case("guid.duplicate.b.rig2d.json", v1_rig(dup), "guid.duplicate", "/id")
    # 100 parts of 11 degenerate triangles each: 1100 findings, over the 1000 per-file listing limit
    # (each mesh lists 10 and summarizes the rest).
    many_tris = v2_rig(fresh(), [S_ARM] * 100)
    for p in many_tris["parts"]:
        p["mesh"]["tris"] = [0, 0, 1] * 11
    case("validate.findings.truncated.rig2d.json", many_tris, "validate.findings.truncated", "",
         also=["rig.mesh.tri.degenerate"])

    # --- sidecars: <case>.png + <case>.png.meta.json
    def meta(code, value, pointer, png=True):
        if png:
            write_png(os.path.join(root, "cases", code + ".png"))
        case(code + ".png.meta.json", value, code, pointer)

    def m(**over):
        d = {"version": 2, "id": fresh(), "type": "2d"}
        d.update(over)
        return {k: v for k, v in d.items() if v is not None}

    def sl(**over):
        d = {"guid": fresh(), "name": "s", "rect": {"x": 0, "y": 0, "w": 8, "h": 8}, "pivot": {"x": 0.5, "y": 0.5}}
        d.update(over)
        return {k: v for k, v in d.items() if v is not None}

    sheet = {"width": 64, "height": 64}
    meta("meta.root", [2], "")
    meta("meta.version", m(version=1), "/version")
    meta("meta.id.missing", m(id=None), "")
    meta("meta.id.guid", m(id="bar-texture"), "/id")
    meta("meta.type", m(type="sprite"), "/type")
    meta("meta.texture", m(texture="webp"), "/texture")
    meta("meta.texture.format", m(texture={"format": "jpeg"}), "/texture/format")
    meta("meta.sprite_sheet", m(spriteSheet={"width": 0, "height": 64}, sprites=[sl()]), "/spriteSheet")
    meta("meta.sprite_sheet.missing", m(sprites=[sl()]), "/sprites")
    meta("meta.sprites", m(spriteSheet=sheet, sprites={"arm": sl()}), "/sprites")
    meta("meta.slice", m(spriteSheet=sheet, sprites=[sl(), 5]), "/sprites/1")
    meta("meta.slice.guid", m(spriteSheet=sheet, sprites=[sl(guid=None)]), "/sprites/0")
    meta("meta.slice.name", m(spriteSheet=sheet, sprites=[sl(name=None)]), "/sprites/0")
    meta("meta.slice.rect", m(spriteSheet=sheet, sprites=[sl(rect={"x": 0, "y": 0, "w": 0, "h": 8})]),
         "/sprites/0/rect")
    meta("meta.slice.bounds", m(spriteSheet=sheet, sprites=[sl(rect={"x": 48, "y": 0, "w": 32, "h": 8})]),
         "/sprites/0/rect")
    meta("meta.slice.pivot", m(spriteSheet=sheet, sprites=[sl(pivot={"x": 1.5, "y": 0.5})]), "/sprites/0/pivot")
    meta("meta.asset.missing", m(), "", png=False)

    # --- scenes and prefabs: the bar rig wired correctly, plus one defect each
    def sc(code, entities=None, pointer="", also=(), **over):
        case(code + ".json", scene(fresh(), entities if entities is not None else bar_entities(), **over), code,
             pointer, also)

    def extra(eid, traits, parent="", guid_=None):
        return entity(eid, f"x{eid}", traits, parent, guid_)

    case("scene.root.json", "scene", "scene.root", "")
    no_entities = scene(fresh(), [])
    del no_entities["entities"]
    case("scene.entities.json", no_entities, "scene.entities", "")
    sc("scene.entity", bar_entities() + [42], "/entities/4")
    bad_traits = bar_entities()
    bad_traits.append({"id": 5, "name": "x", "traits": ["Transform"]})
    sc("scene.traits", bad_traits, "/entities/4/traits")
    sc("scene.trait.type", bar_entities(root_traits={"Transform": 5}), "/entities/0/traits/Transform")
    sc("scene.resources", pointer="/resources", resources={"rig2d": R_BAR})
    sc("scene.entity.guid.duplicate", bar_entities() + [extra(5, {}, guid_="e-x"), extra(6, {}, guid_="e-x")],
       "/entities/5/traits/EntityAttributes/guid")
    dup_id = bar_entities() + [extra(5, {})]
    dup_id[4]["id"] = 2
    sc("scene.entity.id.duplicate", dup_id, "/entities/4/id")
    sc("scene.parent.invalid", bar_entities() + [extra(5, {}, parent=True)], "/entities/4/traits/EntityAttributes/parentId")
    sc("scene.parent.dangling", bar_entities() + [extra(5, {}, parent="e-404")],
       "/entities/4/traits/EntityAttributes/parentId")
    sc("scene.parent.self", bar_entities() + [extra(5, {}, parent="e-5")], "/entities/4/traits/EntityAttributes/parentId")
    sc("scene.parent.cycle", bar_entities() + [extra(5, {}, parent="e-6"), extra(6, {}, parent="e-5")],
       "/entities/4/traits/EntityAttributes/parentId")
    case("scene.id.missing.json", scene(None, bar_entities(), id=None), "scene.id.missing", "")
    case("scene.id.guid.json", scene("main-scene", bar_entities()), "scene.id.guid", "/id")
    prefab_entities = [{"localId": 1, "name": "a", "traits": {"Transform": {}, "EntityAttributes": {"name": "a", "parentId": 0}}}]
    case("prefab.id.missing.prefab.json", {"version": 1, "name": "a", "rootLocalId": 1, "entities": prefab_entities},
         "prefab.id.missing", "")
    case("prefab.id.guid.prefab.json", {"id": "a-prefab", "version": 1, "name": "a", "rootLocalId": 1,
                                        "entities": prefab_entities}, "prefab.id.guid", "/id")
    sc("scene.version", pointer="/version", version=12)
    sc("scene.trait.scalar", bar_entities() + [extra(5, {"Health": {"max": [100, 200]}})],
       "/entities/4/traits/Health/max")
    flip = bar_entities()
    flip[0]["traits"]["SkinnedSprite2D"]["flipX"] = "yes"
    sc("scene.field.type", flip, "/entities/0/traits/SkinnedSprite2D/flipX")
    opacity = bar_entities()
    opacity[0]["traits"]["SkinnedSprite2D"]["opacity"] = 1.5
    sc("scene.field.range", opacity, "/entities/0/traits/SkinnedSprite2D/opacity")
    sc("scene.field.enum", bar_entities(root_traits={"Billboard3D": {"mode": "cylindrical", "alphaTest": 0.5,
                                                                     "pixelsPerUnit": 100, "anchor": "top"}}),
       "/entities/0/traits/Billboard3D/anchor")
    unknown = bar_entities()
    unknown[0]["traits"]["SkinnedSprite2D"]["tint"] = 255
    sc("scene.field.unknown", unknown, "/entities/0/traits/SkinnedSprite2D/tint")
    sc("scene.3d.both", bar_entities(root_traits={"Billboard3D": {"mode": "spherical"},
                                                  "FlatSprite3D": {"alphaTest": 0.5, "pixelsPerUnit": 100}}),
       "/entities/0/traits/FlatSprite3D")
    sc("scene.3d.alone", bar_entities() + [extra(5, {"FlatSprite3D": {"pixelsPerUnit": 64}})],
       "/entities/4/traits/FlatSprite3D")
    rig_ptr = "/entities/0/traits/SkinnedSprite2D/rig"
    sc("scene.rig.empty", bar_entities(rig=""), rig_ptr)
    sc("scene.rig.url", bar_entities(rig="https://cdn.example.com/bar.rig2d.json"), rig_ptr)
    sc("scene.rig.guid", bar_entities(rig="/games/x/assets/rigs/bar.rig2d.json"), rig_ptr)
    sc("scene.rig.unresolved", bar_entities(rig="dddddddd-0000-4000-8000-000000000009"), rig_ptr)
    sc("scene.rig.not_rig", bar_entities(rig=T_BAR), rig_ptr)
    sc("scene.rig.unreadable", bar_entities(rig=R_MANY), rig_ptr)
    elbow = entity(5, "elbow", {"Transform": {}, "Bone2D": {"name": "elbow"}}, "e-4")
    sc("scene.bone.unknown", bar_entities(extra_bones=[elbow]), "/entities/4/traits/Bone2D/name")
    tip2 = entity(5, "tip", {"Transform": {"x": 0, "y": -64, "rz": 0}, "Bone2D": {"name": "tip"}}, "e-3")
    sc("scene.bone.duplicate", bar_entities(extra_bones=[tip2]), "/entities/4/traits/Bone2D/name")
    sc("scene.bone.parent", bar_entities(tip_parent="e-1"), "/entities/3/traits/EntityAttributes/parentId")
    sc("scene.bone.missing", bar_entities()[:3], rig_ptr)
    orphan = entity(5, "stray", {"Transform": {}, "Bone2D": {"name": "base"}}, "")
    sc("scene.bone.orphan", bar_entities(extra_bones=[orphan]), "/entities/4/traits/Bone2D")

    clips_ptr = "/entities/0/traits/Animator/clips"
    sc("scene.animator.clips", bar_entities(root_traits=animator('[{"name": "walk"')), clips_ptr)
    sc("scene.animator.clip.guid", bar_entities(root_traits=animator(bank(("walk", "/games/x/walk.anim.json")))),
       clips_ptr)
    sc("scene.animator.clip.unresolved", bar_entities(root_traits=animator(bank(("walk", R_BAR)))), clips_ptr)
    sc("scene.animator.clip.unknown", bar_entities(root_traits=animator(bank(("walk", A_WALK)), clip="run")),
       "/entities/0/traits/Animator/clip")
    # (last, so the GUIDs fresh() gives the cases above stay as they were)
    case("rig.sprite.sheet_whole.rig2d.json", v1_rig(fresh(), derive_guid("sprite:" + T_SHEET)),
         "rig.sprite.sheet_whole", "/sprite")
    meta("meta.rig2d", m(rig2d={"template": "humanoid", "skeleton": "shape"}), "/rig2d/skeleton")
    meta("meta.rig2d.template", m(rig2d={"template": "humanoidd"}), "/rig2d/template")

    with open(os.path.join(base, "manifest.json"), "w") as f:
        json.dump({"asset_root": "assets", "cases": cases}, f, indent=2)
        f.write("\n")


if __name__ == "__main__":
    make_valid()
    make_invalid()
