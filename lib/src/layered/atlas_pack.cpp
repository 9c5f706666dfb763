// SPDX-License-Identifier: Apache-2.0
#include "rig2d/layered/atlas_pack.h"

#include <stb_rect_pack.h>

#include <algorithm>
#include <cmath>

#include "rig2d/core/limits.h"

namespace rig2d {
namespace {

int round_up(int v, int step) { return (v + step - 1) / step * step; }
int next_pow2(int v) {
  int p = 1;
  while (p < v) p *= 2;
  return p;
}

}  // namespace

Result<AtlasPlacement> pack_atlas(const std::vector<Image>& images, const AtlasOptions& options) {
  if (options.padding < 0 || options.padding > 64 || options.max_side < 1 || options.max_side > kMaxImageSide)
    return make_error("atlas.options", "atlas padding must be 0..64 px and its side 1.." + std::to_string(kMaxImageSide));
  const int pad = options.padding;
  std::vector<stbrp_rect> rects(images.size());
  double area = 0;
  int widest = 1;
  for (std::size_t i = 0; i < images.size(); ++i) {
    rects[i].id = int(i);
    rects[i].w = images[i].width + 2 * pad;
    rects[i].h = images[i].height + 2 * pad;
    area += double(rects[i].w) * rects[i].h;
    widest = std::max(widest, rects[i].w);
  }
  int width = std::max(widest, round_up(int(std::ceil(std::sqrt(area))), 8));
  if (options.power_of_two) width = next_pow2(width);
  if (width > options.max_side)
    return make_error("atlas.too_large", "the parts need an atlas " + std::to_string(width) + " px wide; the limit is " +
                                             std::to_string(options.max_side));
  std::vector<stbrp_node> nodes(static_cast<std::size_t>(width));
  stbrp_context ctx;
  stbrp_init_target(&ctx, width, options.max_side, nodes.data(), int(nodes.size()));
  if (!images.empty() && !stbrp_pack_rects(&ctx, rects.data(), int(rects.size())))
    return make_error("atlas.too_large", "the parts do not fit an atlas of " + std::to_string(width) + " x " +
                                             std::to_string(options.max_side) + " px");
  AtlasPlacement out;
  out.width = width;
  out.height = 1;
  out.x.resize(images.size());
  out.y.resize(images.size());
  for (const stbrp_rect& r : rects) {
    out.x[std::size_t(r.id)] = r.x + pad;
    out.y[std::size_t(r.id)] = r.y + pad;
    out.height = std::max(out.height, r.y + r.h);
  }
  if (options.power_of_two) out.height = next_pow2(out.height);
  if (out.height > options.max_side)
    return make_error("atlas.too_large", "the atlas would be " + std::to_string(out.height) + " px high; the limit is " +
                                             std::to_string(options.max_side));
  return out;
}

Image compose_atlas(const std::vector<Image>& images, const AtlasPlacement& placement) {
  Image atlas;
  atlas.width = placement.width;
  atlas.height = placement.height;
  atlas.rgba.assign(std::size_t(atlas.width) * std::size_t(atlas.height) * 4, 0);
  for (std::size_t i = 0; i < images.size(); ++i) {
    const Image& img = images[i];
    for (int y = 0; y < img.height; ++y)
      std::copy_n(&img.rgba[std::size_t(y) * std::size_t(img.width) * 4], std::size_t(img.width) * 4,
                  &atlas.rgba[(std::size_t(placement.y[i] + y) * std::size_t(atlas.width) + std::size_t(placement.x[i])) * 4]);
  }
  return atlas;
}

}  // namespace rig2d
