// SPDX-License-Identifier: Apache-2.0
#include "options.h"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <exception>
#include <utility>

#include "rig2d/autorig/autorig_inputs.h"
#include "rig2d/autorig/template_choice.h"

namespace rig2d::cli {
namespace {

// What is rigged and where the rigs go. The groups below add their options in --help's order.
void add_input_options(CLI::App& app, Options& o) {
  app.add_option("inputs", o.inputs,
                 "PNG files and/or folders (searched recursively for *.png); or one layered document (.psd, .psb, "
                 ".ora): one multi-part rig, a part per visible layer (docs/layered.md)")
      ->type_name("PNG|PSD|ORA|DIR");
  app.add_option("--layout", o.layout,
                 "Build one multi-part (v2) rig instead: from a layout file (canvas, parts with png or slice, x, y, "
                 "order, name; docs/autorig.md) or a folder of same-size full-canvas layer PNGs in name order. "
                 "-o names the rig (default: beside it, <layout>.rig2d.json)")
      ->type_name("FILE|DIR");
  app.add_option("--groups", o.groups,
                 "A layered document's (.psd, .psb, .ora input) groups: parts (every visible layer is a part) or "
                 "flatten (a top-level group is composited into one part named after it); docs/layered.md")
      ->check(CLI::IsMember({"parts", "flatten"}))
      ->capture_default_str();
  app.add_option("--layers-out", o.layers_out,
                 "A layered document's part images as one PNG (and sidecar) each in DIR, instead of one atlas "
                 "<rig>.atlas.png whose sidecar lists a sprites slice per part")
      ->type_name("DIR");
  app.add_option("--atlas-padding", o.atlas_padding, "Clear px around each part in the atlas, 0..64")
      ->check(CLI::Range(0, 64))
      ->capture_default_str();
  app.add_flag("--atlas-pot", o.atlas_pot, "Round the atlas's sides up to powers of two");
  app.add_option("-o,--output", o.output,
                 "One PNG: the rig file (default: <image minus .png>.rig2d.json beside it), or a folder. "
                 "Folders/several inputs: the output folder, mirroring the input layout (default: beside each PNG)")
      ->type_name("PATH");
  app.add_option("--bones", o.bones,
                 "Hand-placed bones JSON for every sprite: [{name, parent, x, y, rot}, ...] or {\"bones\": [...]}, "
                 "texture px from the pivot, +y down, radians. Default: a suggested chain")
      ->type_name("JSON");
  app.add_flag("--keep-bones", o.keep_bones,
               "Re-use the bones of the rig already at the output path (hand-placed or edited bones survive a "
               "re-run; mesh and weights are redone); sprites without a rig use --bones or a suggested chain");
}

// Where the bones come from: the shape skeleton, the engine's chain.
void add_skeleton_options(CLI::App& app, Options& o) {
  app.add_option("--skeleton", o.skeleton,
                 "Suggested bones: shape (the medial axis of the alpha: a root in the main body and a chain per "
                 "limb) or chain (the engine's suggestBones: one straight chain on the pivot line, --bone-count, "
                 "--axis; exact with --mesh grid --weights joint)")
      ->check(CLI::IsMember({"shape", "chain"}))
      ->capture_default_str();
  app.add_option("--template", o.template_spec,
                 "Fit a skeleton template instead: a bundled one (humanoid, quadruped, bird, fish, snake, tree, "
                 "prop), a *.rig2d-template.json file, auto (every bundled template is tried; the best that "
                 "fits well wins, else --skeleton; -v says which and why) or none (--skeleton: the default). Every rig of a template has its bone "
                 "names, so one clip plays on all of them (rig2d-pose --anim humanoid/walk). See docs/templates.md")
      ->type_name("NAME|FILE|auto");
  app.add_flag("--template-arms", o.template_arms,
               "With --template/--template-map: arms the silhouette does not show (held against the body) are "
               "moved onto the sleeve and hand the sprite draws in other colours than the shirt, where its "
               "colour edges show them clearly; -v lists the bones refined. Costs about as much again as the fit. "
               "See docs/templates.md");
  app.add_option("--template-map", o.template_map,
                 "Choose the template per sprite: a JSON file {\"rules\": [{\"glob\": \"heroes/**\", \"template\": "
                 "\"humanoid\"}, ...]}, globs relative to its folder, the first match wins; a sprite no rule matches "
                 "gets --template. A sidecar's {\"rig2d\": {\"template\": ...}} wins over both. The choice is in each "
                 "rig's stamp. See docs/templates.md, \"Choosing per sprite\"")
      ->type_name("FILE");
  app.add_option("--max-bones", o.shape.max_bones,
                 "shape: bone budget per sprite, 2..256; long limbs get fewer bones first, then the shortest limbs "
                 "go")
      ->capture_default_str();
  app.add_option("--min-branch", o.shape.min_branch,
                 "shape: px a limb must reach beyond the body it leaves to get bones (also at least "
                 "--branch-ratio of the body's half-width); smaller bumps make no bones")
      ->capture_default_str();
  app.add_option("--branch-ratio", o.shape.branch_ratio,
                 "shape: a limb must also reach this fraction of its junction's half-width beyond it, 0..10")
      ->capture_default_str();
  app.add_option("--bone-length", o.shape.bone_length,
                 "shape: target bone length in limb half-widths, 0.5..100 (smaller = more bones per limb)")
      ->capture_default_str();
  app.add_option("--bend-angle", o.shape.bend_angle,
                 "shape: degrees; where a limb's axis turns more than this, a joint goes (a knee, a curl), 5..180")
      ->capture_default_str();
  app.add_flag_function(
      "--shadow-bones", [&o](std::int64_t) { o.shape.skip_drop_shadow = false; },
      "shape: let a baked drop shadow (a dark, semi-transparent patch under the figure) shape bones too; by "
      "default it is left out of the skeleton, so feet standing in it keep their own chains (the mesh and "
      "weights cover it either way)");
  app.add_option("--bone-count", o.bone_count, "chain: chain length, 2..6 (default: about one bone per 96 px)")
      ->check(CLI::Range(2, 6));
  app.add_option("--axis", o.axis, "chain: direction: auto (vertical if height >= width), x or y")
      ->check(CLI::IsMember({"auto", "x", "y"}))
      ->capture_default_str();
}

// The mesh: the outline's settings and the vertex budget of both schemes.
void add_mesh_options(CLI::App& app, Options& o) {
  app.add_option("--mesh", o.mesh,
                 "Mesh scheme: outline (alpha outline, simplified, quality Delaunay triangles) or grid (the engine's "
                 "culled grid, --cols/--rows/--cell-size/--no-cull)")
      ->check(CLI::IsMember({"outline", "grid"}))
      ->capture_default_str();
  app.add_option("--detail", o.detail,
                 "Outline: how many vertices the mesh spends: medium (an outline tolerance that grows with the "
                 "sprite, interior vertices across joints and bones only), low (coarser still) or high (a "
                 "sub-pixel outline and edges of half a bone everywhere: the meshes of earlier versions); "
                 "--outline-tolerance and --margin are its floors, --max-edge a cap")
      ->check(CLI::IsMember({"low", "medium", "high"}))
      ->capture_default_str();
  app.add_option("--margin", o.outline.margin,
                 "Outline: px the outline grows beyond the alpha threshold, so antialiased edges stay covered, 0..64")
      ->capture_default_str();
  app.add_option("--outline-tolerance", o.outline.tolerance,
                 "Outline: simplification tolerance in px, 0..64 (0 keeps every traced point; <= --margin never "
                 "clips an opaque pixel)")
      ->capture_default_str();
  app.add_option("--min-area", o.outline.min_area, "Outline: islands and holes under this many px^2 are dropped")
      ->capture_default_str();
  app.add_option("--min-angle", o.outline.min_angle_deg,
                 "Outline: smallest triangle angle in degrees, 0..34 (0 = no quality refinement)")
      ->capture_default_str();
  app.add_option("--max-edge", o.outline.max_edge,
                 "Outline: longest triangle edge in px, so interiors get vertices to bend (0 = no bound)")
      ->capture_default_str();
  app.add_option(
         "--max-verts", o.outline.max_vertices,
         "Vertex budget of every rig written (both mesh schemes; a layout's parts together): an outline over it is "
         "coarsened with a warning, a mesh that still cannot fit fails (autorig.budget)")
      ->capture_default_str();
}

// The weight scheme and its settings; --help lists the grid's, the alpha mask's and the pivot among them.
void add_weight_options(CLI::App& app, Options& o) {
  app.add_option("--weights", o.weights,
                 "Weight scheme: heat (bone heat diffused through the sprite, so a limb is not pulled by bones "
                 "across a gap) or joint (the engine's nearest-joint inverse distance)")
      ->check(CLI::IsMember({"heat", "joint"}))
      ->capture_default_str();
  app.add_option("--cols", o.cols, "Grid columns, 1..1024 (default: width / cell size, 1..24)");
  app.add_option("--rows", o.rows, "Grid rows, 1..1024 (default: height / cell size, 1..24)");
  app.add_option("--cell-size", o.cell_size, "Grid cell size in px when --cols/--rows are not given")
      ->capture_default_str();
  app.add_option("--alpha-threshold", o.alpha_threshold, "A pixel is opaque when its alpha > this, 0..255")
      ->check(CLI::Range(0, 255))
      ->capture_default_str();
  app.add_flag("--no-cull", o.no_cull,
               "Keep every grid cell, even fully transparent ones (bones still follow the alpha)");
  app.add_option("--falloff", o.falloff,
                 "joint: weight falloff exponent: w = 1/(d^p + 1e-4), or (1-d/R)^p with --radius, (0, 16]")
      ->capture_default_str();
  app.add_option("--radius", o.radius, "joint: influence radius in px; 0 = unbounded (the engine's one-click default)")
      ->capture_default_str();
  app.add_option("--max-influences", o.max_influences, "Bones per vertex, 1..4")
      ->check(CLI::Range(1, 4))
      ->capture_default_str();
  app.add_option("--min-weight", o.min_weight,
                 "heat: drop a bone's weight below this fraction of the vertex's total, [0, 0.25); weights near "
                 "it fade out instead of stepping")
      ->capture_default_str();
  app.add_option("--smooth", o.smooth,
                 "heat: extra smoothing passes over each bone's weights, 0..100 (wider joint blends)")
      ->capture_default_str();
  app.add_option("--pivot", o.pivot,
                 "Rig origin as fractions of the sprite: X,Y with 0,0 top-left, 1,1 bottom-right (0.5,1 = feet)")
      ->capture_default_str();
}

// How the run goes: sidecars, threads, memory, what is written, which slice.
void add_run_options(CLI::App& app, Options& o) {
  app.add_flag("--write-meta", o.write_meta,
               "Create a missing sidecar {\"version\": 2, \"id\": <uuid v5 of path and bytes>, \"type\": \"2d\"}, "
               "and add \"type\": \"2d\" to one without a type");
  app.add_option("-j,--jobs", o.jobs, "Worker threads (default: the number of cores); output never depends on it")
      ->check(CLI::Range(1u, 256u));
  app.add_option("--memory-budget", o.memory_budget_mib,
                 "MiB of decoded images all workers may hold at once; a sprite waits until its decode fits, and "
                 "one that needs more than the whole budget fails (memory.budget); so does a --layout whose canvas "
                 "needs more (about 9 bytes a canvas pixel), before any part is decoded")
      ->check(CLI::Range(std::uint64_t{16}, std::uint64_t{1} << 30))
      ->capture_default_str();
  app.add_flag("--dry-run", o.dry_run, "Rig and check everything in memory, write nothing");
  app.add_flag("--force", o.force,
               "Re-rig even sprites whose stamp says their rig is current (files are still only rewritten when "
               "their bytes change)");
  app.add_option("--slice", o.slice,
                 "Of a sheet whose sidecar lists \"sprites\" slices (each rigged into <png stem>.<slice>.rig2d.json), "
                 "rig only the slice of this name")
      ->type_name("NAME");
  app.add_flag(
      "--slice-sheets", o.slice_sheets,
      "A PNG without slices that looks like a sprite sheet (the autorig.sheet warning) gets its islands "
      "written into its sidecar as \"sprites\" slices, <png stem>_NN in reading order (review the rects), "
      "and each is rigged on its own; with --write-meta a missing sidecar is created first. Not with --check or "
      "--shard");
}

// What build systems and CI need: the up-to-date check, the inputs, a slice of the work.
void add_build_options(CLI::App& app, Options& o) {
  app.add_flag("--check", o.check,
               "Re-rig everything in memory and write nothing: exit 1 listing each output that would change "
               "(\"stale PATH\" / \"missing PATH\" on stdout), 0 when all are current (a CI drift check)");
  app.add_option("--depfile", o.depfile,
                 "Also write a Makefile-syntax depfile (for Ninja/CMake DEPFILE, make): each rig and the files it "
                 "was made from")
      ->type_name("FILE");
  app.add_flag("--list-inputs", o.list_inputs,
               "Print every file the run would read (PNG, sidecar, bones file, kept rig), one per line; rig nothing");
  app.add_flag("--null", o.list_null,
               "With --list-inputs: end each path with a NUL byte instead of a newline (for xargs -0); without it "
               "a path holding a newline is an error (list.newline)");
  app.add_option("--shard", o.shard,
                 "Run only shard K of N (1 <= K <= N): the sprites sorted by path, every N-th from the K-th; the N "
                 "shards together write exactly what one run writes")
      ->type_name("K/N");
  app.add_option("--base", o.base,
                 "With -o FOLDER: mirror each PNG's path relative to this folder (default: a folder input itself; "
                 "for file inputs, their deepest common folder)")
      ->type_name("DIR");
}

// --pivot X,Y: two numbers and nothing else.
std::optional<std::pair<double, double>> parse_pivot(const std::string& s) {
  const auto comma = s.find(',');
  if (comma == std::string::npos) return std::nullopt;
  try {
    std::size_t used_x = 0, used_y = 0;
    const std::string xs = s.substr(0, comma), ys = s.substr(comma + 1);
    const double x = std::stod(xs, &used_x);
    const double y = std::stod(ys, &used_y);
    if (used_x != xs.size() || used_y != ys.size()) return std::nullopt;
    return std::pair{x, y};
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

// --template's spec: an unknown bundled name is a usage error, a bad template file bad input.
int prepare_template_option(const Options& o, TemplateSpec& fallback) {
  if (o.template_spec.empty()) return kOk;
  auto spec = read_template_spec(o.template_spec);
  if (!spec) {
    print_error(spec.error());
    return spec.error().code == "template.unknown" ? kUsage : kBadInput;
  }
  fallback = std::move(*spec);
  return kOk;
}

// The library's options, but the pivot (parsed and checked by the caller): the preset, then every
// field the command line sets.
AutorigOptions autorig_options(const Options& o) {
  AutorigOptions options = AutorigOptions::tool_defaults();
  options.alpha_threshold = o.alpha_threshold;
  options.cull = !o.no_cull;
  options.mesh = *parse_mesh_mode(o.mesh);
  options.outline = o.outline;
  options.detail = o.detail == "low" ? MeshDetail::Low : o.detail == "high" ? MeshDetail::High : MeshDetail::Medium;
  options.weights = *parse_weights_mode(o.weights);
  options.coverage_stats = o.verbosity.verbose > 0 && !o.verbosity.quiet;  // shown only by -v
  options.cols = o.cols;
  options.rows = o.rows;
  options.cell_size = o.cell_size;
  options.skeleton = *parse_skeleton_mode(o.skeleton);
  options.template_colour_edges = o.template_arms;
  options.shape = o.shape;
  options.bone_count = o.bone_count;
  options.axis = o.axis == "x" ? BoneAxis::X : o.axis == "y" ? BoneAxis::Y : BoneAxis::Auto;
  options.joint.falloff = o.falloff;
  options.joint.radius = o.radius;
  options.joint.max_influences = o.max_influences;
  options.heat.max_influences = o.max_influences;
  options.heat.min_weight = o.min_weight;
  options.heat.smooth_passes = o.smooth;
  return options;
}

}  // namespace

const AutorigOptions& tool_defaults() {
  static const AutorigOptions defaults = AutorigOptions::tool_defaults();
  return defaults;
}

std::string axis_name(BoneAxis axis) { return axis == BoneAxis::X ? "x" : axis == BoneAxis::Y ? "y" : "auto"; }

// "0.5,0.5": the shortest text that reads back as each number, as --help shows it.
std::string pivot_text(double x, double y) { return fmt::format("{},{}", x, y); }

void setup(CLI::App& app, Options& o) {
  app.description(
      "Auto-rig PNG sprites into .rig2d.json rigs the engine loads: alpha coverage -> mesh (by default an outline "
      "mesh hugging the alpha, see docs/outline.md; --mesh grid gives the engine's culled grid) -> bones (by "
      "default a skeleton that follows the sprite's shape, a chain per limb, see docs/skeleton.md; --skeleton chain "
      "gives the engine's straight chain; or hand-placed) -> weights: bone heat measured through the sprite "
      "(default), or --weights joint for the engine's nearest-joint weights, which with --mesh grid is exactly the "
      "engine's autoRig2D/buildRig2D. Each sprite needs its <file>.png.meta.json sidecar (its texture GUID); the "
      "rig's sprite is that texture's whole-image sprite GUID.");
  add_input_options(app, o);
  add_skeleton_options(app, o);
  add_mesh_options(app, o);
  add_weight_options(app, o);
  add_run_options(app, o);
  add_build_options(app, o);
  add_verbosity(app, o.verbosity);
  app.set_version_flag("--version", std::string("rig2d-autorig ") + RIG2D_VERSION);
  // Options that do not change a rig's bytes stay out of the digest; every other option is in it.
  // --write-meta only writes a sidecar, whose bytes the digest hashes anyway.
  for (const char* name : {"inputs", "--output", "--bones", "--jobs", "--memory-budget", "--dry-run", "--force",
                           "--check", "--depfile", "--list-inputs", "--shard", "--base", "--slice", "--slice-sheets",
                           "--layout", "--write-meta", "--template-map", "--verbose", "--quiet", "--color"}) {
    app.get_option(name)->configurable(false);
  }
}

int prepare_autorig_options(const Options& o, AutorigOptions& options) {
  options = autorig_options(o);
  const auto pivot = parse_pivot(o.pivot);
  if (!pivot) {
    spdlog::error("--pivot: expected X,Y (two numbers, e.g. 0.5,1), got \"{}\"", o.pivot);
    return kUsage;
  }
  options.pivot_x = pivot->first;
  options.pivot_y = pivot->second;
  if (auto ok = check_autorig_options(options); !ok) {
    spdlog::error("{} [{}]", ok.error().message, ok.error().code);
    return kUsage;
  }
  TemplateSpec fallback;
  if (const int code = prepare_template_option(o, fallback); code != kOk) return code;
  apply_template_spec(fallback, options);
  if (o.bones) {
    auto bones = read_bones_file(*o.bones);
    if (!bones) {
      print_error(bones.error());
      return kBadInput;
    }
  }
  return kOk;
}

int prepare_templates(const Options& o, TemplateSpec& fallback, std::optional<TemplateMap>& map) {
  if (const int code = prepare_template_option(o, fallback); code != kOk) return code;
  if (o.template_map) {
    auto read = load_template_map(*o.template_map);
    if (!read) {
      print_error(read.error());
      return kBadInput;
    }
    map = std::move(*read);
  }
  return kOk;
}

}  // namespace rig2d::cli
