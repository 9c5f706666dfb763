# SPDX-License-Identifier: Apache-2.0
"""Bazel rules for rig2d asset builds (docs/pipelines.md, "Bazel").

    load("@rig2d//:defs.bzl", "rig2d_layout_rig", "rig2d_rigs", "rig2d_validate_test")
    rig2d_rigs(name = "rigs", srcs = glob(["art/**/*.png"]), options = ["--mesh", "outline"])
    # -> bazel-bin/<package>/rigs/<path under the package>/<stem>.rig2d.json
    rig2d_validate_test(name = "rigs_test", rigs = [":rigs"], deform = True)
    rig2d_layout_rig(name = "hero", layout = "hero.layout.json", srcs = glob(["hero/*.png"]))

Every rig is one action (so caching and remote execution work per sprite) running the installed
rig2d-autorig, declared as a tool of this repository, with every file it reads declared as an input:
the PNG, its sidecar (<png>.meta.json beside it) and the --bones file; a layout's action reads the
layout file, its parts' PNGs and their sidecars. Each action first asks the
tool (--list-inputs) and fails if it would read anything else. The options are part of the action key,
so changing them reruns every action and nothing else does.
"""

Rig2dRigsInfo = provider(
    doc = "Rigs made by rig2d_rigs, and the files they were made from (for validation and previews).",
    fields = {
        "rigs": "depset of .rig2d.json files",
        "assets": "depset of the PNGs and sidecars the rigs were made from",
    },
)

_TOOLS = {
    "_autorig": "//:bin/rig2d-autorig",
    "_validate": "//:bin/rig2d-validate",
    "_pose": "//:bin/rig2d-pose",
}

def _tool_attrs():
    attrs = {
        name: attr.label(default = Label(label), executable = True, cfg = "exec", allow_single_file = True)
        for name, label in _TOOLS.items()
    }
    attrs["_runtime"] = attr.label(default = Label("//:runtime"), cfg = "exec")
    return attrs

def _package_relative(ctx, f):
    """The path of a source file under the rule's package ("art/hero.png" for //pkg:art/hero.png)."""
    path = f.short_path
    if f.owner.workspace_name:
        path = path.split("/", 2)[2] if path.startswith("../") else path
    pkg = ctx.label.package
    if pkg and path.startswith(pkg + "/"):
        path = path[len(pkg) + 1:]
    return path

def _run_autorig(ctx, inputs, tool_args, bones, outputs, mnemonic, progress_message):
    """One rig2d-autorig action through autorig_action.sh: `inputs` are declared and checked against
    what the tool lists (--list-inputs) before it runs with tool_args, --bones and the rule's options."""
    args = ctx.actions.args()
    args.add(ctx.executable._autorig)
    args.add_all(inputs)
    args.add("--")
    args.add_all(tool_args)
    if bones:
        args.add("--bones", bones)
    args.add_all(["-q", "-j1"])
    args.add_all(ctx.attr.options)
    ctx.actions.run(
        executable = ctx.executable._action,
        arguments = [args],
        inputs = inputs,
        tools = [ctx.executable._autorig] + ctx.files._runtime,
        outputs = outputs,
        mnemonic = mnemonic,
        progress_message = progress_message,
    )

def _rigs_impl(ctx):
    sidecars = {f.path: f for f in ctx.files.sidecars}
    bones = ctx.file.bones
    out_dir = ctx.attr.out_dir or ctx.label.name
    rigs = []
    stamps = []
    for png in ctx.files.srcs:
        if not png.basename.endswith(".png"):
            fail("rig2d_rigs: %s is not a .png" % png.short_path)
        sidecar = sidecars.get(png.path + ".meta.json")
        if not sidecar:
            fail("rig2d_rigs: %s has no sidecar %s.meta.json (rig2d-autorig reads it; create it with " %
                 (png.short_path, png.basename) + "rig2d-autorig --write-meta)")
        stem = _package_relative(ctx, png)[:-len(".png")]
        rig = ctx.actions.declare_file(out_dir + "/" + stem + ".rig2d.json")
        stamp = ctx.actions.declare_file(out_dir + "/" + stem + ".rig2d.json.stamp")
        inputs = [png, sidecar] + ([bones] if bones else [])
        _run_autorig(ctx, inputs, [png, "-o", rig], bones, [rig, stamp], "Rig2dAutorig",
                     "rig2d: rigging %s" % png.short_path)
        rigs.append(rig)
        stamps.append(stamp)
    assets = depset(ctx.files.srcs + ctx.files.sidecars)
    return [
        DefaultInfo(files = depset(rigs)),
        OutputGroupInfo(stamps = depset(stamps)),
        Rig2dRigsInfo(rigs = depset(rigs), assets = assets),
    ]

_rigs_attrs = {
    "srcs": attr.label_list(allow_files = [".png"], doc = "The sprites, one rig each."),
    "sidecars": attr.label_list(allow_files = [".json"], doc = "Each PNG's <png>.meta.json."),
    "bones": attr.label(allow_single_file = [".json"], doc = "A --bones file for every sprite."),
    "options": attr.string_list(doc = "rig2d-autorig options, e.g. [\"--mesh\", \"outline\"]."),
    "out_dir": attr.string(doc = "Folder of the rigs under the package's output (default: the name)."),
    "_action": attr.label(default = Label("//:autorig_action.sh"), executable = True, cfg = "exec",
                          allow_single_file = True),
}
_rigs_attrs.update(_tool_attrs())

