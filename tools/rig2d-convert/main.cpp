// SPDX-License-Identifier: Apache-2.0
// rig2d-convert: Spine skeleton JSON (+ .atlas) and Godot 4 .tscn to .rig2d.json, and back. The rig
// is the hub: any input is read into a rig (plus texture slices and clips), then written in OUT's
// format. Everything is built in memory, checked against the inputs, then written atomically.
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>
#include <spdlog/spdlog.h>

#include "common/cli_common.h"
#include "convert_files.h"
#include "rig2d/asset/asset_index.h"
#include "rig2d/asset/guid.h"
#include "rig2d/core/limits.h"
#include "rig2d/image/png.h"
#include "rig2d/interop/godot.h"
#include "rig2d/interop/spine.h"
#include "rig2d/io/files.h"
#include "rig2d/io/output_safety.h"
#include "rig2d/pipeline/autorig_inputs.h"
#include "rig2d/rig/rig_json.h"

namespace {

using namespace rig2d;
using convert::Format;
namespace fs = std::filesystem;

struct Options {
  std::string input, output, to, atlas, assets;
  std::vector<std::string> anims;
  cli::Verbosity verbosity;
};

void setup(CLI::App& app, Options& o) {
  app.add_option("input", o.input, "A Spine skeleton .json, a Godot 4 .tscn or a .rig2d.json")->required();
  app.add_option("-o,--output", o.output, "The file to write: .rig2d.json, .json (Spine) or .tscn (Godot)")->required();
  app.add_option("--to", o.to, "Output format when OUT's name does not say: rig2d, spine or godot")->type_name("FORMAT");
  app.add_option("--atlas", o.atlas, "The Spine .atlas (default: the input with .atlas instead of .json, if present)")
      ->type_name("FILE");
  app.add_option("--assets", o.assets, "Asset root resolving a rig's sprite GUIDs for export (default: the nearest "
                                       "'assets' folder above the rig, else its folder)")->type_name("DIR");
  app.add_option("--anim", o.anims, "An .anim.json clip to export with a rig (repeatable)")->type_name("CLIP")
      ->allow_extra_args(false);
  cli::add_verbosity(app, o.verbosity);
}

struct Run {
  Options& o;
  Format in = Format::Rig, out = Format::Rig;
  ImportResult imported;
  std::string sheet_folder;  // where the imported texture sheets' images live
  std::vector<std::string> inputs;
  std::vector<OutputFile> writes;
  std::vector<std::pair<std::string, std::string>> sidecar_files;  // image file -> its existing sidecar text

  int fail_input(const Error& e) {
    cli::print_error(e);
    return cli::kBadInput;
  }
  int usage(const std::string& message, const std::string& code) {
    std::fprintf(stderr, "rig2d-convert: error: %s [%s]\n", printable(message).c_str(), code.c_str());
    return cli::kUsage;
  }
  std::string rig_id() const {
    if (auto id = existing_rig_id(o.output)) return *id;
    return uuid_v5(kRigIdNamespace, "convert:" + fs::path(o.output).filename().string());
  }
  ImportOptions import_options(const std::vector<std::string>& images, const std::function<std::string(const std::string&)>& file_of) {
    ImportOptions options;
    options.rig_id = rig_id();
    for (const std::string& image : images) {
      const std::string sidecar = file_of(image) + ".meta.json";
      // A sidecar is rewritten in place (its slices merged), so it is an output, not an input.
      if (auto text = read_file(sidecar, kMaxJsonFileBytes)) options.sidecars.push_back({image, *text});
    }
    return options;
  }

  int read_rig(const std::string& text) {
    StrictRig strict = read_rig_strict(text, o.input);
    for (const Diagnostic& d : strict.diagnostics) std::fprintf(stderr, "%s\n", format_diagnostic(d).c_str());
    if (!strict.rig) return cli::kBadInput;
    imported.rig = std::move(*strict.rig);
    for (const std::string& path : o.anims) {
      auto clip = load_clip(path);
      if (!clip) return fail_input(clip.error());
      inputs.push_back(path);
      imported.clips.push_back(std::move(*clip));
    }
    return cli::kOk;
  }

