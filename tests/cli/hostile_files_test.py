#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Files from the field that used to lose data: outputs that are devices, FIFOs or planted symlinks,
reports written over the rigs they check, and paths read from Spine atlases and Godot scenes that
point outside the asset root. Each case checks that nothing outside the intended outputs changed.

Usage: hostile_files_test.py BIN_DIR SOURCE_DIR WORK_DIR CASE
"""
import hashlib
import os
import shutil
import stat
import subprocess
import sys
import threading

BIN, SRC, WORK, CASE = sys.argv[1:5]
AUTORIG = os.path.join(BIN, "rig2d-autorig", "rig2d-autorig")
VALIDATE = os.path.join(BIN, "rig2d-validate", "rig2d-validate")
POSE = os.path.join(BIN, "rig2d-pose", "rig2d-pose")
CONVERT = os.path.join(BIN, "rig2d-convert", "rig2d-convert")
CONVERT_DATA = os.path.join(SRC, "tests", "data", "convert")
POSE_DATA = os.path.join(SRC, "tests", "data", "pose")
IS_ROOT = os.geteuid() == 0


def fail(message):
    print("FAIL: " + message)
    sys.exit(1)


def refused(out, code):
    if f"[{code}]" not in out:
        fail(f"no [{code}] in the output")


def snapshot(folder):
    """Every entry under folder -> its content digest and mode, a link's target, or a node's type."""
    out = {}
    for root, dirs, files in os.walk(folder):
        for name in files + dirs:
            p = os.path.join(root, name)
            st = os.lstat(p)
            if stat.S_ISLNK(st.st_mode):
                out[os.path.relpath(p, folder)] = ("link", os.readlink(p))
            elif stat.S_ISREG(st.st_mode):
                with open(p, "rb") as f:
                    out[os.path.relpath(p, folder)] = (hashlib.sha256(f.read()).hexdigest(), st.st_mode)
            else:
                out[os.path.relpath(p, folder)] = ("node", stat.S_IFMT(st.st_mode))
    return out


def expect_unchanged(before, folder):
    after = snapshot(folder)
    if after != before:
        changed = sorted(k for k in set(before) | set(after) if before.get(k) != after.get(k))
        fail("files changed: " + ", ".join(changed))


def run(tool, *args, code):
    proc = subprocess.run([tool, *args], capture_output=True, text=True, timeout=120)
    out = proc.stdout + proc.stderr
    print("$ " + " ".join([os.path.basename(tool), *args]) + "\n" + out)
    if proc.returncode != code:
        fail(f"exit {proc.returncode}, expected {code}")
    return out


def fresh(name):
    work = os.path.join(WORK, CASE, name)
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    return work


def write(path, text):
    with open(path, "w") as f:
        f.write(text)
    return path


def read(path):
    with open(path, "rb") as f:
        return f.read()


def null_device(folder):
    """A character device like /dev/null inside the test folder (root only), so a regression replaces
    this node and never the system's."""
    path = os.path.join(folder, "null")
    os.mknod(path, 0o666 | stat.S_IFCHR, os.makedev(1, 3))
    return path


def expect_char_device(path):
    if not stat.S_ISCHR(os.lstat(path).st_mode):
        fail(f"{path} is no longer a character device")


class FifoReader:
    """Reads a FIFO in a thread, so a tool writing into it does not block."""

    def __init__(self, path):
        self.path, self.data = path, b""
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self):
        with open(self.path, "rb") as f:
            self.data = f.read()

    def join(self):
        self.thread.join(30)
        return self.data


def pose_assets():
    work = fresh("pose")
    shutil.copytree(os.path.join(POSE_DATA, "assets"), os.path.join(work, "assets"))
    return work


