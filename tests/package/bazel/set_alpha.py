#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""set_alpha.py PNG X Y ALPHA: rewrites an 8-bit RGBA PNG with one pixel's alpha changed (stdlib only)."""
import struct
import sys
import zlib

path, x, y, alpha = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
data = open(path, "rb").read()
pos, idat, ihdr = 8, b"", None
while pos < len(data):
    length, kind = struct.unpack(">I4s", data[pos:pos + 8])
    body = data[pos + 8:pos + 8 + length]
    if kind == b"IHDR":
        ihdr = body
    elif kind == b"IDAT":
        idat += body
    pos += 12 + length
width, height, depth, color, _, _, interlace = struct.unpack(">IIBBBBB", ihdr)
assert depth == 8 and color == 6 and interlace == 0, "8-bit RGBA, not interlaced"
raw, stride, rows, prev = zlib.decompress(idat), width * 4, [], bytearray(width * 4)
for r in range(height):
    f, line = raw[r * (stride + 1)], bytearray(raw[r * (stride + 1) + 1:(r + 1) * (stride + 1)])
    for i in range(stride):
        a = line[i - 4] if i >= 4 else 0
        b, c = prev[i], prev[i - 4] if i >= 4 else 0
        if f == 1: line[i] = (line[i] + a) & 255
        elif f == 2: line[i] = (line[i] + b) & 255
        elif f == 3: line[i] = (line[i] + (a + b) // 2) & 255
        elif f == 4:
            p = a + b - c
            pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
    rows.append(line)
    prev = line
rows[y][x * 4 + 3] = alpha


def chunk(kind, body):
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))


out = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr)
out += chunk(b"IDAT", zlib.compress(b"".join(b"\0" + bytes(r) for r in rows), 9)) + chunk(b"IEND", b"")
open(path, "wb").write(out)
