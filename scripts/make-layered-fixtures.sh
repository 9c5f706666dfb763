#!/usr/bin/env bash
# Writes the layered test documents in tests/data/layered/ (and samples/layered/puppet.psd) with programs that
# are not rig2d: the npm package ag-psd (PSD with groups, opacity, hidden and #rigid layers), GIMP in
# batch mode (a PSD it draws itself, and its own composites) and Krita (its OpenRaster and PSD
# writers, and its composites). Run once by hand; the small outputs are committed.
#   needs: node + npm (ag-psd is installed in a temp dir, not kept), gimp, krita, xvfb-run
#   (apt-get install gimp krita xvfb xauth)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
out="$root/tests/data/layered"
here="$root/scripts/layered"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$out"

echo "ag-psd: installing into $tmp"
(cd "$tmp" && npm init -y >/dev/null && npm install --no-audit --no-fund ag-psd@31.0.2 >/dev/null)
NODE_PATH="$tmp/node_modules" node "$here/agpsd-figure.js" "$out/agpsd-figure.psd" 1
NODE_PATH="$tmp/node_modules" node "$here/agpsd-figure.js" "$root/samples/layered/puppet.psd" 2

echo "gimp: drawing gimp-figure.psd and flattening"
gimp -i -n -d -f -b "(begin (load \"$here/gimp-fixtures.scm\")
  (rig2d-gimp-figure \"$out/gimp-figure.psd\" \"$out/gimp-figure.png\")
  (rig2d-flatten \"$out/agpsd-figure.psd\" \"$out/agpsd-figure.gimp.png\"))" -b '(gimp-quit 0)' 2>&1 | grep -v -e GEGL -e leaked || true

# Krita needs a display even to convert: a virtual one. Its settings go to a throwaway HOME.
krita_export() {
  HOME="$tmp/home" xvfb-run -a krita "$1" --export --export-filename "$2" >"$tmp/krita.log" 2>&1 || {
    cat "$tmp/krita.log"; exit 1; }
  [ -s "$2" ] || { echo "krita wrote no $2"; exit 1; }
}
mkdir -p "$tmp/home"
echo "krita: OpenRaster and PSD writers, composites"
krita_export "$out/agpsd-figure.psd" "$out/krita-figure.ora"
krita_export "$out/krita-figure.ora" "$out/krita-figure.png"
krita_export "$out/gimp-figure.psd" "$out/krita-gimp.psd"
krita_export "$out/krita-gimp.psd" "$out/krita-gimp.png"
ls -l "$out"
