#!/usr/bin/env bash
# A batch interrupted mid-run (SIGTERM, as a CI timeout sends) leaves no temp files; every output is
# either its old contents, untouched, or a complete rig. Usage: interrupt.sh <rig2d-autorig> <samples>
set -euo pipefail
autorig=$1
samples=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/in" "$work/out"
for i in $(seq 1 40); do
  for png in "$samples"/*.png; do
    name=$(basename "$png" .png)
    cp "$png" "$work/in/$name-$i.png"
    cp "$png.meta.json" "$work/in/$name-$i.png.meta.json"
    echo "OLD" > "$work/out/$name-$i.rig2d.json"
  done
done
# Make the sidecars distinct GUIDs so no two sprites collide.
python3 - "$work/in" <<'PY'
import json, os, sys, uuid
d = sys.argv[1]
for f in sorted(os.listdir(d)):
    if f.endswith(".meta.json"):
        p = os.path.join(d, f)
        meta = json.load(open(p))
        meta["id"] = str(uuid.uuid5(uuid.NAMESPACE_URL, f))
        open(p, "w").write(json.dumps(meta, indent=2))
PY
"$autorig" "$work/in" -o "$work/out" --force --cell-size 6 -j 2 -q &
pid=$!
sleep 0.4
kill -TERM "$pid" 2>/dev/null || true
wait "$pid" || true
python3 - "$work/out" "$(( 40 * $(ls "$samples"/*.png | wc -l) ))" <<'PY'
import json, os, sys
out, expected = sys.argv[1], int(sys.argv[2])
files = sorted(os.listdir(out))
temps = [f for f in files if ".tmp." in f]
if temps:
    sys.exit(f"temp files left behind: {temps[:5]}")
old = new = 0
for f in files:
    if f.endswith(".rig2d.json.stamp"):  # build state beside each rig written (atomic too)
        assert open(os.path.join(out, f)).read().startswith("rig2d-autorig stamp 1\n"), f
        continue
    text = open(os.path.join(out, f)).read()
    if text == "OLD\n":
        old += 1
        continue
    rig = json.loads(text)  # a half-written file would fail here
    assert rig["bones"] and rig["mesh"]["verts"], f
    new += 1
print(f"interrupt: {new} rigs complete, {old} untouched, no temp files")
if new + old != expected:
    sys.exit(f"expected {expected} outputs, found {new + old}")
PY
