// SPDX-License-Identifier: Apache-2.0
// PNG bytes (or, when they are not a PNG, palette_image.h's form) -> coverage -> mesh -> bones (shape skeleton
// or chain) -> weights. Whatever the sprite, autorig_image returns either an error or a rig that passes
// verify_rig (indices in range, weights normalized, finite geometry) and keeps the vertex budget (a small one
// on some inputs, so outlines are coarsened). The same image sliced as a sheet (--slice-sheets) gives rects
// inside it that a sidecar reads back.
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string_view>

#include "rig2d/image/png.h"
#include "rig2d/autorig/autorig.h"
#include "rig2d/autorig/slices.h"
#include "palette_image.h"

namespace {

void check_sheet_slices(const rig2d::Image& image, int alpha_threshold) {
  const auto slices = rig2d::sheet_island_slices(image, alpha_threshold, "f", "2ffb1576-687f-5bff-8577-1bad25f3f2aa");
  for (const rig2d::SpriteSlice& s : slices) {
    if (s.w <= 0 || s.h <= 0 || s.x < 0 || s.y < 0 || s.x + s.w > image.width || s.y + s.h > image.height) std::abort();
  }
  auto text = rig2d::sidecar_with_slices(R"({"version": 2, "id": "2ffb1576-687f-5bff-8577-1bad25f3f2aa"})",
                                         "f.meta.json", slices, image.width, image.height);
  if (!text) std::abort();
  auto back = rig2d::parse_sprite_slices(*text, "f.meta.json");
  if (!back || back->size() != slices.size()) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 2) return 0;
  // The first byte picks options, so one corpus explores several configurations.
  const std::uint8_t knobs = data[0];
  const std::string_view bytes(reinterpret_cast<const char*>(data + 1), size - 1);
  std::optional<rig2d::Image> image;
  if (bytes.substr(0, 4) != "\x89PNG") {  // the palette form: shapes, not checksums, mutate
    image = rig2d::fuzz::palette_image(data + 1, size - 1);
    if (image->rgba.empty()) return 0;
  } else {
    auto info = rig2d::png_info(bytes, "fuzz.png");
    if (!info || static_cast<std::uint64_t>(info->width) * static_cast<std::uint64_t>(info->height) > (1u << 20)) return 0;
    auto decoded = rig2d::decode_png(bytes, "fuzz.png");
    if (!decoded) return 0;
    image = std::move(*decoded);
  }
  rig2d::AutorigOptions options;
  options.sprite = "00000000-0000-0000-0000-000000000000";
  options.alpha_threshold = (knobs & 1) ? 8 : 200;
  options.cull = (knobs & 2) == 0;
  options.cell_size = (knobs & 4) ? 8 : 48;
  // The engine's chain with a bone count, or the shape skeleton.
  if (knobs & 8) {
    options.skeleton = rig2d::SkeletonMode::Chain;
    options.bone_count = 2 + (knobs >> 4) % 5;
  } else {
    options.skeleton = rig2d::SkeletonMode::Shape;
  }
  options.pivot_x = (knobs & 0x40) ? 0 : 0.5;
  // Both meshers and both weight schemes (the library defaults to the engine's grid with heat weights).
  options.mesh = (knobs & 0x80) ? rig2d::MeshMode::Outline : rig2d::MeshMode::Grid;
  options.weights = (knobs & 0x20) ? rig2d::WeightsMode::Joint : rig2d::WeightsMode::Heat;
  // A small vertex budget, so outlines are coarsened (and traced again at a grown margin) to fit.
  if (knobs & 0x10) options.outline.max_vertices = 24;
  check_sheet_slices(*image, options.alpha_threshold);
  auto rig = rig2d::autorig_image(*image, options);
  if (rig && !rig2d::verify_rig(*rig)) std::abort();
  if (rig && rig->parts[0].mesh.verts.size() > options.outline.max_vertices) std::abort();
  return 0;
}
