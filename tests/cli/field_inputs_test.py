#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Files from the field that used to hang, corrupt output with exit 0, or read unclearly. The hang
cases use inputs sized so that the old behaviour (exponential or quadratic) runs far past the test's
ctest TIMEOUT while the fixed tools finish in seconds: no timing is asserted here, the TIMEOUT is the
check. Each case also checks the output itself.

Usage: field_inputs_test.py BIN_DIR SOURCE_DIR WORK_DIR CASE
"""
import json
import os
import shutil
import subprocess
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cli_test_lib import fail, run_case, run_tool, workdir, write, write_png  # noqa: E402

BIN, SRC, WORK, CASE = sys.argv[1:5]
AUTORIG = os.path.join(BIN, "rig2d-autorig", "rig2d-autorig")
VALIDATE = os.path.join(BIN, "rig2d-validate", "rig2d-validate")
POSE = os.path.join(BIN, "rig2d-pose", "rig2d-pose")
CONVERT = os.path.join(BIN, "rig2d-convert", "rig2d-convert")
CONVERT_DATA = os.path.join(SRC, "tests", "data", "convert")
POSE_DATA = os.path.join(SRC, "tests", "data", "pose")


def out_of(p):
    return p.stdout + p.stderr


def expect_code(p, code):
    if f"[{code}]" not in out_of(p):
        fail(f"no [{code}] in:\n{out_of(p)[-3000:]}")


def case_glob_stars():
    """A config glob of 14 "**" segments against a file 30 folders deep: backtracking tries about
    C(44, 14) splits (hours); matching by (glob, path) position pairs takes a few thousand steps."""
    w = workdir(WORK, "glob_stars")
    deep = os.path.join(w, *[f"d{i}" for i in range(30)])
    os.makedirs(deep)
    shutil.copy(os.path.join(POSE_DATA, "assets", "rigs", "bar.rig2d.json"), deep)
    stars = "/".join(["**"] * 14)
    # Never matches (no segment is named "nope"), so every split is tried by a backtracking matcher.
    config = {"paths": [{"files": stars + "/nope/" + stars + "/*.json", "exclude": True},
                        {"files": stars + "/d29/*.rig2d.json", "severity": {"rig.sprite.unresolved": "off"}}]}
    write(os.path.join(w, ".rig2d-validate"), json.dumps(config))
    p = run_tool(VALIDATE, "--format", "json", "--assets", w, deep)
    report = json.loads(p.stdout)
    codes = [f["code"] for f in report.get("findings", [])]
    if "rig.sprite.unresolved" in codes:
        fail("the matching path rule did not apply: " + ", ".join(codes))


def case_spine_keys():
    """150,000 keys on one Spine timeline: a linear scan per breakpoint made it quadratic (40,000
    keys took 19 s). The clip keeps every key: linear keys map one to one."""
    w = workdir(WORK, "spine_keys")
    shutil.copytree(os.path.join(CONVERT_DATA, "spine"), os.path.join(w, "spine"))
    skel = os.path.join(w, "spine", "hero.json")
    with open(skel) as f:
        doc = json.load(f)
    n = 150000
    doc["animations"] = {"long": {"bones": {"shoulder": {"rotate": [
        {"time": i / 30, "value": (i % 7) * 5} for i in range(n)]}}}}
    write(skel, json.dumps(doc))
    run_tool(CONVERT, skel, "-o", os.path.join(w, "out", "hero.rig2d.json"), expect=0)
    with open(os.path.join(w, "out", "hero.long.anim.json")) as f:
        clip = json.load(f)
    tracks = [t for t in clip["tracks"] if t.get("field") == "rz"]
    if len(tracks) != 1 or len(tracks[0]["keys"]) < n:
        fail(f"expected one rz track of at least {n} keys")
    # Spine degrees counter-clockwise -> rig2d radians (+y down): key 3 is 15 deg at t = 0.1.
    keys = tracks[0]["keys"]
    if abs(keys[3]["t"] - 0.1) > 1e-9 or abs((keys[3]["v"] - keys[0]["v"]) - (-0.2617993878)) > 1e-9:
        fail(f"key 3 is {keys[3]}, key 0 {keys[0]}: expected t = 0.1 and 15 degrees clockwise of key 0")


def sheet_png(folder, cols, rows, cell=12):
    """A cols x rows grid of 8 x 8 squares, and its sidecar listing one slice per square."""
    def px(x, y):
        inside = 2 <= x % cell < 10 and 2 <= y % cell < 10
        return (200, 80, 40, 255) if inside else (0, 0, 0, 0)
    png = os.path.join(folder, "sheet.png")
    write_png(png, cols * cell, rows * cell, px)
    sprites = [{"guid": f"11111111-0000-4000-8000-{r * cols + c:012d}", "name": f"s{r * cols + c:04d}",
                "rect": {"x": c * cell, "y": r * cell, "w": cell, "h": cell}}
               for r in range(rows) for c in range(cols)]
    write(png + ".meta.json", json.dumps({"version": 2, "id": "720bff86-1b0e-4293-acfc-a4b7661f835c",
                                          "type": "2d", "spriteSheet": {"width": cols * cell, "height": rows * cell},
                                          "sprites": sprites}, indent=1))
    return png


def case_sheet_slices():
    """A 2000-slice sheet: the sidecar was parsed (with a pairwise GUID check) once per slice, cubic
    in the slice count (2 min); now once per sheet. Every slice gets its rig, named by slice."""
    w = workdir(WORK, "sheet_slices")
    png = sheet_png(w, 50, 40)
    out = os.path.join(w, "out")
    p = run_tool(AUTORIG, "-j", "2", png, "-o", out + "/", expect=0)
    if "2000 written" not in out_of(p):
        fail("not 2000 rigs written:\n" + out_of(p)[-2000:])
    rigs = sorted(f for f in os.listdir(out) if f.endswith(".rig2d.json"))
    if len(rigs) != 2000 or rigs[0] != "sheet.s0000.rig2d.json" or rigs[-1] != "sheet.s1999.rig2d.json":
        fail("the rigs are not one per slice, named by slice")
    with open(os.path.join(out, "sheet.s1234.rig2d.json")) as f:
        if json.load(f)["sprite"] != "11111111-0000-4000-8000-000000001234":
            fail("slice s1234's rig does not draw slice s1234")
    # --check reads the sheet the same way: nothing drifted.
    run_tool(AUTORIG, "-j", "2", "--check", png, "-o", out + "/", expect=0)


def case_contact_sheet_first():
    """2000 rigs at --tile 64 make a sheet taller than 16384 px: refused before any rig is rendered
    (it used to render every row first, minutes for 2000 rigs)."""
    w = workdir(WORK, "contact_sheet_first")
    rig = os.path.join(POSE_DATA, "assets", "rigs", "bar.rig2d.json")
    for i in range(2000):
        shutil.copy(rig, os.path.join(w, f"r{i:04d}.rig2d.json"))
    sheet = os.path.join(w, "sheet.png")
    p = run_tool(POSE, "--contact-sheet", sheet, "--tile", "64", w)
    if p.returncode == 0:
        fail("a 2000-row contact sheet was made")
    expect_code(p, "raster.size")
    if "2000 rigs" not in out_of(p) or os.path.exists(sheet):
        fail("the error does not count the rigs, or a sheet was written")


def case_layout_budget():
    """--layout with a 16384 x 16384 canvas needs about 2.3 GiB: over the default 2048 MiB budget it
    fails before any part is decoded, and --memory-budget holds for a smaller canvas too."""
    w = workdir(WORK, "layout_budget")
    for name in ("bar.png", "bar.png.meta.json"):
        shutil.copy(os.path.join(SRC, "samples", name), w)

    def layout(side):
        path = os.path.join(w, f"l{side}.layout.json")
        write(path, json.dumps({"canvas": {"width": side, "height": side},
                                "parts": [{"name": "body", "png": "bar.png", "x": 10, "y": 10}]}))
        return path
    big = layout(16384)
    p = run_tool(AUTORIG, "--layout", big, "-o", os.path.join(w, "big.rig2d.json"), expect=3)
    expect_code(p, "memory.budget")
    if "l16384.layout.json" not in out_of(p) or "/canvas" not in out_of(p):
        fail("the error does not name the layout's canvas")
    # 2048 x 2048: about 36 MiB; refused under 16 MiB, made under the default.
    small = layout(2048)
    expect_code(run_tool(AUTORIG, "--layout", small, "--memory-budget", "16", "-o", os.path.join(w, "s.rig2d.json"),
                         expect=3), "memory.budget")
    run_tool(AUTORIG, "--layout", small, "-o", os.path.join(w, "s.rig2d.json"), expect=0)
    if os.path.exists(os.path.join(w, "big.rig2d.json")):
        fail("the refused layout wrote a rig")


def spine_project(name):
    """A copy of the test Spine project (hero.json, hero.atlas, hero.png) and its skeleton as a dict."""
    w = workdir(WORK, name)
    shutil.copytree(os.path.join(CONVERT_DATA, "spine"), os.path.join(w, "spine"))
    skel = os.path.join(w, "spine", "hero.json")
    with open(skel) as f:
        return w, skel, json.load(f)


def expect_refused(p, code, where, out_dir):
    """Exit 3, the code, the location text, and nothing written under out_dir."""
    expect_code(p, code)
    if where not in out_of(p):
        fail(f"the error does not say {where}:\n{out_of(p)}")
    if os.path.exists(out_dir) and os.listdir(out_dir):
        fail("outputs were written: " + ", ".join(os.listdir(out_dir)))
    if "null" in out_of(p):
        fail("null in the output")


def arm_vertices(doc):
    return doc["skins"][0]["attachments"]["arm"]["arm"]["vertices"]


def case_spine_overflow():
    """Values that are finite in the file but overflow once combined are located errors (exit 3),
    never null coordinates in the rig."""
    w, skel, doc = spine_project("spine_overflow")
    out = os.path.join(w, "out")
    # (a) A weight of 1e308 on a vertex 9 px from its bone: the blended position overflows. The arm's
    # second vertex starts at /vertices/5 (hero.json line 24).
    bad = json.loads(json.dumps(doc))
    arm_vertices(bad)[9] = 1e308
    write(skel, json.dumps(bad, indent=1))
    p = run_tool(CONVERT, skel, "-o", os.path.join(out, "hero.rig2d.json"), expect=3)
    expect_refused(p, "spine.overflow", "/skins/0/attachments/arm/arm/vertices/5", out)
    # (b) A region 1e308 wide, scaled by 10: its corners overflow.
    bad = json.loads(json.dumps(doc))
    bad["skins"][0]["attachments"]["body"]["body"].update({"width": 1e308, "scaleX": 10})
    write(skel, json.dumps(bad, indent=1))
    p = run_tool(CONVERT, skel, "-o", os.path.join(out, "hero.rig2d.json"), expect=3)
    expect_refused(p, "spine.overflow", "/skins/0/attachments/body/body", out)
    # (c) Two bones 1e308 and 1.7e308 along x: the child's world position overflows.
    bad = json.loads(json.dumps(doc))
    bad["bones"][1]["x"] = 1e308
    bad["bones"][2]["x"] = 1.7e308
    write(skel, json.dumps(bad, indent=1))
    p = run_tool(CONVERT, skel, "-o", os.path.join(out, "hero.rig2d.json"), expect=3)
    expect_refused(p, "spine.overflow", "/bones/2", out)


def case_godot_overflow():
    """Godot rests whose sum overflows: a located error at the rest line, not a null bone."""
    w = workdir(WORK, "godot_overflow")
    shutil.copytree(os.path.join(CONVERT_DATA, "godot"), os.path.join(w, "g"))
    scene = os.path.join(w, "g", "hero.tscn")
    with open(scene) as f:
        lines = f.read().split("\n")
    rests = [i for i, line in enumerate(lines) if line.startswith("rest = Transform2D(")]
    if len(rests) < 2:
        fail("the test scene has fewer than two rests")
    for i in rests[:2]:
        lines[i] = "rest = Transform2D(1, 0, 0, 1, 1.7e308, 0)"
    write(scene, "\n".join(lines))
    out = os.path.join(w, "out")
    p = run_tool(CONVERT, scene, "-o", os.path.join(out, "hero.rig2d.json"), expect=3)
    expect_refused(p, "godot.overflow", f"hero.tscn:{rests[1] + 1}:", out)


def case_spine_export_overflow():
    """A rig whose bone chain sums past the largest double exports to Spine as an error, not null."""
    w = workdir(WORK, "spine_export_overflow")
    rig = {"id": "6f1c1d2e-3b4a-4c5d-8e6f-7a8b9c0d1e2f", "sprite": "", "version": 1,
           "bones": [{"name": "root", "parent": -1, "x": 1e308, "y": 0, "rot": 0},
                     {"name": "tip", "parent": 0, "x": 1e308, "y": 0, "rot": 0}],
           "mesh": {"verts": [[0, 0], [10, 0], [0, 10]], "uvs": [[0, 0], [1, 0], [0, 1]], "tris": [0, 1, 2]},
           "skinIndices": [1, 0, 0, 0] * 3, "skinWeights": [1, 0, 0, 0] * 3}
    path = os.path.join(w, "tall.rig2d.json")
    write(path, json.dumps(rig))
    out = os.path.join(w, "out")
    p = run_tool(CONVERT, path, "--to", "spine", "-o", os.path.join(out, "tall.json"), expect=3)
    expect_refused(p, "convert.overflow", "tall.rig2d.json", out)
    # Godot keeps each bone's own offset, which is finite: the scene is written, with no null.
    run_tool(CONVERT, path, "--to", "godot", "-o", os.path.join(w, "g", "tall.tscn"), expect=0)
    with open(os.path.join(w, "g", "tall.tscn")) as f:
        text = f.read()
    if "null" in text or "inf" in text.lower() or "1e+308" not in text:
        fail("the Godot scene does not carry the bone offsets as written:\n" + text)


def case_spine_weights():
    """Negative and all-zero Spine weights are warnings naming the count and the first vertex."""
    w, skel, doc = spine_project("spine_weights")
    v = arm_vertices(doc)
    # Vertex 1 (from /vertices/5): weights 0.5, 0.5 -> 1.5, -0.5 (Spine blends them as given).
    v[9], v[13] = 1.5, -0.5
    # Vertex 2 (from /vertices/14): its one weight 1 -> 0.
    v[18] = 0
    write(skel, json.dumps(doc, indent=1))
    p = run_tool(CONVERT, skel, "-o", os.path.join(w, "out", "hero.rig2d.json"), expect=0)
    o = out_of(p)
    for code, where in (("convert.weights.negative", "1 weighted vertices have negative weights"),
                        ("convert.weights.zero", "1 weighted vertices have no positive weight"),
                        ("convert.weights.renormalized", "1 weighted vertices have positive weights not summing")):
        if f"[{code}]" not in o or where not in o:
            fail(f"no {code} warning saying '{where}':\n{o}")
    if "/skins/0/attachments/arm/arm/vertices/5" not in o or "/skins/0/attachments/arm/arm/vertices/14" not in o:
        fail("the warnings do not point at the first vertex")
    with open(os.path.join(w, "out", "hero.rig2d.json")) as f:
        rig = json.load(f)
    part = [p for p in rig["parts"] if p.get("name") == "arm"][0]
    weights = part["skinWeights"][4:8]
    if abs(weights[0] - 1) > 1e-12 or any(x != 0 for x in weights[1:]):
        fail(f"vertex 1's weights {weights}: the negative one dropped, the rest renormalized to 1")


def case_spine_too_deep():
    """A Spine .json nested 100,000 deep: json.too_deep with its line:col, not "not a Spine skeleton"."""
    w = workdir(WORK, "spine_too_deep")
    path = os.path.join(w, "deep.json")
    write(path, '{"skeleton": {}, "bones": ' + "[" * 100000 + "]" * 100000 + "}")
    p = run_tool(CONVERT, path, "-o", os.path.join(w, "out", "deep.rig2d.json"), expect=3)
    expect_code(p, "json.too_deep")
    if "deep.json:1:" not in out_of(p) or "convert.input.kind" in out_of(p):
        fail("the error is not located, or still calls it another kind of file")


def case_atlas_bounds():
    """Atlas regions outside the page, of zero size, at negative bounds, and a page of size 0, 0 are
    located errors: no sidecar is written that validation would refuse, no slice silently dropped."""
    w, skel, _ = spine_project("atlas_bounds")
    atlas = os.path.join(w, "spine", "hero.atlas")
    with open(atlas) as f:
        text = f.read()
    cases = (("bounds: 2, 2, 24, 40", "bounds: 50, 2, 24, 40", "atlas.region.bounds", "hero.atlas:5:", "reach past"),
             ("bounds: 2, 2, 24, 40", "bounds: 2, 2, 0, 40", "atlas.region.bounds", "hero.atlas:5:", "no pixels"),
             ("bounds: 2, 2, 24, 40", "bounds: -2, 2, 24, 40", "atlas.region.bounds", "hero.atlas:5:", "left of"),
             ("size: 64, 64", "size: 0, 0", "atlas.page.size", "hero.atlas:2:", "no pixels"),
             # rotate: 90 swaps the packed width and height on the page: 30 x 12 becomes 12 x 30.
             ("bounds: 30, 2, 30, 12", "bounds: 56, 2, 30, 12", "atlas.region.bounds", "hero.atlas:7:", "reach past"))
    for old, new, code, where, words in cases:
        if old not in text:
            fail(f"the test atlas has no '{old}'")
        write(atlas, text.replace(old, new))
        out = os.path.join(w, "out")
        p = run_tool(CONVERT, skel, "-o", os.path.join(out, "hero.rig2d.json"), expect=3)
        expect_refused(p, code, where, out)
        if words not in out_of(p) or os.path.exists(os.path.join(w, "spine", "hero.png.meta.json")):
            fail(f"'{words}' not said, or a sidecar was written")
    # A rotated region that fits only once turned is accepted: 12 x 30 at 52, 2 on the 64 x 64 page.
    write(atlas, text.replace("bounds: 30, 2, 30, 12", "bounds: 52, 2, 30, 12"))
    run_tool(CONVERT, skel, "-o", os.path.join(w, "out", "hero.rig2d.json"), expect=0)


def case_layout_empty_name():
    """"name": "" in a layout is an error at its pointer, as docs/autorig.md says, not the PNG's stem."""
    w = workdir(WORK, "layout_empty_name")
    for name in ("bar.png", "bar.png.meta.json"):
        shutil.copy(os.path.join(SRC, "samples", name), w)
    layout = os.path.join(w, "hero.layout.json")
    write(layout, '{"canvas": {"width": 200, "height": 300},\n "parts": [{"name": "", "png": "bar.png"}]}')
    p = run_tool(AUTORIG, "--layout", layout, "-o", os.path.join(w, "hero.rig2d.json"), expect=3)
    expect_code(p, "layout.name")
    if "hero.layout.json:2:" not in out_of(p) or "/parts/0/name" not in out_of(p):
        fail("the error is not located at /parts/0/name")
    if os.path.exists(os.path.join(w, "hero.rig2d.json")):
        fail("a rig was written")


