#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""rig2d-validate on real asset trees and in CI (stdlib only, plus node/xmllint where a case says so).
Usage: validate_adoption_test.py TOOL SOURCE_DIR WORK_DIR NPM_DIR CASE

Cases: schema_key, empty, sarif_schema, sarif_content, junit_xsd, github, codeclimate, config, config_errors,
baseline, max_findings, stdin. Exits 0 on success, 1 with a message on failure, 77 when a validator
(node/npm for ajv, xmllint) is not installed.
"""
import fcntl
import json
import os
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
import cli_test_lib  # noqa: E402
from cli_test_lib import fail, run_case, skip, write  # noqa: E402

TOOL, SRC, WORK, NPM, CASE = sys.argv[1:6]
VALID = os.path.join(SRC, "tests/data/valid/validate")
INVALID = os.path.join(SRC, "tests/data/invalid/validate")
SCHEMAS = os.path.join(SRC, "tests/data/report-schemas")
SARIF_SCHEMA = os.path.join(SCHEMAS, "sarif-2.1.0-rtm.5.json")
# The Jenkins xunit plugin's own JUnit schema, and rig2d's stricter one (Surefire time syntax).
JUNIT_XSDS = (os.path.join(SCHEMAS, "junit-4-jenkins-xunit-dtkit.xsd"), os.path.join(SCHEMAS, "junit-jenkins-xunit.xsd"))
FORMATS = ("text", "json", "junit", "sarif", "github", "codeclimate")


def run(*args, expect=None, cwd=None, stdin=None, env=None):
    return cli_test_lib.run_tool(TOOL, *args, expect=expect, cwd=cwd, stdin=stdin, env=env)


def workdir():
    return cli_test_lib.workdir(WORK, CASE)


def sarif_validator():
    """Installs ajv + ajv-draft-04 + ajv-formats into NPM once; returns a function checking SARIF files."""
    if not shutil.which("node") or not shutil.which("npm"):
        skip("node/npm not installed (scripts/install-deps.sh installs them), so SARIF cannot be schema-checked")
    mods = ("ajv", "ajv-draft-04", "ajv-formats")
    os.makedirs(NPM, exist_ok=True)
    with open(os.path.join(NPM, ".install.lock"), "w") as lock:  # cases run in parallel under ctest -j
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not all(os.path.exists(os.path.join(NPM, "node_modules", m, "package.json")) for m in mods):
            p = subprocess.run(["npm", "install", "--prefix", NPM, "--no-audit", "--no-fund", "--no-save", "--silent",
                                "ajv@8", "ajv-draft-04@1", "ajv-formats@3"], capture_output=True, text=True)
            if p.returncode != 0:
                fail("npm install failed:\n" + p.stderr[-2000:])

    def check(*files, expect_valid=True):
        p = subprocess.run(["node", os.path.join(SRC, "tests/schema/check_sarif.cjs"), NPM, SARIF_SCHEMA, *files],
                           capture_output=True, text=True)
        if (p.returncode == 0) != expect_valid:
            fail(f"SARIF schema verdict {'invalid' if p.returncode else 'valid'}, expected "
                 f"{'valid' if expect_valid else 'invalid'}:\n{p.stdout[-3000:]}{p.stderr[-2000:]}")
    return check


def xmllint():
    if not shutil.which("xmllint"):
        skip("xmllint not installed (Debian libxml2-utils; scripts/install-deps.sh installs it)")

    def check(path, expect_valid=True):
        for xsd in JUNIT_XSDS:
            p = subprocess.run(["xmllint", "--noout", "--schema", xsd, path], capture_output=True, text=True)
            if (p.returncode == 0) != expect_valid:
                fail(f"xmllint verdict exit {p.returncode} for {path} against {os.path.basename(xsd)}:\n"
                     f"{p.stderr[-3000:]}")
    return check


def reports(d, *args, expect=None, cwd=None):
    """Writes the report in every format; returns {format: path}."""
    out = {}
    for f in FORMATS:
        out[f] = os.path.join(d, "report." + f)
        run("--format", f, "-o", out[f], *args, expect=expect, cwd=cwd)
    return out


def check_all_parse(paths):
    json.load(open(paths["json"]))
    json.load(open(paths["sarif"]))
    json.load(open(paths["codeclimate"]))
    ET.parse(paths["junit"])


# --- step 1: $schema, empty input ---------------------------------------------------------------


def case_schema_key():
    # "$schema" (which the docs tell users to add) is a known key for every file kind, also with --strict.
    d = workdir()
    root = os.path.join(d, "assets")
    shutil.copytree(VALID, root)
    uri = "https://rig2d.dev/schemas/rig2d.schema.json"
    for rel in ("rigs/bar.rig2d.json", "rigs/parts.rig2d.json", "textures/bar.png.meta.json",
                "scenes/bar.json", "prefabs/bar.prefab.json"):
        path = os.path.join(root, rel)
        doc = json.load(open(path))
        write(path, json.dumps({"$schema": uri, **doc}, indent=2))
    p = run("--strict", "--format", "json", root, expect=0)
    codes = [x["code"] for f in json.loads(p.stdout)["files"] for x in f["diagnostics"]]
    if codes:
        fail("findings on files with $schema: " + str(codes))
    # A "$schema" that is not a string is still caught.
    bad = os.path.join(root, "rigs/bar.rig2d.json")
    doc = json.load(open(bad))
    doc["$schema"] = 5
    write(bad, json.dumps(doc, indent=2))
    p = run(bad, expect=1)
    if "/$schema" not in p.stdout or "[rig.field.type]" not in p.stdout:
        fail("a numeric $schema is not reported: " + p.stdout)


def case_empty():
    # An empty folder, or one with only skipped types (a lone .anim.json from a pre-commit hook): exit 0,
    # a warning, and a valid empty report in every format.
    d = workdir()
    empty = os.path.join(d, "empty")
    os.makedirs(empty)
    anim = os.path.join(d, "only-anims", "walk.anim.json")
    write(anim, '{"id": "x", "tracks": []}')
    check_sarif = sarif_validator()
    for label, args in (("empty folder", [empty]), ("skipped folder", [os.path.dirname(anim)]), ("skipped file", [anim])):
        p = run(*args, expect=0)
        if "warning" not in p.stderr or p.stdout:
            fail(f"{label}: no warning, or findings printed: {p.stderr!r} {p.stdout!r}")
        out = reports(os.path.join(d, label.replace(" ", "-")), *args, expect=0)
        check_all_parse(out)
        doc = json.load(open(out["json"]))
        if doc["summary"]["files"] != 0 or doc["files"]:
            fail(f"{label}: json report not empty")
        if json.load(open(out["codeclimate"])) != [] or open(out["github"]).read() != "" or open(out["text"]).read() != "":
            fail(f"{label}: codeclimate/github/text not empty")
        suite = ET.parse(out["junit"]).getroot().find("testsuite")
        if suite.get("tests") != "0" or suite.findall("testcase"):
            fail(f"{label}: junit not empty")
        sarif = json.load(open(out["sarif"]))
        if sarif["runs"][0]["results"] != []:
            fail(f"{label}: sarif has results")
        check_sarif(out["sarif"])
        if shutil.which("xmllint"):
            xmllint()(out["junit"])


# --- step 2: CI formats ----------------------------------------------------------------------------


def case_sarif_schema():
    # Every corpus through ajv with formats: file:// or SRCROOT-relative URIs, absolute helpUri.
    check = sarif_validator()
    d = workdir()
    files = []
    for i, args in enumerate(([INVALID], [VALID], ["--deform", os.path.join(SRC, "samples")],
                              [os.path.abspath(os.path.join(INVALID, "assets", "cases"))])):
        out = os.path.join(d, f"r{i}.sarif")
        run("--format", "sarif", "-o", out, *args)
        files.append(out)
    # Relative paths from another working folder, including ones that climb out of it ("../").
    out = os.path.join(d, "relative.sarif")
    inner = os.path.join(INVALID, "assets", "cases")
    run("--format", "sarif", "-o", out, os.path.relpath(INVALID, inner), cwd=inner)
    files.append(out)
    check(*files)
    # The check has teeth: the old output shape (a relative helpUri) is rejected.
    doc = json.load(open(files[0]))
    doc["runs"][0]["tool"]["driver"]["rules"][0]["helpUri"] = "docs/validate.md"
    broken = os.path.join(d, "broken.sarif")
    json.dump(doc, open(broken, "w"))
    check(broken, expect_valid=False)


def case_sarif_content():
    d = workdir()
    p = run("--format", "sarif", "--docs-url", "https://docs.example.org/rig2d/docs", INVALID, expect=1)
    run0 = json.loads(p.stdout)["runs"][0]
    if run0.get("columnKind") != "unicodeCodePoints":
        fail("no columnKind")
    base = run0["originalUriBaseIds"]["SRCROOT"]["uri"]
    if base != "file://" + os.getcwd().rstrip("/") + "/":
        fail("SRCROOT is not the working folder: " + base)
    for rule in run0["tool"]["driver"]["rules"]:
        short, full = rule["shortDescription"]["text"], rule["fullDescription"]["text"]
        if short == rule["id"] or full == short or not short.endswith(".") or len(short) < 12:
            fail("rule without a real description: " + json.dumps(rule))
        if not rule["helpUri"].startswith("https://docs.example.org/rig2d/docs/") or ".md" not in rule["helpUri"]:
            fail("helpUri not under --docs-url: " + rule["helpUri"])
    for r in run0["results"]:
        loc = r["locations"][0]["physicalLocation"]["artifactLocation"]
        uri = loc["uri"]
        if loc.get("uriBaseId") != "SRCROOT" and not uri.startswith("file:///"):
            fail("a URI neither absolute nor SRCROOT-relative: " + json.dumps(loc))
    # A non-ASCII line: the column counts code points, not bytes.
    rig = os.path.join(d, "assets", "é.rig2d.json")
    write(rig, '{"id": "0f8fad5b-d9cb-469f-a165-70867728950e", "bones": [], "ü": 1, "ä": 2}')
    p = run("--format", "sarif", os.path.join("assets", "é.rig2d.json"), cwd=d)
    cols = {r["ruleId"] + r["locations"][0].get("logicalLocations", [{}])[0].get("fullyQualifiedName", ""):
            r["locations"][0]["physicalLocation"]["region"].get("startColumn") for r in json.loads(p.stdout)["runs"][0]["results"]}
    text = open(rig, encoding="utf-8").read()
    want = text.index('"ä": 2') + len('"ä": ') + 1  # 1-based code point column of the value (76 in bytes)
    if cols.get("rig.key.unknown/ä") != want:
        fail(f"column of /ä is {cols.get('rig.key.unknown/ä')}, want {want} code points: {cols}")
    uri = json.loads(p.stdout)["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
    if uri != "assets/%C3%A9.rig2d.json":
        fail("non-ASCII path not percent-encoded UTF-8: " + uri)


def case_junit_xsd():
    check = xmllint()
    d = workdir()
    for i, args in enumerate(([INVALID], [VALID], [os.path.join(d, "none")])):
        os.makedirs(os.path.join(d, "none"), exist_ok=True)
        out = os.path.join(d, f"r{i}.xml")
        run("--format", "junit", "-o", out, *args)
        check(out)
        root = ET.parse(out).getroot()
        for case in root.iter("testcase"):
            if "file" in case.attrib or case.get("time") != "0.000":
                fail("testcase attributes: " + str(case.attrib))
    # --junit-times writes measured times that add up.
    out = os.path.join(d, "timed.xml")
    run("--format", "junit", "--junit-times", "-o", out, INVALID)
    check(out)
    suite = ET.parse(out).getroot().find("testsuite")
    times = [float(c.get("time")) for c in suite.iter("testcase")]
    if abs(sum(times) - float(suite.get("time"))) > 0.002 * len(times) or not any(t > 0 for t in times):
        fail(f"testcase times do not add up to the suite time: {sum(times)} vs {suite.get('time')}")
    # The XSD has teeth: a testcase with a file attribute is rejected.
    bad = os.path.join(d, "bad.xml")
    write(bad, open(os.path.join(d, "r0.xml")).read().replace("<testcase ", '<testcase file="x" ', 1))
    check(bad, expect_valid=False)


def case_github():
    p = run("--format", "github", INVALID, expect=1)
    lines = p.stdout.splitlines()
    js = json.loads(run("--format", "json", INVALID).stdout)
    total = sum(len(f["diagnostics"]) for f in js["files"])
    if len(lines) != total:
        fail(f"{len(lines)} workflow commands for {total} findings")
    import re
    cmd = re.compile(r"^::(error|warning|notice) (file=[^,:]+,)?(line=\d+,(col=\d+,)?)?title=[a-z0-9_.]+::.+ \[[a-z0-9_.]+\]$")
    for line in lines:
        if not cmd.match(line):
            fail("not a workflow command: " + line)
    kinds = {line.split(" ")[0] for line in lines}
    if not {"::error", "::warning"} <= kinds:
        fail("severities missing: " + str(kinds))


def case_codeclimate():
    d = workdir()
    p = run("--format", "codeclimate", INVALID, expect=1)
    issues = json.loads(p.stdout)
    if len(issues) < 50:
        fail("too few issues")
    prints = set()
    for i in issues:
        for key in ("description", "check_name", "fingerprint", "severity"):
            if not isinstance(i.get(key), str) or not i[key]:
                fail(f"{key} missing: {i}")
        if i["severity"] not in ("info", "minor", "major", "critical", "blocker"):
            fail("bad severity " + i["severity"])
        if not isinstance(i["location"]["path"], str) or i["location"]["lines"]["begin"] < 1:
            fail("bad location " + json.dumps(i["location"]))
        prints.add(i["fingerprint"])
    if len(prints) != len(issues):
        fail("fingerprints are not unique")
    # Stable across runs and across line moves: insert blank lines at the top of a rig.
    root = os.path.join(d, "assets")
    shutil.copytree(os.path.join(INVALID, "assets"), root)
    rig = os.path.join(root, "cases", "rig.sprite.path.rig2d.json")
    before = {i["check_name"] + i["location"]["path"]: i["fingerprint"] for i in json.loads(run("--format", "codeclimate", rig).stdout)}
    write(rig, "\n\n\n" + open(rig).read())
    after = json.loads(run("--format", "codeclimate", rig).stdout)
    if {i["check_name"] + i["location"]["path"]: i["fingerprint"] for i in after} != before or not before:
        fail("fingerprints moved with the lines")
    if after[0]["location"]["lines"]["begin"] < 4:
        fail("lines did not move")


# --- step 3: config and baseline -------------------------------------------------------------------


def project(d):
    """A project folder with the invalid corpus as its asset tree: d/proj/assets."""
    proj = os.path.join(d, "proj")
    shutil.copytree(os.path.join(INVALID, "assets"), os.path.join(proj, "assets"))
    return proj


def findings(p):
    doc = json.loads(p.stdout)
    return doc, [(f["path"], x["code"], x["severity"], x["pointer"]) for f in doc["files"] for x in f["diagnostics"]]


def case_config():
    d = workdir()
    proj = project(d)
    assets = os.path.join(proj, "assets")
    _, before = findings(run("--format", "json", assets, expect=1))
    codes = {c for _, c, _, _ in before}
    if not {"rig.sprite.path", "guid.duplicate"} <= codes or not any(c.startswith("meta.") for c in codes):
        fail("corpus lacks the codes this case needs: " + str(sorted(codes)))
    cfg = {
        "$schema": "https://rig2d.dev/schemas/rig2d-validate.schema.json",
        "ignore": ["meta.*"],
        "severity": {"rig.sprite.path": "warning"},
        "paths": [{"files": "assets/cases/guid.duplicate.*", "exclude": True},
                  {"files": "assets/**/scene.*", "severity": {"scene.*": "note"}}],
    }
    write(os.path.join(proj, ".rig2d-validate"), json.dumps(cfg, indent=2))
    # Found by default: beside the asset root, from the first input's folder upwards (run from elsewhere).
    _, after = findings(run("--format", "json", os.path.relpath(assets, d), cwd=d))
    for path, code, sev, _ in after:
        name = os.path.basename(path)
        if code.startswith("meta."):
            fail("meta.* not ignored: " + path)
        if code == "rig.sprite.path" and sev != "warning":
            fail("rig.sprite.path not re-graded")
        if name.startswith("guid.duplicate."):
            fail("excluded file still has findings: " + path)
        if name.startswith("scene.") and code.startswith("scene.") and sev != "note":
            fail(f"path rule not applied: {path} {code} {sev}")
    if not any(c == "rig.sprite.path" for _, c, _, _ in after) or len(after) >= len(before):
        fail("the config dropped too much or nothing")
    # The config is never a scene: it is not in the report.
    if any(p.endswith(".rig2d-validate") for p, _, _, _ in after):
        fail("the config file was checked")
    # --no-config and --config.
    _, plain = findings(run("--format", "json", "--no-config", assets))
    if plain != before:
        fail("--no-config still applied the config")
    other = os.path.join(d, "lenient.json")
    write(other, json.dumps({"severity": {"*": "warning"}}))
    run("--config", other, assets, expect=0)  # a legacy tree can pass...
    run("--config", other, "--strict", assets, expect=1)  # ...and --strict still means warnings fail


def case_config_errors():
    d = workdir()
    proj = project(d)
    cases = {
        "syntax": ('{"ignore": [', "config.syntax"),
        "key": ('{\n  "ignores": ["x"]\n}', "config.key"),
        "severity": ('{"severity": {"rig.x": "fatal"}}', "config.severity"),
        "code": ('{"ignore": ["rig*.x"]}', "config.code"),
        "type": ('{"paths": [{"exclude": true}]}', "config.type"),
        "max": ('{"maxFindings": -2}', "config.type"),
    }
    for name, (text, code) in cases.items():
        path = os.path.join(d, name + ".cfg")
        write(path, text)
        p = run("--config", path, proj, expect=2)
        if f"[{code}]" not in p.stderr or not p.stderr.startswith(path + ":"):
            fail(f"{name}: {p.stderr}")
    p = run("--config", os.path.join(d, "key.cfg"), proj, expect=2)
    if not p.stderr.startswith(os.path.join(d, "key.cfg") + ":2:"):
        fail("no line:col for a config error: " + p.stderr)
    run("--config", os.path.join(d, "missing.cfg"), proj, expect=2)
    # The schema and the reader agree on every case here and on valid configs (ajv, when node is present).
    if not shutil.which("node"):
        return
    sarif_validator()  # installs ajv
    good = {"ok-min": "{}", "ok-full": json.dumps({"$schema": "x", "ignore": ["deform.*"], "severity": {"*": "off"},
                                                    "paths": [{"files": "a/**", "exclude": False, "ignore": ["x.y"]}],
                                                    "maxFindings": 0})}
    for name, text in good.items():
        write(os.path.join(d, name + ".cfg"), text)
        run("--config", os.path.join(d, name + ".cfg"), os.path.join(VALID), expect=0)
    script = """
