#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The rig JSON Schema against rig2d-validate on every rig of the corpora and samples, with ajv (npm).
# usage: schema_test.sh RIG2D_VALIDATE SOURCE_DIR WORK_DIR. Exits 77 (skipped) only when node is absent.
set -euo pipefail
tool=$1 src=$2 work=$3
if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
  echo "SKIPPED: node/npm not installed, so the JSON Schema cross-check (ajv) cannot run; scripts/install-deps.sh installs them"
  exit 77
fi
mkdir -p "$work"
if [ ! -f "$work/node_modules/ajv/package.json" ]; then
  echo "installing ajv@8 into $work"
  npm install --prefix "$work" --no-audit --no-fund --no-save --silent ajv@8
fi
mapfile -t rigs < <(find "$src/tests/data/valid" "$src/tests/data/invalid" "$src/tests/data/schema" "$src/samples" -name '*.rig2d.json' | sort)
status=0
"$tool" --format json --progress never -q -o "$work/report.json" "${rigs[@]}" || status=$?
if [ "$status" -gt 1 ]; then echo "rig2d-validate failed with exit $status"; exit 1; fi
node "$src/tests/schema/check_rig_schema.cjs" "$src/schemas/rig2d.schema.json" "$work/report.json" "$work"