def sprite_named(folder, name):
    """samples/bar.png and its sidecar copied as NAME.png (a file name with odd bytes)."""
    png = os.path.join(folder, name + ".png")
    shutil.copy(os.path.join(SRC, "samples", "bar.png"), png)
    shutil.copy(os.path.join(SRC, "samples", "bar.png.meta.json"), png + ".meta.json")
    return png


def make_sees(folder, rig, sidecar):
    """Make reads the depfile's prerequisites as the real files: up to date now, stale once the
    sidecar is touched (a misread name is "no rule to make target", exit 2)."""
    write(os.path.join(folder, "Makefile"), f"{rig}:\n\tfalse\n-include out.d\n")
    q = subprocess.run(["make", "-q", rig], cwd=folder, capture_output=True, text=True)
    if q.returncode != 0:
        fail(f"make -q says {q.returncode} for a current rig: {q.stderr}")
    t = os.stat(rig).st_mtime + 10
    os.utime(sidecar, (t, t))
    q = subprocess.run(["make", "-q", rig], cwd=folder, capture_output=True, text=True)
    if q.returncode != 1:
        fail(f"make -q says {q.returncode} after the sidecar changed: {q.stderr}")


def ninja_deps(folder, rig, png):
    """The prerequisites Ninja records from the depfile, one per line of `ninja -t deps`."""
    with open(os.path.join(folder, "gen.sh"), "w") as f:
        f.write("exec " + " ".join("'" + a + "'" for a in (AUTORIG, png, "-o", rig, "--depfile", "out.d")) + "\n")
    write(os.path.join(folder, "build.ninja"),
          f"rule rig\n  command = sh gen.sh\n  depfile = out.d\n  deps = gcc\nbuild {rig}: rig\n")
    p = subprocess.run(["ninja"], cwd=folder, capture_output=True, text=True)
    if p.returncode != 0:
        fail("ninja failed: " + p.stdout + p.stderr)
    deps = subprocess.run(["ninja", "-t", "deps", rig], cwd=folder, capture_output=True, text=True).stdout
    return [line[4:] for line in deps.split("\n") if line.startswith("    ")]


