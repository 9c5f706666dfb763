// SPDX-License-Identifier: Apache-2.0
#include "rig2d/autorig/slices.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <set>
#include <string>
#include <utility>

#include "core/ascii.h"
#include "image/alpha_threshold.h"
#include "image/image_checks.h"
#include "image/run_components.h"
#include "json/json_util.h"
#include "autorig/autorig_internal.h"
#include "asset/sidecar_json.h"
#include "rig2d/asset/guid.h"
#include "rig2d/core/limits.h"
#include "rig2d/io/files.h"

namespace rig2d {
namespace {

using detail::Json;

constexpr double kSignificantIsland = 0.05;  // of the largest island's area
constexpr double kDominantShare = 0.5;       // an island this big is the sprite, the rest are details
// Slicing a sheet: an island far from the significant ones is a sprite of its own from this size up
// (px and share of the largest island); smaller ones are dust.
constexpr double kSliceMinArea = 16;
constexpr double kSliceMinShare = 0.005;

// Centres sorted, split into bands wherever the gap exceeds half the typical island extent.
std::size_t count_bands(std::vector<double> centres, double typical_extent) {
  if (centres.empty()) return 0;
  std::sort(centres.begin(), centres.end());
  std::size_t bands = 1;
  for (std::size_t i = 1; i < centres.size(); ++i)
    if (centres[i] - centres[i - 1] > 0.5 * typical_extent) ++bands;
  return bands;
}

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(v.size() / 2), v.end());
  return v[v.size() / 2];
}

struct Island {
  std::size_t area = 0;
  int x0, y0, x1, y1;
};

// 8-connected islands of alpha > threshold, in the raster order of their first pixel. Built from runs
// of covered pixels, not pixel by pixel (one pass over the alpha bytes; a flood fill visited each
// pixel's 8 neighbours). `coverage`, when given, holds width * height bytes and keeps every row's
// 0/1 coverage; else one row's buffer is reused.
std::vector<Island> find_islands(const Image& image, int alpha_threshold, std::uint8_t* coverage = nullptr) {
  const std::size_t w = static_cast<std::size_t>(image.width);
  detail::RunComponents components(true);
  std::vector<std::uint8_t> row(coverage != nullptr ? 0 : w);
  for (int y = 0; y < image.height; ++y) {
    std::uint8_t* const r = coverage != nullptr ? coverage + std::size_t(y) * w : row.data();
    detail::threshold_alpha(image.rgba.data() + std::size_t(y) * w * 4, w, alpha_threshold, r);
    for (const void* at = std::memchr(r, 1, w); at != nullptr;) {
      const auto* start = static_cast<const std::uint8_t*>(at);
      const void* stop = std::memchr(start, 0, w - std::size_t(start - r));  // none: the run ends the row
      const auto* end = stop != nullptr ? static_cast<const std::uint8_t*>(stop) : r + w;
      components.add({y, static_cast<int>(start - r), static_cast<int>(end - r)});
      at = std::memchr(end, 1, w - std::size_t(end - r));
    }
  }
  const auto& runs = components.runs();
  const std::vector<std::uint32_t> root = components.roots();
  std::vector<Island> islands;
  std::vector<std::uint32_t> island_of(runs.size());
  for (std::uint32_t k = 0; k < runs.size(); ++k) {
    const auto& r = runs[k];
    if (root[k] == k) {  // a root is its island's first run in raster order
      island_of[k] = static_cast<std::uint32_t>(islands.size());
      islands.push_back({0, r.x0, r.y, r.x1 - 1, r.y});
    }
    Island& isl = islands[island_of[root[k]]];
    isl.area += static_cast<std::size_t>(r.x1 - r.x0);
    isl.x0 = std::min(isl.x0, r.x0), isl.x1 = std::max(isl.x1, r.x1 - 1);
    isl.y1 = std::max(isl.y1, r.y);
  }
  return islands;
}

}  // namespace

std::vector<std::string> slice_file_stems(const std::vector<SpriteSlice>& slices) {
  std::vector<std::string> stems;
  std::set<std::string> used;
  for (std::size_t i = 0; i < slices.size(); ++i) {
    std::string stem;
    for (const char c : slices[i].name) {
      const bool keep = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_';
      stem += keep ? c : '_';
    }
    if (stem.empty()) stem = "slice" + std::to_string(i);
    std::string unique = stem;
    for (int n = 2; used.count(unique); ++n) unique = stem + "-" + std::to_string(n);
    used.insert(unique);
    stems.push_back(std::move(unique));
  }
  return stems;
}

