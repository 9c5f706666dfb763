#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Seeds in the fuzzers' palette form (tests/fuzz/palette_image.h: a byte per pixel into 16 colours)
made from sprites of the repository: for fuzz_template (tests/fuzz/corpus/template/, also as PNG bytes)
and fuzz_autorig (tests/fuzz/corpus/autorig/palette-*), each behind a first byte of options. Needs
ImageMagick (`convert`, `identify`) to read the PNGs.

    python3 tests/fuzz/make_palette_seeds.py   # from the repository root
"""
import os
import subprocess

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
    """The pixels of a PNG as rows of (r, g, b, a), decoded by ImageMagick."""
    w, h = map(int, subprocess.run(["identify", "-format", "%w %h", path], check=True, capture_output=True,
                                   text=True).stdout.split())
    raw = subprocess.run(["convert", path, "-depth", "8", "rgba:-"], check=True, capture_output=True).stdout
    assert len(raw) == 4 * w * h, path
    return w, h, [[tuple(raw[4 * (y * w + x):4 * (y * w + x) + 4]) for x in range(w)] for y in range(h)]


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