def case_depfile_escapes():
    """Names with a space, '#', '$' and ':' are escaped so real make and ninja both read them; names
    no escape carries for both ('=', a tab, a newline) are a depfile.path error, not a broken rule."""
    if not shutil.which("make") or not shutil.which("ninja"):
        fail("make and ninja are needed (scripts/install-deps.sh)")
    w = workdir(WORK, "depfile_escapes")
    for i, name in enumerate(("a b", "h#sh", "d$l", "c:lon", "all #$: x")):
        d = os.path.join(w, f"ok{i}")
        os.makedirs(d)
        png = sprite_named(d, name)
        run_tool(AUTORIG, png, "-o", os.path.join(d, "out.rig2d.json"), "--depfile", os.path.join(d, "out.d"), expect=0)
        make_sees(d, os.path.join(d, "out.rig2d.json"), png + ".meta.json")
        n = os.path.join(w, f"ninja{i}")
        os.makedirs(n)
        png = sprite_named(n, name)
        got = ninja_deps(n, "out.rig2d.json", png)
        if got != [png, png + ".meta.json"]:
            fail(f"ninja read {got} for {name!r}")
    for i, (name, said) in enumerate((("e=q", "'='"), ("t\tab", "a tab"), ("n\nl", "a newline"), ("s;c", "';'"))):
        d = os.path.join(w, f"bad{i}")
        os.makedirs(d)
        png = sprite_named(d, name)
        p = run_tool(AUTORIG, png, "-o", os.path.join(d, "out.rig2d.json"), "--depfile", os.path.join(d, "out.d"),
                     expect=3)
        expect_code(p, "depfile.path")
        if said not in out_of(p) or os.path.exists(os.path.join(d, "out.d")):
            fail(f"{name!r}: the error does not say {said}, or a depfile was written")


