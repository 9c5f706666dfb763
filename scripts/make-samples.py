#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Generates samples/: a few small RGBA sprites and their .png.meta.json sidecars, plus the bar's
hand-placed bones in scripts/bar.bones.json (outside samples/: the engine counts any other .json under
an asset root as a scene).

Python 3 stdlib only (zlib writes the PNGs). Deterministic: the same bytes on every run. The rigs
(samples/*.rig2d.json) are then made by rig2d-autorig: `bash scripts/run-samples.sh` regenerates them.

  bar       64x256 striped bar, the engine's fixture (games/skin-test); 3 hand-placed bones base->mid->tip
  figure    128x192 figure: head, torso and two legs with a gap between them
  ring      160x160 ring with a hole
  tentacle  64x256 wavy tentacle tapering to its tip
  islands   192x96 two separate blobs
"""
import json
import math
import os
import struct
import sys
import uuid
import zlib

# Sample texture GUIDs are uuid5(SAMPLES_NS, "samples/<name>.png"): stable, documented, lowercase.
SAMPLES_NS = uuid.UUID("b2f1d3c4-5a6e-5f70-8192-a3b4c5d6e7f8")
SUPERSAMPLE = 4  # per axis: antialiased alpha edges, like exported art


def png_bytes(width, height, rgba):
    def chunk(kind, data):
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)

    rows = bytearray()
    stride = width * 4
    for y in range(height):
        rows.append(0)  # filter: none
        rows += rgba[y * stride:(y + 1) * stride]
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0)  # 8-bit RGBA
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", zlib.compress(bytes(rows), 9)) +
            chunk(b"IEND", b""))


def render(width, height, inside, colour):
    """inside(x, y) -> bool in pixel space (pixel centres at +0.5); colour(x, y) -> (r, g, b)."""
    rgba = bytearray(width * height * 4)
    n = SUPERSAMPLE
    for y in range(height):
        for x in range(width):
            hits = 0
            for sy in range(n):
                for sx in range(n):
                    if inside(x + (sx + 0.5) / n, y + (sy + 0.5) / n):
                        hits += 1
            if hits:
                r, g, b = colour(x + 0.5, y + 0.5)
                o = (y * width + x) * 4
                rgba[o:o + 4] = bytes((r, g, b, (hits * 255 + n * n // 2) // (n * n)))
    return rgba


def bar():
    # Opaque, 16 px horizontal stripes in two colours: bends are easy to see in previews.
    def colour(x, y):
        return (230, 90, 40) if int(y // 16) % 2 == 0 else (250, 210, 60)
    return 64, 256, lambda x, y: True, colour


def figure():
    w, h = 128, 192

    def inside(x, y):
        head = (x - 64) ** 2 + (y - 28) ** 2 <= 20 ** 2
        torso = 38 <= x <= 90 and 50 <= y <= 116
        left_leg = 38 <= x <= 58 and 110 <= y <= 188
        right_leg = 70 <= x <= 90 and 110 <= y <= 188
        return head or torso or left_leg or right_leg

    def colour(x, y):
        if y < 50:
            return (240, 200, 170)
        return (60, 110, 200) if y < 116 else (50, 60, 90)
    return w, h, inside, colour


def ring():
    def inside(x, y):
        d2 = (x - 80) ** 2 + (y - 80) ** 2
        return 36 ** 2 <= d2 <= 70 ** 2

    def colour(x, y):
        a = math.atan2(y - 80, x - 80)
        return (int(128 + 100 * math.cos(a)), int(128 + 100 * math.sin(a)), 180)
    return 160, 160, inside, colour


def tentacle():
    w, h = 64, 256

    def centre(y):
        return 32 + 14 * math.sin(y / h * 2 * math.pi * 0.75)

    def half_width(y):
        return 12 - 10 * (y / h)  # 24 px wide at the top, 4 px at the tip

    def inside(x, y):
        return 4 <= y <= 252 and abs(x - centre(y)) <= half_width(y)

    def colour(x, y):
        return (150, 60, 170) if int(y // 12) % 2 == 0 else (190, 100, 200)
    return w, h, inside, colour


def islands():
    def inside(x, y):
        left = ((x - 48) / 36) ** 2 + ((y - 48) / 30) ** 2 <= 1
        right = (x - 150) ** 2 + (y - 52) ** 2 <= 28 ** 2
        return left or right

    def colour(x, y):
        return (70, 170, 90) if x < 100 else (200, 160, 60)
    return 192, 96, inside, colour


def capsule(x, y, ax, ay, bx, by, r):
    vx, vy = bx - ax, by - ay
    t = max(0.0, min(1.0, ((x - ax) * vx + (y - ay) * vy) / (vx * vx + vy * vy)))
    return (x - ax - t * vx) ** 2 + (y - ay - t * vy) ** 2 <= r * r


def hero():
    # A character drawn as one sprite: head, torso, arms bent at the elbows, legs bent at the knees.
    w, h = 128, 192
    arms = [(46, 56, 27, 86, 7), (27, 86, 20, 118, 6), (82, 56, 101, 86, 7), (101, 86, 108, 118, 6)]
    legs = [(55, 100, 49, 144, 9), (49, 144, 47, 186, 8), (73, 100, 79, 144, 9), (79, 144, 81, 186, 8)]

    def inside(x, y):
        if (x - 64) ** 2 + (y - 24) ** 2 <= 18 ** 2 or capsule(x, y, 64, 52, 64, 100, 19):
            return True
        return any(capsule(x, y, *c) for c in arms + legs)

    def colour(x, y):
        if (x - 64) ** 2 + (y - 24) ** 2 <= 18 ** 2:
            return (240, 200, 170)
        if any(capsule(x, y, *c) for c in legs) and y > 104:
            return (50, 60, 100) if y < 178 else (90, 50, 30)
        if any(capsule(x, y, *c) for c in arms):
            return (60, 110, 200) if y < 84 else (240, 200, 170)
        return (60, 110, 200) if int(y // 8) % 2 == 0 else (80, 130, 220)
    return w, h, inside, colour


SPRITES = {"bar": bar, "figure": figure, "ring": ring, "tentacle": tentacle, "islands": islands, "hero": hero}

# The engine fixture's 3-bone chain, texture px from the centre pivot, +y down: base at the bottom.
BAR_BONES = [
    {"name": "base", "parent": -1, "x": 0, "y": 96, "rot": 0},
    {"name": "mid", "parent": 0, "x": 0, "y": -96, "rot": 0},
    {"name": "tip", "parent": 1, "x": 0, "y": -96, "rot": 0},
]


def write(path, data):
    tmp = path + ".tmp"
    with open(tmp, "wb") as f:
        f.write(data)
    os.replace(tmp, path)


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "..",
                                                              "samples")
    os.makedirs(out, exist_ok=True)
    for name, make in SPRITES.items():
        w, h, inside, colour = make()
        write(os.path.join(out, name + ".png"), png_bytes(w, h, render(w, h, inside, colour)))
        guid = str(uuid.uuid5(SAMPLES_NS, "samples/%s.png" % name))
        meta = {"version": 2, "id": guid, "type": "2d"}
        write(os.path.join(out, name + ".png.meta.json"), json.dumps(meta, indent=2).encode())
        print("wrote %s.png (%dx%d) + sidecar %s" % (name, w, h, guid))
    bones = os.path.join(os.path.dirname(os.path.abspath(__file__)), "bar.bones.json")
    write(bones, json.dumps(BAR_BONES, indent=2).encode())


if __name__ == "__main__":
    main()
