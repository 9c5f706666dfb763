#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The Bazel module (share/rig2d/bazel) as an asset workspace uses it, with Debian's bazel-bootstrap,
# offline. Usage: bazel_test.sh BUILD_DIR SOURCE_DIR WORK_DIR BAZEL
#   - every action runs in --spawn_strategy=linux-sandbox, and the rigs are byte-identical to the CLI's;
#   - an option that makes the tool read an undeclared file fails the action (the --list-inputs check);
#   - after `bazel clean`, a build with the same --disk_cache executes no action at all;
#   - one PNG's alpha changed: exactly one action runs; new options: every rig's action runs;
#   - rig2d_validate_test passes on the rigs with a JUnit test.xml, fails on a rig with a weight error
#     and passes once rig2d-validate --fix has repaired it; rig2d_previews writes a contact sheet.
set -euo pipefail
build=$(realpath "$1") src=$(realpath "$2") work=$3 bazel_exe=$4
fail() { echo "FAIL: $*" >&2; exit 1; }

rm -rf "$work" 2>/dev/null || { chmod -R u+w "$work"; rm -rf "$work"; }
mkdir -p "$work"
work=$(realpath "$work")
prefix=$work/prefix ws=$work/ws root=$work/bazel-root cache=$work/disk-cache
cmake --install "$build" --prefix "$prefix" >/dev/null

# The workspace: three sprites in two folders, a two-part character's layout, a broken rig with its
# sprite, and a bones file that no rule declares. WORKSPACE and BUILD.bazel are docs/pipelines.md's
# examples as they stand (the installed prefix for /usr), then the test's own targets.
mkdir -p "$ws/art/props" "$ws/broken" "$ws/extra" "$ws/characters/hero"
python3 - "$src/docs/pipelines.md" "$ws" "$prefix" <<'PY'
import re, sys
doc, ws, prefix = sys.argv[1:]
blocks = re.findall(r"<!-- tested: tests/package/bazel_test.sh[^>]*-->\n```python\n(.*?)```", open(doc).read(), re.S)
if len(blocks) != 2:
    sys.exit("docs/pipelines.md: expected the WORKSPACE and BUILD.bazel examples, found %d" % len(blocks))
open(ws + "/WORKSPACE", "w").write(blocks[0].replace("/usr/share/rig2d/bazel", prefix + "/share/rig2d/bazel"))
open(ws + "/BUILD.bazel", "w").write(blocks[1])
PY
cat "$src/tests/package/bazel/BUILD.bazel" >>"$ws/BUILD.bazel"
grep -q 'options = \["--mesh", "outline"\],' "$ws/BUILD.bazel" || fail "the doc's rig2d_rigs has no outline options"
cp "$src"/samples/bar.png{,.meta.json} "$src"/samples/tentacle.png{,.meta.json} "$ws/art/"
cp "$src"/samples/bar.png{,.meta.json} "$src"/samples/tentacle.png{,.meta.json} "$ws/characters/hero/"
cat >"$ws/characters/hero.layout.json" <<'JSON'
{"canvas": {"width": 128, "height": 320},
 "parts": [{"name": "body", "png": "hero/bar.png", "x": 0, "y": 64},
           {"name": "tail", "png": "hero/tentacle.png", "x": 48, "y": 0}]}
JSON
cp "$src"/samples/ring.png{,.meta.json} "$ws/art/props/"
cp "$src"/samples/bar.png{,.meta.json} "$ws/broken/"
cp "$src/scripts/bar.bones.json" "$ws/extra/"
# Vertex 0's first weight raised by 0.3: its weights sum to 1.3 (rig.weights.sum).
python3 - "$src/samples/bar.rig2d.json" "$ws/broken/bad.rig2d.json" <<'PY'
import re, sys
text = open(sys.argv[1], encoding="utf-8").read()
at = text.index('"skinWeights"')
m = re.compile(r"-?[0-9][0-9.eE+-]*").search(text, at)
open(sys.argv[2], "w", encoding="utf-8").write(text[:m.start()] + repr(float(m.group()) + 0.3) + text[m.end():])
PY
cmp -s "$src/samples/bar.rig2d.json" "$ws/broken/bad.rig2d.json" && fail "the broken rig is not broken"

