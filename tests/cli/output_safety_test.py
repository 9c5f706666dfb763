#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Never destroy an input (issue 14): each case runs a tool the way a careless user would and checks
that no input changed, the refusal names a stable code, and a failed multi-file run changes nothing.

Usage: output_safety_test.py BIN_DIR SOURCE_DIR WORK_DIR CASE
"""
import hashlib
import os
import shutil
import stat
import subprocess
import sys

BIN, SRC, WORK, CASE = sys.argv[1:5]
AUTORIG = os.path.join(BIN, "rig2d-autorig", "rig2d-autorig")
VALIDATE = os.path.join(BIN, "rig2d-validate", "rig2d-validate")
POSE = os.path.join(BIN, "rig2d-pose", "rig2d-pose")
POSE_DATA = os.path.join(SRC, "tests", "data", "pose")


def fail(message):
    print("FAIL: " + message)
    sys.exit(1)


def run(tool, *args, code):
    proc = subprocess.run([tool, *args], capture_output=True, text=True)
    out = proc.stdout + proc.stderr
    print("$ " + " ".join([os.path.basename(tool), *args]) + "\n" + out)
    if proc.returncode != code:
        fail(f"exit {proc.returncode}, expected {code}")
    return out


def digest(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def snapshot(folder):
    """Every file under folder -> (sha256, mode); symlinks -> their target text."""
    out = {}
    for root, _, files in os.walk(folder):
        for name in files:
            p = os.path.join(root, name)
            rel = os.path.relpath(p, folder)
            out[rel] = ("link", os.readlink(p)) if os.path.islink(p) else (digest(p), os.stat(p).st_mode & 0o7777)
    return out


def expect_unchanged(before, folder):
    after = snapshot(folder)
    if after != before:
        changed = sorted(k for k in set(before) | set(after) if before.get(k) != after.get(k))
        fail("files changed: " + ", ".join(changed))


def fresh(name):
    work = os.path.join(WORK, CASE, name)
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    return work


def sprite_folder():
    work = fresh("sprite")
    for name in ("bar.png", "bar.png.meta.json"):
        shutil.copy(os.path.join(SRC, "samples", name), work)
    with open(os.path.join(work, "bones.json"), "w") as f:
        f.write('[{"name": "root", "parent": -1, "x": 0, "y": 0, "rot": 0}]\n')
    return work


def pose_assets():
    work = fresh("pose")
    shutil.copytree(os.path.join(POSE_DATA, "assets"), os.path.join(work, "assets"))
    shutil.copy(os.path.join(POSE_DATA, "bend.pose.json"), work)
    return work


def refused(out, code):
    if f"[{code}]" not in out:
        fail(f"no [{code}] in the output")


def case_autorig():
    w = sprite_folder()
    png, meta, bones = (os.path.join(w, n) for n in ("bar.png", "bar.png.meta.json", "bones.json"))
    before = snapshot(w)
    refused(run(AUTORIG, png, "-o", png, code=2), "io.output.is_input")
    refused(run(AUTORIG, "--force", png, "-o", meta, code=2), "io.output.is_input")
    refused(run(AUTORIG, png, "--bones", bones, "-o", bones, code=2), "io.output.is_input")
    # Through a symlink and another spelling of the same path.
    os.symlink("bar.png", os.path.join(w, "alias.png"))
    before = snapshot(w)
    refused(run(AUTORIG, png, "-o", os.path.join(w, "alias.png"), code=2), "io.output.is_input")
    refused(run(AUTORIG, png, "-o", os.path.join(w, ".", "bar.png"), code=2), "io.output.is_input")
    # With --write-meta the sidecar is an output, so the rig may not be it either.
    refused(run(AUTORIG, png, "--write-meta", "-o", meta, code=2), "io.output.collision")
    expect_unchanged(before, w)
    run(AUTORIG, png, "-o", os.path.join(w, "bar.rig2d.json"), code=0)


def case_validate():
    w = fresh("validate")
    shutil.copytree(os.path.join(POSE_DATA, "assets"), os.path.join(w, "assets"))
    rig = os.path.join(w, "assets", "rigs", "bar.rig2d.json")
    meta = os.path.join(w, "assets", "textures", "bar.png.meta.json")
    before = snapshot(w)
    refused(run(VALIDATE, rig, "-o", rig, code=2), "io.output.is_input")
    # A file the asset index reads is an input too.
    refused(run(VALIDATE, rig, "-o", meta, code=2), "io.output.is_input")
    refused(run(VALIDATE, os.path.join(w, "assets"), "--fix", "-o", rig, code=2), "io.output.is_input")
    expect_unchanged(before, w)
    run(VALIDATE, rig, "-o", os.path.join(w, "report.txt"), code=0)


def case_pose():
    w = pose_assets()
    rig = os.path.join(w, "assets", "rigs", "bar.rig2d.json")
    clip = os.path.join(w, "assets", "anims", "wave.anim.json")
    tex = os.path.join(w, "assets", "textures", "bar.png")
    pose_file = os.path.join(w, "bend.pose.json")
    before = snapshot(w)
    refused(run(POSE, rig, "-o", rig, code=2), "io.output.is_input")
    refused(run(POSE, rig, "--anim", clip, "--sheet", clip, code=2), "io.output.is_input")
    refused(run(POSE, rig, "--apng", tex, code=2), "io.output.is_input")
    refused(run(POSE, rig, "--pose-file", pose_file, "--dump-vertices", pose_file, code=2), "io.output.is_input")
    refused(run(POSE, rig, "-o", tex + ".meta.json", code=2), "io.output.is_input")
    out = os.path.join(w, "out.png")
    refused(run(POSE, rig, "-o", out, "--sheet", out, code=2), "io.output.collision")
    # Frame names that collide with the sheet.
    refused(run(POSE, rig, "--anim", clip, "--time", "0,0.5", "-o", os.path.join(w, "f.png"), "--sheet",
                os.path.join(w, "f_0001.png"), code=2), "io.output.collision")
    expect_unchanged(before, w)


def case_pose_all_or_nothing():
    w = pose_assets()
    rig = os.path.join(w, "assets", "rigs", "bar.rig2d.json")
    clip = os.path.join(w, "assets", "anims", "wave.anim.json")
    out = os.path.join(w, "out")
    os.makedirs(out)
    frames = os.path.join(out, "f.png")
    run(POSE, rig, "--anim", clip, "--time", "0,0.5", "-o", frames, code=0)
    before = snapshot(w)
    # The sheet cannot be written (its folder would sit below a file, so it cannot be created): the
    # frames it would have come with stay as they were.
    run(POSE, rig, "--anim", clip, "--time", "0.25,0.75", "-o", frames, "--sheet",
        os.path.join(rig, "nodir", "s.png"), code=4)
    expect_unchanged(before, w)
    # A new frame set plus a bad sheet leaves no new file either.
    run(POSE, rig, "--anim", clip, "--time", "0.25,0.75", "-o", os.path.join(out, "g.png"), "--sheet",
        os.path.join(rig, "nodir", "s.png"), code=4)
    expect_unchanged(before, w)
    run(POSE, rig, "--anim", clip, "--time", "0.25,0.75", "-o", frames, "--sheet", os.path.join(out, "s.png"), code=0)
    if snapshot(w) == before:
        fail("a good run changed nothing")


def rig_needing_fix(folder, name):
    """samples/bar.rig2d.json with one vertex's weights doubled and a big integer in an unknown key."""
    import json
    with open(os.path.join(SRC, "samples", "bar.rig2d.json")) as f:
        rig = json.load(f)
    rig["skinWeights"][0] = rig["skinWeights"][0] * 2 or 1
    rig["customId"] = 12345678901234567890
    h = hashlib.sha256(name.encode()).hexdigest()  # each rig its own GUID
    rig["id"] = f"{h[:8]}-{h[8:12]}-4{h[13:16]}-8{h[17:20]}-{h[20:32]}"
    path = os.path.join(folder, name)
    with open(path, "w") as f:
        f.write(json.dumps(rig, indent=2))
    return path


