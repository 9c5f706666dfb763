#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Writes tests/data/png/: small PNGs of every colour type, bit depth, palette/tRNS and interlacing,
plus corrupt files, each with the RGBA8 decode a correct reader must produce (PngSuite-style coverage,
made here so it can ship). Standard library only; the output is deterministic.

Each <name>.png has a <name>.rgba beside it when it must decode: 8 bytes (width, height as uint32 LE)
then width*height*4 bytes. suite.json lists every file with "decode" or "error"."""

import json
import os
import struct
import sys
import zlib

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "data", "png")
W, H = 13, 11  # not multiples of 8, so every Adam7 pass has ragged edges


def chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def paeth(a, b, c):
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    if pa <= pb and pa <= pc:
        return a
    return b if pb <= pc else c


def filter_rows(rows, bpp):
    """Filters each scanline with a rotating filter type so the decoder's unfiltering is exercised."""
    out = bytearray()
    prev = bytes(len(rows[0])) if rows else b""
    for i, row in enumerate(rows):
        ftype = i % 5
        f = bytearray()
        for x, v in enumerate(row):
            a = row[x - bpp] if x >= bpp else 0
            b = prev[x]
            c = prev[x - bpp] if x >= bpp else 0
            pred = [0, a, b, (a + b) // 2, paeth(a, b, c)][ftype]
            f.append((v - pred) & 0xFF)
        out.append(ftype)
        out += f
        prev = row
    return bytes(out)


def pack_row(samples, depth):
    """Packs integer samples of a scanline at `depth` bits each (big-endian bit order)."""
    if depth == 8:
        return bytes(samples)
    if depth == 16:
        return b"".join(struct.pack(">H", s) for s in samples)
    out = bytearray()
    acc = 0
    nbits = 0
    for s in samples:
        acc = (acc << depth) | s
        nbits += depth
        if nbits == 8:
            out.append(acc)
            acc = nbits = 0
    if nbits:
        out.append(acc << (8 - nbits))
    return bytes(out)


CHANNELS = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}
ADAM7 = [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]


def image_data(pixels, w, h, ctype, depth, interlace):
    """pixels[y][x] = tuple of samples. Returns the filtered, uncompressed IDAT stream."""
    ch = CHANNELS[ctype]
    bpp = max(1, ch * depth // 8)
    if not interlace:
        rows = [pack_row([s for p in pixels[y] for s in p], depth) for y in range(h)]
        return filter_rows(rows, bpp)
    out = b""
    for x0, y0, dx, dy in ADAM7:
        xs = list(range(x0, w, dx))
        ys = list(range(y0, h, dy))
        if not xs or not ys:
            continue
        rows = [pack_row([s for x in xs for s in pixels[y][x]], depth) for y in ys]
        out += filter_rows(rows, bpp)
    return out


def png(w, h, ctype, depth, pixels, interlace=0, palette=None, trns=None):
    data = b"\x89PNG\r\n\x1a\n"
    data += chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, depth, ctype, 0, 0, interlace))
    if palette is not None:
        data += chunk(b"PLTE", b"".join(bytes(c) for c in palette))
    if trns is not None:
        data += chunk(b"tRNS", trns)
    data += chunk(b"IDAT", zlib.compress(image_data(pixels, w, h, ctype, depth, interlace), 9))
    data += chunk(b"IEND", b"")
    return data


def scale_to_8(v, depth):
    if depth == 16:
        return v >> 8  # stb_image (and most readers) keep the high byte
    return v * 255 // ((1 << depth) - 1)


def sample(x, y, k, depth):
    """A deterministic pattern that reaches 0 and the maximum value of every depth."""
    top = (1 << depth) - 1
    v = (x * 7 + y * 13 + k * 29) % (top + 1 if depth < 8 else 256)
    if depth == 16:
        v = ((x * 4099 + y * 257 + k * 8191) * 31) % 65536
    if (x + y) % 6 == 0:
        v = top
    if (x * y + k) % 11 == 0:
        v = 0
    return v


def rgba_of(ctype, depth, p, palette=None, trns=None):
    if ctype == 3:
        r, g, b = palette[p[0]]
        a = trns[p[0]] if trns is not None and p[0] < len(trns) else 255
        return (r, g, b, a)
    if ctype == 0:
        g = scale_to_8(p[0], depth)
        a = 255
        if trns is not None and p[0] == struct.unpack(">H", trns)[0]:
            a = 0
        return (g, g, g, a)
    if ctype == 4:
        g = scale_to_8(p[0], depth)
        return (g, g, g, scale_to_8(p[1], depth))
    if ctype == 2:
        r, g, b = (scale_to_8(v, depth) for v in p)
        a = 255
        if trns is not None and tuple(p) == struct.unpack(">HHH", trns):
            a = 0
        return (r, g, b, a)
    return tuple(scale_to_8(v, depth) for v in p)


def expected_bytes(w, h, rgba_rows):
    return struct.pack("<II", w, h) + b"".join(bytes(c) for row in rgba_rows for c in row)


