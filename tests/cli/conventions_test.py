#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""CLI conventions shared by rig2d-validate, rig2d-pose and rig2d-autorig (stdlib only).
Usage: conventions_test.py VALIDATE POSE AUTORIG SOURCE_DIR WORK_DIR CASE

Cases: stdin ("-" reads standard input), color (--color, NO_COLOR, TERM=dumb, terminals through a
pty), progress (no control sequences for dumb terminals and logs), output_dirs (missing output folders
are created), info_lines (one line per batch item at most, plus a summary). Exits 0 on success, 1 on
failure.
"""
import json
import os
import pty
import re
import select
import shutil
import subprocess
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
import cli_test_lib  # noqa: E402
from cli_test_lib import fail, run_case, write  # noqa: E402

VALIDATE, POSE, AUTORIG, SRC, WORK, CASE = sys.argv[1:7]
VALID = os.path.join(SRC, "tests/data/valid/validate")
POSE_DATA = os.path.join(SRC, "tests/data/pose")
BAR_RIG = os.path.join(POSE_DATA, "assets/rigs/bar.rig2d.json")
WAVE = os.path.join(POSE_DATA, "assets/anims/wave.anim.json")
ESC = "\x1b["
COLOR = re.compile("\x1b\\[[0-9;]*m")  # an SGR (colour) sequence


def run(tool, *args, expect=None, stdin=None, env=None, text=True, cwd=None):
    """Runs with colour settings from the caller only (NO_COLOR and TERM removed first)."""
    return cli_test_lib.run_tool(tool, *args, expect=expect, stdin=stdin, env=env, text=text, cwd=cwd,
                                 drop_env=("NO_COLOR", "TERM"))


def run_on_tty(tool, *args, env=None):
    """Runs with stderr on a pseudo-terminal; returns (exit code, what the terminal got)."""
    e = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "TERM")}
    e.update(env or {})
    master, slave = pty.openpty()
    p = subprocess.Popen([tool, *args], stdout=subprocess.DEVNULL, stderr=slave, stdin=subprocess.DEVNULL, env=e)
    os.close(slave)
    out = b""
    while True:
        ready, _, _ = select.select([master], [], [], 60)
        if not ready:
            break
        try:
            chunk = os.read(master, 65536)
        except OSError:  # the child closed the terminal
            break
        if not chunk:
            break
        out += chunk
    p.wait(timeout=60)
    os.close(master)
    return p.returncode, out.decode("utf-8", "replace")


def workdir():
    return cli_test_lib.workdir(WORK, CASE)


def write_png(path, w, h, inside):
    cli_test_lib.write_png(path, w, h, lambda x, y: (200, 120, 60, 255) if inside(x, y) else (0, 0, 0, 0))


def sprites(folder, n):
    for i in range(n):
        write_png(os.path.join(folder, f"s{i}.png"), 24 + 8 * i, 48, lambda x, y: 2 <= x < 20 and 2 <= y < 46)


def a_warning_rig(d):
    """A rig whose only finding is a warning (rig.sprite.empty), so every tool run logs a level."""
    rig = json.load(open(os.path.join(VALID, "rigs/bar.rig2d.json")))
    rig["sprite"] = ""
    path = os.path.join(d, "warn.rig2d.json")
    write(path, json.dumps(rig))
    return path


# --- cases ------------------------------------------------------------------------------------------


def case_stdin():
    d = workdir()
    rig_text = open(BAR_RIG).read()
    # rig2d-pose: the rig from standard input renders exactly what the file renders.
    run(POSE, BAR_RIG, "--assets", os.path.join(POSE_DATA, "assets"), "-o", os.path.join(d, "file.png"), expect=0)
    p = run(POSE, "-", "--assets", os.path.join(POSE_DATA, "assets"), "-o", os.path.join(d, "stdin.png"),
            stdin=rig_text, expect=0)
    if open(os.path.join(d, "file.png"), "rb").read() != open(os.path.join(d, "stdin.png"), "rb").read():
        fail("the rig from stdin renders differently")
    # Without --assets: the assets/ folder above the working folder, never the whole working folder.
    run(POSE, "-", "-o", os.path.join(d, "cwd.png"), stdin=rig_text, cwd=os.path.join(POSE_DATA, "assets", "rigs"),
        expect=0)
    if open(os.path.join(d, "file.png"), "rb").read() != open(os.path.join(d, "cwd.png"), "rb").read():
        fail("the rig from stdin did not find the assets/ folder above the working folder")
    p = run(POSE, "-", "-o", os.path.join(d, "flat.png"), stdin=rig_text, cwd=d, expect=0)
    if "[pose.assets]" not in p.stderr or "--assets" not in p.stderr:
        fail("no hint to pass --assets for a rig on stdin: " + p.stderr)
    # --pose-file - : the pose from standard input, same as from the file.
    bend = os.path.join(POSE_DATA, "bend.pose.json")
    run(POSE, BAR_RIG, "--pose-file", bend, "-o", os.path.join(d, "bend-file.png"), expect=0)
    run(POSE, BAR_RIG, "--pose-file", "-", "-o", os.path.join(d, "bend-stdin.png"), stdin=open(bend).read(), expect=0)
    if open(os.path.join(d, "bend-file.png"), "rb").read() != open(os.path.join(d, "bend-stdin.png"), "rb").read():
        fail("the pose from stdin renders differently")
    # Errors name <stdin>; both from stdin is a usage error; the depfile lists no <stdin>.
    p = run(POSE, "-", "-o", os.path.join(d, "x.png"), stdin='{"bones": 5}', expect=3)
    if not p.stderr.startswith("<stdin>"):
        fail("a bad rig from stdin is not named <stdin>: " + p.stderr)
    run(POSE, "-", "--pose-file", "-", "-o", os.path.join(d, "x.png"), stdin=rig_text, expect=2)
    dep = os.path.join(d, "x.d")
    run(POSE, "-", "--depfile", dep, "-o", os.path.join(d, "dep.png"), stdin=rig_text, expect=0)
    if "<stdin>" in open(dep).read():
        fail("the depfile names <stdin>")
    # rig2d-validate reads "-" (tests/cli/validate_adoption_test.py covers formats and kinds).
    p = run(VALIDATE, "-", stdin='{"id": 1}', expect=1)
    if not p.stdout.startswith("<stdin>:"):
        fail("validate does not read stdin: " + p.stdout)
    # rig2d-autorig: a sprite's sidecar lives beside its PNG, so "-" is refused with the reason.
    p = run(AUTORIG, "-", "-o", os.path.join(d, "x.rig2d.json"), stdin="", expect=2)
    if "standard input" not in p.stderr:
        fail("autorig does not explain why - is refused: " + p.stderr)


def case_color():
    d = workdir()
    rig = a_warning_rig(d)
    tools = ((VALIDATE, [rig]), (POSE, [rig, "-o", os.path.join(d, "w.png")]))
    for tool, args in tools:
        name = os.path.basename(tool)
        # Pipes: no colour unless forced.
        if COLOR.search(run(tool, *args).stderr):
            fail(f"{name}: colour on a pipe")
        if not COLOR.search(run(tool, "--color", "always", *args).stderr):
            fail(f"{name}: --color always gave no colour")
        # A terminal: colour by default, none with NO_COLOR, TERM=dumb or --color never.
        _, out = run_on_tty(tool, *args, env={"TERM": "xterm"})
        if not COLOR.search(out):
            fail(f"{name}: no colour on a terminal: {out!r}")
        for env, extra in (({"TERM": "xterm", "NO_COLOR": "1"}, []), ({"TERM": "dumb"}, []),
                           ({"TERM": "xterm"}, ["--color", "never"])):
            _, out = run_on_tty(tool, *extra, *args, env=env)
            if COLOR.search(out) or "warning" not in out:
                fail(f"{name}: colour with {env} {extra}: {out!r}")
            if env.get("TERM") == "dumb" and ESC in out:
                fail(f"{name}: control sequences on TERM=dumb: {out!r}")
        # NO_COLOR set but empty means unset (no-color.org).
        _, out = run_on_tty(tool, *args, env={"TERM": "xterm", "NO_COLOR": ""})
        if not COLOR.search(out):
            fail(f"{name}: an empty NO_COLOR disabled colour")
    run(VALIDATE, "--color", "sometimes", rig, expect=2)
    run(AUTORIG, "--color", "never", "--help", expect=0)


def case_progress():
    d = workdir()
    folder = os.path.join(d, "assets")
    shutil.copytree(VALID, folder)
    # A real terminal gets the rewritten status line; a dumb one and a log file get none.
    _, out = run_on_tty(VALIDATE, "--progress", "always", folder, env={"TERM": "xterm"})
    if "\r" + ESC + "K" not in out:
        fail("no progress line on a terminal: " + repr(out))
    _, out = run_on_tty(VALIDATE, "--progress", "always", folder, env={"TERM": "dumb"})
    if ESC in out or "\r" in out.replace("\r\n", "\n"):
        fail("control sequences on TERM=dumb: " + repr(out))
    if "checked 11/11 files" not in out:
        fail("--progress always printed no final line on a dumb terminal: " + repr(out))
    p = run(VALIDATE, "--progress", "always", folder)
    if ESC in p.stderr or "\r" in p.stderr or "checked 11/11 files" not in p.stderr:
        fail("control sequences in a log: " + repr(p.stderr))
    # rig2d-autorig's batch status line follows the same rule.
    sprites(os.path.join(d, "sprites"), 3)
    _, out = run_on_tty(AUTORIG, os.path.join(d, "sprites"), "--write-meta", env={"TERM": "dumb"})
    if ESC in out or "\r" in out.replace("\r\n", "\n"):
        fail("autorig: control sequences on TERM=dumb: " + repr(out))
    shutil.rmtree(os.path.join(d, "sprites"))
    sprites(os.path.join(d, "sprites"), 3)
    _, out = run_on_tty(AUTORIG, os.path.join(d, "sprites"), "--write-meta", env={"TERM": "xterm"})
    if "\r" + ESC + "K" not in out:
        fail("autorig: no status line on a terminal: " + repr(out))


def case_output_dirs():
    d = workdir()
    # The README's own example: frames/ does not exist yet.
    run(POSE, BAR_RIG, "--anim", WAVE, "--time", "0,0.5", "-o", os.path.join(d, "frames/walk.png"),
        "--sheet", os.path.join(d, "sheets/a/walk.png"), "--depfile", os.path.join(d, "deps/walk.d"), expect=0)
    for rel in ("frames/walk_0000.png", "frames/walk_0001.png", "sheets/a/walk.png", "deps/walk.d"):
        if not os.path.isfile(os.path.join(d, rel)):
            fail("not created: " + rel)
    sprites(os.path.join(d, "in"), 1)
    run(AUTORIG, os.path.join(d, "in/s0.png"), "--write-meta", "-o", os.path.join(d, "rigs/new/s0.rig2d.json"),
        "--depfile", os.path.join(d, "deps/new/s0.d"), expect=0)
    for rel in ("rigs/new/s0.rig2d.json", "deps/new/s0.d"):
        if not os.path.isfile(os.path.join(d, rel)):
            fail("not created: " + rel)
    run(VALIDATE, "--format", "sarif", "-o", os.path.join(d, "reports/ci/v.sarif"),
        "--write-baseline", os.path.join(d, "ci/base/b.json"), VALID, expect=0)
    for rel in ("reports/ci/v.sarif", "ci/base/b.json"):
        if not os.path.isfile(os.path.join(d, rel)):
            fail("not created: " + rel)
    # A folder that cannot be made (below a file) is still a write error, and nothing is left behind.
    write(os.path.join(d, "blocker"), "a file")
    p = run(POSE, BAR_RIG, "-o", os.path.join(d, "blocker/sub/x.png"), expect=4)
    if "[io.write]" not in p.stderr:
        fail("no io.write for an impossible folder: " + p.stderr)


def info_lines(stderr, tool):
    return [line for line in stderr.splitlines() if line.startswith(tool + ": info:")]


def case_info_lines():
    d = workdir()
    # rig2d-autorig: one line per sprite (the created sidecar rides on it) plus the summary.
    sprites(os.path.join(d, "in"), 4)
    p = run(AUTORIG, os.path.join(d, "in"), "--write-meta", expect=0)
    lines = info_lines(p.stderr, "rig2d-autorig")
    if len(lines) != 5 or len(p.stderr.splitlines()) != 5:
        fail("autorig: not one line per sprite plus a summary:\n" + p.stderr)
    if not all("created" in line and ".meta.json" in line for line in lines[:4]) or "written" not in lines[4]:
        fail("autorig: the sidecar is not named on the sprite's line:\n" + p.stderr)
    # rig2d-validate: findings go to stdout, stderr has the summary only.
    p = run(VALIDATE, VALID, expect=0)
    if len(p.stderr.splitlines()) != 1:
        fail("validate: more than a summary on stderr:\n" + p.stderr)
    # rig2d-pose: 20 frames, one line.
    p = run(POSE, BAR_RIG, "--anim", WAVE, "--fps", "20", "-o", os.path.join(d, "f/x.png"), expect=0)
    lines = info_lines(p.stderr, "rig2d-pose")
    if len(lines) != 1 or "files" not in lines[0]:
        fail("pose: not one line for a batch of frames:\n" + p.stderr)
    p = run(POSE, BAR_RIG, "--anim", WAVE, "--fps", "20", "-v", "-o", os.path.join(d, "f/x.png"), expect=0)
    if sum("wrote" in line for line in p.stderr.splitlines()) < 3:
        fail("pose -v does not list every file")


def case_schema_key():
    # "$schema" (for editors) is accepted in the JSON inputs of every tool: rigs, pose files, bones files.
    d = workdir()
    rig = json.load(open(BAR_RIG))
    write(os.path.join(d, "r.rig2d.json"), json.dumps({"$schema": "https://rig2d.dev/schemas/rig2d.schema.json", **rig}))
    pose = json.load(open(os.path.join(POSE_DATA, "bend.pose.json")))
    write(os.path.join(d, "p.pose.json"), json.dumps({"$schema": "x", **pose}))
    p = run(POSE, os.path.join(d, "r.rig2d.json"), "--pose-file", os.path.join(d, "p.pose.json"), "--assets",
            os.path.join(POSE_DATA, "assets"), "-o", os.path.join(d, "x.png"), expect=0)
    if "warning" in p.stderr:
        fail("rig2d-pose warns about $schema: " + p.stderr)
    bones = json.load(open(os.path.join(SRC, "scripts/bar.bones.json")))
    doc = {"$schema": "x", "bones": bones} if isinstance(bones, list) else {"$schema": "x", **bones}
    write(os.path.join(d, "b.bones.json"), json.dumps(doc))
    write_png(os.path.join(d, "in/bar.png"), 64, 256, lambda x, y: 8 <= x < 56 and 8 <= y < 248)
    run(AUTORIG, os.path.join(d, "in/bar.png"), "--write-meta", "--bones", os.path.join(d, "b.bones.json"), expect=0)
    run(VALIDATE, "--strict", "--no-config", os.path.join(d, "in"), expect=0)


run_case(CASE, globals())
