#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Checks the library's layering (docs/architecture.md): every room of lib/src includes only the rooms
listed below it, from its sources and its public headers. Prints each include that breaks the order and
exits 1; exit 0 when the house is in order."""
import pathlib
import re
import sys

# Lowest first: a room may include itself and the rooms before it that it names.
ALLOWED = {
    "core": [],
    "json": ["core"],
    "io": ["core"],
    "image": ["core", "io"],
    "layered": ["core", "io", "image"],
    "rig": ["core", "json"],
    "scene": ["core", "json"],
    "asset": ["core", "io", "json"],
    "skin": ["core", "rig"],
    "skeleton": ["core", "json", "io", "image", "rig"],
    "geometry": ["core", "image", "rig"],
    "weights": ["core", "rig", "skin"],
    "anim": ["core", "io", "json", "rig", "skin", "asset"],
    "raster": ["core", "image"],
    "quality": ["core", "image", "rig", "weights", "anim", "asset", "skin"],
    "validate": ["core", "json", "io", "image", "rig", "scene", "asset", "skin", "skeleton", "anim", "quality"],
    "autorig": ["core", "json", "io", "image", "layered", "rig", "asset", "skin", "skeleton", "geometry", "weights"],
    "preview": ["core", "json", "io", "image", "rig", "asset", "skin", "anim", "raster", "quality", "validate"],
    "build": ["core", "json", "io", "image", "layered", "rig", "asset", "autorig"],
    "interop": ["core", "json", "io", "image", "rig", "asset", "skin", "skeleton", "anim"],
}

INCLUDE = re.compile(r'#include "(?:rig2d/)?([a-z_]+)/')


def main() -> int:
    root = pathlib.Path(__file__).resolve().parent.parent / "lib"
    problems = []
    rooms = sorted(p.name for p in (root / "src").iterdir() if p.is_dir())
    for room in rooms:
        if room not in ALLOWED:
            problems.append(f"lib/src/{room}: a room docs/architecture.md and this script do not list")
            continue
        files = list((root / "src" / room).rglob("*")) + list((root / "include" / "rig2d" / room).rglob("*"))
        for path in sorted(f for f in files if f.suffix in (".h", ".cpp", ".inc")):
            for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                m = INCLUDE.match(line.strip())
                if m and m.group(1) != room and m.group(1) in ALLOWED and m.group(1) not in ALLOWED[room]:
                    problems.append(f"{path.relative_to(root.parent)}:{number}: {room} includes {m.group(1)}")
    for p in problems:
        print(p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