const fs = require("fs"), path = require("path");
const [npm, schema, ...files] = process.argv.slice(1);
const Ajv = require(path.resolve(npm, "node_modules/ajv/dist/2020")).default;
const v = new Ajv({strict: true}).compile(JSON.parse(fs.readFileSync(schema, "utf8")));
for (const f of files) { let ok = false; try { ok = v(JSON.parse(fs.readFileSync(f, "utf8"))); } catch (e) {} console.log(path.basename(f) + " " + ok); }
"""
    names = list(cases) + list(good)
    p = subprocess.run(["node", "-e", script, NPM, os.path.join(SRC, "schemas/rig2d-validate.schema.json"),
                        *[os.path.join(d, n + ".cfg") for n in names]], capture_output=True, text=True)
    verdicts = dict(line.split() for line in p.stdout.splitlines())
    for n in names:
        if verdicts.get(n + ".cfg") != ("true" if n.startswith("ok-") else "false"):
            fail(f"schema verdict on {n}: {verdicts.get(n + '.cfg')} ({p.stderr[-500:]})")


def case_baseline():
    d = workdir()
    proj = project(d)
    assets = os.path.join(proj, "assets")
    base = os.path.join(proj, "ci", "rig2d-baseline.json")  # its folder does not exist yet
    doc, before = findings(run("--format", "json", assets, expect=1))
    p = run("--write-baseline", base, "--format", "json", assets, expect=0)
    written = json.load(open(base))
    if len(written["findings"]) != len(before) or json.loads(p.stdout)["summary"]["baselined"] != len(before):
        fail("the baseline does not hold every finding")
    if any(":" in f["file"] or f["file"].startswith("/") for f in written["findings"]):
        fail("baseline paths are not relative to its folder")
    # Known findings pass, from any working folder and with relative paths; lines may move.
    rig = os.path.join(assets, "cases", "rig.sprite.path.rig2d.json")
    write(rig, "\n\n" + open(rig).read())
    p = run("--baseline", base, "--format", "json", os.path.relpath(assets, proj), cwd=proj, expect=0)
    out = json.loads(p.stdout)
    if out["summary"]["baselined"] != len(before) or out["summary"]["errors"] or out["summary"]["warnings"]:
        fail("baselined run: " + json.dumps(out["summary"]))
    if f"{len(before)} baselined" not in p.stderr:
        fail("the summary line does not say how many were baselined: " + p.stderr)
    # A new finding fails the run; only it is reported.
    shutil.copy(rig, os.path.join(assets, "cases", "new.rig2d.json"))
    doc = json.loads(run("--baseline", base, "--format", "json", assets, expect=1).stdout)
    new = [(f["path"], x["code"]) for f in doc["files"] for x in f["diagnostics"]]
    if not new or any(not p.endswith("new.rig2d.json") and c != "guid.duplicate" for p, c in new):
        fail("unexpected findings beside the new file: " + str(new))
    # The count reaches SARIF and JUnit too.
    sarif = json.loads(run("--baseline", base, "--format", "sarif", assets).stdout)
    if sarif["runs"][0]["properties"]["baselined"] < len(before) - 2:
        fail("SARIF lacks the baselined count")
    junit = ET.fromstring(run("--baseline", base, "--format", "junit", assets).stdout)
    if not [p for p in junit.iter("property") if p.get("name") == "baselined"]:
        fail("JUnit lacks the baselined count")
    write(os.path.join(d, "bad.json"), '{"version": 1}')
    run("--baseline", os.path.join(d, "bad.json"), assets, expect=2)
    # A baseline (or report) kept inside the asset root is never checked as a scene.
    inside = os.path.join(assets, "known.json")
    run("--write-baseline", inside, "--format", "json", "-o", os.path.join(assets, "report.json"), assets, expect=0)
    p = run("--baseline", inside, "--format", "json", "-o", os.path.join(assets, "report.json"), assets, expect=0)
    paths = [f["path"] for f in json.load(open(os.path.join(assets, "report.json")))["files"]]
    own = [x for x in paths if os.path.basename(x) in ("known.json", "report.json")]
    if own:
        fail("the run's own files were checked: " + str(own))


def case_max_findings():
    d = workdir()
    p = run("--format", "json", "--max-findings", "5", INVALID, expect=1)
    doc = json.loads(p.stdout)
    listed = [x for f in doc["files"] for x in f["diagnostics"] if x["code"] != "validate.findings.truncated"]
    notes = [x for f in doc["files"] for x in f["diagnostics"] if x["code"] == "validate.findings.truncated"]
    if len(listed) != 5 or not notes:
        fail(f"{len(listed)} findings listed, {len(notes)} truncation notes")
    # Errors left out still fail the run, also with a cap of 0 from the config.
    cfg = os.path.join(d, "cap.cfg")
    write(cfg, '{"maxFindings": 0}')
    p = run("--config", cfg, "--format", "json", INVALID, expect=1)
    if any(x["code"] != "validate.findings.truncated" for f in json.loads(p.stdout)["files"] for x in f["diagnostics"]):
        fail("maxFindings 0 listed findings")
    p = run("--config", cfg, "--max-findings", "3", "--format", "json", INVALID, expect=1)  # the flag wins
    if sum(x["code"] != "validate.findings.truncated" for f in json.loads(p.stdout)["files"] for x in f["diagnostics"]) != 3:
        fail("--max-findings does not override maxFindings")


# --- step 4: standard input ------------------------------------------------------------------------


def case_stdin():
    d = workdir()
    # A copy of a clean rig under a new id (the original's id is taken in the asset root: guid.duplicate).
    rig = open(os.path.join(VALID, "rigs/bar.rig2d.json")).read()
    rig = json.dumps({**json.loads(rig), "id": "0f8fad5b-d9cb-469f-a165-70867728950e"}, indent=2)
    # Against the asset root, the clean rig is clean; without one its references are not resolved.
    run("--strict", "--assets", VALID, "-", stdin=rig, expect=0)
    run("--strict", "-", stdin=rig, expect=0)
    bad = json.loads(rig)
    bad["skinWeights"][0] = 0.25
    p = run("-", stdin=json.dumps(bad, indent=2), expect=1)
    if not p.stdout.startswith("<stdin>:") or "[rig.weights.sum]" not in p.stdout:
        fail("stdin findings are not named <stdin>: " + p.stdout)
    doc = json.loads(run("--format", "json", "-", VALID, stdin=json.dumps(bad)).stdout)
    if doc["files"][0]["path"] != "<stdin>" or doc["files"][0]["kind"] != "rig" or doc["summary"]["files"] != 12:
        fail("stdin beside a folder: " + json.dumps(doc["summary"]) + doc["files"][0]["path"])
    # Other kinds by --stdin-kind; a scene's rig resolves through --assets.
    scene = json.dumps({**json.load(open(os.path.join(VALID, "scenes/bar.json"))), "id": "0f8fad5b-d9cb-469f-a165-708677289999"})
    run("--stdin-kind", "scene", "--assets", VALID, "--strict", "-", stdin=scene, expect=0)
    broken = json.loads(scene)
    broken["entities"][0]["traits"]["Transform"] = {"x": [1]}
    p = run("--stdin-kind", "scene", "-", stdin=json.dumps(broken), expect=1)
    if not p.stdout.startswith("<stdin>:") or "[scene.trait.scalar]" not in p.stdout:
        fail("scene from stdin: " + p.stdout)
    p = run("--stdin-kind", "sidecar", "-", stdin='{"version": 1}', expect=1)
    if "[meta.version]" not in p.stdout:
        fail("sidecar from stdin: " + p.stdout)
    # Every format handles a file without a path; SARIF stays valid.
    check = sarif_validator()
    for f in FORMATS:
        path = os.path.join(d, "stdin." + f)
        run("--format", f, "-o", path, "-", stdin=json.dumps(bad), expect=1)
    check(os.path.join(d, "stdin.sarif"))
    if "file=" in open(os.path.join(d, "stdin.github")).read():
        fail("github commands name a file for stdin")

    # --stdin-name: reports, the kind and the baseline go by the given path (a pre-commit hook's staged file).
    name = "rigs/hero.rig2d.json"
    p = run("-", "--stdin-name", name, stdin=json.dumps(bad, indent=2), expect=1)
    if not p.stdout.startswith(name + ":92:") or "[rig.weights.sum]" not in p.stdout:
        fail("stdin findings are not named by --stdin-name: " + p.stdout)
    p = run("--stdin-name", "levels/one.json", "-", stdin=json.dumps(broken), expect=1)
    if not p.stdout.startswith("levels/one.json:") or "[scene.trait.scalar]" not in p.stdout:
        fail("--stdin-name's file name does not say the kind: " + p.stdout)
    write(os.path.join(d, name), json.dumps(bad, indent=2))
    run("--write-baseline", "base.json", name, cwd=d, expect=0)
    run("--baseline", "base.json", "-", "--stdin-name", name, cwd=d, stdin=json.dumps(bad, indent=2), expect=0)
    sarif = json.loads(run("--format", "sarif", "-", "--stdin-name", name, stdin=json.dumps(bad), expect=1).stdout)
    uris = [r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in sarif["runs"][0]["results"]]
    if uris != [name]:
        fail("SARIF results of a named stdin: " + json.dumps(uris))
    if f"file={name}" not in run("--format", "github", "-", "--stdin-name", name, stdin=json.dumps(bad), expect=1).stdout:
        fail("github commands do not name --stdin-name's file")
    cfg = os.path.join(d, "cfg")
    write(os.path.join(cfg, ".rig2d-validate"), json.dumps({"paths": [{"files": "rigs/**", "severity": {"rig.weights.sum": "warning"}}]}))
    p = run("-", "--stdin-name", name, cwd=cfg, stdin=json.dumps(bad), expect=0)
    if not p.stdout.startswith(name + ":") or ": warning: " not in p.stdout:
        fail("the config's rule for the named path does not apply: " + p.stdout)
    run("-", "--stdin-name", "other/hero.rig2d.json", cwd=cfg, stdin=json.dumps(bad), expect=1)
    # The config is looked for from the named path's folder up, as for the file there.
    p = run("-", "--stdin-name", "cfg/rigs/hero.rig2d.json", cwd=d, stdin=json.dumps(bad), expect=0)
    if ": warning: " not in p.stdout:
        fail("the config beside the named path is not found: " + p.stdout)
    # Its references resolve in the nearest assets/ folder above the name, where it is that file (its GUID
    # is its own), not a copy claiming the same GUID.
    write(os.path.join(d, "proj/assets/rigs/bar.rig2d.json"), rig)
    p = run("-", "--stdin-name", "proj/assets/rigs/bar.rig2d.json", cwd=d, stdin=rig)
    if "guid.duplicate" in p.stdout:
        fail("the named file's own GUID counts as a duplicate: " + p.stdout)
    p = run("-", "--stdin-name", "proj/assets/rigs/copy.rig2d.json", cwd=d, stdin=rig, expect=1)
    if "[guid.duplicate]" not in p.stdout:
        fail("a named stdin is not checked against its assets folder: " + p.stdout)
    # It names "-" only: without one, or naming another input too, it is a usage error.
    run("--stdin-name", name, VALID, expect=2)
    run("-", name, "--stdin-name", "./" + name, cwd=d, stdin=json.dumps(bad), expect=2)


run_case(CASE, globals())
