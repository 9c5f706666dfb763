// SPDX-License-Identifier: Apache-2.0
#include "autorig/slice_source.h"

#include "autorig/autorig_internal.h"
#include "rig2d/autorig/slices.h"

namespace rig2d::detail {

Result<std::vector<SpriteSlice>> sidecar_slices(const std::string& meta_path,
                                                std::optional<std::string_view> sidecar_text) {
  return sidecar_text ? parse_sprite_slices(*sidecar_text, meta_path) : read_sprite_slices(meta_path);
}

Result<PickedSlice> pick_slice(const std::string& meta_path, std::optional<std::string_view> sidecar_text,
                               std::size_t index, const Image& image, AutorigOptions& options) {
  auto slices = sidecar_slices(meta_path, sidecar_text);
  if (!slices) return Unexpected{slices.error()};
  return pick_slice(meta_path, *slices, index, image, options);
}

Result<PickedSlice> pick_slice(const std::string& meta_path, const std::vector<SpriteSlice>& slices,
                               std::size_t index, const Image& image, AutorigOptions& options) {
  if (index >= slices.size())
    return make_error("autorig.slice",
                      "the sidecar has " + std::to_string(slices.size()) + " slices, no slice " + std::to_string(index),
                      {meta_path, "/sprites"});
  const SpriteSlice& s = slices[index];
  auto pixels = crop_slice(image, s);
  if (!pixels) {
    Error e = pixels.error();
    e.where = {meta_path, "/sprites/" + std::to_string(index) + "/rect"};
    return Unexpected{std::move(e)};
  }
  options.pivot_x = s.pivot_x;
  options.pivot_y = s.pivot_y;
  return PickedSlice{s.guid, s.name, std::move(*pixels)};
}

std::optional<Diagnostic> sheet_warning(const Image& image, int alpha_threshold, const std::string& png_path,
                                        std::vector<std::uint8_t>* coverage) {
  const SheetGuess g = coverage != nullptr ? guess_sheet_keeping_coverage(image, alpha_threshold, *coverage)
                                           : guess_sheet(image, alpha_threshold);
  if (!g.looks_like_sheet) return std::nullopt;
  Diagnostic d;
  d.severity = Severity::Warning;
  d.code = "autorig.sheet";
  d.where.file = png_path;
  d.message = "looks like a sprite sheet: " + std::to_string(g.islands) + " separate islands on about " +
              std::to_string(g.rows) + " x " + std::to_string(g.cols) +
              " rows x columns, rigged as one sprite; slice it (\"sprites\" in its .meta.json, or rig2d-autorig "
              "--slice-sheets) to get one rig per "
              "sprite";
  return d;
}

}  // namespace rig2d::detail
