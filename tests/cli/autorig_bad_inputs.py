#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Writes a folder of sprites for rig2d-autorig's batch error tests: one good sprite and one of each
bad input (not a PNG, truncated, fully transparent, huge dimensions, missing sidecar)."""
import json
import os
import struct
import sys
import zlib


def chunk(kind, data):
    body = kind + data
    return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)


def png(width, height, alpha):
    rows = b"".join(b"\x00" + bytes([200, 100, 50, alpha]) * width for _ in range(height))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0)) +
            chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))


def meta(path, n):
    with open(path + ".meta.json", "w") as f:
        json.dump({"version": 2, "id": "00000000-0000-4000-8000-%012d" % n, "type": "2d"}, f, indent=2)


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    good = png(32, 64, 255)
    files = {
        "a_good.png": good,
        "b_not_a_png.png": b"this is not a PNG file at all\n",
        "c_truncated.png": good[: len(good) // 2],
        "d_transparent.png": png(32, 32, 0),
        # A valid header claiming 100000 x 100000 px (and no pixel data): rejected before allocating.
        "e_huge.png": b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 100000, 100000, 8, 6, 0, 0, 0)) +
                      chunk(b"IEND", b""),
        "f_missing_meta.png": good,
    }
    for i, (name, data) in enumerate(sorted(files.items())):
        path = os.path.join(out, name)
        with open(path, "wb") as f:
            f.write(data)
        if name != "f_missing_meta.png":
            meta(path, i + 1)


if __name__ == "__main__":
    main()