_rig2d_rigs = rule(implementation = _rigs_impl, attrs = _rigs_attrs)

def _layout_rig_impl(ctx):
    layout = ctx.file.layout
    name = layout.basename
    for suffix in [".layout.json", ".json"]:
        if name.endswith(suffix):
            name = name[:-len(suffix)]
            break
    rig = ctx.actions.declare_file(ctx.label.name + "/" + name + ".rig2d.json")
    stamp = ctx.actions.declare_file(ctx.label.name + "/" + name + ".rig2d.json.stamp")
    bones = ctx.file.bones
    inputs = [layout] + ctx.files.srcs + ctx.files.sidecars + ([bones] if bones else [])
    _run_autorig(ctx, inputs, ["--layout", layout, "-o", rig], bones, [rig, stamp], "Rig2dLayout",
                 "rig2d: rigging layout %s" % layout.short_path)
    return [
        DefaultInfo(files = depset([rig])),
        OutputGroupInfo(stamps = depset([stamp])),
        Rig2dRigsInfo(rigs = depset([rig]), assets = depset(ctx.files.srcs + ctx.files.sidecars)),
    ]

_layout_attrs = {
    "layout": attr.label(allow_single_file = [".json"], mandatory = True,
                         doc = "The layout file (<character>.layout.json, docs/autorig.md#layouts)."),
    "srcs": attr.label_list(allow_files = [".png"], doc = "Every PNG the layout's parts name."),
    "sidecars": attr.label_list(allow_files = [".json"], doc = "Each PNG's <png>.meta.json."),
    "bones": attr.label(allow_single_file = [".json"], doc = "A --bones file for the character."),
    "options": attr.string_list(doc = "rig2d-autorig options, e.g. [\"--weights\", \"joint\"]."),
    "_action": _rigs_attrs["_action"],
}
_layout_attrs.update(_tool_attrs())

_rig2d_layout_rig = rule(implementation = _layout_rig_impl, attrs = _layout_attrs)

def rig2d_layout_rig(name, layout, srcs, sidecars = None, **kwargs):
    """One multi-part (v2) rig from a layout file: bazel-bin/<package>/<name>/<stem>.rig2d.json.

    One action reads the layout, every part PNG (srcs) and their sidecars (default: the
    <png>.meta.json beside each); like rig2d_rigs it fails if the tool would read anything else.
    """
    if sidecars == None:
        sidecars = native.glob([s + ".meta.json" for s in srcs if _is_path(s)])
    _rig2d_layout_rig(name = name, layout = layout, srcs = srcs, sidecars = sidecars, **kwargs)

def _is_path(src):
    return not (src.startswith("//") or src.startswith(":") or src.startswith("@"))

def rig2d_rigs(name, srcs, sidecars = None, **kwargs):
    """Rigs every PNG of srcs; sidecars default to the <png>.meta.json files beside them."""
    if sidecars == None:
        sidecars = native.glob([s + ".meta.json" for s in srcs if _is_path(s)])
    _rig2d_rigs(name = name, srcs = srcs, sidecars = sidecars, **kwargs)

def rig2d_rigs_glob(name, include = ["**/*.png"], exclude = [], **kwargs):
    """rig2d_rigs over a glob of the package's PNGs (default: all of them)."""
    rig2d_rigs(name = name, srcs = native.glob(include, exclude = exclude), **kwargs)

def _rigs_and_assets(targets, more_assets):
    rigs, assets = [], [depset(more_assets)]
    for t in targets:
        if Rig2dRigsInfo in t:
            rigs.append(t[Rig2dRigsInfo].rigs)
            assets.append(t[Rig2dRigsInfo].assets)
        else:
            rigs.append(t[DefaultInfo].files)
    return depset(transitive = rigs), depset(transitive = assets)

def _tree_path(f):
    """Where a file goes in an asset tree: its path in the workspace (external/<repo>/... for others)."""
    return "external/" + f.short_path[3:] if f.short_path.startswith("../") else f.short_path

def _asset_tree(ctx, rigs, assets):
    """One real folder holding copies of the rigs and the sprites they were made from.

    rig2d-validate and rig2d-pose resolve sprites through the sidecars under their asset root and never
    follow a file outside it (they compare canonical paths), so a tree of symlinks to the source and
    output folders would not do: the rules copy exactly the declared files into one folder instead.
    """
    tree = ctx.actions.declare_directory(ctx.label.name + ".assets")
    files = rigs.to_list() + assets.to_list()
    args = ctx.actions.args()
    args.add(tree.path)
    for f in files:
        args.add_all([f, _tree_path(f)])
    ctx.actions.run_shell(
        command = """out=$1; shift
while [ $# -gt 0 ]; do mkdir -p "$out/$(dirname "$2")" && cp -L "$1" "$out/$2" || exit 1; shift 2; done""",
        arguments = [args],
        inputs = files,
        outputs = [tree],
        mnemonic = "Rig2dAssetTree",
        progress_message = "rig2d: asset tree %s" % tree.short_path,
    )
    return tree

