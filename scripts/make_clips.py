#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Writes the bundled clips (clips/<template>/<clip>.anim.json) from the motions below.

Every track turns one bone (field "rz", radians) of a bundled template, addressed by its name-path
from the template's root, so a clip plays on every rig made from that template. Rotations only, so a
clip fits any proportions. Each motion is a sum of sines over one loop; keys are sampled eight per
loop with the curve's slope as their tangents, so playback follows the sine closely and loops
without a jump. Re-run after changing a motion: python3 scripts/make_clips.py
"""
import json
import math
import os
import uuid

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# template -> bone -> parent, to build name-paths (the bundled templates' hierarchies; a template's
# "ground" bone, which a fit puts above its root, heads every path).
def parents(template):
    with open(os.path.join(ROOT, "templates", template + ".rig2d-template.json")) as f:
        doc = json.load(f)
    ground = doc.get("ground")
    par = {b["name"]: b.get("parent") or ground for b in doc["bones"]}
    if ground:
        par[ground] = None
    return par


def name_path(par, bone):
    out = [bone]
    while par[out[-1]]:
        out.append(par[out[-1]])
    return "/".join(reversed(out))


def number(x):
    x = round(x, 6)
    return int(x) if x == int(x) else x


def track(path, duration, terms, samples=8):
    """terms: [(amplitude rad, harmonic, phase in turns)], plus a constant offset as (offset, 0, 0)."""
    keys = []
    for i in range(samples + 1):
        t = duration * i / samples
        v = dv = 0.0
        for amp, k, phase in terms:
            if k == 0:
                v += amp
                continue
            w = 2 * math.pi * k / duration
            a = w * t + 2 * math.pi * phase
            v += amp * math.sin(a)
            dv += amp * w * math.cos(a)
        keys.append({"t": number(t), "v": number(v), "inTangent": number(dv), "outTangent": number(dv),
                     "tangentMode": "free"})
    return {"path": path, "trait": "Transform", "field": "rz", "type": "number", "keys": keys}


def clip(template, name, duration, motion):
    par = parents(template)
    tracks = [track(name_path(par, bone), duration, terms) for bone, terms in motion.items()]
    guid = str(uuid.uuid5(uuid.NAMESPACE_URL, "rig2d-clip:" + template + "/" + name))
    doc = {"id": guid, "name": template + "/" + name, "duration": duration, "frameRate": 60, "loop": True,
           "tracks": tracks}
    folder = os.path.join(ROOT, "clips", template)
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, name + ".anim.json"), "w") as f:
        f.write(json.dumps(doc, indent=2) + "\n")


def sided(bones_l, fn):
    """The same motion on both sides, the right half a loop later (legs and arms alternate)."""
    out = {}
    for bone, terms in bones_l.items():
        out[bone] = terms
        out[bone[:-2] + "_r"] = [(a, k, p + (0.5 if k else 0)) for a, k, p in terms] if fn == "alternate" else \
            [(-a, k, p) for a, k, p in terms]
    return out


# Humanoid: small angles, so arms drawn against the body and short chibi legs fold nothing.
clip("humanoid", "idle", 2.0, {
    "spine": [(0.02, 1, 0)], "chest": [(0.015, 1, 0.1)], "neck": [(0.02, 1, 0.25)], "head": [(0.03, 1, 0.3)],
    **sided({"upper_arm_l": [(0.04, 1, 0.2)], "lower_arm_l": [(0.03, 1, 0.3)]}, "mirror")})
clip("humanoid", "walk", 1.0, {
    "spine": [(0.02, 2, 0)], "chest": [(0.03, 1, 0.5)], "head": [(0.02, 2, 0.25)],
    **sided({"thigh_l": [(0.3, 1, 0)], "shin_l": [(0.18, 1, 0.8), (0.18, 0, 0)], "foot_l": [(0.1, 1, 0.1)],
             "upper_arm_l": [(0.22, 1, 0.5)], "lower_arm_l": [(0.1, 1, 0.6), (0.08, 0, 0)]}, "alternate")})
clip("humanoid", "run", 0.6, {
    "spine": [(0.03, 2, 0), (0.05, 0, 0)], "chest": [(0.04, 1, 0.5)], "head": [(0.03, 2, 0.25)],
    **sided({"thigh_l": [(0.27, 1, 0)], "shin_l": [(0.16, 1, 0.8), (0.16, 0, 0)], "foot_l": [(0.1, 1, 0.1)],
             "upper_arm_l": [(0.26, 1, 0.5)], "lower_arm_l": [(0.1, 1, 0.6), (0.12, 0, 0)]}, "alternate")})
clip("humanoid", "jump", 1.0, {
    "spine": [(0.05, 1, 0.75), (0.05, 0, 0)], "head": [(0.04, 1, 0.25)],
    **sided({"thigh_l": [(0.18, 1, 0.75)], "shin_l": [(0.2, 1, 0.25), (0.2, 0, 0)],
             "upper_arm_l": [(0.35, 1, 0.25)], "lower_arm_l": [(0.15, 1, 0.25)]}, "mirror")})
clip("humanoid", "wave", 1.0, {
    "upper_arm_l": [(-1.9, 0, 0)], "lower_arm_l": [(0.35, 1, 0), (-0.3, 0, 0)], "hand_l": [(0.2, 1, 0.2)],
    "head": [(0.04, 1, 0.25)]})
clip("quadruped", "walk", 1.0, {
    "spine": [(0.02, 2, 0)], "neck": [(0.04, 2, 0.25)], "tail_1": [(0.15, 1, 0)], "tail_2": [(0.2, 1, 0.2)],
    **sided({"front_leg_l": [(0.3, 1, 0)], "front_shin_l": [(0.15, 1, 0.8)],
             "back_leg_l": [(0.3, 1, 0.5)], "back_shin_l": [(0.15, 1, 0.3)]}, "alternate")})
clip("bird", "flap", 0.5, {
    "neck": [(0.05, 1, 0.25)], "head": [(0.05, 1, 0.5)], "tail": [(0.1, 1, 0)],
    **sided({"wing_l": [(0.6, 1, 0)], "wing_tip_l": [(0.3, 1, 0.15)]}, "mirror")})
clip("fish", "swim", 1.0, {
    "head": [(0.06, 1, 0)], "tail_1": [(0.15, 1, 0.2)], "tail_2": [(0.22, 1, 0.35)], "tail_fin": [(0.3, 1, 0.5)],
    "fin_top": [(0.1, 2, 0)], "fin_bottom": [(0.1, 2, 0.5)]})
clip("snake", "slither", 1.2, {
    "body_%d" % i: [(0.22, 1, 0.12 * i)] for i in range(1, 6)} | {"tail": [(0.3, 1, 0.72)]})
clip("tree", "sway", 3.0, {
    "trunk_1": [(0.02, 1, 0)], "trunk_2": [(0.03, 1, 0.08)], "trunk_3": [(0.04, 1, 0.16)], "crown": [(0.05, 1, 0.24)],
    **sided({"branch_l": [(0.06, 1, 0.3)], "branch_tip_l": [(0.08, 1, 0.4)]}, "mirror")})
clip("prop", "wobble", 1.0, {"prop": [(0.12, 1, 0), (0.04, 3, 0.25)]})
