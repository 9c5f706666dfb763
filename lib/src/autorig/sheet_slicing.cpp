// SPDX-License-Identifier: Apache-2.0
#include "rig2d/autorig/sheet_slicing.h"

#include <filesystem>
#include <utility>

#include "autorig/autorig_internal.h"
#include "rig2d/core/limits.h"
#include "rig2d/image/png.h"
#include "rig2d/io/files.h"
#include "rig2d/asset/sprite_meta.h"
#include "rig2d/autorig/slices.h"

namespace rig2d {

Result<std::optional<SheetSlicing>> slice_sheet_file(const std::string& png_path, int alpha_threshold, bool write_meta,
                                                     const std::string& mint_root) {
  const std::string meta_path = sidecar_path(png_path);
  SheetSlicing out;
  auto read = read_file(meta_path, kMaxSidecarBytes);  // opened, not looked up first
  const bool missing = !read && read.error().code == "io.not_found";
  if (!read && !missing) return Unexpected{read.error()};
  if (missing && !write_meta) return std::optional<SheetSlicing>{};
  auto bytes = read_file(png_path, kMaxPngFileBytes);
  if (!bytes) return Unexpected{bytes.error()};
  std::string meta_text;
  if (missing) {
    meta_text = new_sprite_meta_text(mint_texture_guid(detail::relative_to_asset_root(png_path, mint_root), *bytes));
    out.meta_created = true;
  } else {
    meta_text = std::move(*read);
  }
  auto meta = parse_sprite_meta(meta_text, meta_path);
  if (!meta) return Unexpected{meta.error()};
  if (meta->has_slices) return std::optional<SheetSlicing>{};
  auto image = decode_png(*bytes, png_path);
  if (!image) return Unexpected{image.error()};
  const std::string stem = std::filesystem::path(png_path).stem().string();
  const auto slices = detail::slices_if_sheet(*image, alpha_threshold, stem, meta->texture_guid);
  if (!slices) return std::optional<SheetSlicing>{};
  auto text = sidecar_with_slices(meta_text, meta_path, *slices, image->width, image->height);
  if (!text) return Unexpected{text.error()};
  out.meta_text = std::move(*text);
  out.slices = slices->size();
  return std::optional<SheetSlicing>{std::move(out)};
}

}  // namespace rig2d
