#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# pose_expect.sh EXIT_CODE REGEX COMMAND...: runs COMMAND, requires that exact exit code and a line
# of its stdout+stderr matching the (extended) REGEX.
set -u
want=$1 regex=$2
shift 2
out=$("$@" 2>&1)
got=$?
printf '%s\n' "$out"
if [ "$got" -ne "$want" ]; then
  echo "expected exit code $want, got $got" >&2
  exit 1
fi
if ! printf '%s\n' "$out" | grep -Eq -- "$regex"; then
  echo "no output line matches: $regex" >&2
  exit 1
fi
