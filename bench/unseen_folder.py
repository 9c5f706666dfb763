#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""A folder of real sprites from 18 px to 2048 px for bench_autorig, made from art of other folders.

Every PNG found under the SRC_DIRs (atlas pages, renders, sprites) is copied as it is; every region of a
Spine .atlas found there (every --slice-every-th in the atlas's order whose longer side is at least 18 px)
is cut out of its page as a PNG of its own (a part as an animator packed it, turned back upright when the
atlas stored it turned); and the copied PNGs, taken in name order, are scaled in turn: the first of every
three to a longer side of 2048 px, the second to 18, 32, 64 or 128 px (the next size each time), the
third not at all (ImageMagick's Lanczos filter, 8-bit RGBA without metadata chunks, so the same bytes
every run). Last, every PNG of OUT_DIR gets the sidecar `rig2d-autorig --write-meta` creates (the rigs
it writes go to a temporary folder and are deleted). Nothing is written into the SRC_DIRs.

  bench/unseen_folder.py BUILD_DIR OUT_DIR SRC_DIR... [--slice-every 6]
  BUILD_DIR/bench/bench_autorig /tmp/none OUT_DIR files

Art under a licence that forbids redistribution (the animator rigs) may be measured this way, never
copied into the repository. Stdlib only, plus ImageMagick's `convert` (or `magick`).
"""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile


def atlas_regions(path):
    """(page file, region name, x, y, w, h, turned) for every region of a Spine 3.8/4.x .atlas."""
    regions, page, name, lines = [], None, None, []
    with open(path) as f:
        lines = [line.rstrip("\n") for line in f]
    expect_page = True
    for line in lines:
        if not line.strip():
            expect_page = True
            continue
        if not line.startswith((" ", "\t")) and ":" not in line:
            if expect_page and line.endswith(".png"):
                page, name = line, None
            else:
                name = line
            expect_page = False
            continue
        expect_page = False
        key, _, value = line.strip().partition(":")
        values = [v.strip() for v in value.split(",")]
        if name is None or page is None:
            continue
        if key == "bounds":
            x, y, w, h = (int(v) for v in values)
            regions.append([page, name, x, y, w, h, False])
        elif key == "xy" and regions and regions[-1][1] != name:  # 3.8: xy, then size
            regions.append([page, name, int(values[0]), int(values[1]), 0, 0, False])
        elif key == "size" and regions and regions[-1][1] == name:
            regions[-1][4], regions[-1][5] = int(values[0]), int(values[1])
        elif key == "rotate" and regions and regions[-1][1] == name:
            regions[-1][6] = values[0] not in ("false", "0")
    return regions


def safe(name):
    return "".join(c if c.isalnum() or c in "-_" else "-" for c in name)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("build")
    ap.add_argument("out")
    ap.add_argument("src", nargs="+")
    ap.add_argument("--slice-every", type=int, default=6)
    args = ap.parse_args()
    convert = shutil.which("magick") or shutil.which("convert")
    if not convert:
        sys.exit("needs ImageMagick (convert)")
    out = os.path.abspath(args.out)
    os.makedirs(out, exist_ok=True)
    copied = []
    for src in args.src:
        src = os.path.abspath(src)
        tag = safe(os.path.basename(src.rstrip("/")))
        for root, dirs, files in os.walk(src):
            dirs.sort()
            if os.path.abspath(root).startswith(out):
                continue
            for f in sorted(files):
                path = os.path.join(root, f)
                if f.endswith(".png"):
                    dest = os.path.join(out, f"{tag}_{safe(f[:-4])}.png")
                    shutil.copyfile(path, dest)
                    copied.append(dest)
                elif f.endswith(".atlas"):
                    for i, (page, name, x, y, w, h, turned) in enumerate(atlas_regions(path)):
                        if i % args.slice_every or max(w, h) < 18:
                            continue
                        pw, ph = (h, w) if turned else (w, h)  # a turned region is stored h wide
                        dest = os.path.join(out, f"{tag}_{safe(f[:-6])}_{safe(name)}.png")
                        cmd = [convert, os.path.join(root, page), "-crop", f"{pw}x{ph}+{x}+{y}", "+repage"]
                        if turned:
                            cmd += ["-rotate", "-90"]
                        subprocess.run(cmd + ["-strip", f"PNG32:{dest}"], check=True)
    small = [18, 32, 64, 128]
    for i, path in enumerate(sorted(copied)):
        stem = path[:-4]
        if i % 3 == 0:
            cmd, dest = ["-resize", "2048x2048"], f"{stem}_2048px.png"
        elif i % 3 == 1:
            side = small[(i // 3) % len(small)]
            cmd, dest = ["-resize", f"{side}x{side}"], f"{stem}_{side}px.png"
        else:
            continue
        subprocess.run([convert, path, "-strip", "-filter", "Lanczos"] + cmd + [f"PNG32:{dest}"], check=True)
    with tempfile.TemporaryDirectory() as rigs:
        tool = os.path.join(args.build, "tools", "rig2d-autorig", "rig2d-autorig")
        subprocess.run([tool, "-q", "--write-meta", out, "-o", rigs], check=False)
    n = sum(1 for f in os.listdir(out) if f.endswith(".png"))
    print(f"unseen_folder: {n} sprites in {out}")


if __name__ == "__main__":
    main()
