// SPDX-License-Identifier: Apache-2.0
// Each part's sprite alpha, resolved through the asset index (§1.9) and cropped to the sprite.
#include <map>

#include "rig2d/image/png.h"
#include "rig2d/quality/deform_check.h"

namespace rig2d {
namespace {

// The alpha channel of `image` inside [x, x+w) x [y, y+h); the whole image when the rect is empty
// or does not fit (the engine then samples the whole sheet).
AlphaMap crop_alpha(const Image& image, const SpriteSource& source) {
  int x = 0, y = 0, w = image.width, h = image.height;
  const bool rect_fits = !source.whole_image && source.w > 0 && source.h > 0 && source.x >= 0 && source.y >= 0 &&
                         source.x + source.w <= image.width && source.y + source.h <= image.height;
  if (rect_fits) x = source.x, y = source.y, w = source.w, h = source.h;
  AlphaMap out;
  if (image.rgba.size() != 4 * static_cast<std::size_t>(image.width) * static_cast<std::size_t>(image.height)) return out;
  out.width = w;
  out.height = h;
  out.alpha.resize(static_cast<std::size_t>(w) * static_cast<std::size_t>(h));
  for (int j = 0; j < h; ++j) {
    for (int i = 0; i < w; ++i) {
      const std::size_t src = 4 * (static_cast<std::size_t>(y + j) * static_cast<std::size_t>(image.width) +
                                   static_cast<std::size_t>(x + i)) + 3;
      out.alpha[static_cast<std::size_t>(j) * static_cast<std::size_t>(w) + static_cast<std::size_t>(i)] = image.rgba[src];
    }
  }
  return out;
}

}  // namespace

std::vector<std::optional<AlphaMap>> load_part_alpha(const Rig& rig, const AssetIndex& assets,
                                                     std::vector<Diagnostic>& notes) {
  std::vector<std::optional<AlphaMap>> out(rig.parts.size());
  std::map<std::string, std::optional<Image>> images;  // by texture path, loaded once
  for (std::size_t p = 0; p < rig.parts.size(); ++p) {
    const Part& part = rig.parts[p];
    const std::string pointer = rig.layout == Layout::V1 ? "/sprite" : "/parts/" + std::to_string(p) + "/sprite";
    const auto note = [&](std::string why) {
      notes.push_back(Diagnostic{Severity::Note, "deform.texture",
                                 std::move(why) + ": texture coverage is not checked and gaps are measured on the mesh only",
                                 Location{{}, pointer}});
    };
    if (part.sprite.empty()) {
      note("the part has no sprite");
      continue;
    }
    const auto source = assets.resolve_sprite(part.sprite);
    if (!source) {
      note("sprite " + part.sprite + " does not resolve under " + assets.root());
      continue;
    }
    auto it = images.find(source->texture_path);
    if (it == images.end()) {
      auto image = load_png(source->texture_path);
      it = images.emplace(source->texture_path, image ? std::optional<Image>(std::move(*image)) : std::nullopt).first;
    }
    if (!it->second) {
      note("texture " + source->texture_path + " could not be read");
      continue;
    }
    out[p] = crop_alpha(*it->second, *source);
  }
  return out;
}

}  // namespace rig2d