std::string slice_rig_path(const std::string& rig_path, std::string_view stem) {
  constexpr std::string_view kSuffix = ".rig2d.json";
  std::string base = rig_path;
  if (base.size() >= kSuffix.size() && base.compare(base.size() - kSuffix.size(), kSuffix.size(), kSuffix) == 0)
    base.resize(base.size() - kSuffix.size());
  return base + "." + std::string(stem) + std::string(kSuffix);
}

Result<Image> crop_slice(const Image& image, const SpriteSlice& s) {
  if (s.x < 0 || s.y < 0 || s.w <= 0 || s.h <= 0 || s.x > image.width - s.w || s.y > image.height - s.h)
    return make_error("autorig.slice.bounds", "slice \"" + s.name + "\" (" + std::to_string(s.x) + ", " +
                                                  std::to_string(s.y) + ", " + std::to_string(s.w) + " x " +
                                                  std::to_string(s.h) + ") reaches outside the " +
                                                  std::to_string(image.width) + " x " + std::to_string(image.height) +
                                                  " image");
  Image out;
  out.width = s.w;
  out.height = s.h;
  out.rgba.resize(std::size_t(s.w) * std::size_t(s.h) * 4);
  for (int y = 0; y < s.h; ++y) {
    const auto src = image.rgba.begin() +
                     static_cast<std::ptrdiff_t>((std::size_t(s.y + y) * std::size_t(image.width) + std::size_t(s.x)) * 4);
    std::copy(src, src + s.w * 4, out.rgba.begin() + static_cast<std::ptrdiff_t>(std::size_t(y) * std::size_t(s.w) * 4));
  }
  return out;
}

namespace {

std::pair<double, double> centre(const Island& i) { return {0.5 * (i.x0 + i.x1), 0.5 * (i.y0 + i.y1)}; }

// The significant islands (at least kSignificantIsland of the largest), each with the smaller ones
// near it joined, then the small ones near none that are more than dust.
std::vector<Island> sheet_sprites(const std::vector<Island>& islands) {
  std::size_t largest = 0;
  for (const Island& i : islands) largest = std::max(largest, i.area);
  std::vector<Island> kept, specks;
  for (const Island& i : islands) (double(i.area) < kSignificantIsland * double(largest) ? specks : kept).push_back(i);
  std::vector<Island> sprites = kept;  // joining tests the islands' own boxes, not the growing unions
  for (const Island& speck : specks) {
    const auto [sx, sy] = centre(speck);
    std::size_t best = kept.size();
    double best_d2 = 0;
    for (std::size_t k = 0; k < kept.size(); ++k) {
      const Island& i = kept[k];
      const double grow = 0.25 * std::max(i.x1 - i.x0 + 1, i.y1 - i.y0 + 1);
      if (sx < i.x0 - grow || sx > i.x1 + grow || sy < i.y0 - grow || sy > i.y1 + grow) continue;
      const auto [cx, cy] = centre(i);
      const double d2 = (sx - cx) * (sx - cx) + (sy - cy) * (sy - cy);
      if (best == kept.size() || d2 < best_d2) best = k, best_d2 = d2;
    }
    if (best < kept.size()) {
      Island& s = sprites[best];
      s.x0 = std::min(s.x0, speck.x0), s.y0 = std::min(s.y0, speck.y0);
      s.x1 = std::max(s.x1, speck.x1), s.y1 = std::max(s.y1, speck.y1);
      s.area += speck.area;
    } else if (double(speck.area) >= std::max(kSliceMinArea, kSliceMinShare * double(largest))) {
      sprites.push_back(speck);  // a small sprite of the sheet on its own
    }
  }
  return sprites;
}

// Rows top to bottom, each left to right. Taken by top edge, an island that starts above the bottom of
// the row so far joins it, so frames aligned at their tops, centres or feet read alike; a row ends
// where a gap in y (the sheet's padding between rows) begins.
std::vector<Island> in_reading_order(std::vector<Island> sprites) {
  std::stable_sort(sprites.begin(), sprites.end(), [](const Island& a, const Island& b) { return a.y0 < b.y0; });
  std::vector<std::pair<int, Island>> rowed;
  int rows = 0, row_bottom = 0;
  for (const Island& i : sprites) {
    if (rowed.empty() || i.y0 > row_bottom) ++rows, row_bottom = i.y1;
    row_bottom = std::max(row_bottom, i.y1);
    rowed.emplace_back(rows, i);
  }
  std::stable_sort(rowed.begin(), rowed.end(), [](const auto& a, const auto& b) {
    return a.first != b.first ? a.first < b.first : a.second.x0 < b.second.x0;
  });
  for (std::size_t k = 0; k < rowed.size(); ++k) sprites[k] = rowed[k].second;
  return sprites;
}

// guess_sheet over the image's islands.
SheetGuess guess_from(const std::vector<Island>& islands) {
  SheetGuess g;
  std::size_t largest = 0, total = 0;
  for (const Island& i : islands) largest = std::max(largest, i.area), total += i.area;
  if (total == 0) return g;
  std::vector<double> cx, cy, widths, heights;
  for (const Island& i : islands) {
    if (double(i.area) < kSignificantIsland * double(largest)) continue;
    ++g.islands;
    cx.push_back(0.5 * (i.x0 + i.x1));
    cy.push_back(0.5 * (i.y0 + i.y1));
    widths.push_back(i.x1 - i.x0 + 1);
    heights.push_back(i.y1 - i.y0 + 1);
  }
  g.cols = count_bands(cx, median(widths));
  g.rows = count_bands(cy, median(heights));
  g.largest_share = double(largest) / double(total);
  g.looks_like_sheet = g.islands >= kSheetMinIslands && g.largest_share < kDominantShare;
  return g;
}

// sheet_island_slices over the image's islands.
std::vector<SpriteSlice> slices_from(const std::vector<Island>& islands, std::string_view stem,
                                     std::string_view texture_guid) {
  const std::vector<Island> sprites = in_reading_order(sheet_sprites(islands));
  const std::size_t digits = std::max<std::size_t>(2, std::to_string(sprites.empty() ? 0 : sprites.size() - 1).size());
  const std::string guid_seed = "slice:" + detail::ascii_lower(texture_guid) + ":";
  std::vector<SpriteSlice> slices;
  for (std::size_t k = 0; k < sprites.size(); ++k) {
    const Island& i = sprites[k];
    std::string number = std::to_string(k);
    number.insert(0, digits - number.size(), '0');
    SpriteSlice s;
    s.name = std::string(stem) + "_" + number;
    s.guid = derive_guid(guid_seed + s.name);
    s.x = i.x0, s.y = i.y0, s.w = i.x1 - i.x0 + 1, s.h = i.y1 - i.y0 + 1;
    slices.push_back(std::move(s));
  }
  return slices;
}

}  // namespace

