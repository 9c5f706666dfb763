// SPDX-License-Identifier: Apache-2.0
// rig2d-convert's reading side: IN's format, and a rig (with sheets and clips) from a .rig2d.json,
// a Spine skeleton (+ .atlas) or a Godot .tscn.
#include <cctype>
#include <filesystem>
#include <optional>

#include <nlohmann/json.hpp>
#include <spdlog/spdlog.h>

#include "convert_run.h"
#include "rig2d/anim/clip.h"
#include "rig2d/asset/asset_index.h"
#include "rig2d/asset/guid.h"
#include "rig2d/core/limits.h"
#include "rig2d/interop/godot.h"
#include "rig2d/interop/spine.h"
#include "rig2d/autorig/autorig_inputs.h"
#include "rig2d/rig/rig_json.h"

namespace rig2d::convert {
namespace fs = std::filesystem;

int Run::read_input() {
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
  if (!o.skins.empty() && in != Format::Spine) return usage("--skin goes with a Spine skeleton input", "convert.skin");
  const int read = in == Format::Rig ? read_rig(*text) : in == Format::Spine ? read_spine(*text) : read_godot(*text);
  if (read != kOk) return read;
  const Rig& rig = imported.rig;
  std::size_t verts = 0;
  for (const Part& p : rig.parts) verts += p.mesh.verts.size();
  spdlog::debug("read {} ({}): {} bones, {} parts, {} vertices, {} clips", printable(o.input), convert::format_name(in),
                rig.bones.size(), rig.parts.size(), verts, imported.clips.size());
  return kOk;
}

std::string Run::rig_id() const { return rig_id_of(o.output); }

std::string Run::rig_id_of(const std::string& output) const {
  if (auto id = existing_rig_id(output)) return *id;
  return uuid_v5(kRigIdNamespace, "convert:" + path_under_assets(output).value_or(fs::path(output).filename().string()));
}

ImportOptions Run::import_options(const std::vector<std::string>& images, const std::function<std::string(const std::string&)>& file_of) {
  ImportOptions options;
  options.rig_id = rig_id();
  for (const std::string& image : images) {
    const std::string sidecar = file_of(image) + ".meta.json";
    // A sidecar is rewritten in place (its slices merged), so it is an output, not an input.
    if (auto text = planned_text(sidecar)) options.sidecars.push_back({image, *text});
    options.texture_names[image] = path_under_assets(file_of(image)).value_or(image);
  }
  return options;
}

int Run::read_rig(const std::string& text) {
  StrictRig strict = read_rig_strict(text, o.input);
  for (const Diagnostic& d : strict.diagnostics) std::fprintf(stderr, "%s\n", format_diagnostic(d).c_str());
  if (!strict.rig) return kBadInput;
  imported.rig = std::move(*strict.rig);
  for (const std::string& path : o.anims) {
    auto clip = load_clip(path);
    if (!clip) return fail_input(clip.error());
    inputs.push_back(path);
    imported.clips.push_back(std::move(*clip));
  }
  return kOk;
}

namespace {

bool is_image_name(const std::string& name) {
  std::string lower = fs::path(name).extension().string();
  for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return lower == ".png" || lower == ".jpg" || lower == ".jpeg" || lower == ".webp";
}

// `file` lies inside `folder`, compared lexically after making both absolute and normal.
bool lies_inside(const std::string& file, const std::string& folder) {
  std::error_code ec;
  const fs::path f = fs::absolute(file, ec).lexically_normal();
  const fs::path root = fs::absolute(folder, ec).lexically_normal();
  const fs::path rel = f.lexically_relative(root);
  return !rel.empty() && *rel.begin() != ".." && !rel.is_absolute();
}

}  // namespace

// Each page of the atlas gets a sidecar beside its image: its name must be an image file inside the
// asset root (--assets, else the folder of IN or of the atlas), or that sidecar could land anywhere.
int Run::check_atlas_pages(const Atlas& atlas, const std::string& atlas_path) {
  for (const AtlasPage& page : atlas.pages) {
    const Location at{atlas_path, "", page.line, 1};
    const std::string file = (fs::path(sheet_folder) / page.name).string();
    const bool inside = o.assets.empty() ? lies_inside(file, convert::folder_of(o.input)) || lies_inside(file, sheet_folder)
                                         : lies_inside(file, o.assets);
    if (!inside) {
      return fail_input(Error{"convert.path.outside",
                              "atlas page \"" + page.name + "\" lies outside the asset root (" +
                                  (o.assets.empty() ? std::string("the folder of the skeleton or the atlas")
                                                    : "--assets " + o.assets) +
                                  "); its sidecar would be written there. Move the page, or give --assets",
                              at});
    }
    if (!is_image_name(page.name)) {
      return fail_input(Error{"convert.atlas.page",
                              "atlas page \"" + page.name + "\" is not an image (.png, .jpg, .jpeg, .webp)", at});
    }
    inputs.push_back(file);  // an input too: -o may not overwrite a page
  }
  return kOk;
}

int Run::read_spine(const std::string& text) {
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
    if (const int checked = check_atlas_pages(*atlas, atlas_path); checked != kOk) return checked;
  } else {
    spdlog::warn("no .atlas given or found beside {}: parts get no sprite", printable(o.input));
  }
  const auto file_of = [&](const std::string& image) { return (fs::path(sheet_folder) / image).string(); };
  SpineImportOptions options = import_options(pages, file_of);
  options.skins = o.skins;
  if (!each_skins.empty()) {  // --skin each: the skeleton parsed once, imported once per skin
    std::vector<SpineImportOptions> each(each_skins.size(), options);
    for (std::size_t i = 0; i < each.size(); ++i) {
      each[i].skins = {each_skins[i]};
      each[i].rig_id = rig_id_of(skin_output(o.output, each_skins[i]));
    }
    auto results = import_spine_each(text, o.input, atlas ? &*atlas : nullptr, each);
    if (!results) return fail_input(results.error());
    skin_results = std::move(*results);
    return kOk;
  }
  auto result = import_spine(text, o.input, atlas ? &*atlas : nullptr, options);
  if (!result) return fail_input(result.error());
  imported = std::move(*result);
  for (const TextureSheet& sheet : imported.sheets) sidecar_files.push_back({file_of(sheet.image), ""});
  return kOk;
}

