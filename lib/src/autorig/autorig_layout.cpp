// SPDX-License-Identifier: Apache-2.0
// autorig_layout: a layout file (or folder of layers) through autorig_parts to checked v2 rig text.
#include <algorithm>
#include <filesystem>

#include "core/ascii.h"
#include "autorig/autorig_internal.h"
#include "rig/rig_json_internal.h"
#include "rig2d/asset/asset_index.h"
#include "rig2d/asset/guid.h"
#include "rig2d/image/png.h"
#include "rig2d/asset/sprite_meta.h"
#include "rig2d/autorig/autorig_inputs.h"
#include "rig2d/autorig/layout.h"
#include "rig2d/autorig/slices.h"
#include "rig2d/rig/rig_json.h"

namespace rig2d {
namespace {

namespace fs = std::filesystem;

Error at_part(Error e, const LayoutRigRequest& request, std::size_t index) {
  if (e.where.file.empty()) e.where = {request.layout_path, "/parts/" + std::to_string(index)};
  return e;
}

// A `slice` without a `png`: the texture whose sidecar lists that slice GUID, under the layout's
// asset root.
Result<std::string> texture_of_slice(const std::string& layout_path, const std::string& guid, std::size_t index) {
  auto index_ = AssetIndex::scan(default_asset_root(layout_path));
  if (!index_) return Unexpected{index_.error()};
  const auto source = index_->resolve_sprite(guid);
  if (!source || source->whole_image)
    return make_error("layout.sprite", "slice " + guid + " is in no sidecar under " + index_->root(),
                      {layout_path, "/parts/" + std::to_string(index) + "/slice"});
  return source->texture_path;
}

// One part's pixels and sprite GUID: the whole texture (its whole-image sprite) or one slice.
Result<PlacedPart> load_part(const LayoutPart& lp, std::size_t index, const LayoutRigRequest& request,
                             LayoutRigResult& out) {
  std::string png = lp.png;
  if (png.empty()) {
    auto found = texture_of_slice(request.layout_path, *lp.slice, index);
    if (!found) return Unexpected{found.error()};
    png = *found;
  }
  const std::string meta_path = sidecar_path(png);
  out.inputs.push_back(png);
  out.inputs.push_back(meta_path);
  auto image = load_png(png);
  if (!image) return Unexpected{image.error()};
  auto meta = read_sprite_meta(meta_path);
  if (!meta) return Unexpected{meta.error()};
  PlacedPart part;
  part.name = lp.name;
  part.x = lp.x;
  part.y = lp.y;
  part.order = lp.order;
  if (!lp.slice && meta->has_slices) {  // the engine has no whole-image sprite for a sheet (§1.9)
    auto slices = read_sprite_slices(meta_path);
    if (!slices) return Unexpected{slices.error()};
    return make_error("layout.part.sheet",
                      "part \"" + lp.name + "\" takes the whole of " + png + ", whose sidecar lists " +
                          std::to_string(slices->size()) +
                          " slices: the engine makes no whole-image sprite for a sheet; name one with \"slice\"",
                      {request.layout_path, "/parts/" + std::to_string(index)});
  }
  if (!lp.slice) {
    part.sprite = whole_image_sprite_guid(meta->texture_guid);
    part.image = std::move(*image);
    if (meta->type == TextureType::ThreeD)
      out.warnings.push_back({Severity::Warning, "meta.type",
                              "the texture is (or defaults to) 3d: the engine makes no whole-image sprite for it, so "
                              "part \"" + lp.name + "\" will not resolve; set \"type\": \"2d\"",
                              {meta_path, meta->type_explicit ? "/type" : ""}});
    return part;
  }
  auto slices = read_sprite_slices(meta_path);
  if (!slices) return Unexpected{slices.error()};
  const auto it = std::find_if(slices->begin(), slices->end(), [&](const SpriteSlice& s) {
    return s.name == *lp.slice || s.guid == detail::ascii_lower(*lp.slice);
  });
  if (it == slices->end())
    return make_error("autorig.slice", "no slice \"" + *lp.slice + "\" (by name or GUID) in " + meta_path,
                      {request.layout_path, "/parts/" + std::to_string(index) + "/slice"});
  auto pixels = crop_slice(*image, *it);
  if (!pixels) return Unexpected{at_part(pixels.error(), request, index)};
  part.sprite = it->guid;
  part.image = std::move(*pixels);
  return part;
}

}  // namespace

// Each part passes verify_rig as a rig of its own; the text reads back to the rig the engine would
// load, and the strict reader (rig2d-validate's) finds no error.
Result<void> detail::read_parts_bones(const std::optional<std::string>& bones_path, std::vector<std::string>& inputs,
                                      AutorigOptions& options) {
  if (!bones_path) return {};
  inputs.push_back(*bones_path);
  auto bones = read_bones_file(*bones_path);
  if (!bones) return Unexpected{bones.error()};
  options.bones = std::move(*bones);
  return {};
}

detail::PartsRigId detail::parts_rig_id(const std::string& rig_path, const std::vector<std::string>& sprites) {
  if (auto kept = existing_rig_id(rig_path)) return {*kept, true};
  const std::string place = path_under_assets(rig_path).value_or(fs::path(rig_path).filename().string());
  std::string seed = "layout:" + place + ":";
  for (const std::string& s : sprites) seed += s + ",";
  return {uuid_v5(kRigIdNamespace, seed), false};
}

Result<void> detail::check_layout_rig(const Rig& rig, const std::string& text, const std::string& path) {
  for (std::size_t p = 0; p < rig.parts.size(); ++p) {
    Rig one;
    one.bones = rig.bones;
    one.parts.push_back(rig.parts[p]);
    if (auto ok = verify_rig(one); !ok) {
      Error e = ok.error();
      e.where.file = path;
      e.where.json_pointer = "/parts/" + std::to_string(p) + e.where.json_pointer;
      return Unexpected{std::move(e)};
    }
  }
  // Parsed once for both readers: read_rig_normalized and read_rig_strict are this parse and these calls.
  auto root = detail::parse_rig_json(text, path);
  if (!root) return Unexpected{root.error()};
  auto loaded = detail::read_rig_normalized_parsed(*root, path);
  if (!loaded) return Unexpected{loaded.error()};
  if (!(*loaded == normalize_rig(rig))) return detail::verify_failure(path, "the text does not read back to the rig");
  const StrictRig strict = detail::read_rig_strict_parsed(*root, text, path);
  for (const Diagnostic& d : strict.diagnostics)
    if (d.severity == Severity::Error)
      return detail::verify_failure(path,
                                    "strict reader: " + d.where.json_pointer + ": " + d.message + " [" + d.code + "]");
  return {};
}

std::uint64_t detail::canvas_peak_bytes(int width, int height) {
  return 9 * std::uint64_t(std::max(width, 0)) * std::uint64_t(std::max(height, 0));
}

Result<void> detail::check_canvas_budget(int width, int height, std::uint64_t peak, std::uint64_t budget,
                                         const Location& where) {
  if (peak <= budget) return {};
  constexpr std::uint64_t kMiB = 1 << 20;
  return make_error("memory.budget",
                    "rigging the " + std::to_string(width) + " x " + std::to_string(height) + " canvas needs about " +
                        std::to_string((peak + kMiB - 1) / kMiB) + " MiB at once, more than the memory budget of " +
                        std::to_string(budget / kMiB) + " MiB (raise --memory-budget or make the canvas smaller)",
                    where);
}

std::uint64_t layout_peak_bytes(const PartLayout& layout) {
  std::uint64_t bytes = detail::canvas_peak_bytes(layout.width, layout.height);
  std::uint64_t largest_decode = 0;
  for (const LayoutPart& part : layout.parts) {
    if (part.png.empty()) continue;
    auto info = read_png_info(part.png);
    if (!info) continue;  // loading the part reports why
    bytes += 4 * std::uint64_t(info->width) * std::uint64_t(info->height);
    largest_decode = std::max(largest_decode, png_decode_peak_bytes(*info));
  }
  return bytes + largest_decode;
}

Result<LayoutRigResult> autorig_layout(const LayoutRigRequest& request, const AutorigOptions& options) {
  LayoutRigResult out;
  auto layout = read_part_layout(request.layout_path);
  if (!layout) return Unexpected{layout.error()};
  // Checked before any part is decoded: a huge canvas fails at once, whatever its parts.
  {
    std::error_code ec;
    const Location where{request.layout_path, fs::is_directory(request.layout_path, ec) ? "" : "/canvas"};
    if (auto ok = detail::check_canvas_budget(layout->width, layout->height, layout_peak_bytes(*layout),
                                              request.memory_budget, where);
        !ok)
      return Unexpected{ok.error()};
  }
  std::error_code ec;
  if (!fs::is_directory(request.layout_path, ec)) out.inputs.push_back(request.layout_path);
  std::vector<PlacedPart> parts;
  for (std::size_t i = 0; i < layout->parts.size(); ++i) {
    auto part = load_part(layout->parts[i], i, request, out);
    if (!part) return Unexpected{part.error()};
    parts.push_back(std::move(*part));
  }
  AutorigOptions o = options;
  if (layout->pivot_given) {
    o.pivot_x = layout->pivot_x;
    o.pivot_y = layout->pivot_y;
  }
  if (auto bones = detail::read_parts_bones(request.bones_path, out.inputs, o); !bones) {
    return Unexpected{bones.error()};
  }
  std::vector<std::string> sprites;
  for (const PlacedPart& p : parts) sprites.push_back(p.sprite);
  detail::PartsRigId id = detail::parts_rig_id(request.rig_path, sprites);
  out.rig_id = std::move(id.id);
  out.id_kept = id.kept;
  o.id = out.rig_id;
  auto rig = autorig_parts(parts, layout->width, layout->height, o, &out.stats);
  if (!rig) {
    Error e = rig.error();
    if (e.where.file.empty())
      e.where.file = e.code == "autorig.bones" && request.bones_path ? *request.bones_path : request.layout_path;
    return Unexpected{std::move(e)};
  }
  for (Diagnostic& d : out.stats.warnings) d.where.file = request.rig_path;
  out.warnings.insert(out.warnings.end(), out.stats.warnings.begin(), out.stats.warnings.end());
  out.stats.warnings.clear();
  out.rig_text = write_rig(*rig);
  if (auto ok = detail::check_layout_rig(*rig, out.rig_text, request.rig_path); !ok) return Unexpected{ok.error()};
  return out;
}

}  // namespace rig2d