def case_device_outputs():
    """(1) A device or FIFO output is written into, never renamed over."""
    w = pose_assets()
    rig = os.path.join(w, "assets", "rigs", "bar.rig2d.json")
    fifo = os.path.join(w, "report.fifo")
    os.mkfifo(fifo)
    reader = FifoReader(fifo)
    run(VALIDATE, rig, "--format", "json", "-o", fifo, code=0)
    if b'"tool": "rig2d-validate"' not in reader.join() or not stat.S_ISFIFO(os.lstat(fifo).st_mode):
        fail("the report did not go through the FIFO, or the FIFO was replaced")
    # A FIFO nobody reads is an error, not a hang and not a replacement.
    refused(run(VALIDATE, rig, "-o", fifo, code=4), "io.write")
    if not stat.S_ISFIFO(os.lstat(fifo).st_mode):
        fail("the FIFO was replaced")
    # A folder is refused by name.
    os.makedirs(os.path.join(w, "dir.png"))
    if "the output is a folder" not in run(POSE, rig, "-o", os.path.join(w, "dir.png"), code=4):
        fail("a folder output was not named as such")
    if not IS_ROOT:
        print("not root: device nodes cannot be made, the device half is skipped")
        return
    dev = null_device(w)
    run(VALIDATE, rig, "-o", dev, code=0)
    run(POSE, rig, "-o", dev, code=0)
    expect_char_device(dev)
    run(CONVERT, rig, "-o", dev, "--to", "godot", code=0)
    expect_char_device(dev)
    link = os.path.join(w, "via-link.tscn")
    os.symlink(dev, link)
    run(CONVERT, rig, "-o", link, code=0)
    expect_char_device(dev)
    if not os.path.islink(link):
        fail("the symlink to the device was replaced")
    s = fresh("sprite")
    for name in ("bar.png", "bar.png.meta.json"):
        shutil.copy(os.path.join(SRC, "samples", name), s)
    run(AUTORIG, os.path.join(s, "bar.png"), "-o", os.path.join(s, "bar.rig2d.json"), "--depfile", dev, code=0)
    expect_char_device(dev)


def case_stamp_links():
    """(1)(2) A planted <rig>.stamp symlink is replaced by the stamp, its target untouched."""
    w = fresh("stamps")
    s = os.path.join(w, "s")
    outside = os.path.join(w, "outside")
    os.makedirs(s)
    os.makedirs(outside)
    for name in ("bar.png", "bar.png.meta.json", "ring.png", "ring.png.meta.json"):
        shutil.copy(os.path.join(SRC, "samples", name), s)
    victim = write(os.path.join(outside, "victim.txt"), "keep me\n")
    os.symlink(victim, os.path.join(s, "bar.rig2d.json.stamp"))
    dev = null_device(outside) if IS_ROOT else None
    if dev:
        os.symlink(dev, os.path.join(s, "ring.rig2d.json.stamp"))
    run(AUTORIG, s, code=0)
    if read(victim) != b"keep me\n":
        fail("the stamp was written through its symlink")
    if dev:
        expect_char_device(dev)
    for rig in ("bar", "ring") if dev else ("bar",):
        stamp = os.path.join(s, rig + ".rig2d.json.stamp")
        if os.path.islink(stamp) or not read(stamp).startswith(b"rig2d-autorig stamp"):
            fail(f"{stamp} is not the tool's stamp file")
    # The stamps work: a second run is up to date.
    if "0 written" not in run(AUTORIG, s, code=0):
        fail("the replaced stamps were not current")


def case_validate_own_files():
    """(3) --write-baseline or -o naming a rig inside a walked folder, or the config, is refused."""
    w = pose_assets()
    assets = os.path.join(w, "assets")
    rig = os.path.join(assets, "rigs", "bar.rig2d.json")
    config = write(os.path.join(w, "policy.json"), '{}\n')
    before = snapshot(w)
    refused(run(VALIDATE, "--write-baseline", rig, assets, code=2), "io.output.is_input")
    refused(run(VALIDATE, "-o", rig, assets, code=2), "io.output.is_input")
    refused(run(VALIDATE, "--config", config, "-o", config, rig, code=2), "io.output.is_input")
    refused(run(VALIDATE, "--config", config, "--write-baseline", config, rig, code=2), "io.output.is_input")
    expect_unchanged(before, w)
    # A scene that is no report of ours is somebody's file too.
    scene = write(os.path.join(assets, "level.json"), '{"objects": []}\n')
    refused(run(VALIDATE, "--write-baseline", scene, assets, code=2), "io.output.is_input")
    if read(scene) != b'{"objects": []}\n':
        fail("the scene was replaced")
    os.remove(scene)
    # The report or baseline of an earlier run inside the folder is replaced, and not checked.
    # (The fixture tree holds one rig with an unresolved sprite: exit 1.)
    report = os.path.join(assets, "report.json")
    for _ in range(2):
        run(VALIDATE, "--format", "json", "-o", report, assets, code=1)
        if b"report.json" in read(report):
            fail("the earlier report was checked as a scene")
    os.remove(report)
    baseline = os.path.join(assets, "baseline.json")
    for _ in range(2):
        run(VALIDATE, "--write-baseline", baseline, assets, code=0)
    if b"baseline.json" in read(baseline):
        fail("the earlier baseline was checked as a scene")