  int read_spine(const std::string& text) {
    std::string atlas_path = o.atlas;
    if (atlas_path.empty() && fs::exists(convert::output_stem(o.input) + ".atlas")) atlas_path = convert::output_stem(o.input) + ".atlas";
    std::optional<Atlas> atlas;
    std::vector<std::string> pages;
    if (!atlas_path.empty()) {
      auto atlas_text = read_file(atlas_path, kMaxJsonFileBytes);
      if (!atlas_text) return fail_input(atlas_text.error());
      auto parsed = parse_spine_atlas(*atlas_text, atlas_path);
      if (!parsed) return fail_input(parsed.error());
      atlas = std::move(*parsed);
      inputs.push_back(atlas_path);
      for (const AtlasPage& page : atlas->pages) pages.push_back(page.name);
      sheet_folder = convert::folder_of(atlas_path);
    } else {
      spdlog::warn("no .atlas given or found beside {}: parts get no sprite", printable(o.input));
    }
    const auto file_of = [&](const std::string& image) { return (fs::path(sheet_folder) / image).string(); };
    auto result = import_spine(text, o.input, atlas ? &*atlas : nullptr, import_options(pages, file_of));
    if (!result) return fail_input(result.error());
    imported = std::move(*result);
    for (const TextureSheet& sheet : imported.sheets) sidecar_files.push_back({file_of(sheet.image), ""});
    return cli::kOk;
  }

  // Godot resource paths: res:// is the folder holding project.godot above the scene, else the scene's.
  std::string godot_file(const std::string& resource) const {
    const fs::path scene_dir = fs::absolute(convert::folder_of(o.input));
    if (resource.rfind("res://", 0) != 0) return (scene_dir / resource).string();
    fs::path root = scene_dir;
    for (fs::path p = scene_dir; !p.empty(); p = p.parent_path()) {
      if (fs::exists(p / "project.godot")) { root = p; break; }
      if (p == p.parent_path()) break;
    }
    return (root / resource.substr(6)).string();
  }

  int read_godot(const std::string& text) {
    GodotImportOptions options;
    static_cast<ImportOptions&>(options) = import_options({}, {});
    options.resolve_texture = [this, &options](const std::string& resource) -> std::optional<GodotTexture> {
      const std::string file = godot_file(resource);
      const auto size = convert::png_size(file);
      if (!size) return std::nullopt;
      inputs.push_back(file);
      if (auto sidecar = read_file(file + ".meta.json", kMaxJsonFileBytes)) options.sidecars.push_back({resource, *sidecar});
      return GodotTexture{size->first, size->second};
    };
    auto result = import_godot(text, o.input, options);
    if (!result) return fail_input(result.error());
    imported = std::move(*result);
    for (const TextureSheet& sheet : imported.sheets) sidecar_files.push_back({godot_file(sheet.image), ""});
    return cli::kOk;
  }

  int plan_rig_outputs() {
    imported.rig.id = imported.rig.id.value_or(rig_id());
    writes.push_back({o.output, write_rig(imported.rig)});
    for (std::size_t i = 0; i < imported.sheets.size(); ++i) {
      const std::string path = sidecar_files[i].first + ".meta.json";
      std::string existing;
      if (auto text = read_file(path, kMaxJsonFileBytes)) existing = *text;
      auto sidecar = write_texture_sidecar(imported.sheets[i], existing, path);
      if (!sidecar) return fail_input(sidecar.error());
      writes.push_back({path, *sidecar});
    }
    for (const Clip& clip : imported.clips) {
      std::string name = clip.name;  // a file name: no folders, no control characters
      for (char& c : name) {
        if (c == '/' || c == '\\' || static_cast<unsigned char>(c) < 0x20) c = '_';
      }
      writes.push_back({convert::output_stem(o.output) + "." + name + ".anim.json", write_clip(clip)});
    }
    return cli::kOk;
  }

