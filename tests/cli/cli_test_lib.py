# SPDX-License-Identifier: Apache-2.0
"""Helpers shared by the Python CLI tests (stdlib only): failing or skipping a case, running a tool
with the crash check, a fresh work folder per case, writing files and RGBA PNGs, and running the
case named on the command line. Importers set sys.dont_write_bytecode first, so nothing is written
into the source tree."""
import os
import shutil
import struct
import subprocess
import sys
import zlib


def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)


def skip(msg):
    print("SKIPPED:", msg)
    sys.exit(77)


def run_tool(tool, *args, expect=None, cwd=None, stdin=None, env=None, text=True, drop_env=()):
    """Runs TOOL ARGS. Fails on a crash or an internal error (exit < 0 or >= 70) and, when `expect` is
    given, on any other exit code. `env` is added to the environment, after removing `drop_env`."""
    e = {k: v for k, v in os.environ.items() if k not in drop_env}
    e.update(env or {})
    p = subprocess.run([tool, *args], capture_output=True, text=text, cwd=cwd, input=stdin, env=e)
    if p.returncode < 0 or p.returncode >= 70:
        fail(f"crashed or internal error ({p.returncode}): {os.path.basename(tool)} {args}\n{p.stderr[-2000:]}")
    if expect is not None and p.returncode != expect:
        fail(f"exit {p.returncode}, expected {expect}: {os.path.basename(tool)} {args}\nstdout: {p.stdout[-3000:]}\n"
             f"stderr: {p.stderr[-2000:]}")
    return p


def workdir(work, case):
    """WORK/CASE, emptied."""
    d = os.path.join(work, case)
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    return d


def write(path, data, mode="w"):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, mode) as f:
        f.write(data)


def write_png(path, w, h, pixel):
    """A w x h RGBA8 PNG; pixel(x, y) gives each pixel's (r, g, b, a)."""
    rows = b"".join(b"\x00" + b"".join(bytes(pixel(x, y)) for x in range(w)) for y in range(h))

    def chunk(tag, data):
        return struct.pack(">I", len(data)) + tag + data + struct.pack(">I", zlib.crc32(tag + data) & 0xFFFFFFFF)
    png = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 6, 0, 0, 0))
    write(path, png + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""), "wb")


def run_case(case, namespace):
    """Runs namespace["case_" + case] (a test module's globals()); an unknown case fails."""
    cases = {name[5:]: fn for name, fn in namespace.items() if name.startswith("case_")}
    if case not in cases:
        fail("unknown case " + case)
    cases[case]()
    print("ok:", case)
