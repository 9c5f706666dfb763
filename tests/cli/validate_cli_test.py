#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""CLI tests of rig2d-validate (stdlib only). Usage: validate_cli_test.py TOOL SOURCE_DIR WORK_DIR CASE

Each case runs the tool on corpus files or on files it generates under WORK_DIR/CASE, and checks the
exit code, the report and the files left behind. Exits 0 on success, 1 with a message on failure.
"""
import json
import os
import random
import shutil
import sys
import xml.etree.ElementTree as ET

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
import cli_test_lib  # noqa: E402
from cli_test_lib import fail, run_case, write  # noqa: E402

TOOL, SRC, WORK, CASE = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
VALID = os.path.join(SRC, "tests/data/valid/validate")
INVALID = os.path.join(SRC, "tests/data/invalid/validate")


def run(*args, expect=None, cwd=None):
    return cli_test_lib.run_tool(TOOL, *args, expect=expect, cwd=cwd)


def workdir():
    return cli_test_lib.workdir(WORK, CASE)


def rig_json(rid, sprite, weights=None, verts=4):
    w = weights or [1, 0, 0, 0] * verts
    return json.dumps({
        "id": rid, "sprite": sprite,
        "bones": [{"name": "root", "parent": -1, "x": 0, "y": 0, "rot": 0}],
        "mesh": {"verts": [[0, 0], [8, 0], [0, 8], [8, 8]][:verts], "uvs": [[0, 0], [1, 0], [0, 1], [1, 1]][:verts],
                 "tris": [0, 2, 1, 1, 2, 3]},
        "skinIndices": [0] * (4 * verts), "skinWeights": w}, indent=2)


TEX = "aaaaaaaa-0000-4000-8000-000000000001"
SPRITE = "3ab58b97-ab98-26c0-162f-c87db96331fe"  # deriveGuid("sprite:" + TEX)


def case_valid():
    p = run(VALID, expect=0)
    if p.stdout:
        fail("a clean corpus must print no findings:\n" + p.stdout)
    if "11 files: 11 clean" not in p.stderr:
        fail("summary missing: " + p.stderr)


def case_samples():
    # Every committed sample (rigs from rig2d-autorig, their sidecars, the bar scene) is clean, strictly.
    p = run("--strict", "--format", "json", os.path.join(SRC, "samples"), expect=0)
    doc = json.loads(p.stdout)
    kinds = {f["kind"] for f in doc["files"]}
    if doc["summary"]["clean"] != doc["summary"]["files"] or not {"rig", "sidecar", "scene"} <= kinds:
        fail("samples are not all clean rigs, sidecars and scenes: " + json.dumps(doc["summary"]) + str(kinds))
    scene = [f for f in doc["files"] if f["kind"] == "scene"]
    if [os.path.basename(f["path"]) for f in scene] != ["bar.scene.json"]:
        fail("the bar scene sample is missing")


def case_invalid_text():
    p = run(INVALID, expect=1)
    lines = p.stdout.splitlines()
    if len(lines) < 60:
        fail(f"expected a line per finding, got {len(lines)}")
    for line in lines:
        # file:line:col: severity: ... [code]   (or file: severity: ... when no line is known)
        head, _, rest = line.partition(": ")
        parts = head.split(":")
        if not (rest.startswith(("error: ", "warning: ", "note: ")) and line.endswith("]")):
            fail("not GNU style: " + line)
        if len(parts) == 3 and not (parts[1].isdigit() and parts[2].isdigit()):
            fail("bad line:col: " + line)
    if "[rig.sprite.path]" not in p.stdout or "[scene.bone.parent]" not in p.stdout:
        fail("expected codes missing")


def case_json():
    p = run("--format", "json", INVALID, expect=1)
    doc = json.loads(p.stdout)
    s = doc["summary"]
    if doc["tool"] != "rig2d-validate" or s["files"] != len(doc["files"]) or s["errors"] < 40:
        fail("bad summary: " + json.dumps(s))
    codes = {d["code"] for f in doc["files"] for d in f["diagnostics"]}
    for code in ("meta.slice.bounds", "scene.trait.scalar", "guid.duplicate", "rig.mesh.tri.duplicate"):
        if code not in codes:
            fail("missing " + code)
    for f in doc["files"]:
        for d in f["diagnostics"]:
            if set(d) != {"severity", "code", "message", "pointer", "line", "column"}:
                fail("bad diagnostic keys: " + json.dumps(d))
    statuses = {f["status"] for f in doc["files"]}
    if not statuses <= {"ok", "warnings", "errors", "unreadable"} or "ok" not in statuses:
        fail("bad statuses " + str(statuses))


def case_junit():
    p = run("--format", "junit", INVALID, expect=1)
    root = ET.fromstring(p.stdout)
    suite = root.find("testsuite")
    cases = suite.findall("testcase")
    if int(suite.get("tests")) != len(cases) or int(suite.get("failures")) < 40:
        fail("bad counts")
    failed = [c for c in cases if c.find("failure") is not None]
    if len(failed) != int(suite.get("failures")):
        fail("failure count mismatch")


def case_sarif():
    p = run("--format", "sarif", INVALID, expect=1)
    doc = json.loads(p.stdout)
    if doc["version"] != "2.1.0" or len(doc["runs"]) != 1:
        fail("not SARIF 2.1.0")
    run0 = doc["runs"][0]
    rules = run0["tool"]["driver"]["rules"]
    for r in run0["results"]:
        if rules[r["ruleIndex"]]["id"] != r["ruleId"] or r["level"] not in ("error", "warning", "note"):
            fail("bad result " + json.dumps(r))
        loc = r["locations"][0]["physicalLocation"]
        if loc.get("region", {}).get("startLine", 1) < 1:
            fail("bad region")


def case_usage():
    run(expect=2)
    run("--format", "yaml", VALID, expect=2)
    run("--weight-tolerance", "-1", VALID, expect=2)
    run("--assets", "/no/such/dir", VALID, expect=2)
    p = run("--help", expect=0)
    for word in ("--weight-tolerance", "--strict", "--fix", "--assets", "sarif", "Exit codes"):
        if word not in p.stdout:
            fail("help lacks " + word)


def case_unreadable():
    d = workdir()
    p = run(os.path.join(d, "missing.rig2d.json"), expect=3)
    if "[io.not_found]" not in p.stdout:
        fail("no io.not_found finding: " + p.stdout)
    run(d, expect=0)  # a folder with nothing to check: an empty report (validate_adoption_test.py)


def case_output_file():
    d = workdir()
    out = os.path.join(d, "report.json")
    p = run("--format", "json", "-o", out, VALID, expect=0)
    if p.stdout or json.load(open(out))["summary"]["files"] != 11:
        fail("report not written to -o")
    run("-o", os.path.join(d, "new/dir/r.txt"), VALID, expect=0)  # missing folders are created
    write(os.path.join(d, "blocker"), "a file")
    run("-o", os.path.join(d, "blocker/sub/r.txt"), VALID, expect=4)  # ...unless that is impossible


def case_strict():
    d = workdir()
    shutil.copytree(os.path.join(INVALID, "assets/textures"), os.path.join(d, "assets/textures"))
    write(os.path.join(d, "assets/empty.rig2d.json"), rig_json("eeeeeeee-0000-4000-8000-000000000001", ""))
    run(d, expect=0)  # a warning alone does not fail
    p = run("--strict", d, expect=1)
    if "error: /sprite" not in p.stdout or "[rig.sprite.empty]" not in p.stdout:
        fail("strict did not turn the warning into an error: " + p.stdout)


def case_weight_tolerance():
    d = workdir()
    shutil.copytree(os.path.join(INVALID, "assets/textures"), os.path.join(d, "assets/textures"))
    off = [0.99, 0, 0, 0] + [1, 0, 0, 0] * 3
    write(os.path.join(d, "assets/off.rig2d.json"), rig_json("eeeeeeee-0000-4000-8000-000000000002", SPRITE, off))
    default = run(d, expect=1)
    if "[rig.weights.sum]" not in default.stdout or "/skinWeights/0" not in default.stdout:
        fail("a 0.99 sum must fail at the default 1e-4: " + default.stdout)
    loose = run("--weight-tolerance", "0.05", d, expect=0)
    if "rig.weights.sum" in loose.stdout:
        fail("tolerance not applied")


def case_fix():
    d = workdir()
    shutil.copytree(os.path.join(INVALID, "assets/textures"), os.path.join(d, "assets/textures"))
    rig = os.path.join(d, "assets/fix.rig2d.json")
    # Engine layout, weights of vertex 1 summing to 0.5, bone x missing, a noScale of 1.
    doc = json.loads(rig_json("eeeeeeee-0000-4000-8000-000000000003", SPRITE,
                              [1, 0, 0, 0, 0.25, 0.25, 0, 0] + [1, 0, 0, 0] * 2))
    del doc["bones"][0]["x"]
    doc["bones"][0]["noScale"] = 1
    original = json.dumps(doc, indent=2)
    write(rig, original)
    p = run("--fix", d, expect=0)
    for code in ("[fix.weights]", "[fix.bone]"):
        if code not in p.stdout:
            fail("fix did not report " + code + ":\n" + p.stdout)
    fixed = open(rig).read()
    after = json.loads(fixed)
    if after["skinWeights"][4:8] != [0.5, 0.5, 0, 0] or list(after["bones"][0]) != ["name", "parent", "x", "y", "rot", "noScale"]:
        fail("unexpected fix result:\n" + fixed)
    if after["bones"][0]["noScale"] is not True:
        fail("noScale not coerced")
    # A clean diff: the changed lines only (two weights, one inserted x, noScale).
    a, b = original.splitlines(), fixed.splitlines()
    import difflib
    changed = [l for l in difflib.unified_diff(a, b, lineterm="", n=0) if l[:1] in "+-" and l[:3] not in ("+++", "---")]
    if len(changed) != 7:
        fail("diff is not minimal:\n" + "\n".join(changed))
    if any(os.path.basename(f).startswith(".") for f in os.listdir(os.path.dirname(rig))):
        fail("temp file left behind")
    again = run("--fix", d, expect=0)
    if "[fix." in again.stdout or open(rig).read() != fixed:
        fail("fix is not idempotent")


def case_big_folder():
    d = workdir()
    root = os.path.join(d, "assets")
    shutil.copytree(os.path.join(INVALID, "assets/textures"), os.path.join(root, "textures"))
    rng = random.Random(4)
    count = 3000
    broken = set(rng.sample(range(count), 25))
    for i in range(count):
        rid = f"f{i:07x}-0000-4000-8000-{i:012x}"
        sprite = "/textures/bar.png" if i in broken else SPRITE
        write(os.path.join(root, f"rigs/{i // 100:02d}/r{i:04d}.rig2d.json"), rig_json(rid, sprite))
    p = run("--format", "json", "--progress", "always", "-j", "2", d, expect=1)
    doc = json.loads(p.stdout)
    if doc["summary"]["files"] != count + 3 or doc["summary"]["errors"] != len(broken):
        fail("bad summary " + json.dumps(doc["summary"]))
    bad = sorted(f["path"] for f in doc["files"] if f["status"] == "errors")
    want = sorted(os.path.join(root, f"rigs/{i // 100:02d}/r{i:04d}.rig2d.json") for i in broken)
    if bad != want:
        fail("wrong files flagged")
    if f"checked {count + 3}/{count + 3} files" not in p.stderr:
        fail("no progress line: " + p.stderr[-500:])
    one = run("--format", "json", "-j", "1", "--progress", "never", d, expect=1)
    if one.stdout != p.stdout:
        fail("-j1 and -j2 reports differ")


def case_hostile():
    d = workdir()
    root = os.path.join(d, "assets")
    valid_rig = open(os.path.join(VALID, "rigs/bar.rig2d.json")).read()
    valid_scene = open(os.path.join(VALID, "scenes/bar.json")).read()
    write(os.path.join(root, "garbage.rig2d.json"), bytes(random.Random(1).randrange(256) for _ in range(4096)), "wb")
    write(os.path.join(root, "empty.rig2d.json"), "")
    write(os.path.join(root, "nul.json"), "\0\0\0")
    write(os.path.join(root, "bom.png.meta.json"), "\ufeff{\"version\": 2}")
    for n in (1, 17, len(valid_rig) // 2, len(valid_rig) - 1):
        write(os.path.join(root, f"truncated{n}.rig2d.json"), valid_rig[:n])
    write(os.path.join(root, "truncated.json"), valid_scene[: len(valid_scene) // 3])
    write(os.path.join(root, "deep.rig2d.json"), "[" * 100000 + "]" * 100000)
    write(os.path.join(root, "deep.json"), '{"entities": ' + "[" * 5000 + "]" * 5000 + "}")
    write(os.path.join(root, "deep-traits.json"),
          '{"entities": [{"traits": {"X": {"f": ' + '{"a": ' * 60 + "1" + "}" * 60 + "}}}]}")
    write(os.path.join(root, "numbers.rig2d.json"), '{"id": 1e999, "bones": [{"x": -1e999}], "sprite": 5}')
    huge_verts = ",".join(["[0,0]"] * 1100000)
    write(os.path.join(root, "huge.rig2d.json"), '{"mesh": {"verts": [' + huge_verts + '], "tris": []}}')
    write(os.path.join(root, "many-entities.json"),
          json.dumps({"id": "x", "entities": [{"id": i, "traits": {"Transform": {"q": i}}} for i in range(20000)]}))
    p = run("--format", "json", d, expect=1)
    doc = json.loads(p.stdout)
    by_name = {os.path.basename(f["path"]): f for f in doc["files"]}
    for name, f in by_name.items():
        if f["status"] != "errors" and name != "bom.png.meta.json":
            fail(f"{name}: expected errors, got {f['status']}")
    deep = [x["code"] for x in by_name["deep.rig2d.json"]["diagnostics"]]
    if deep != ["json.too_deep"]:
        fail("deep nesting: " + str(deep))
    many = by_name["many-entities.json"]["diagnostics"]
    if len(many) > 1001 or many[-1]["code"] != "validate.findings.truncated":
        fail("finding cap not applied")


run_case(CASE, globals())