  int plan_export() {
    ExportOptions options;
    options.clips = imported.clips;
    options.name = fs::path(convert::output_stem(o.output)).filename().string();
    const std::string out_folder = convert::folder_of(o.output);
    if (in == Format::Rig) {
      const std::string root = o.assets.empty() ? default_asset_root(o.input) : o.assets;
      options.resolve_sprite = convert::sprites_from_assets(root, out_folder, &inputs);
    } else {
      options.resolve_sprite = convert::sprites_from_sheets(imported.sheets, sheet_folder.empty() ? convert::folder_of(o.input) : sheet_folder, out_folder);
    }
    auto result = out == Format::Spine ? export_spine(imported.rig, options) : export_godot(imported.rig, options);
    if (!result) {
      result.error().where.file = o.input;
      return fail_input(result.error());
    }
    for (Diagnostic d : result->diagnostics) {
      if (d.where.file.empty()) d.where.file = o.input;  // export findings are about the rig read
      imported.diagnostics.push_back(std::move(d));
    }
    writes.push_back({o.output, std::move(result->text)});
    if (!result->atlas.empty()) writes.push_back({convert::output_stem(o.output) + ".atlas", std::move(result->atlas)});
    return cli::kOk;
  }

  int run() {
    const auto out_format = o.to.empty() ? convert::format_of_path(o.output) : convert::format_of_name(o.to);
    if (!out_format) {
      return usage(o.to.empty() ? "cannot tell the output format from \"" + o.output + "\": name it .rig2d.json, .json or .tscn, or give --to"
                                : "--to takes rig2d, spine or godot (got \"" + o.to + "\")",
                   "convert.output.kind");
    }
    out = *out_format;
    auto text = read_file(o.input, kMaxJsonFileBytes);
    if (!text) return fail_input(text.error());
    inputs.push_back(o.input);
    const auto in_format = convert::format_of_path(o.input);
    // A .json that is not JSON at all goes on to the Spine reader, which names the line:col of the fault.
    const bool not_spine = in_format && *in_format == Format::Spine && nlohmann::json::accept(*text) &&
                           !looks_like_spine_json(*text);
    if (!in_format || not_spine) {
      return fail_input(Error{"convert.input.kind",
                              "not a Spine skeleton (.json with \"skeleton\" and \"bones\"), a Godot .tscn or a .rig2d.json",
                              Location{o.input, "", 0, 0}});
    }
    in = *in_format;
    if (!o.anims.empty() && in != Format::Rig) return usage("--anim goes with a .rig2d.json input", "convert.anim");
    const int read = in == Format::Rig ? read_rig(*text) : in == Format::Spine ? read_spine(*text) : read_godot(*text);
    if (read != cli::kOk) return read;
    const Rig& rig = imported.rig;
    std::size_t verts = 0;
    for (const Part& p : rig.parts) verts += p.mesh.verts.size();
    spdlog::debug("read {} ({}): {} bones, {} parts, {} vertices, {} clips", printable(o.input), convert::format_name(in),
                  rig.bones.size(), rig.parts.size(), verts, imported.clips.size());
    const int planned = out == Format::Rig ? plan_rig_outputs() : plan_export();
    if (planned != cli::kOk) return planned;
    for (const Diagnostic& d : imported.diagnostics) {
      if (!o.verbosity.quiet) std::fprintf(stderr, "%s\n", format_diagnostic(d).c_str());
    }
    std::vector<std::string> outputs;
    for (const OutputFile& w : writes) outputs.push_back(w.path);
    if (auto safe = check_output_paths(inputs, outputs); !safe) {
      cli::print_error(safe.error());
      return cli::kUsage;
    }
    if (auto made = cli::create_parent_dirs(outputs); !made) {
      cli::print_error(made.error());
      return cli::kWriteFailed;
    }
    if (auto ok = write_files_atomic(writes); !ok) {
      cli::print_error(ok.error());
      return cli::kWriteFailed;
    }
    for (const std::string& path : outputs) spdlog::info("wrote {}", printable(path));
    return cli::kOk;
  }
};

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"rig2d-convert: convert 2D skeletal rigs between Spine skeleton JSON (+ .atlas), Godot 4 .tscn "
               "(Skeleton2D + Polygon2D) and .rig2d.json. The direction follows the file kinds: IN is read into a "
               "rig, then written in OUT's format. Importing writes the texture sidecars (.meta.json slices) and "
               "one .anim.json per animation beside OUT; see docs/convert.md for every mapping and loss.",
               "rig2d-convert"};
  app.set_version_flag("--version", std::string("rig2d-convert ") + RIG2D_VERSION);
  Options options;
  setup(app, options);
  return cli::run_main(app, argc, argv, [&] {
    cli::setup_logging("rig2d-convert", options.verbosity);
    Run run{options};
    return run.run();
  });
}
