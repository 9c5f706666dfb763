// SPDX-License-Identifier: Apache-2.0
#include "skeleton/drop_shadow.h"

#include <algorithm>

namespace rig2d::detail {
namespace {

constexpr int kShadowMaxChannel = 64;     // darker than this in every channel (straight, not premultiplied)
constexpr int kShadowDepth = 3;           // px (chessboard distance) from the nearest uncovered pixel
constexpr double kShadowMinShare = 0.02;  // of the covered pixels: a patch, not a dark rim
constexpr double kShadowMinSolid = 0.5;   // of the covered pixels: the figure casting it

// out[k] = 1 where the window of 2r + 1 samples centred on k is all 1 (samples beyond the line's ends
// count as 0); `in` and `out` hold `length` samples `step` apart, `out` zeroed.
void erode_line(const std::uint8_t* in, std::uint8_t* out, std::size_t length, std::size_t step, std::size_t r) {
  std::size_t run = 0;
  for (std::size_t k = 0; k < length; ++k) {
    run = in[k * step] ? run + 1 : 0;
    if (run >= 2 * r + 1) out[(k - r) * step] = 1;
  }
}

}  // namespace

DropShadow find_drop_shadow(const Image& image, int alpha_threshold) {
  const auto w = static_cast<std::size_t>(std::max(image.width, 0)),
             h = static_cast<std::size_t>(std::max(image.height, 0));
  const std::size_t n = w * h;
  if (n == 0 || image.rgba.size() != 4 * n) return {};
  const std::uint8_t* px = image.rgba.data();
  int highest = 0;
  for (std::size_t i = 0; i < n; ++i) highest = std::max(highest, int{px[4 * i + 3]});
  const int half = highest / 2;
  if (half <= alpha_threshold) return {};  // no alpha level between the threshold and half the highest

  std::vector<std::uint8_t> covered(n), shadow(n);
  std::size_t covered_count = 0, solid_count = 0, shadow_count = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const std::uint8_t* p = px + 4 * i;
    const bool in = p[3] > alpha_threshold;
    const bool dark = p[0] <= kShadowMaxChannel && p[1] <= kShadowMaxChannel && p[2] <= kShadowMaxChannel;
    covered[i] = in;
    shadow[i] = in && p[3] <= half && dark;
    covered_count += in;
    solid_count += p[3] > half;
    shadow_count += shadow[i];
  }
  const auto share_of = [&](std::size_t count) {
    return static_cast<double>(count) / static_cast<double>(covered_count);
  };
  if (covered_count == 0 || share_of(shadow_count) < kShadowMinShare || share_of(solid_count) < kShadowMinSolid)
    return {};

  // Depth: erode the coverage by a (2 * kShadowDepth - 1)-wide square, rows then columns.
  const std::size_t r = kShadowDepth - 1;
  std::vector<std::uint8_t> rows(n, 0), deep(n, 0);
  for (std::size_t y = 0; y < h; ++y) erode_line(covered.data() + y * w, rows.data() + y * w, w, 1, r);
  for (std::size_t x = 0; x < w; ++x) erode_line(rows.data() + x, deep.data() + x, h, w, r);
  std::size_t deep_count = 0;
  for (std::size_t i = 0; i < n; ++i) deep_count += shadow[i] & deep[i];
  if (share_of(deep_count) < kShadowMinShare) return {};
  return {std::move(shadow), share_of(deep_count)};
}

}  // namespace rig2d::detail
