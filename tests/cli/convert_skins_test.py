#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""rig2d-convert --skin on tests/data/convert/skins (docs/convert.md, "Skins and linked meshes"): skins
combined in the order given over the default skin, --skin each with its file names, the sidecar
holding every skin's slices, and the errors (an unknown skin, a failing skin) that write nothing.
Expected vertices are worked out by hand from skins.json (see tests/unit/interop/test_spine_skins.cpp).

Usage: convert_skins_test.py BIN_DIR SOURCE_DIR WORK_DIR CASE
"""
import json
import os
import shutil
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cli_test_lib import fail, run_case, run_tool, workdir, write  # noqa: E402

BIN, SRC, WORK, CASE = sys.argv[1:5]
CONVERT = os.path.join(BIN, "rig2d-convert", "rig2d-convert")
VALIDATE = os.path.join(BIN, "rig2d-validate", "rig2d-validate")
SKINS = os.path.join(SRC, "tests", "data", "convert", "skins")


def copy_skins(case):
    """A fresh copy of the fixture (an import writes the page's sidecar beside it)."""
    w = workdir(WORK, case)
    shutil.copytree(SKINS, os.path.join(w, "in"))
    return w, os.path.join(w, "in", "skins.json")


def load(path):
    with open(path) as f:
        return json.load(f)


def part(rig, name):
    for p in rig["parts"]:
        if p["name"] == name:
            return p
    fail(f"no part {name!r} in {[p['name'] for p in rig['parts']]}")


def slice_name(sidecar, guid):
    for s in sidecar["sprites"]:
        if s["guid"] == guid:
            return s["name"]
    fail(f"sprite {guid} is not in the sidecar")


def expect_verts(p, verts):
    got = [tuple(v) for v in p["mesh"]["verts"]]
    if any(abs(a - b) > 1e-9 for g, e in zip(got, verts) for a, b in zip(g, e)) or len(got) != len(verts):
        fail(f"part {p['name']}: vertices {got}, expected {verts}")


def files_under(folder):
    return sorted(os.path.relpath(os.path.join(d, f), folder) for d, _, fs in os.walk(folder) for f in fs)


def case_order():
    """--skin a --skin b: "b" given last wins the body (40 x 10); "a" adds the cape; "b"'s linked hat is
    the default skin's weighted mesh drawn from region hat-b. Given the other way, "a"'s body wins."""
    w, skel = copy_skins("order")
    out = os.path.join(w, "out", "x.rig2d.json")
    p = run_tool(CONVERT, skel, "--skin", "a", "--skin", "b", "-o", out, expect=0)
    if "warning" in p.stderr:
        fail("warnings where none were expected:\n" + p.stderr)
    rig, sidecar = load(out), load(os.path.join(w, "in", "page.png.meta.json"))
    expect_verts(part(rig, "body"), [(-20, -5), (20, -5), (20, 5), (-20, 5)])
    expect_verts(part(rig, "cape"), [(-4, -24), (4, -24), (4, -16), (-4, -16)])
    hat = part(rig, "hat")
    expect_verts(hat, [(10, 0), (20, 0), (10, -10)])
    if hat["skinWeights"] != [1, 0, 0, 0, 0.5, 0.5, 0, 0, 1, 0, 0, 0] or hat["mesh"]["tris"] != [0, 1, 2]:
        fail(f"the linked hat lost its parent's weights or triangles: {hat}")
    if slice_name(sidecar, part(rig, "body")["sprite"]) != "body-b" or slice_name(sidecar, hat["sprite"]) != "hat-b":
        fail("the body or the hat does not draw skin b's region")
    run_tool(CONVERT, skel, "--skin", "b", "--skin", "a", "-o", out, expect=0)
    body = part(load(out), "body")
    expect_verts(body, [(-15, -5), (15, -5), (15, 5), (-15, 5)])
    if slice_name(load(os.path.join(w, "in", "page.png.meta.json")), body["sprite"]) != "body-a":
        fail("--skin b --skin a: the body is not skin a's")


def case_each():
    """--skin each: a rig per skin but "default" (under each), named OUT with the skin before the suffix
    ("c/d" -> c%2Fd); one sidecar with every skin's slices; each rig validates against it; a second run
    writes the same bytes."""
    w, skel = copy_skins("each")
    out_dir = os.path.join(w, "out")
    run_tool(CONVERT, skel, "--skin", "each", "-o", os.path.join(out_dir, "x.rig2d.json"), expect=0)
    names = ["x.a.rig2d.json", "x.b.rig2d.json", "x.c%2Fd.rig2d.json"]
    if files_under(out_dir) != names:
        fail(f"--skin each wrote {files_under(out_dir)}, expected {names}")
    sidecar_path = os.path.join(w, "in", "page.png.meta.json")
    sidecar = load(sidecar_path)
    slices = sorted(s["name"] for s in sidecar["sprites"])
    if slices != ["body", "body-a", "body-b", "cape", "hat", "hat-b", "hat-c"]:
        fail(f"the sidecar holds {slices}: every skin's regions expected")
    widths = {"x.a.rig2d.json": 30, "x.b.rig2d.json": 40, "x.c%2Fd.rig2d.json": 20}  # c/d keeps the default body
    hats = {"x.a.rig2d.json": "hat", "x.b.rig2d.json": "hat-b", "x.c%2Fd.rig2d.json": "hat-c"}
    ids = set()
    for name in names:
        rig = load(os.path.join(out_dir, name))
        ids.add(rig["id"])
        xs = [v[0] for v in part(rig, "body")["mesh"]["verts"]]
        if max(xs) - min(xs) != widths[name]:
            fail(f"{name}: body {max(xs) - min(xs)} wide, expected {widths[name]}")
        if slice_name(sidecar, part(rig, "hat")["sprite"]) != hats[name]:
            fail(f"{name}: the hat draws the wrong region")
        run_tool(VALIDATE, "--assets", w, os.path.join(out_dir, name), "-q", expect=0)
    if len(ids) != len(names):
        fail("two skins' rigs share an id")
    before = {n: open(os.path.join(out_dir, n), "rb").read() for n in names}
    sidecar_before = open(sidecar_path, "rb").read()
    run_tool(CONVERT, skel, "--skin", "each", "-o", os.path.join(out_dir, "x.rig2d.json"), expect=0)
    for n in names:
        if open(os.path.join(out_dir, n), "rb").read() != before[n]:
            fail(f"a second run changed {n}")
    if open(sidecar_path, "rb").read() != sidecar_before:
        fail("a second run changed the sidecar")


def case_unknown():
    """An unknown skin: the file, line:col and pointer of "skins", the skins it has, exit 3, nothing written."""
    w, skel = copy_skins("unknown")
    out = os.path.join(w, "out", "x.rig2d.json")
    p = run_tool(CONVERT, skel, "--skin", "a", "--skin", "nope", "-o", out, expect=3)
    want = 'skins.json:11:10: error: /skins: no skin named "nope": the skeleton\'s skins are "default", "a", "b", "c/d" [spine.skin.unknown]'
    if want not in p.stderr:
        fail(f"expected {want!r} in:\n{p.stderr}")
    if os.path.exists(os.path.join(w, "out")) or os.path.exists(os.path.join(w, "in", "page.png.meta.json")):
        fail("a failed run wrote something")


def case_each_fails_whole():
    """--skin each where one skin's attachment is malformed: exit 3 and no rig of any skin, no sidecar."""
    w, skel = copy_skins("each_fails")
    doc = load(skel)
    doc["skins"][3]["attachments"]["body"] = {"body": {"type": "mesh", "uvs": [0, 0, 1], "triangles": [], "vertices": []}}
    write(skel, json.dumps(doc, indent=1))
    p = run_tool(CONVERT, skel, "--skin", "each", "-o", os.path.join(w, "out", "x.rig2d.json"), expect=3)
    if "[spine.attachment.uvs]" not in p.stderr:
        fail("the failing skin's error is not reported:\n" + p.stderr)
    if os.path.exists(os.path.join(w, "out")) or os.path.exists(os.path.join(w, "in", "page.png.meta.json")):
        fail("a failed --skin each wrote something")


def case_case_collision():
    """Skins "Boy" and "boy" would be one file on Windows and macOS: --skin each refuses, exit 3, nothing written."""
    w, skel = copy_skins("case_collision")
    doc = load(skel)
    doc["skins"][1]["name"], doc["skins"][2]["name"] = "Boy", "boy"
    doc["skins"][3]["attachments"]["hat"]["hat"]["skin"] = "boy"
    write(skel, json.dumps(doc, indent=1))
    p = run_tool(CONVERT, skel, "--skin", "each", "-o", os.path.join(w, "out", "x.rig2d.json"), expect=3)
    if 'skins "Boy" and "boy" would be written to files whose names differ only in case' not in p.stderr or \
            "[convert.skin.collision]" not in p.stderr:
        fail(p.stderr)
    if os.path.exists(os.path.join(w, "out")) or os.path.exists(os.path.join(w, "in", "page.png.meta.json")):
        fail("a refused --skin each wrote something")


def case_usage():
    """--skin each goes alone, and --skin with a Spine input only: usage errors (exit 2)."""
    w, skel = copy_skins("usage")
    p = run_tool(CONVERT, skel, "--skin", "each", "--skin", "a", "-o", os.path.join(w, "x.rig2d.json"), expect=2)
    if "[convert.skin]" not in p.stderr:
        fail(p.stderr)
    tscn = os.path.join(SRC, "tests", "data", "convert", "godot", "hero.tscn")
    p = run_tool(CONVERT, tscn, "--skin", "a", "-o", os.path.join(w, "y.rig2d.json"), expect=2)
    if "--skin goes with a Spine skeleton input [convert.skin]" not in p.stderr:
        fail(p.stderr)
    for made in ("x.rig2d.json", "y.rig2d.json", os.path.join("in", "page.png.meta.json")):
        if os.path.exists(os.path.join(w, made)):
            fail(f"a usage error wrote {made}")


run_case(CASE, globals())