def case_list_inputs_null():
    """--list-inputs refuses a path holding a newline (one per line cannot carry it); --null lists
    every path NUL-terminated, exactly."""
    w = workdir(WORK, "list_inputs_null")
    png = sprite_named(w, "two\nlines")
    p = run_tool(AUTORIG, png, "--list-inputs", expect=3)
    expect_code(p, "list.newline")
    if p.stdout:
        fail("paths were printed before the error")
    p = run_tool(AUTORIG, png, "--list-inputs", "--null", expect=0, text=False)
    if p.stdout.split(b"\0") != [png.encode(), (png + ".meta.json").encode(), b""]:
        fail(f"--null printed {p.stdout!r}")
    plain = sprite_named(w, "plain")
    p = run_tool(AUTORIG, plain, "--list-inputs", expect=0)
    if p.stdout != plain + "\n" + plain + ".meta.json\n":
        fail(f"--list-inputs printed {p.stdout!r}")


def case_atlas_names():
    """A slice name with a newline or ':' cannot add or redefine atlas regions: the exported region is
    named with '_' in their place, and the atlas reads back to exactly the regions exported."""
    w, skel, _ = spine_project("atlas_names")
    rig = os.path.join(w, "out", "hero.rig2d.json")
    run_tool(CONVERT, skel, "-o", rig, expect=0)
    meta = os.path.join(w, "spine", "hero.png.meta.json")
    with open(meta) as f:
        sidecar = json.load(f)
    names = {s["name"]: s for s in sidecar["sprites"]}
    names["body"]["name"] = "bo\ndy"
    names["arm"]["name"] = "ar:m\nbounds: 0, 0, 64, 64"
    write(meta, json.dumps(sidecar, indent=2))
    out = os.path.join(w, "exported", "hero.json")
    p = run_tool(CONVERT, rig, "--to", "spine", "--assets", w, "-o", out, expect=0)
    expect_code(p, "convert.spine.export.name")
    with open(os.path.join(w, "exported", "hero.atlas")) as f:
        atlas = f.read().split("\n")
    regions = [line for line in atlas if line and not line.startswith("\t")][1:]  # after the page line
    if sorted(regions) != ["ar_m_bounds_ 0, 0, 64, 64", "bo_dy"]:
        fail(f"the atlas regions are {regions}")
    if sum(1 for line in atlas if line.startswith("\tbounds:")) != 2:
        fail("the atlas does not hold exactly two bounds lines")
    with open(out) as f:
        paths = sorted(a["path"] for slot in json.load(f)["skins"][0]["attachments"].values() for a in slot.values())
    if paths != sorted(regions):
        fail(f"the attachments name {paths}, not the atlas regions")
    # The exported pair imports again: the atlas parses, its page is found beside it, each part finds
    # its region.
    p = run_tool(CONVERT, out, "-o", os.path.join(w, "again", "hero.rig2d.json"), expect=0)
    if "convert.atlas.region" in out_of(p):
        fail("a region was not found on re-import")