def text_of(path):
    with open(path, "rb") as f:
        return f.read()


def case_fix():
    w = fresh("fix")
    for name in ("bar.png", "bar.png.meta.json"):
        shutil.copy(os.path.join(SRC, "samples", name), w)
    # The mode is kept (0600 stays 0600), and a big integer in an unknown key is kept as written.
    private = rig_needing_fix(w, "private.rig2d.json")
    os.chmod(private, 0o600)
    out = run(VALIDATE, "--fix", private, code=0)
    if "[fix.weights]" not in out:
        fail("nothing was fixed")
    if stat.S_IMODE(os.stat(private).st_mode) != 0o600:
        fail("mode changed to %o" % stat.S_IMODE(os.stat(private).st_mode))
    if b'"customId": 12345678901234567890' not in text_of(private):
        fail("the big integer was rounded")
    # Through a symlink: the link stays a link, its target is fixed.
    target = rig_needing_fix(w, "target.rig2d.json")
    link = os.path.join(w, "link.rig2d.json")
    os.symlink("target.rig2d.json", link)
    run(VALIDATE, "--fix", link, code=0)
    if not os.path.islink(link):
        fail("the symlink was replaced by a file")
    if b"customId" not in text_of(target) or run(VALIDATE, target, code=0).count("[fix."):
        fail("the target was not fixed")
    # A read-only rig is refused unless --force, which keeps it read-only.
    locked = rig_needing_fix(w, "locked.rig2d.json")
    os.chmod(locked, 0o444)
    before = text_of(locked)
    refused(run(VALIDATE, "--fix", locked, code=4), "io.output.read_only")
    if text_of(locked) != before:
        fail("a read-only file was rewritten")
    run(VALIDATE, "--fix", "--force", locked, code=0)
    if text_of(locked) == before or stat.S_IMODE(os.stat(locked).st_mode) != 0o444:
        fail("--force did not rewrite the read-only file keeping its mode")
    # A NUL byte is an error, not the end of the text: nothing after it is dropped.
    nul = rig_needing_fix(w, "nul.rig2d.json")
    with open(nul, "ab") as f:
        f.write(b"\n\0 trailing bytes")
    before = text_of(nul)
    out = run(VALIDATE, "--fix", nul, code=1)
    if "NUL byte" not in out or text_of(nul) != before:
        fail("a file with a NUL byte was rewritten or not reported")