def make_case(ctype, depth, interlace=0, with_trns=False):
    ch = CHANNELS[ctype]
    palette = trns = None
    if ctype == 3:
        n = 1 << depth
        palette = [((i * 37) % 256, (i * 91 + 11) % 256, (255 - i * 53) % 256) for i in range(n)]
        pixels = [[(sample(x, y, 0, depth),) for x in range(W)] for y in range(H)]
        if with_trns:
            trns = bytes((i * 83) % 256 for i in range(max(1, n // 2)))  # shorter than the palette
    else:
        pixels = [[tuple(sample(x, y, k, depth) for k in range(ch)) for x in range(W)] for y in range(H)]
        if with_trns:
            key = pixels[2][3]
            trns = struct.pack(">H", key[0]) if ctype == 0 else struct.pack(">HHH", *key)
    data = png(W, H, ctype, depth, pixels, interlace, palette, trns)
    rgba = [[rgba_of(ctype, depth, pixels[y][x], palette, trns) for x in range(W)] for y in range(H)]
    return data, expected_bytes(W, H, rgba)


def main():
    os.makedirs(OUT, exist_ok=True)
    suite = {}

    def emit(name, data, expected=None, note=""):
        with open(os.path.join(OUT, name + ".png"), "wb") as f:
            f.write(data)
        entry = {"expect": "decode" if expected is not None else "error"}
        if note:
            entry["note"] = note
        if expected is not None:
            with open(os.path.join(OUT, name + ".rgba"), "wb") as f:
                f.write(expected)
        suite[name + ".png"] = entry

    depths = {0: [1, 2, 4, 8, 16], 2: [8, 16], 3: [1, 2, 4, 8], 4: [8, 16], 6: [8, 16]}
    names = {0: "gray", 2: "rgb", 3: "palette", 4: "grayalpha", 6: "rgba"}
    for ctype, ds in depths.items():
        for depth in ds:
            for interlace in (0, 1):
                name = f"{names[ctype]}{depth}{'-adam7' if interlace else ''}"
                emit(name, *make_case(ctype, depth, interlace))
    for ctype, depth in ((0, 8), (0, 16), (2, 8), (2, 16), (3, 8), (3, 4)):
        emit(f"{names[ctype]}{depth}-trns", *make_case(ctype, depth, 0, True))
    emit("palette8-trns-adam7", *make_case(3, 8, 1, True))

    good, _ = make_case(6, 8)
    iend = good.rfind(b"IEND") - 4
    idat = good.find(b"IDAT") - 4
    idat_len = struct.unpack(">I", good[idat:idat + 4])[0]
    emit("truncated-idat", good[: idat + 8 + idat_len // 2], note="IDAT cut in half")
    emit("truncated-header", good[:20], note="IHDR cut short")
    emit("signature-only", good[:8])
    emit("bad-signature", b"\x89PNX" + good[4:])
    emit("zero-width", good[:16] + struct.pack(">I", 0) + good[20:], note="IHDR width 0")
    bad_zlib = bytearray(good)
    for k in range(idat + 10, idat + 8 + idat_len - 4):
        bad_zlib[k] = 0xFF
    emit("bad-zlib", bytes(bad_zlib), note="IDAT payload overwritten")
    emit("huge-dimensions", good[:16] + struct.pack(">II", 1 << 30, 1 << 30) + good[24:],
         note="header claims 2^30 x 2^30")
    bad_depth = bytearray(good)
    bad_depth[24] = 7  # bit depth 7 does not exist
    emit("bad-bit-depth", bytes(bad_depth))
    raw = image_data([[(1, 2, 3, 4)] * W for _ in range(H)], W, H, 6, 8, 0)
    raw = bytearray(raw)
    raw[0] = 9  # filter type 9 does not exist
    bad_filter = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", W, H, 8, 6, 0, 0, 0))
    bad_filter += chunk(b"IDAT", zlib.compress(bytes(raw))) + chunk(b"IEND", b"")
    emit("bad-filter", bad_filter)
    emit("no-idat", good[:idat] + good[iend:])

    # Integrity: stb checks neither chunk CRCs nor the zlib checksum; the decoder must.
    good_rgba = make_case(6, 8)[1]
    bad_ihdr_crc = bytearray(good)
    bad_ihdr_crc[29] ^= 0x01  # last CRC byte of IHDR
    emit("bad-ihdr-crc", bytes(bad_ihdr_crc), note="IHDR CRC off by one bit")
    bad_idat_crc = bytearray(good)
    bad_idat_crc[idat + 8 + idat_len + 3] ^= 0x01
    emit("bad-idat-crc", bytes(bad_idat_crc), note="IDAT CRC off by one bit")
    payload = bytearray(good[idat + 8: idat + 8 + idat_len])
    payload[-1] ^= 0x01  # the zlib stream's Adler-32, with the chunk CRC recomputed to match
    emit("bad-adler", good[:idat] + chunk(b"IDAT", bytes(payload)) + good[idat + 12 + idat_len:],
         note="zlib Adler-32 wrong, chunk CRCs right")
    # An empty IDAT is legal; stb passes a null buffer to memcpy for an empty first one (UBSan).
    whole = good[idat: idat + 12 + idat_len]
    emit("empty-first-idat", good[:idat] + chunk(b"IDAT", b"") + whole + good[idat + 12 + idat_len:],
         good_rgba, note="zero-length IDAT before the data")
    half = idat_len // 2
    split = (chunk(b"IDAT", good[idat + 8: idat + 8 + half]) + chunk(b"IDAT", b"") +
             chunk(b"IDAT", good[idat + 8 + half: idat + 8 + idat_len]))
    emit("empty-middle-idat", good[:idat] + split + good[idat + 12 + idat_len:], good_rgba,
         note="zero-length IDAT between two halves")
    emit("only-empty-idat", good[:idat] + chunk(b"IDAT", b"") + good[idat + 12 + idat_len:],
         note="the only IDAT is empty")

    with open(os.path.join(OUT, "suite.json"), "w") as f:
        json.dump(suite, f, indent=2, sort_keys=True)
        f.write("\n")
    print(f"wrote {len(suite)} PNGs to {os.path.normpath(OUT)}")


if __name__ == "__main__":
    sys.exit(main())
