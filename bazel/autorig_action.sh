#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# One rig2d_rigs action: autorig_action.sh TOOL DECLARED_INPUT... -- ARG...
# Asks the tool which files `TOOL ARG...` reads (--list-inputs) and fails, naming the file, when one of
# them is not among the inputs the rule declared to Bazel; then runs it. So the declared inputs cannot
# drift from what the tool reads, under any spawn strategy (the sandbox alone only catches reads of
# files that happen to be missing from it).
set -eu
tool=$1
shift
nl='
'
declared=$nl
while [ "$1" != "--" ]; do
  declared="$declared$1$nl"
  shift
done
shift
listed=$("$tool" --list-inputs -q "$@")
printf '%s\n' "$listed" | while IFS= read -r file; do
  case $declared in
    *"$nl$file$nl"*) ;;
    *)
      echo "rig2d_rigs: rig2d-autorig reads $file, which the rule does not declare as an input" >&2
      exit 1
      ;;
  esac
done
exec "$tool" "$@"
