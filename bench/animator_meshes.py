#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""rig2d-autorig's vertex counts against an animator's meshes for the same images.

Each Spine project (a folder with a skeleton .json and its .atlas and pages) is imported with
rig2d-convert into a temporary copy; the import writes every attachment's atlas region as a slice of
its page's sidecar, so rig2d-autorig on the page then rigs each attachment's own pixels (one rig per
slice). For every imported part, its vertex count (the animator's mesh, or the 4 corners of a region
quad) is set against the vertices of the autorigged rig of its slice, and the median ratio printed.
rig2d-convert imports the default skin and each slot's setup attachment only, so every skin is
imported once on its own: a copy of the skeleton whose default skin is that skin (over the default
one) and whose slots show that skin's first attachment where their setup one is not in it. An
attachment met in several skins counts once.

  bench/animator_meshes.py BUILD_DIR PROJECT_DIR... [--detail medium] [--table]

Nothing is written beside the projects: they are copied into a temporary folder first. Stdlib only.
"""
import argparse
import glob
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile


def tool(build, name):
    return os.path.join(build, "tools", name, name)


def skin_variants(skeleton_path, work):
    """One skeleton file per skin, each showing that skin's attachments through the default skin."""
    with open(skeleton_path) as f:
        doc = json.load(f)
    skins = doc.get("skins", [])
    if isinstance(skins, dict):  # Spine 3.x: {name: attachments}
        skins = [{"name": k, "attachments": v} for k, v in skins.items()]
    default = next((s.get("attachments", {}) for s in skins if s.get("name") == "default"), {})
    stem = os.path.splitext(os.path.basename(skeleton_path))[0]
    paths = []
    for i, skin in enumerate(skins):
        merged = {slot: dict(a) for slot, a in default.items()}
        for slot, a in skin.get("attachments", {}).items():
            merged.setdefault(slot, {}).update(a)
        variant = dict(doc)
        variant["skins"] = [{"name": "default", "attachments": merged}]
        slots = []
        for slot in doc.get("slots", []):
            slot = dict(slot)
            own = skin.get("attachments", {}).get(slot.get("name"), {})
            if own and slot.get("attachment") not in own:
                slot["attachment"] = next(iter(own))
            slots.append(slot)
        variant["slots"] = slots
        path = os.path.join(work, f"{stem}.skin{i}.json")
        with open(path, "w") as f:
            json.dump(variant, f)
        paths.append(path)
    return paths or [skeleton_path]


def compare_project(build, project, detail, tmp):
    work = os.path.join(tmp, os.path.basename(os.path.normpath(project)))
    shutil.copytree(project, work)
    skeletons = [p for p in sorted(glob.glob(os.path.join(work, "*.json")))
                 if not p.endswith(".meta.json") and not p.endswith(".rig2d.json")]
    atlases = sorted(glob.glob(os.path.join(work, "*.atlas")))
    rows = []
    seen = set()
    for skeleton in [v for s in skeletons for v in skin_variants(s, work)]:
        stem = os.path.splitext(os.path.basename(skeleton))[0]
        rig_path = os.path.join(work, stem + ".rig2d.json")
        atlas = [a for a in atlases if os.path.basename(a).split(".")[0] == stem.split(".")[0]] or atlases
        run = subprocess.run([tool(build, "rig2d-convert"), skeleton, "-o", rig_path, "-q"] +
                             (["--atlas", atlas[0]] if atlas else []), capture_output=True, text=True)
        if run.returncode != 0 and "spine.attachment.none" in run.stderr:
            continue  # a skin (often "default") that shows nothing on its own
        if run.returncode != 0:
            print(f"{skeleton}: rig2d-convert failed: {run.stderr.strip()}", file=sys.stderr)
            continue
        with open(rig_path) as f:
            rig = json.load(f)
        # Slice GUID -> (page, slice name), from the sidecars the import wrote.
        slices = {}
        for meta in glob.glob(os.path.join(work, "*.png.meta.json")):
            with open(meta) as f:
                side = json.load(f)
            for s in side.get("sprites", []):
                slices[s["guid"].lower()] = (meta[: -len(".meta.json")], s["name"], s["rect"])
        parts = rig.get("parts") or [dict(rig, name="main")]
        pages = sorted({slices[p["sprite"].lower()][0] for p in parts if p.get("sprite", "").lower() in slices})
        for page in pages:  # --force: a later skin adds slices to the page
            subprocess.run([tool(build, "rig2d-autorig"), page, "--detail", detail, "-q", "--force"],
                           capture_output=True, text=True)
        for part in parts:
            key = part.get("sprite", "").lower()
            if key not in slices:
                continue
            page, name, rect = slices[key]
            rigged = os.path.splitext(page)[0] + "." + name.replace("/", "_") + ".rig2d.json"
            candidates = [rigged] + sorted(glob.glob(os.path.splitext(page)[0] + ".*.rig2d.json"))
            auto = None
            for c in candidates:
                if not os.path.exists(c):
                    continue
                with open(c) as f:
                    r = json.load(f)
                if r.get("sprite", "").lower() == key:
                    auto = r
                    break
            if auto is None:
                print(f"{project}: no rig for slice {name}", file=sys.stderr)
                continue
            animator = len(part["mesh"]["verts"])
            ours = len(auto["mesh"]["verts"])
            bones = len(auto.get("bones", []))
            if (name, animator) in seen:
                continue
            seen.add((name, animator))
            rows.append({"project": os.path.basename(os.path.normpath(project)), "part": part.get("name", "main"),
                         "slice": name, "size": f"{rect['w']}x{rect['h']}" if isinstance(rect, dict) else
                         f"{rect[2]}x{rect[3]}", "animator": animator, "autorig": ours, "bones": bones,
                         "ratio": ours / animator})
    return rows


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("build")
    ap.add_argument("projects", nargs="+")
    ap.add_argument("--detail", default="medium")
    ap.add_argument("--table", action="store_true", help="print every attachment")
    args = ap.parse_args()
    tmp = tempfile.mkdtemp(prefix="rig2d_animator_meshes_")
    try:
        rows = []
        for project in args.projects:
            rows += compare_project(args.build, project, args.detail, tmp)
    finally:
        shutil.rmtree(tmp)
    if not rows:
        print("no attachment compared", file=sys.stderr)
        return 1
    if args.table:
        print("| project | part | slice | px | animator verts | autorig verts | autorig bones | ratio |")
        print("|---|---|---|---|---:|---:|---:|---:|")
        for r in sorted(rows, key=lambda r: (r["project"], r["part"])):
            print(f"| {r['project']} | {r['part']} | {r['slice']} | {r['size']} | {r['animator']} | {r['autorig']} | {r['bones']} | "
                  f"{r['ratio']:.2f} |")
        print()
    for project in sorted({r["project"] for r in rows}):
        rs = [r for r in rows if r["project"] == project]
        print(f"{project}: {len(rs)} attachments, median ratio {statistics.median(r['ratio'] for r in rs):.2f}x, "
              f"vertices {sum(r['autorig'] for r in rs)} autorig / {sum(r['animator'] for r in rs)} animator")
    meshes = [r for r in rows if r["animator"] > 4]
    print(f"all: {len(rows)} attachments, median ratio {statistics.median(r['ratio'] for r in rows):.2f}x "
          f"(goal <= 1.5x); animator meshes only (more than a 4-vertex quad): {len(meshes)}, median "
          f"{statistics.median(r['ratio'] for r in meshes) if meshes else float('nan'):.2f}x; --detail {args.detail}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
