// SPDX-License-Identifier: Apache-2.0
// rig2d-convert: Spine skeleton JSON (+ .atlas) and Godot 4 .tscn to .rig2d.json, and back. The rig
// is the hub: any input is read into a rig (plus texture slices and clips), then written in OUT's
// format. Everything is built in memory, checked against the inputs, then written atomically.
// The command line is parsed here; convert_run.h holds the steps of a run.
#include <algorithm>
#include <cstdio>
#include <string>

#include "common/cli_common.h"
#include "common/cli_docs.h"
#include "convert_run.h"
#include "rig2d/layered/document.h"

using namespace rig2d;
using namespace rig2d::convert;

namespace {

void setup(CLI::App& app, Options& o) {
  app.add_option("input", o.input,
                 "A Spine skeleton .json, a Godot 4 .tscn or a .rig2d.json; or a layered .psd, .psb or .ora "
                 "(to a .layout.json and a PNG per layer, docs/layered.md); or BVH motion capture .bvh (with "
                 "--template, to an .anim.json)")
      ->type_name("FILE")
      ->required();
  app.add_option("-o,--output", o.output,
                 "The file to write: .rig2d.json, .json (Spine), .tscn (Godot), or .layout.json (from a layered "
                 "document)")
      ->type_name("FILE")
      ->required();
  app.add_option("--groups", o.groups, "A layered document's groups: parts (a part per layer) or flatten (a "
                                       "top-level group is one part)")
      ->check(CLI::IsMember({"parts", "flatten"}));
  app.add_option("--to", o.to, "Output format when OUT's name does not say: rig2d, spine or godot")->type_name("FORMAT");
  app.add_option("--atlas", o.atlas, "The Spine .atlas (default: the input with .atlas instead of .json, if present)")
      ->type_name("FILE");
  app.add_option("--assets", o.assets, "Asset root resolving a rig's sprite GUIDs for export (default: the nearest "
                                       "'assets' folder above the rig, else its folder)")->type_name("DIR");
  app.add_option("--textures", o.textures,
                 "Spine export: the atlas names each page by its bare file name, as Spine's packer does, so the "
                 "page belongs beside the atlas. copy (default): copy each texture there; link: a relative "
                 "symlink to it; none: write nothing, you place them. Same-named textures from different "
                 "folders become NAME-2.png...")
      ->check(CLI::IsMember({"copy", "link", "none"}))
      ->type_name("MODE");
  app.add_option("--anim", o.anims, "An .anim.json clip to export with a rig (repeatable): a Spine animation, or a "
                                    "Godot Animation in an AnimationPlayer")->type_name("CLIP")
      ->allow_extra_args(false);
  app.add_option("--template", o.template_spec,
                 "Motion onto a skeleton template (a bundled name or a *.rig2d-template.json): a .bvh input becomes "
                 "a clip of the template's bone names (-o NAME.anim.json) that plays on every rig made from it; a "
                 "Spine input's animations are written for the template's rigs (with --bone-map). docs/convert.md")
      ->type_name("NAME|FILE");
  app.add_option("--bone-map", o.bone_map,
                 "JSON {\"bones\": {\"SOURCE\": \"template_bone\", ...}}: the source's bone (BVH joint, Spine "
                 "bone) for each template bone; a BVH onto the humanoid has common mocap names built in")
      ->type_name("FILE");
  app.add_option("--plane", o.plane,
                 "BVH: the sprite plane its 3D motion is projected onto: front (the figure faces the viewer) or "
                 "side (seen from its left, facing screen right)")
      ->check(CLI::IsMember({"front", "side"}))
      ->capture_default_str();
  app.add_option("--skin", o.skins,
                 "Spine: a skin to show (repeatable). Skins combine in the order given over the default skin, as "
                 "Spine combines them: with --skin skin-base --skin full-skins/boy a slot shows the boy's attachment "
                 "where both skins have one, else the base body's, else the default skin's. --skin each writes one "
                 "rig per skin but \"default\" (which lies under each; a file with no other skin gives a rig of it) "
                 "as OUT's name with the skin before its suffix: hero.rig2d.json -> hero.full-skins%2Fboy.rig2d.json "
                 "(bytes other than letters, digits, '-', '_', '.' as %XX). Without --skin only the default skin is "
                 "read. docs/convert.md")
      ->type_name("NAME|each")
      ->allow_extra_args(false);
  cli::add_verbosity(app, o.verbosity);
}

bool is_bvh(const std::string& path) {
  return path.size() > 4 && (path.compare(path.size() - 4, 4, ".bvh") == 0 || path.compare(path.size() - 4, 4, ".BVH") == 0);
}

}  // namespace

namespace rig2d::convert {

int Run::fail_input(const Error& e) {
  cli::print_error(e);
  return kBadInput;
}

int Run::usage(const std::string& message, const std::string& code) {
  std::fprintf(stderr, "rig2d-convert: error: %s [%s]\n", printable(message).c_str(), code.c_str());
  return kUsage;
}

int Run::run() {
  if (layered_format_of(o.input)) return run_layered();
  if (is_bvh(o.input)) return run_bvh();
  const auto out_format = o.to.empty() ? convert::format_of_path(o.output) : convert::format_of_name(o.to);
  if (!out_format) {
    return usage(o.to.empty() ? "cannot tell the output format from \"" + o.output + "\": name it .rig2d.json, .json or .tscn, or give --to"
                              : "--to takes rig2d, spine or godot (got \"" + o.to + "\")",
                 "convert.output.kind");
  }
  out = *out_format;
  if (!o.textures.empty() && out != Format::Spine)
    return usage("--textures places the pages of a Spine export's atlas (-o NAME.json or --to spine)", "convert.textures");
  if (std::find(o.skins.begin(), o.skins.end(), "each") != o.skins.end()) {
    if (o.skins.size() > 1) return usage("--skin each converts every skin on its own: give it alone", "convert.skin");
    return run_each_skin();
  }
  if (const int read = read_input(); read != kOk) return read;
  if (const int mapped = map_clips_to_template(); mapped != kOk) return mapped;
  const int planned = out == Format::Rig ? plan_rig_outputs() : plan_export();
  if (planned != kOk) return planned;
  return write_outputs();
}

}  // namespace rig2d::convert

int main(int argc, char** argv) {
  CLI::App app{"rig2d-convert: convert 2D skeletal rigs between Spine skeleton JSON (+ .atlas), Godot 4 .tscn "
               "(Skeleton2D + Polygon2D) and .rig2d.json. The direction follows the file kinds: IN is read into a "
               "rig, then written in OUT's format. Importing writes the texture sidecars (.meta.json slices) and "
               "one .anim.json per animation beside OUT; see docs/convert.md for every mapping and loss.",
               "rig2d-convert"};
  app.set_version_flag("--version", std::string("rig2d-convert ") + RIG2D_VERSION);
  Options options;
  setup(app, options);
  cli::add_docs_options(app, "convert rigs between Spine JSON, Godot 4 .tscn and .rig2d.json");
  return cli::run_main(app, argc, argv, [&] {
    cli::setup_logging("rig2d-convert", options.verbosity);
    Run run{options};
    return run.run();
  });
}