std::vector<SpriteSlice> sheet_island_slices(const Image& image, int alpha_threshold, std::string_view stem,
                                             std::string_view texture_guid) {
  if (!detail::image_well_formed(image)) return {};
  return slices_from(find_islands(image, alpha_threshold), stem, texture_guid);
}

Result<std::string> sidecar_with_slices(std::string_view sidecar_text, const std::string& path,
                                        const std::vector<SpriteSlice>& slices, int width, int height) {
  auto json = detail::parse_meta_object(sidecar_text, path);
  if (!json) return Unexpected{json.error()};
  if (const auto listed = json->find("sprites"); listed != json->end() && !(listed->is_array() && listed->empty()))
    return detail::located_error("meta.sprites", "the sidecar already lists \"sprites\" slices", sidecar_text, path,
                                 "/sprites");
  Json sprites = Json::array();
  for (const SpriteSlice& s : slices) sprites.push_back(detail::slice_json(s));
  (*json)["spriteSheet"] = Json{{"width", width}, {"height", height}};
  (*json)["sprites"] = std::move(sprites);
  return detail::to_js_json(*json);
}

SheetGuess guess_sheet(const Image& image, int alpha_threshold) {
  if (!detail::image_well_formed(image)) return {};
  return guess_from(find_islands(image, alpha_threshold));
}

SheetGuess detail::guess_sheet_keeping_coverage(const Image& image, int alpha_threshold,
                                                std::vector<std::uint8_t>& coverage) {
  coverage.clear();
  if (!detail::image_well_formed(image)) return {};
  coverage.resize(std::size_t(image.width) * std::size_t(image.height));
  return guess_from(find_islands(image, alpha_threshold, coverage.data()));
}

std::optional<std::vector<SpriteSlice>> detail::slices_if_sheet(const Image& image, int alpha_threshold,
                                                                std::string_view stem, std::string_view texture_guid) {
  if (!detail::image_well_formed(image)) return std::nullopt;
  const std::vector<Island> islands = find_islands(image, alpha_threshold);
  if (!guess_from(islands).looks_like_sheet) return std::nullopt;
  return slices_from(islands, stem, texture_guid);
}

}  // namespace rig2d