def write(path, text):
    with open(path, "w") as f:
        f.write(text)
    return path


def expect_in(out, *needles):
    for needle in needles:
        if needle not in out:
            fail(f"no {needle!r} in the output")


def case_errors():
    """Item 8: every error names its file and place, has a stable code, and prints control characters escaped."""
    w = sprite_folder()
    png = os.path.join(w, "bar.png")
    # A number beyond a double: json.range at its line:col, not the JSON library's exception text.
    bones = write(os.path.join(w, "huge.bones.json"), '[\n  {"name": "root", "parent": -1, "x": 1e999, "y": 0, "rot": 0}\n]\n')
    out = run(AUTORIG, png, "--bones", bones, "-o", os.path.join(w, "x.rig2d.json"), code=3)
    expect_in(out, "huge.bones.json:2:39: error: number 1e999 is out of range", "[json.range]")
    if "json.exception" in out:
        fail("the JSON library's exception text leaked")
    p = pose_assets()
    rig = os.path.join(p, "assets", "rigs", "bar.rig2d.json")
    pose_file = write(os.path.join(p, "huge.pose.json"), '{"bones": {"mid": {"rot": -1e999}}}')
    expect_in(run(POSE, rig, "--pose-file", pose_file, "-o", os.path.join(p, "o.png"), code=3),
              "huge.pose.json:1:", "[json.range]")
    clip = write(os.path.join(p, "huge.anim.json"), '{"duration": 1e400, "tracks": []}')
    expect_in(run(POSE, rig, "--anim", clip, "-o", os.path.join(p, "o.png"), code=3), "huge.anim.json:1:", "[json.range]")
    # A rig with nothing in it names the rig.
    for text in ("null", "[]", "123"):
        empty = write(os.path.join(p, "empty.rig2d.json"), text)
        expect_in(run(POSE, empty, "-o", os.path.join(p, "o.png"), code=3), "empty.rig2d.json: error:", "[pose.empty]")
    # A \u0000 in a name does not cut the message.
    nul_pose = write(os.path.join(p, "nul.pose.json"), '{"bones": {"a\\u0000b": {"rot": 1}}}')
    expect_in(run(POSE, rig, "--pose-file", nul_pose, "-o", os.path.join(p, "o.png"), code=3),
              'no bone named "a\\x00b"', "[pose.bone]")
    # Every option error has a code.
    o = os.path.join(p, "o.png")
    expect_in(run(POSE, rig, "--size", "0x0", "-o", o, code=2), "[pose.size]")
    expect_in(run(POSE, rig, "--tint", "zz", "-o", o, code=2), "[pose.tint]")
    expect_in(run(POSE, rig, "--opacity", "2", "-o", o, code=2), "[pose.opacity]")
    expect_in(run(POSE, rig, "--background", "pink", "-o", o, code=2), "[raster.color]")
    out = run(POSE, rig, "--scale", "1e300", "-o", o, code=2)
    expect_in(out, "[pose.size]", "would be 6.4e+301x")
    if "be -" in out:
        fail("a negative size was reported")
    # A file name with a newline and ESC prints escaped, on one line.
    evil = os.path.join(p, "evil\nfake.rig2d.json:1:1: error: forged\x1b[2J")
    out = run(POSE, evil, "-o", o, code=3)
    if "\x1b" in out or "\nfake" in out:
        fail("a control character was printed raw")
    expect_in(out, "evil\\nfake.rig2d.json:1:1: error: forged\\x1b[2J: error: no such file [io.not_found]")
    # ... and so do the info, warning and debug lines of rig2d-autorig and rig2d-validate.
    w = fresh("evil-names")
    evil_png = os.path.join(w, "evil\nfake\x1b[2J.png")
    shutil.copy(os.path.join(SRC, "samples", "bar.png"), evil_png)
    out = run(AUTORIG, w, "--write-meta", "-v", code=0)
    if "\x1b" in out or "\nfake" in out:
        fail("rig2d-autorig printed a control character raw")
    expect_in(out, "wrote " + w + "/evil\\nfake\\x1b[2J.rig2d.json")
    with open(os.path.join(w, "evil\nskip\x1b[2J.anim.json"), "w") as f:
        f.write("{}")
    out = run(VALIDATE, w, "-v", code=0)
    if "\x1b" in out or "\nskip" in out:
        fail("rig2d-validate printed a control character raw")


