// SPDX-License-Identifier: Apache-2.0
// rig2d-convert's readers on any bytes: Spine skeleton JSON (with or without an atlas), Godot text
// scenes and Spine atlases. The input is a document, optionally followed by a NUL byte and an atlas.
// No reader may crash; every error and warning has a code; an imported rig is one rig2d's own strict
// reader accepts; it exports to Spine and Godot, and what an export writes imports again. The same
// bytes are also read as a rig, which, when valid, must export and import again too, and as BVH
// motion onto the humanoid, whose clip must be finite and read back.
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>

#include "rig2d/interop/atlas.h"
#include "rig2d/anim/clip.h"
#include "rig2d/interop/godot.h"
#include "rig2d/interop/retarget.h"
#include "rig2d/interop/spine.h"
#include "rig2d/rig/rig_json.h"

namespace {

void require_codes(const std::vector<rig2d::Diagnostic>& diagnostics) {
  for (const rig2d::Diagnostic& d : diagnostics) {
    if (d.code.empty()) std::abort();
  }
}

template <class T>
void require_error_code(const rig2d::Result<T>& result) {
  if (!result && result.error().code.empty()) std::abort();
}

rig2d::ExportOptions export_options() {
  rig2d::ExportOptions options;
  // Every sprite resolves to a 64 x 64 texture, so the exporters write their regions and UVs too.
  options.resolve_sprite = [](const std::string& guid) -> std::optional<rig2d::ExportSprite> {
    return rig2d::ExportSprite{"page.png", 64, 64, 0, 0, 64, 64, guid.substr(0, 8)};
  };
  return options;
}

rig2d::GodotImportOptions godot_options() {
  rig2d::GodotImportOptions options;
  options.resolve_texture = [](const std::string&) -> std::optional<rig2d::GodotTexture> {
    return rig2d::GodotTexture{64, 64};
  };
  return options;
}

// Exports to Spine and Godot either fail with a code or write text that imports again.
void check_exports(const rig2d::Rig& rig, const std::vector<rig2d::Clip>& clips) {
  rig2d::ExportOptions options = export_options();
  options.clips = clips;
  if (auto spine = rig2d::export_spine(rig, options)) {
    require_codes(spine->diagnostics);
    std::optional<rig2d::Atlas> atlas;
    if (!spine->atlas.empty()) {
      auto parsed = rig2d::parse_spine_atlas(spine->atlas, "out.atlas");
      if (!parsed) std::abort();
      atlas = std::move(*parsed);
    }
    if (!rig2d::import_spine(spine->text, "out.json", atlas ? &*atlas : nullptr, {})) std::abort();
  } else {
    require_error_code(spine);
  }
  if (auto godot = rig2d::export_godot(rig, options)) {
    require_codes(godot->diagnostics);
    if (!rig2d::import_godot(godot->text, "out.tscn", godot_options())) std::abort();
  } else {
    require_error_code(godot);
  }
}

// An imported rig: valid to the strict reader, and its exports import again.
void check_imported(const rig2d::ImportResult& imported) {
  require_codes(imported.diagnostics);
  for (const rig2d::TextureSheet& sheet : imported.sheets) {
    require_error_code(rig2d::write_texture_sidecar(sheet, "", "page.png.meta.json"));
  }
  const std::string text = rig2d::write_rig(imported.rig);
  const rig2d::StrictRig strict = rig2d::read_rig_strict(text, "imported.rig2d.json");
  if (!strict.rig) std::abort();
  check_exports(*strict.rig, imported.clips);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  const std::size_t nul = bytes.find('\0');
  const std::string_view text = bytes.substr(0, nul);
  const std::string_view atlas_text = nul == std::string_view::npos ? std::string_view{} : bytes.substr(nul + 1);

  auto atlas = rig2d::parse_spine_atlas(nul == std::string_view::npos ? text : atlas_text, "fuzz.atlas");
  require_error_code(atlas);
  if (atlas) {
    // Written atlases parse back to the same pages and regions.
    auto again = rig2d::parse_spine_atlas(rig2d::write_spine_atlas(*atlas), "again.atlas");
    if (!again || again->pages.size() != atlas->pages.size()) std::abort();
  }

  (void)rig2d::looks_like_spine_json(text);
  auto spine = rig2d::import_spine(text, "fuzz.json", atlas ? &*atlas : nullptr, {});
  require_error_code(spine);
  if (spine) check_imported(*spine);

  auto godot = rig2d::import_godot(text, "fuzz.tscn", godot_options());
  require_error_code(godot);
  if (godot) check_imported(*godot);

  // The same bytes as BVH motion onto the humanoid, in both planes: a finite clip that reads back.
  static const auto humanoid = rig2d::bundled_template("humanoid");
  if (!humanoid) std::abort();
  for (const rig2d::MotionPlane plane : {rig2d::MotionPlane::Front, rig2d::MotionPlane::Side}) {
    rig2d::BvhImportOptions bvh_options;
    bvh_options.plane = plane;
    std::vector<rig2d::Diagnostic> warnings;
    auto clip = rig2d::import_bvh_clip(text, "fuzz.bvh", rig2d::humanoid_mocap_bone_map(), *humanoid, bvh_options, &warnings);
    require_error_code(clip);
    require_codes(warnings);
    if (!clip) continue;
    for (const rig2d::Track& track : clip->tracks)
      for (const rig2d::Keyframe& key : track.keys)
        if (!std::isfinite(key.v) || !std::isfinite(key.out_tangent)) std::abort();
    if (!rig2d::read_clip(rig2d::write_clip(*clip), "fuzz.anim.json")) std::abort();
  }

  // The same bytes as a rig to export: any rig rig2d-validate accepts must export and import again.
  const rig2d::StrictRig rig = rig2d::read_rig_strict(text, "fuzz.rig2d.json");
  if (rig.rig) check_exports(*rig.rig, {});
  return 0;
}
