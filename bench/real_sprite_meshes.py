#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The mesh-economy table of a folder of sprites: each sprite autorigged at --detail high (the meshes
before mesh economy) and at the given levels, with its vertices, the outline yardstick (alpha mass
inside, pixels of alpha >= 128 outside, transparent border per px of outline) and the figures of
`rig2d-validate --deform` (worst flip share, area range, edge stretch, deform.* findings). A finding
at a level that --detail high does not have on the same sprite is marked new.

  bench/real_sprite_meshes.py BUILD_DIR SPRITE_DIR [--levels medium,low] [--extra "OPTIONS"]

Stdlib only; the sprites are copied into a temporary folder, never written beside their source.
"""
import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile

YARD = re.compile(r"alpha mass inside ([0-9.]+).*?, (\d+) px with alpha >= 128 outside.*?"
                  r"transparent border ([0-9.]+) px per px")
WROTE = re.compile(r"wrote (\S+)\.rig2d\.json \((\d+) verts, (\d+) tris, (\d+) bones")
FLIP = re.compile(r"worst flips ([0-9.]+)%")
AREA = re.compile(r"area ratio ([0-9.e+-]+) to ([0-9.e+-]+)")
STRETCH = re.compile(r"edge stretch ([0-9.e+-]+)")


def rig_level(build, sprites, level, jobs, extra=()):
    tmp = tempfile.mkdtemp(prefix="rig2d_meshes_")
    try:
        for name in sorted(os.listdir(sprites)):
            if name.endswith(".png"):
                shutil.copy(os.path.join(sprites, name), tmp)
        autorig = os.path.join(build, "tools/rig2d-autorig/rig2d-autorig")
        validate = os.path.join(build, "tools/rig2d-validate/rig2d-validate")
        run = subprocess.run([autorig, tmp, "-v", "--write-meta", "--detail", level, "-j", str(jobs)] + list(extra),
                             capture_output=True, text=True)
        rows = {}
        for line in (run.stdout + run.stderr).splitlines():
            m = WROTE.search(line)
            if m:
                stem = os.path.basename(m.group(1))
                rows.setdefault(stem, {}).update(verts=int(m.group(2)), tris=int(m.group(3)), bones=int(m.group(4)))
            m = YARD.search(line)
            if m and ".png:" in line:
                stem = os.path.basename(line.split(".png:")[0].split(": debug: ")[-1])
                rows.setdefault(stem, {}).update(mass=float(m.group(1)), opaque_out=int(m.group(2)),
                                                 border=float(m.group(3)))
        val = subprocess.run([validate, tmp, "--deform", "--format", "json"], capture_output=True, text=True)
        report = json.loads(val.stdout)
        for f in report["files"]:
            if f["kind"] != "rig":
                continue
            stem = os.path.basename(f["path"])[: -len(".rig2d.json")]
            row = rows.setdefault(stem, {})
            row["findings"] = sorted({d["code"] for d in f["diagnostics"]
                                      if d["code"].startswith("deform.") and d["severity"] != "note"})
            for d in f["diagnostics"]:
                if d["code"] == "deform.summary":
                    row["flip"] = float(FLIP.search(d["message"]).group(1))
                    a = AREA.search(d["message"])
                    row["area"] = (float(a.group(1)), float(a.group(2)))
                    row["stretch"] = float(STRETCH.search(d["message"]).group(1))
        return rows
    finally:
        shutil.rmtree(tmp)


def short(stem):
    return re.sub(r"^kenney_[a-z-]+_png_|^kenney_platformer-(art-deluxe_extra_animations_and_enemies|characters)_", "",
                  stem)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("build")
    ap.add_argument("sprites")
    ap.add_argument("--levels", default="medium")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--extra", default="", help="more rig2d-autorig options for the levels other than high")
    args = ap.parse_args()
    levels = ["high"] + [lv for lv in args.levels.split(",") if lv and lv != "high"]
    data = {lv: rig_level(args.build, args.sprites, lv, args.jobs, args.extra.split() if lv != "high" else ())
            for lv in levels}
    base = data["high"]
    head = "| sprite | " + " | ".join(
        f"{lv}: verts / mass / opaque out / border / worst flip % / area / stretch" for lv in levels) + " | new findings |"
    print(head)
    print("|---" * (len(levels) + 2) + "|")
    failures = 0
    for stem in sorted(base):
        cells, new = [], []
        for lv in levels:
            r = data[lv].get(stem, {})
            if "verts" not in r:
                cells.append("failed")
                continue
            cells.append(f"{r['verts']} / {r.get('mass', float('nan')):.5f} / {r.get('opaque_out', '?')} / "
                         f"{r.get('border', float('nan')):.2f} / {r.get('flip', float('nan')):.2f} / "
                         f"{r['area'][0]:.3g}-{r['area'][1]:.3g} / {r.get('stretch', float('nan')):.3g}")
            if lv != "high":
                new += [f"{lv} {c}" for c in r.get("findings", []) if c not in base[stem].get("findings", [])]
                if r.get("flip", 0) > max(1.0, base[stem].get("flip", 0)) + 1e-9:
                    new.append(f"{lv} worse flip")
        failures += bool(new)
        print(f"| {short(stem)} | " + " | ".join(cells) + f" | {', '.join(new) or '-'} |")
    print()
    for lv in levels:
        verts = [r["verts"] for r in data[lv].values() if "verts" in r]
        print(f"{lv}: {len(verts)} sprites, median {statistics.median(verts)} vertices, {sum(verts)} in all, "
              f"min alpha mass {min(r.get('mass', 0) for r in data[lv].values()):.5f}, "
              f"pixels of alpha >= 128 outside {sum(r.get('opaque_out', 0) for r in data[lv].values())}, "
              f"border {min(r.get('border', 9) for r in data[lv].values()):.2f}-"
              f"{max(r.get('border', 0) for r in data[lv].values()):.2f} px per px")
    print(f"sprites with a new deform finding or a worse flip over 1%: {failures}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