// Godot resource paths: res:// is the folder holding project.godot above the scene, else the scene's.
std::string Run::godot_file(const std::string& resource) const {
  const fs::path scene_dir = fs::absolute(convert::folder_of(o.input));
  if (resource.rfind("res://", 0) != 0) return (scene_dir / resource).string();
  fs::path root = scene_dir;
  for (fs::path p = scene_dir; !p.empty(); p = p.parent_path()) {
    if (fs::exists(p / "project.godot")) { root = p; break; }
    if (p == p.parent_path()) break;
  }
  return (root / resource.substr(6)).string();
}

int Run::read_godot(const std::string& text) {
  GodotImportOptions options;
  static_cast<ImportOptions&>(options) = import_options({}, {});
  options.resolve_texture = [this, &options](const std::string& resource) -> std::optional<GodotTexture> {
    const std::string file = godot_file(resource);
    const auto size = convert::png_size(file);
    if (!size) return std::nullopt;
    inputs.push_back(file);
    if (auto sidecar = read_file(file + ".meta.json", kMaxJsonFileBytes)) options.sidecars.push_back({resource, *sidecar});
    options.texture_names[resource] = path_under_assets(file).value_or(resource);
    return GodotTexture{size->first, size->second};
  };
  auto result = import_godot(text, o.input, options);
  if (!result) return fail_input(result.error());
  imported = std::move(*result);
  for (const TextureSheet& sheet : imported.sheets) sidecar_files.push_back({godot_file(sheet.image), ""});
  return kOk;
}

}  // namespace rig2d::convert