def spine_pages_rig(w):
    """The test Spine project imported to w/out/hero.rig2d.json, its arm drawn from a second texture of
    the same file name in w/other/ (a copy of the page with a sidecar of other GUIDs)."""
    skel = os.path.join(w, "spine", "hero.json")
    rig = os.path.join(w, "out", "hero.rig2d.json")
    run_tool(CONVERT, skel, "-o", rig, expect=0)
    os.makedirs(os.path.join(w, "other"))
    shutil.copy(os.path.join(w, "spine", "hero.png"), os.path.join(w, "other", "hero.png"))
    with open(os.path.join(w, "spine", "hero.png.meta.json")) as f:
        meta = json.load(f)
    meta["id"] = "22222222-0000-4000-8000-000000000000"
    arm = next(s for s in meta["sprites"] if s["name"] == "arm")
    meta["sprites"] = [dict(arm, guid="22222222-0000-4000-8000-000000000001")]
    write(os.path.join(w, "other", "hero.png.meta.json"), json.dumps(meta))
    return rig, arm["guid"]


def case_spine_pages():
    """Spine export names atlas pages by bare file name and places them beside the atlas (copy, link,
    none); same-named textures from two folders get hero.png and hero-2.png; the export imports again
    from another working directory with no --assets; a texture exported into its own folder is left as
    it is; --textures goes with a Spine output only."""
    w, _, _ = spine_project("spine_pages")
    rig, arm_guid = spine_pages_rig(w)
    with open(rig) as f:
        doc = json.load(f)
    arm = next(p for p in doc["parts"] if p["sprite"] == arm_guid)
    arm["sprite"] = "22222222-0000-4000-8000-000000000001"
    write(rig, json.dumps(doc))
    src = {n: open(os.path.join(w, d, "hero.png"), "rb").read() for n, d in (("spine", "spine"), ("other", "other"))}
    out = os.path.join(w, "exported", "hero.json")
    p = run_tool(CONVERT, rig, "--assets", w, "-o", out, expect=0)
    expect_code(p, "convert.spine.export.page.renamed")
    with open(os.path.join(w, "exported", "hero.atlas")) as f:
        atlas = f.read()
    pages = [b.split("\n")[0] for b in atlas.split("\n\n")]
    if pages != ["hero.png", "hero-2.png"]:
        fail(f"the atlas pages are {pages}")
    # The body (order 0, first) draws from spine/hero.png; the arm from other/hero.png.
    body_page = [b for b in atlas.split("\n\n") if "\nbody\n" in b]
    if len(body_page) != 1 or not body_page[0].startswith("hero.png\n"):
        fail("the body's region is not on page hero.png:\n" + atlas)
    for name, key in (("hero.png", "spine"), ("hero-2.png", "other")):
        path = os.path.join(w, "exported", name)
        if os.path.islink(path) or open(path, "rb").read() != src[key]:
            fail(f"{name} is not a copy of {key}/hero.png")
    first = {n: open(os.path.join(w, "exported", n), "rb").read() for n in os.listdir(os.path.join(w, "exported"))}
    run_tool(CONVERT, rig, "--assets", w, "-o", out, expect=0)
    again = {n: open(os.path.join(w, "exported", n), "rb").read() for n in os.listdir(os.path.join(w, "exported"))}
    if again != first:
        fail("a second export wrote other bytes")
    # link: relative symlinks; none: no page written.
    linked = os.path.join(w, "linked", "hero.json")
    run_tool(CONVERT, rig, "--assets", w, "--textures", "link", "-o", linked, expect=0)
    for name, target in (("hero.png", "../spine/hero.png"), ("hero-2.png", "../other/hero.png")):
        if os.readlink(os.path.join(w, "linked", name)) != target:
            fail(f"linked/{name} -> {os.readlink(os.path.join(w, 'linked', name))}, expected {target}")
    # Again, link or copy: the links already are the textures, so they stay. A link to another file is
    # replaced by the copy, never written through.
    run_tool(CONVERT, rig, "--assets", w, "--textures", "link", "-o", linked, expect=0)
    run_tool(CONVERT, rig, "--assets", w, "--textures", "copy", "-o", linked, expect=0)
    if os.readlink(os.path.join(w, "linked", "hero.png")) != "../spine/hero.png":
        fail("a link that already is the texture was replaced")
    write(os.path.join(w, "decoy.png"), "not a texture")
    os.remove(os.path.join(w, "linked", "hero.png"))
    os.symlink("../decoy.png", os.path.join(w, "linked", "hero.png"))
    run_tool(CONVERT, rig, "--assets", w, "--textures", "copy", "-o", linked, expect=0)
    page = os.path.join(w, "linked", "hero.png")
    if os.path.islink(page) or open(page, "rb").read() != src["spine"]:
        fail("a copy over a link to another file did not replace the link")
    if open(os.path.join(w, "decoy.png")).read() != "not a texture":
        fail("the copy was written through the link")
    bare = os.path.join(w, "bare", "hero.json")
    p = run_tool(CONVERT, rig, "--assets", w, "--textures", "none", "-o", bare, expect=0)
    if sorted(os.listdir(os.path.join(w, "bare"))) != ["hero.atlas", "hero.json"]:
        fail("--textures none wrote " + ", ".join(os.listdir(os.path.join(w, "bare"))))
    if "place" not in out_of(p):
        fail("--textures none did not say where to place the pages")
    # Exported into the texture's own folder: hero.png is the texture itself, left untouched.
    page = os.path.join(w, "spine", "hero.png")
    before = os.stat(page)
    run_tool(CONVERT, rig, "--assets", w, "-o", os.path.join(w, "spine", "exported.json"), expect=0)
    after = os.stat(page)
    if (before.st_ino, before.st_mtime_ns) != (after.st_ino, after.st_mtime_ns):
        fail("the texture was rewritten onto itself")
    p = run_tool(CONVERT, rig, "--textures", "copy", "-o", os.path.join(w, "x.tscn"), expect=2)
    expect_code(p, "convert.textures")
    # A loader that looks beside the atlas: the import, run elsewhere, with no --assets (last: it writes
    # sidecars beside the page copies).
    elsewhere = os.path.join(w, "elsewhere")
    os.makedirs(elsewhere)
    p = run_tool(CONVERT, os.path.join("..", "exported", "hero.json"), "-o", "back.rig2d.json", cwd=elsewhere, expect=0)
    if "convert.atlas.region" in out_of(p) or "no .atlas" in out_of(p):
        fail("the exported atlas did not load:\n" + out_of(p))
    with open(os.path.join(w, "exported", "hero-2.png.meta.json")) as f:
        if [s["name"] for s in json.load(f)["sprites"]] != ["arm"]:
            fail("the arm's page hero-2.png did not get its slice")
    run_tool(CONVERT, linked, "-o", os.path.join(w, "linked_back", "hero.rig2d.json"), expect=0)