def spine_copy(w):
    shutil.copytree(os.path.join(CONVERT_DATA, "spine"), os.path.join(w, "spine"))
    return os.path.join(w, "spine", "hero.json")


def case_convert_paths():
    """(4) Paths read from an atlas or a scene stay inside the asset root; non-image pages are refused."""
    w = fresh("paths")
    skel = spine_copy(w)
    atlas = os.path.join(w, "spine", "hero.atlas")
    text = read(atlas).decode()
    os.makedirs(os.path.join(w, "x"))
    shutil.copy(os.path.join(w, "spine", "hero.png"), os.path.join(w, "x", "p.png"))
    out = os.path.join(w, "out", "hero.rig2d.json")
    for page, code, where in (("../x/p.png", "convert.path.outside", "hero.atlas:1:1"),
                              (os.path.join(w, "x", "p.png"), "convert.path.outside", "hero.atlas:1:1"),
                              ("notes.txt", "convert.atlas.page", "hero.atlas:1:1")):
        write(atlas, text.replace("hero.png", page, 1))
        before = snapshot(w)
        o = run(CONVERT, skel, "-o", out, code=3)
        refused(o, code)
        if where not in o:
            fail(f"the error does not name {where}")
        expect_unchanged(before, w)
    # Inside --assets a page may sit in a sibling folder.
    write(atlas, text.replace("hero.png", "../x/p.png", 1))
    run(CONVERT, skel, "--assets", w, "-o", out, code=0)
    if not os.path.exists(os.path.join(w, "x", "p.png.meta.json")):
        fail("the page inside --assets got no sidecar")
    # Godot: res://../ and absolute ext_resource paths, located at the ext_resource line.
    g = fresh("godot")
    shutil.copytree(os.path.join(CONVERT_DATA, "godot"), os.path.join(g, "proj"))
    write(os.path.join(g, "proj", "project.godot"), "")
    scene = os.path.join(g, "proj", "hero.tscn")
    stext = read(scene).decode()
    shutil.copy(os.path.join(g, "proj", "hero.png"), os.path.join(g, "stolen.png"))
    for path in ("res://../stolen.png", os.path.join(g, "stolen.png"), "../stolen.png"):
        write(scene, stext.replace("res://hero.png", path))
        before = snapshot(g)
        o = run(CONVERT, scene, "-o", os.path.join(g, "proj", "o.rig2d.json"), code=3)
        refused(o, "godot.resource.path")
        if "hero.tscn:3:" not in o:
            fail("the error does not name the ext_resource line")
        expect_unchanged(before, g)


def case_convert_textures():
    """(5) -o may not be a texture or atlas page the run reads."""
    w = fresh("textures")
    skel = spine_copy(w)
    page = os.path.join(w, "spine", "hero.png")
    before = snapshot(w)
    refused(run(CONVERT, skel, "-o", page, "--to", "rig2d", code=2), "io.output.is_input")
    refused(run(CONVERT, skel, "-o", page, "--to", "godot", code=2), "io.output.is_input")
    expect_unchanged(before, w)
    g = os.path.join(w, "godot")
    shutil.copytree(os.path.join(CONVERT_DATA, "godot"), g)
    tex = os.path.join(g, "hero.png")
    before = snapshot(w)
    refused(run(CONVERT, os.path.join(g, "hero.tscn"), "-o", tex, "--to", "spine", code=2), "io.output.is_input")
    expect_unchanged(before, w)
    # A rig exported to Godot reads its textures through the asset index.
    p = pose_assets()
    rig = os.path.join(p, "assets", "rigs", "bar.rig2d.json")
    tex = os.path.join(p, "assets", "textures", "bar.png")
    before = snapshot(p)
    refused(run(CONVERT, rig, "-o", tex, "--to", "godot", code=2), "io.output.is_input")
    expect_unchanged(before, p)


CASES = {name[5:]: fn for name, fn in globals().items() if name.startswith("case_")}
if CASE not in CASES:
    fail("unknown case " + CASE)
CASES[CASE]()
print("ok")
