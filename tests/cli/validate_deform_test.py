#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""rig2d-validate --deform end to end (stdlib only).
Usage: validate_deform_test.py VALIDATE AUTORIG WORK_DIR

Draws an 80x120 two-leg figure (legs 20 px apart), rigs it twice with the same hand-placed bones
(engine joint weights, and the default heat weights), and checks that --deform flags the joint rig
for leakage in every report format and passes the heat rig. Exits 0 on success, 1 on failure.
"""
import json
import os
import shutil
import sys
import xml.etree.ElementTree as ET

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
from cli_test_lib import fail, write_png  # noqa: E402
from cli_test_lib import run_tool as run  # noqa: E402

VALIDATE, AUTORIG, WORK = sys.argv[1], sys.argv[2], sys.argv[3]
HALF_PI = 1.5707963267948966


def figure(x, y):
    inside = 5 <= x < 75 and 5 <= y < 115 and not (y >= 60 and 30 <= x < 50)
    return (200, 120, 60, 255) if inside else (0, 0, 0, 0)


work = os.path.join(WORK, "cli_validate_deform")
shutil.rmtree(work, ignore_errors=True)
os.makedirs(work)
bones = [{"name": "torso", "parent": -1, "x": 0, "y": -50, "rot": HALF_PI},
         {"name": "thigh_l", "parent": 0, "x": 45, "y": 22.5, "rot": -HALF_PI},
         {"name": "shin_l", "parent": 1, "x": 0, "y": 25, "rot": 0},
         {"name": "foot_l", "parent": 2, "x": 0, "y": 25, "rot": 0},
         {"name": "thigh_r", "parent": 0, "x": 45, "y": -22.5, "rot": -HALF_PI},
         {"name": "shin_r", "parent": 4, "x": 0, "y": 25, "rot": 0},
         {"name": "foot_r", "parent": 5, "x": 0, "y": 25, "rot": 0}]
bones_file = os.path.join(WORK, "cli_validate_deform.bones.json")  # outside the checked folder
with open(bones_file, "w") as f:
    json.dump(bones, f)
for scheme in ("joint", "heat"):
    png = os.path.join(work, f"legs_{scheme}.png")
    write_png(png, 80, 120, figure)
    run(AUTORIG, png, "--bones", bones_file, "--weights", scheme, "--max-edge", "10", "--write-meta", "-q", expect=0)
joint_rig = os.path.join(work, "legs_joint.rig2d.json")
heat_rig = os.path.join(work, "legs_heat.rig2d.json")

# Without --deform nothing is bent: both rigs are clean.
run(VALIDATE, work, "-q", expect=0)
if "deform." in run(VALIDATE, work).stdout:
    fail("deform findings without --deform")

# Text: the leak is a warning on the joint rig, with its pointer and figure; exit 0.
text = run(VALIDATE, work, "--deform", expect=0).stdout
leaks = [l for l in text.splitlines() if "[deform.leak]" in l]
summaries = [l for l in text.splitlines() if "[deform.summary]" in l]
if len(summaries) != 2 or not all(": note: " in l and "bends of 60 deg" in l for l in summaries):
    fail(f"text: expected a deform.summary note per rig:\n{text}")
if len(leaks) != 1 or not leaks[0].startswith(joint_rig + ":") or ": warning: /skinWeights: " not in leaks[0]:
    fail(f"text: expected one deform.leak warning on the joint rig:\n{text}")
if "% of the skin weight" not in leaks[0]:
    fail(f"text: no figure in {leaks[0]}")
if any(l.startswith(heat_rig + ":") and ": note: " not in l for l in text.splitlines()):
    fail(f"text: the heat rig should pass:\n{text}")

# --deform-errors makes them errors (exit 1); --strict does too.
errors = run(VALIDATE, work, "--deform-errors", expect=1).stdout
if ": error: /skinWeights: " not in errors or "[deform.leak]" not in errors:
    fail(f"--deform-errors: leak not an error:\n{errors}")
run(VALIDATE, work, "--deform", "--strict", "-q", expect=1)

# JSON
doc = json.loads(run(VALIDATE, work, "--deform", "--format", "json", expect=0).stdout)
found = {f["path"]: [d for d in f["diagnostics"] if d["code"].startswith("deform.") and d["severity"] != "note"]
         for f in doc["files"]}
leak = [d for d in found.get(joint_rig, []) if d["code"] == "deform.leak"]
if len(leak) != 1 or leak[0]["pointer"] != "/skinWeights" or leak[0]["severity"] != "warning" or leak[0]["line"] < 1:
    fail(f"json: {found}")
if found.get(heat_rig):
    fail(f"json: heat rig has deform findings: {found[heat_rig]}")

# JUnit: warnings go to system-out; with --deform-errors a <failure> per finding.
junit = ET.fromstring(run(VALIDATE, work, "--deform", "--format", "junit", expect=0).stdout)
cases = {c.get("name"): c for c in junit.iter("testcase")}
joint_case = next((c for n, c in cases.items() if n.endswith("legs_joint.rig2d.json")), None)
if joint_case is None or "deform.leak" not in ET.tostring(joint_case, encoding="unicode"):
    fail("junit: no deform.leak in the joint rig's testcase")
junit_err = ET.fromstring(run(VALIDATE, work, "--deform-errors", "--format", "junit", expect=1).stdout)
failures = [f for f in junit_err.iter("failure") if "deform.leak" in (f.get("message", "") + (f.text or ""))]
if not failures:
    fail("junit: no <failure> for deform.leak under --deform-errors")

# SARIF: the result, and a rule with a real description.
sarif = json.loads(run(VALIDATE, work, "--deform", "--format", "sarif", expect=0).stdout)
run0 = sarif["runs"][0]
rules = {r["id"]: r for r in run0["tool"]["driver"]["rules"]}
if "deform.leak" not in rules or "gap" not in rules["deform.leak"]["shortDescription"]["text"]:
    fail(f"sarif: deform.leak rule missing or undescribed: {rules.get('deform.leak')}")
results = [r for r in run0["results"] if r["ruleId"] == "deform.leak"]
if len(results) != 1 or results[0]["level"] != "warning":
    fail(f"sarif: {results}")

# --deform-angle is range-checked (usage error, exit 2).
run(VALIDATE, work, "--deform", "--deform-angle", "500", expect=2)
print("ok")
