#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Fails when a Catch2 test case's name holds ';'. catch_discover_tests hands the names to ctest as a
CMake list, so such a name becomes two tests that match no case, and Catch2 passes a run that matches
nothing: the case would never run. Usage: check_test_names.py TESTS_DIR"""
import pathlib
import re
import sys

NAME = re.compile(r'TEST_CASE\(\s*"((?:[^"\\]|\\.)*)"')
bad = []
for path in sorted(pathlib.Path(sys.argv[1]).rglob("*.cpp")):
    text = path.read_text(encoding="utf-8")
    for match in NAME.finditer(text):
        if ";" in match.group(1):
            line = text.count("\n", 0, match.start()) + 1
            bad.append(f"{path}:{line}: test case name holds ';' (ctest would split it): {match.group(1)}")
for b in bad:
    print(b)
print(f"test names: {'bad' if bad else 'ok'}")
sys.exit(1 if bad else 0)