def dead_pid():
    """The id of a process that has exited (a short-lived child, waited for)."""
    p = subprocess.Popen(["true"])
    p.wait()
    return p.pid


def case_write_leftovers():
    """Temp files and undo links of a writer killed with -9 are removed by the next run (and said so),
    listed by --check as "leftover PATH" (exit 1), and named by --dry-run; a live writer's are kept."""
    w = workdir(WORK, "write_leftovers")
    png = sprite_named(w, "bar")
    rig = os.path.join(w, "bar.rig2d.json")
    run_tool(AUTORIG, png, "-o", rig, expect=0)
    pid = dead_pid()
    dead = [os.path.join(w, f".bar.rig2d.json.tmp.{pid}.0"), os.path.join(w, f".bar.png.meta.json.tmp.{pid}.2")]
    for path in dead:
        write(path, "half a file")
    old = os.path.join(w, f".bar.rig2d.json.old.{pid}.1")
    os.link(rig, old)
    dead.append(old)
    keep = [os.path.join(w, f".bar.rig2d.json.tmp.{os.getpid()}.0"), os.path.join(w, ".notes.tmp.txt")]
    for path in keep:
        write(path, "not ours to remove")
    p = run_tool(AUTORIG, png, "-o", rig, "--check", expect=1)
    listed = sorted(line[len("leftover "):] for line in p.stdout.splitlines() if line.startswith("leftover "))
    if listed != sorted(dead):
        fail(f"--check listed {listed}")
    p = run_tool(AUTORIG, png, "-o", rig, "--dry-run", expect=0)
    if out_of(p).count("would remove") != 3 or not all(os.path.exists(f) for f in dead):
        fail("--dry-run did not name the three leftovers, or removed them")
    p = run_tool(AUTORIG, png, "-o", rig, expect=0)
    if out_of(p).count("(left by an interrupted run)") != 3 or any(os.path.exists(f) for f in dead):
        fail("the run did not remove and name the three leftovers:\n" + out_of(p))
    if not all(os.path.exists(f) for f in keep) or not os.path.exists(rig):
        fail("a live writer's temp, another hidden file or the rig was removed")
    for path in keep:
        os.remove(path)
    run_tool(AUTORIG, png, "-o", rig, "--check", expect=0)
    # A real kill -9 mid-batch: whatever it left, the next run leaves no temp or undo link behind.
    batch = os.path.join(w, "batch")
    os.makedirs(batch)
    for i in range(40):
        sprite_named(batch, f"s{i:02d}")
    proc = subprocess.Popen([AUTORIG, "-j", "2", batch], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    import time
    time.sleep(0.3)  # not a timing assertion: any moment of the run will do
    proc.kill()
    proc.wait()
    run_tool(AUTORIG, "-j", "2", batch, expect=0)
    stray = [f for f in os.listdir(batch) if ".tmp." in f or ".old." in f]
    if stray:
        fail("left after the next run: " + ", ".join(stray))
    run_tool(AUTORIG, "-j", "2", batch, "--check", expect=0)


def case_sheet_orphans():
    """A slice renamed in the sidecar: its new rig is written by name, and the old name's rig (which
    still draws the old slice) is reported as autorig.slice.orphan, not deleted. A sprite whose own
    PNG makes a look-alike name is not an orphan."""
    w = workdir(WORK, "sheet_orphans")
    png = sheet_png(w, 3, 1)
    sprite_named(w, "sheet.extra")
    p = run_tool(AUTORIG, w, expect=0)
    if "autorig.slice.orphan" in out_of(p):
        fail("an orphan on the first run")
    with open(png + ".meta.json") as f:
        meta = json.load(f)
    meta["sprites"][1]["name"] = "renamed"
    write(png + ".meta.json", json.dumps(meta))
    p = run_tool(AUTORIG, w, expect=0)
    orphan = os.path.join(w, "sheet.s0001.rig2d.json")
    lines = [line for line in out_of(p).splitlines() if "[autorig.slice.orphan]" in line]
    if len(lines) != 1 or not lines[0].startswith(orphan + ":") or "sheet.png" not in lines[0]:
        fail("expected one orphan warning naming sheet.s0001.rig2d.json:\n" + out_of(p))
    if not os.path.exists(orphan) or not os.path.exists(os.path.join(w, "sheet.renamed.rig2d.json")):
        fail("the orphan was deleted, or the renamed slice got no rig")
    with open(os.path.join(w, "sheet.renamed.rig2d.json")) as f:
        if json.load(f)["sprite"] != "11111111-0000-4000-8000-000000000001":
            fail("the renamed slice's rig does not draw it")
    # --slice rigs one slice: it cannot tell orphans.
    p = run_tool(AUTORIG, png, "--slice", "renamed", expect=0)
    if "autorig.slice.orphan" in out_of(p):
        fail("--slice reported orphans")


if __name__ == "__main__":
    run_case(CASE, globals())