def _sh_quote(s):
    return "'" + s.replace("'", "'\\''") + "'"

def _validate_test_impl(ctx):
    rigs, assets = _rigs_and_assets(ctx.attr.rigs, ctx.files.assets)
    flags = ["--deform-errors"] if ctx.attr.deform_errors else (["--deform"] if ctx.attr.deform else [])
    flags += ctx.attr.options
    tree = _asset_tree(ctx, rigs, assets)
    validate = "$runfiles/" + _sh_quote(ctx.executable._validate.short_path)
    cmd = " ".join([validate, "--assets ."] +
                   [_sh_quote(f) for f in flags] + [_sh_quote(_tree_path(r)) for r in rigs.to_list()])
    script = ctx.actions.declare_file(ctx.label.name + ".sh")
    ctx.actions.write(script, is_executable = True, content = """#!/bin/sh
# rig2d-validate over the rigs, in a folder holding exactly them and the sprites they were made from
# (GUID lookups resolve there): the findings in the log, the JUnit report as the test's XML output.
runfiles=$PWD
xml=${{XML_OUTPUT_FILE:-$PWD/junit.xml}}
case $xml in /*) ;; *) xml=$PWD/$xml ;; esac
# The runfiles tree links each file elsewhere; lookups need the files themselves in one folder.
tree=${{TEST_TMPDIR:-${{TMPDIR:-/tmp}}}}/rig2d-assets
rm -rf "$tree" && cp -RL {tree} "$tree" && cd "$tree" || exit 1
{cmd} --format junit -o "$xml" -q
code=$?
{cmd}
exit $code
""".format(cmd = cmd, tree = _sh_quote(tree.short_path)))
    runfiles = ctx.runfiles(files = [ctx.executable._validate, tree] + ctx.files._runtime)
    return [DefaultInfo(executable = script, runfiles = runfiles)]

_ASSETS_DOC = "The PNGs and sidecars that rigs given as files resolve to (rig2d_rigs targets bring theirs)."

_validate_attrs = {
    "rigs": attr.label_list(allow_files = [".json"], doc = "rig2d_rigs targets and/or .rig2d.json files."),
    "assets": attr.label_list(allow_files = [".png", ".json"], doc = _ASSETS_DOC),
    "deform": attr.bool(doc = "Also bend every joint (--deform): deform.* warnings."),
    "deform_errors": attr.bool(doc = "--deform-errors: deform.* findings fail the test."),
    "options": attr.string_list(doc = "More rig2d-validate options, e.g. [\"--strict\"]."),
}
_validate_attrs.update(_tool_attrs())

rig2d_validate_test = rule(implementation = _validate_test_impl, attrs = _validate_attrs, test = True)

def _previews_impl(ctx):
    rigs, assets = _rigs_and_assets(ctx.attr.rigs, ctx.files.assets)
    sheet = ctx.actions.declare_file(ctx.label.name + ".png")

    # rig2d-pose resolves textures through the sidecars under --assets and never follows a file outside
    # it: the action copies exactly the declared files into one folder (a sandbox links each input
    # elsewhere) and renders from there.
    files = rigs.to_list() + assets.to_list()
    args = ctx.actions.args()
    args.add_all([ctx.executable._pose, sheet])
    args.add_all(ctx.attr.options)
    args.add("--")
    for f in files:
        args.add_all([f, _tree_path(f)])
    ctx.actions.run_shell(
        command = """pose=$PWD/$1 sheet=$PWD/$2; shift 2
opts=""; while [ "$1" != "--" ]; do opts="$opts $1"; shift; done; shift
tree=$(mktemp -d) || exit 1
trap 'rm -rf "$tree"' EXIT
rigs=""
while [ $# -gt 0 ]; do
  mkdir -p "$tree/$(dirname "$2")" && cp -L "$1" "$tree/$2" || exit 1
  case $2 in *.rig2d.json) rigs="$rigs $2" ;; esac
  shift 2
done
cd "$tree" && "$pose" $rigs --contact-sheet "$sheet" --assets . -q $opts""",
        arguments = [args],
        inputs = files,
        tools = [ctx.executable._pose] + ctx.files._runtime,
        outputs = [sheet],
        mnemonic = "Rig2dPreviews",
        progress_message = "rig2d: contact sheet %s" % sheet.short_path,
    )
    return [DefaultInfo(files = depset([sheet]))]

_previews_attrs = {
    "rigs": attr.label_list(allow_files = [".json"], doc = "rig2d_rigs targets and/or .rig2d.json files."),
    "assets": attr.label_list(allow_files = [".png", ".json"], doc = _ASSETS_DOC),
    "options": attr.string_list(doc = "More rig2d-pose options, e.g. [\"--tile\", \"256\"]."),
}
_previews_attrs.update(_tool_attrs())

rig2d_previews = rule(implementation = _previews_impl, attrs = _previews_attrs)