cd "$ws"
bzl() { "$bazel_exe" --output_user_root="$root" --host_jvm_args=-Xmx1g "$@"; }
trap 'cd "$ws" && bzl shutdown >/dev/null 2>&1 || true' EXIT
# bazel-bootstrap has no coverage tools to fetch offline; `bazel test` needs one named.
flags=(--spawn_strategy=linux-sandbox --disk_cache="$cache" --noshow_progress --color=no --curses=no
       --coverage_report_generator=@bazel_tools//tools/coverage:coverage_report_generator)
# build TARGET...: builds, keeps the log in $log; `executed` is how many actions ran (not served
# from the cache, not Bazel's internal ones), read from the "N processes: ..." summary.
build() {
  log=$(bzl build "${flags[@]}" "$@" 2>&1) || { echo "$log" >&2; fail "bazel build $* failed"; }
  summary=$(grep -E "INFO: [0-9]+ process(es)?" <<<"$log" | tail -1)
  executed=$({ grep -oE "[0-9]+ (linux-sandbox|local|processwrapper-sandbox|worker|remote)[,.]" <<<"$summary" || true; } |
             awk '{n += $1} END {print n + 0}')
  echo "bazel build $*: $summary"
}

echo "== first build, sandboxed"
build //:rigs //:sheet //:hero
[ "$executed" -eq 5 ] || fail "the first build ran $executed actions, not 5 (3 rigs, a layout and a contact sheet)"
grep -q "linux-sandbox" <<<"$summary" || fail "the actions did not run in linux-sandbox"
# The CLI on the same files, in one run, writes the same bytes.
cp -r "$ws/art" "$work/cli-art"
"$prefix/bin/rig2d-autorig" "$work/cli-art" -o "$work/cli-rigs" --mesh outline -q
for rig in bar tentacle props/ring; do
  cmp "$work/cli-rigs/$rig.rig2d.json" "bazel-bin/rigs/art/$rig.rig2d.json" ||
    fail "bazel-bin/rigs/art/$rig.rig2d.json differs from the CLI's"
done
[ -s bazel-bin/sheet.png ] || fail "rig2d_previews wrote no contact sheet"
# Rendered with each sprite's texture: the same sheet as rig2d-pose over the CLI's rigs beside their PNGs.
cp "$work"/cli-rigs/*.rig2d.json "$work/cli-art/" && cp "$work"/cli-rigs/props/*.rig2d.json "$work/cli-art/props/"
(cd "$work/cli-art" && "$prefix/bin/rig2d-pose" bar.rig2d.json props/ring.rig2d.json tentacle.rig2d.json \
  --contact-sheet "$work/cli-sheet.png" --assets . -q)
cmp "$work/cli-sheet.png" bazel-bin/sheet.png || fail "rig2d_previews' sheet differs from rig2d-pose's"
cp bazel-bin/rigs/art/bar.rig2d.json "$work/bar.first.json"
cp -r "$ws/characters" "$work/cli-characters"
"$prefix/bin/rig2d-autorig" --layout "$work/cli-characters/hero.layout.json" -o "$work/cli-hero/" -q
cmp "$work/cli-hero/hero.rig2d.json" bazel-bin/hero/hero.rig2d.json || fail "bazel-bin/hero/hero.rig2d.json differs from the CLI's"

echo "== an undeclared input fails the action"
# In the sandbox the file is simply not there; without one, the --list-inputs check names it.
if log=$(bzl build "${flags[@]}" //:undeclared 2>&1); then fail "a rule reading an undeclared file built"; fi
grep -q "extra/bar.bones.json: error: no such file" <<<"$log" || { echo "$log" >&2; fail "the sandbox let it read"; }
if log=$(bzl build "${flags[@]}" --spawn_strategy=local //:undeclared 2>&1); then
  fail "a rule reading an undeclared file built without the sandbox"
fi
grep -q "reads extra/bar.bones.json, which the rule does not declare" <<<"$log" ||
  { echo "$log" >&2; fail "the undeclared read was not named"; }

echo "== bazel clean, then everything from the disk cache"
bzl clean >/dev/null 2>&1
build //:rigs //:sheet //:hero
[ "$executed" -eq 0 ] || fail "after bazel clean, $executed actions ran instead of coming from the disk cache"
grep -qE "5 (disk|remote) cache hit" <<<"$summary" || fail "expected 5 cache hits: $summary"
cmp "$work/bar.first.json" bazel-bin/rigs/art/bar.rig2d.json || fail "the cached rig differs"

echo "== one PNG's alpha changes: one action"
python3 "$src/tests/package/bazel/set_alpha.py" art/tentacle.png 32 128 77
build //:rigs
[ "$executed" -eq 1 ] || fail "changing tentacle.png's alpha ran $executed actions, not 1"
cmp "$work/bar.first.json" bazel-bin/rigs/art/bar.rig2d.json || fail "bar's rig changed with tentacle.png"

echo "== new options: every action"
sed -i 's/options = \["--mesh", "outline"\],/options = ["--mesh", "grid"],/' BUILD.bazel
build //:rigs
[ "$executed" -eq 3 ] || fail "new options ran $executed actions, not 3"
cmp -s "$work/bar.first.json" bazel-bin/rigs/art/bar.rig2d.json && fail "--mesh grid made the same rig as outline"

echo "== rig2d_validate_test"
bzl test "${flags[@]}" //:rigs_test >/dev/null 2>&1 || { cat bazel-testlogs/rigs_test/test.log >&2; fail "rigs_test failed"; }
grep -q "<testsuites" bazel-testlogs/rigs_test/test.xml || fail "rigs_test's test.xml is not the JUnit report"
grep -q "rigs/art/props/ring.rig2d.json" bazel-testlogs/rigs_test/test.xml || fail "the report does not name the rigs"
if bzl test "${flags[@]}" //:broken_test >/dev/null 2>&1; then fail "broken_test passed on a weight error"; fi
grep -q "rig.weights.sum" bazel-testlogs/broken_test/test.log || fail "broken_test's log lacks rig.weights.sum"
grep -q "<failure" bazel-testlogs/broken_test/test.xml || fail "broken_test's test.xml has no failure"
"$prefix/bin/rig2d-validate" --fix broken/bad.rig2d.json -q >/dev/null || true
bzl test "${flags[@]}" //:broken_test >/dev/null 2>&1 || { cat bazel-testlogs/broken_test/test.log >&2; fail "broken_test failed after --fix"; }
echo "bazel: ok"
