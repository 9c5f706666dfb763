#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Seeds in the fuzzers' palette form (tests/fuzz/palette_image.h: a byte per pixel into 16 colours)
made from sprites of the repository: for fuzz_template (tests/fuzz/corpus/template/, also as PNG bytes)
and fuzz_autorig (tests/fuzz/corpus/autorig/palette-*), each behind a first byte of options. Python's
standard library only.

    python3 tests/fuzz/make_palette_seeds.py   # from the repository root
"""
import os
import struct
import zlib

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CORPUS = os.path.join(ROOT, "tests", "fuzz", "corpus")

# As tests/fuzz/palette_image.h's.
PALETTE = [(0, 0, 0, 0), (0, 0, 0, 255), (255, 255, 255, 255), (128, 128, 128, 255), (240, 200, 160, 255),
           (200, 40, 40, 255), (40, 160, 60, 255), (40, 60, 200, 255), (240, 220, 60, 255), (120, 70, 30, 255),
           (20, 20, 80, 255), (200, 200, 200, 255), (250, 140, 30, 255), (0, 0, 0, 64), (0, 0, 0, 128),
           (90, 40, 120, 200)]

SPRITES = {
    "figure": "samples/figure.png",
    "hero": "samples/hero.png",
    "tentacle": "samples/tentacle.png",
    "player-idle": "tests/data/real-sprites/kenney_platformer-characters_player_player_idle.png",
    "female-idle": "tests/data/real-sprites/kenney_platformer-characters_female_female_idle.png",
    "cheer": "tests/data/real-sprites/kenney_platformer-characters_player_player_cheer2.png",
    "plant": "tests/data/real-sprites/kenney_foliage-pack_png_foliagePack_003.png",
    "fish": "tests/data/real-sprites/kenney_platformer-art-deluxe_extra_animations_and_enemies_fishGreen.png",
}

# fuzz_template's options byte: bit 0 alpha threshold 128 (else 8), bit 1 colour-edge arms, bits 2-4 the template
# (by its index in bundled_template_names(); 7: auto), bit 5 the palette form, bit 6 through
# autorig_image, bit 7 the pivot at the feet.
AUTO = 7 << 2
OPTIONS = {"auto-arms": AUTO | 2, "first-arms": 2, "autorig-auto-arms": 0x40 | AUTO | 2, "third-feet": 0x80 | (2 << 2),
           "sixth-128": (5 << 2) | 1}

PALETTE_OPTIONS = ("auto-arms", "autorig-auto-arms")

# fuzz_autorig's (its knobs): alpha threshold 8, outline mesh, then heat weights and the shape skeleton,
# a budget of 24 vertices, joint weights, or the engine's grid with a chain of bones.
AUTORIG = {"player-idle": 0x81, "plant": 0x91, "fish": 0xA1, "female-idle": 0x29}


def read_rgba(path):
    """The pixels of an 8-bit RGBA or RGB PNG, not interlaced, as rows of (r, g, b, a)."""
    data = open(path, "rb").read()
    pos, chunks = 8, []
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        chunks.append((kind, data[pos + 8:pos + 8 + length]))
        pos += 12 + length
    w, h, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", chunks[0][1])
    channels = {6: 4, 2: 3}[colour]
    assert depth == 8 and interlace == 0, path
    raw = zlib.decompress(b"".join(body for kind, body in chunks if kind == b"IDAT"))
    stride, rows, prev = w * channels, [], bytearray(w * channels)
    for y in range(h):
        kind, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - channels] if i >= channels else 0
            b, c = prev[i], prev[i - channels] if i >= channels else 0
            if kind == 1: line[i] = (line[i] + a) & 255
            elif kind == 2: line[i] = (line[i] + b) & 255
            elif kind == 3: line[i] = (line[i] + (a + b) // 2) & 255
            elif kind == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append([tuple(line[x * channels:(x + 1) * channels]) + ((255,) if channels == 3 else ()) for x in range(w)])
        prev = line
    return w, h, rows


def nearest(pixel):
    if pixel[3] < 128:
        return 0
    return min(range(1, 13), key=lambda k: sum((pixel[c] - PALETTE[k][c]) ** 2 for c in range(3)))


def palette_form(path):
    w, h, rows = read_rgba(path)
    assert w <= 256 and h <= 256, path
    return bytes([w - 1, h - 1]) + bytes(nearest(p) for row in rows for p in row)


def main():
    os.makedirs(os.path.join(CORPUS, "template"), exist_ok=True)
    for name, rel in SPRITES.items():
        path = os.path.join(ROOT, rel)
        png, pal = open(path, "rb").read(), palette_form(path)
        # The PNG form with every option set; the palette form (larger) of the real sprites with the two
        # arm searches.
        for label, options in OPTIONS.items():
            open(os.path.join(CORPUS, "template", f"{name}-{label}.bin"), "wb").write(bytes([options]) + png)
            if label in PALETTE_OPTIONS and not rel.startswith("samples/"):
                open(os.path.join(CORPUS, "template", f"{name}-{label}-palette.bin"), "wb").write(bytes([options | 0x20]) + pal)
        if name in AUTORIG:
            open(os.path.join(CORPUS, "autorig", f"palette-{name}.bin"), "wb").write(bytes([AUTORIG[name]]) + pal)


if __name__ == "__main__":
    main()
