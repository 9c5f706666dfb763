#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""rig2d-autorig's per-sprite templates end to end (stdlib only): --template-map, the sidecar's
{"rig2d": {"template": ...}} key, their precedence, located errors, and the build plumbing (stamps,
--check, --shard, --depfile, --list-inputs).
Usage: autorig_templates_test.py AUTORIG SOURCE_DIR WORK_DIR CASE
"""
import json
import os
import shutil
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
from cli_test_lib import fail, run_case, workdir, write  # noqa: E402
from cli_test_lib import run_tool as run  # noqa: E402

AUTORIG, SRC, WORK = sys.argv[1], sys.argv[2], sys.argv[3]
TWO_LEGS = {"template": "twolegs", "bones": [
    {"name": "hips"},
    {"name": "leg_l", "parent": "hips", "length": 0.4, "direction": [45, 135], "tip": True},
    {"name": "leg_r", "parent": "hips", "length": 0.4, "direction": [45, 135], "tip": True}]}


def art(case):
    """A mixed batch: two figures under heroes/, a bar under props/, a figure at the top; a map."""
    d = workdir(WORK, case)
    for rel, sample in (("heroes/a.png", "figure.png"), ("heroes/b.png", "hero.png"), ("props/bar.png", "bar.png"),
                        ("loose.png", "figure.png")):
        os.makedirs(os.path.dirname(os.path.join(d, rel)), exist_ok=True)
        shutil.copy(os.path.join(SRC, "samples", sample), os.path.join(d, rel))
    write(os.path.join(d, "twolegs.rig2d-template.json"), json.dumps(TWO_LEGS))
    write(os.path.join(d, "art.template-map.json"), json.dumps({"rules": [
        {"glob": "heroes/**", "template": "humanoid"},
        {"glob": "props/*.png", "template": "prop"}]}))
    return d


def bone_names(rig):
    with open(rig) as f:
        return [b["name"] for b in json.load(f)["bones"]]


def rigs(d):
    out = {}
    for root, _, files in os.walk(d):
        for name in files:
            if name.endswith(".rig2d.json"):
                out[os.path.relpath(os.path.join(root, name), d)] = open(os.path.join(root, name)).read()
    return out


def autorig(d, *args, expect=0):
    return run(AUTORIG, *args, expect=expect, cwd=d)


def case_map():
    d = art("map")
    p = autorig(d, ".", "--write-meta", "--template-map", "art.template-map.json", "-v", "-j", "2")
    assert_names(d)
    if "chosen by the map art.template-map.json at /rules/0 (heroes/**)" not in p.stderr:
        fail("-v does not say which rule chose the template:\n" + p.stderr[-3000:])


def assert_names(d, loose_first="root"):
    for hero in ("heroes/a.rig2d.json", "heroes/b.rig2d.json"):
        names = bone_names(os.path.join(d, hero))
        if names[:2] != ["root", "hips"] or "upper_arm_l" not in names or "shin_r" not in names:
            fail(f"{hero}: not the humanoid's bones: {names}")
    if bone_names(os.path.join(d, "props/bar.rig2d.json")) != ["prop"]:
        fail("props/bar: not the prop's one bone: " + str(bone_names(os.path.join(d, "props/bar.rig2d.json"))))
    loose = bone_names(os.path.join(d, "loose.rig2d.json"))
    if loose[0] != loose_first:
        fail(f"loose.png (no rule): expected {loose_first} first, got {loose}")


def case_precedence():
    d = art("precedence")
    autorig(d, ".", "--write-meta", "--template", "prop")
    if bone_names(os.path.join(d, "heroes/a.rig2d.json")) != ["prop"]:
        fail("--template prop alone: every sprite gets the prop")
    # The map wins over --template for the sprites it matches; --template rigs the rest.
    autorig(d, ".", "--template-map", "art.template-map.json", "--template", "twolegs.rig2d-template.json")
    assert_names(d, loose_first="hips")
    if bone_names(os.path.join(d, "loose.rig2d.json")) != ["hips", "leg_l", "leg_r"]:
        fail("loose.png: --template's file template expected")
    # The sidecar wins over the map: heroes/b's names a template file relative to the sidecar.
    meta = os.path.join(d, "heroes/b.png.meta.json")
    sidecar = json.load(open(meta))
    sidecar["rig2d"] = {"template": "../twolegs.rig2d-template.json"}
    write(meta, json.dumps(sidecar, indent=2))
    autorig(d, ".", "--template-map", "art.template-map.json")
    if bone_names(os.path.join(d, "heroes/b.rig2d.json")) != ["hips", "leg_l", "leg_r"]:
        fail("heroes/b.png: the sidecar's template should win over the map")
    if bone_names(os.path.join(d, "heroes/a.rig2d.json"))[:2] != ["root", "hips"] or \
            "upper_arm_l" not in bone_names(os.path.join(d, "heroes/a.rig2d.json")):
        fail("heroes/a.png: the map's humanoid expected")
    # "none" in a sidecar: the shape skeleton for that sprite, whatever the map says.
    sidecar["rig2d"] = {"template": "none"}
    write(meta, json.dumps(sidecar, indent=2))
    autorig(d, ".", "--template-map", "art.template-map.json")
    if bone_names(os.path.join(d, "heroes/b.rig2d.json"))[0] != "root":
        fail("heroes/b.png: rig2d.template none should give the shape skeleton")


def expect_error(d, args, code, where):
    before = rigs(d)
    p = autorig(d, *args, expect=3)
    if f"[{code}]" not in p.stderr or where not in p.stderr:
        fail(f"expected [{code}] at {where}:\n{p.stderr}")
    if rigs(d) != before:
        fail(f"{args}: a rig was written despite [{code}]")


def case_errors():
    d = art("errors")
    autorig(d, ".", "--write-meta")
    write(os.path.join(d, "bad1.json"), '{"rules": [\n  {"glob": "heroes/**", "templat": "humanoid"}\n]}')
    expect_error(d, [".", "--template-map", "bad1.json"], "template_map.key", "bad1.json:2:")
    write(os.path.join(d, "bad2.json"), '{"rules": [\n  {"glob": "/heroes/**", "template": "humanoid"}\n]}')
    expect_error(d, [".", "--template-map", "bad2.json"], "template_map.glob", "bad2.json:2:")
    write(os.path.join(d, "bad3.json"), '{"rules": [\n  {"glob": "heroes/**",\n   "template": "humanoidd"}\n]}')
    expect_error(d, [".", "--template-map", "bad3.json"], "template.unknown", "bad3.json:3:")
    write(os.path.join(d, "bad.rig2d-template.json"), '{"template": "x", "bones": [{"name": "a", "lenght": 1}]}')
    write(os.path.join(d, "bad4.json"), '{"rules": [{"glob": "*.png", "template": "bad.rig2d-template.json"}]}')
    expect_error(d, [".", "--template-map", "bad4.json"], "template.key", "bad.rig2d-template.json:1:")
    expect_error(d, [".", "--template-map", "missing.json"], "io.not_found", "missing.json")
    # A sidecar's bad key fails that sprite (exit 3 for the batch's failure is kFindings = 1 for a
    # folder; a single sprite exits 3) with the sidecar's location; the other sprites are rigged.
    meta = os.path.join(d, "loose.png.meta.json")
    sidecar = json.load(open(meta))
    sidecar["rig2d"] = {"template": "humanoidd"}
    write(meta, json.dumps(sidecar, indent=2))
    expect_error(d, ["loose.png"], "template.unknown", "loose.png.meta.json:")
    sidecar["rig2d"] = {"tmpl": "humanoid"}
    write(meta, json.dumps(sidecar, indent=2))
    expect_error(d, ["loose.png"], "meta.rig2d", "loose.png.meta.json:")
    p = autorig(d, ".", expect=1)
    if "[meta.rig2d]" not in p.stderr:
        fail("a folder batch should report the bad sidecar:\n" + p.stderr)
    # --template-map is for sprite batches: not with --layout.
    p = autorig(d, "--layout", "heroes", "--template-map", "art.template-map.json", expect=2)
    if "--template-map" not in p.stderr:
        fail("--layout with --template-map: the usage error should name it:\n" + p.stderr)


def case_stamps():
    d = art("stamps")
    args = [".", "--write-meta", "--template-map", "art.template-map.json"]
    autorig(d, *args)
    p = autorig(d, *args, "-v")
    if ", 4 up to date" not in p.stderr:
        fail("an unchanged re-run should find every rig current:\n" + p.stderr[-2000:])
    stamps = {r: open(os.path.join(d, r + ".stamp")).read() for r in rigs(d)}
    # Pointing the props rule at a template file changes only the props' stamps.
    write(os.path.join(d, "art.template-map.json"), json.dumps({"rules": [
        {"glob": "heroes/**", "template": "humanoid"},
        {"glob": "props/*.png", "template": "twolegs.rig2d-template.json"}]}))
    autorig(d, *args)
    after = {r: open(os.path.join(d, r + ".stamp")).read() for r in rigs(d)}
    changed = sorted(r for r in stamps if stamps[r] != after[r])
    if changed != ["props/bar.rig2d.json"]:
        fail(f"a changed rule should re-stamp only its sprites, got {changed}")
    if bone_names(os.path.join(d, "props/bar.rig2d.json")) != ["hips", "leg_l", "leg_r"]:
        fail("props/bar: the new rule's template was not used")
    # Editing the template file (not the map) re-rigs the sprites that use it.
    legs = dict(TWO_LEGS)
    legs["bones"] = [dict(b) for b in TWO_LEGS["bones"]]
    legs["bones"][1]["name"] = "leg_left"
    write(os.path.join(d, "twolegs.rig2d-template.json"), json.dumps(legs))
    autorig(d, *args)
    if bone_names(os.path.join(d, "props/bar.rig2d.json")) != ["hips", "leg_left", "leg_r"]:
        fail("an edited template file did not re-rig the sprite using it")


def case_check_shard():
    d = art("check_shard")
    args = [".", "--template-map", "art.template-map.json"]
    autorig(d, ".", "--write-meta")
    # Shards: the two together write exactly what one run writes.
    autorig(d, *args, "--shard", "1/2")
    autorig(d, *args, "--shard", "2/2")
    sharded = rigs(d)
    assert_names(d)
    autorig(d, *args, "--check")
    whole = art("check_shard_whole")
    autorig(whole, ".", "--write-meta")
    autorig(whole, *args)
    if rigs(whole) != sharded:
        fail("two shards did not write what one run writes")
    # --check: a changed map makes the sprites it moves stale.
    write(os.path.join(d, "art.template-map.json"), json.dumps({"rules": [{"glob": "heroes/**", "template": "prop"}]}))
    p = autorig(d, *args, "--check", expect=1)
    stale = sorted(line for line in p.stdout.splitlines() if line.startswith("stale "))
    want = sorted(["stale ./heroes/a.rig2d.json", "stale ./heroes/b.rig2d.json", "stale ./props/bar.rig2d.json"])
    if stale != want:
        fail(f"--check after a map change: {stale}, expected {want}")


def case_auto_why():
    """--template auto keeps the shape skeleton for a mouse (a fish's head, tail and fin by the score,
    but no fin fans out) and says why under -v; the real fish stays a fish."""
    d = workdir(WORK, "auto_why")
    real = os.path.join(SRC, "tests", "data", "real-sprites", "kenney_platformer-art-deluxe_extra_animations_and_enemies_")
    shutil.copy(real + "mouse.png", os.path.join(d, "mouse.png"))
    shutil.copy(real + "fishGreen.png", os.path.join(d, "fish.png"))
    p = autorig(d, ".", "--write-meta", "--template", "auto", "-v", "-j", "1")
    mouse = [line for line in p.stderr.splitlines() if "mouse.png: skeleton: auto" in line]
    if len(mouse) != 1 or "the shape skeleton" not in mouse[0] or "not fish: no tail fin" not in mouse[0]:
        fail("-v should say the mouse keeps the shape skeleton, and why not a fish:\n" + p.stderr[-3000:])
    if "tail_fin" in bone_names(os.path.join(d, "mouse.rig2d.json")):
        fail("the mouse got the fish's bones: " + str(bone_names(os.path.join(d, "mouse.rig2d.json"))))
    if bone_names(os.path.join(d, "fish.rig2d.json"))[0] != "body" or "tail_fin" not in bone_names(os.path.join(d, "fish.rig2d.json")):
        fail("the fish lost its template: " + str(bone_names(os.path.join(d, "fish.rig2d.json"))))


def case_arms():
    """--template-arms: the standing figure's arms held against its body move onto its drawn sleeves and
    hands, -v names the refined bones, and the flag is part of the rig's stamp; without it the arms
    stay where the proportions put them."""
    d = workdir(WORK, "arms")
    real = os.path.join(SRC, "tests", "data", "real-sprites", "kenney_platformer-characters_player_player_idle.png")
    shutil.copy(real, os.path.join(d, "idle.png"))
    autorig(d, "idle.png", "--write-meta", "--template", "humanoid", "-o", "plain.rig2d.json")
    p = autorig(d, "idle.png", "--template", "humanoid", "--template-arms", "-v", "-o", "arms.rig2d.json")
    line = [x for x in p.stderr.splitlines() if "skeleton: template humanoid" in x]
    if len(line) != 1 or "refined from colour edges: upper_arm_l, lower_arm_l, hand_l, upper_arm_r" not in line[0]:
        fail("-v should name the arms refined from colour edges:\n" + p.stderr[-3000:])
    plain, arms = (json.load(open(os.path.join(d, n)))["bones"] for n in ("plain.rig2d.json", "arms.rig2d.json"))
    moved = sorted(a["name"] for a, b in zip(plain, arms) if (a["x"], a["y"]) != (b["x"], b["y"]))
    if "hand_l" not in moved or "hand_r" not in moved or "head" in moved or "foot_l" in moved:
        fail("--template-arms should move the arms' joints and nothing else: " + str(moved))
    p = autorig(d, "idle.png", "--template", "humanoid", "-o", "arms.rig2d.json", "--check", expect=None)
    if p.returncode == 0:
        fail("--check without --template-arms should find the rig made with it stale")


def case_depfile():
    d = art("depfile")
    autorig(d, ".", "--write-meta")
    write(os.path.join(d, "art.template-map.json"), json.dumps({"rules": [
        {"glob": "props/*.png", "template": "twolegs.rig2d-template.json"}]}))
    p = autorig(d, ".", "--template-map", "art.template-map.json", "--list-inputs")
    listed = p.stdout.splitlines()
    for want in ("art.template-map.json", "twolegs.rig2d-template.json"):
        if want not in listed:
            fail(f"--list-inputs does not list {want}: {listed}")
    autorig(d, ".", "--template-map", "art.template-map.json", "--depfile", "rigs.d")
    dep = open(os.path.join(d, "rigs.d")).read()
    bar_rule = [r for r in dep.split("\n./") if "props/bar.rig2d.json:" in r]
    if not bar_rule or "twolegs.rig2d-template.json" not in bar_rule[0] or "art.template-map.json" not in bar_rule[0]:
        fail("the depfile rule of props/bar should name the map and its template file:\n" + dep)


def case_layered():
    """A layered document with --template: the template's names over all its parts; a template file is
    one of its inputs (listed, stamped: editing it re-rigs)."""
    d = workdir(WORK, "layered")
    shutil.copy(os.path.join(SRC, "samples/layered/puppet.psd"), os.path.join(d, "puppet.psd"))
    write(os.path.join(d, "twolegs.rig2d-template.json"), json.dumps(TWO_LEGS))
    autorig(d, "puppet.psd", "--template", "humanoid")
    rig = json.load(open(os.path.join(d, "puppet.rig2d.json")))
    names = [b["name"] for b in rig["bones"]]
    if names[:2] != ["root", "hips"] or "hand_l" not in names or len(rig["parts"]) < 8:
        fail(f"a layered document with --template humanoid: {names}, {len(rig['parts'])} parts")
    p = autorig(d, "puppet.psd", "--template", "twolegs.rig2d-template.json", "--list-inputs")
    if "twolegs.rig2d-template.json" not in p.stdout.splitlines():
        fail("--list-inputs of a layered document does not list its template file:\n" + p.stdout)
    autorig(d, "puppet.psd", "--template", "twolegs.rig2d-template.json")
    legs = dict(TWO_LEGS)
    legs["bones"] = [dict(b) for b in TWO_LEGS["bones"]]
    legs["bones"][2]["name"] = "leg_right"
    write(os.path.join(d, "twolegs.rig2d-template.json"), json.dumps(legs))
    autorig(d, "puppet.psd", "--template", "twolegs.rig2d-template.json")
    if bone_names(os.path.join(d, "puppet.rig2d.json")) != ["hips", "leg_l", "leg_right"]:
        fail("an edited template file did not re-rig the layered document")



def case_clobber():
    """The map and template files are inputs: no rig, stamp or depfile may be written over them."""
    d = art("clobber")
    autorig(d, ".", "--write-meta")
    keep = {n: open(os.path.join(d, n)).read() for n in ("art.template-map.json", "twolegs.rig2d-template.json")}
    for args in (["props/bar.png", "--template-map", "art.template-map.json", "-o", "art.template-map.json"],
                 ["props/bar.png", "--template", "twolegs.rig2d-template.json", "-o", "twolegs.rig2d-template.json"],
                 [".", "--template-map", "art.template-map.json", "--depfile", "art.template-map.json"]):
        p = autorig(d, *args, expect=2)
        if "[io.output.is_input]" not in p.stderr:
            fail(f"{args}: expected io.output.is_input:\n{p.stderr}")
    for name, text in keep.items():
        if open(os.path.join(d, name)).read() != text:
            fail(f"{name} was overwritten")

run_case(sys.argv[4], globals())
