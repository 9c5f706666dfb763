// SPDX-License-Identifier: Apache-2.0
// rig2d-convert's writing side: the files of OUT's format (a rig with its sidecars and clips, or a
// Spine / Godot export), checked against the inputs, then written together.
#include <cstdio>
#include <filesystem>

#include <spdlog/spdlog.h>

#include "convert_run.h"
#include "rig2d/asset/asset_index.h"
#include "rig2d/core/limits.h"
#include "rig2d/interop/godot.h"
#include "rig2d/interop/spine.h"
#include "rig2d/rig/rig_json.h"

namespace rig2d::convert {
namespace fs = std::filesystem;

int Run::plan_rig_outputs() {
  imported.rig.id = imported.rig.id.value_or(rig_id());
  writes.push_back({o.output, write_rig(imported.rig)});
  for (std::size_t i = 0; i < imported.sheets.size(); ++i) {
    const std::string path = sidecar_files[i].first + ".meta.json";
    const std::string existing = planned_text(path).value_or("");
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
  return kOk;
}

int Run::plan_export() {
  ExportOptions options;
  options.clips = imported.clips;
  options.name = fs::path(convert::output_stem(o.output)).filename().string();
  const std::string out_folder = convert::folder_of(o.output);
  if (in == Format::Rig) {
    const std::string root = o.assets.empty() ? default_asset_root(o.input) : o.assets;
    options.resolve_sprite = convert::sprites_from_assets(root, out_folder, &inputs);
  } else {
    const auto file_of = [this](const std::string& image) {
      if (in == Format::Godot) return godot_file(image);
      return (fs::path(sheet_folder.empty() ? convert::folder_of(o.input) : sheet_folder) / image).string();
    };
    options.resolve_sprite = convert::sprites_from_sheets(imported.sheets, file_of, out_folder);
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
  return place_textures(result->pages, out_folder);
}

// The atlas names each page by its bare file name, as Spine's packer does: the page goes beside the
// atlas. copy: the texture's bytes; link: a relative symlink to it; none: the user places it. A page
// that already is the texture (exported into the texture's own folder) is left as it is.
int Run::place_textures(const std::vector<ExportPage>& pages, const std::string& out_folder) {
  const std::string mode = o.textures.empty() ? "copy" : o.textures;
  for (const ExportPage& page : pages) {
    const std::string dest = (fs::path(out_folder) / page.name).string();
    std::error_code ec;
    if (page.file.empty()) continue;
    if (fs::equivalent(dest, page.file, ec)) {
      if (fs::is_symlink(fs::symlink_status(dest, ec)))
        spdlog::info("{} is a link to {} already: left as it is", printable(dest), printable(page.file));
      continue;
    }
    if (mode == "none") {
      if (!fs::exists(dest, ec)) spdlog::info("the atlas names page {}: place {} there", printable(dest), printable(page.file));
      continue;
    }
    if (mode == "link") {
      writes.push_back({dest, "", convert::relative_to(page.file, out_folder)});
      continue;
    }
    auto bytes = read_file(page.file, kMaxPngFileBytes);
    if (!bytes) return fail_input(bytes.error());
    writes.push_back({dest, std::move(*bytes), {}, true});
  }
  return kOk;
}

std::optional<std::string> Run::planned_text(const std::string& path) const {
  for (auto w = writes.rbegin(); w != writes.rend(); ++w) {
    if (w->path == path) return w->bytes;
  }
  if (auto text = read_file(path, kMaxJsonFileBytes)) return *text;
  return std::nullopt;
}

void Run::print_diagnostics() {
  for (const Diagnostic& d : imported.diagnostics) {
    const std::string line = format_diagnostic(d);
    if (!o.verbosity.quiet && printed.insert(line).second) std::fprintf(stderr, "%s\n", line.c_str());
  }
  imported.diagnostics.clear();
}

int Run::write_outputs() {
  print_diagnostics();
  std::vector<std::string> outputs;
  for (const OutputFile& w : writes) outputs.push_back(w.path);
  if (const int code = cli::write_checked_outputs(inputs, outputs, writes); code != kOk) return code;
  for (const std::string& path : outputs) spdlog::info("wrote {}", printable(path));
  return kOk;
}

}  // namespace rig2d::convert