def case_outside():
    """Item 6: nothing outside the asset root is read, symlinks included."""
    w = pose_assets()
    rig = os.path.join(w, "assets", "rigs", "bar.rig2d.json")
    outside = os.path.join(w, "outside")
    os.makedirs(outside)
    tex = os.path.join(w, "assets", "textures", "bar.png")
    shutil.move(tex, os.path.join(outside, "bar.png"))
    os.symlink(os.path.join(outside, "bar.png"), tex)
    out = run(POSE, rig, "-o", os.path.join(w, "o.png"), code=0)
    expect_in(out, "[pose.texture.outside]", "drawing it with the flat tint")
    # A symlink inside the root to a file inside the root is fine.
    os.remove(tex)
    shutil.copy(os.path.join(outside, "bar.png"), os.path.join(w, "assets", "textures", "real.png"))
    os.symlink("real.png", tex)
    if "[pose.texture.outside]" in run(POSE, rig, "-o", os.path.join(w, "o.png"), code=0):
        fail("a symlink inside the root was refused")
    # The validate walk follows no symlink out of the tree.
    write(os.path.join(outside, "broken.rig2d.json"), '{"bones": 5}')
    check = os.path.join(w, "assets", "check")
    os.makedirs(check)
    shutil.move(rig, check)
    os.symlink(os.path.join(outside, "broken.rig2d.json"), os.path.join(check, "link.rig2d.json"))
    out = run(VALIDATE, check, code=0)
    if "link.rig2d.json" in out:
        fail("the walk followed a symlink")


def png_bytes(w, h):
    import struct
    import zlib

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    raw = (b"\0" + b"\x80" * (4 * w)) * h
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 6, 0, 0, 0)) +
            chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b""))


def case_memory():
    """Item 7: a sprite over the memory budget fails naming it; a texture is not decoded before the size is refused."""
    w = fresh("memory")
    big = os.path.join(w, "big.png")
    with open(big, "wb") as f:
        f.write(png_bytes(2048, 2048))  # about 32 MiB at its decode peak
    out = run(AUTORIG, big, "--memory-budget", "16", code=3)
    expect_in(out, "big.png: error: decoding needs about 33 MiB at once, more than the whole memory budget of 16 MiB",
              "[memory.budget]")
    # Within the budget it goes on (and fails later only for its missing sidecar).
    expect_in(run(AUTORIG, big, "--memory-budget", "64", code=3), "[meta.missing]")
    p = pose_assets()
    tex = os.path.join(p, "assets", "textures", "bar.png")
    data = bytearray(text_of(tex))
    data[-20] ^= 0xFF  # damage the texture: reading it would warn
    with open(tex, "wb") as f:
        f.write(bytes(data))
    rig = os.path.join(p, "assets", "rigs", "bar.rig2d.json")
    out = run(POSE, rig, "--scale", "1000", "-o", os.path.join(p, "o.png"), code=2)
    expect_in(out, "[pose.size]")
    if "pose.texture" in out:
        fail("the texture was decoded before the output size was refused")


CASES = {name[5:]: fn for name, fn in globals().items() if name.startswith("case_")}
if CASE not in CASES:
    fail("unknown case " + CASE)
CASES[CASE]()
print("ok")
