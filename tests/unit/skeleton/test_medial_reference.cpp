// SPDX-License-Identifier: Apache-2.0
// Component labelling, hole filling and thinning as they were before they worked on runs and skipped
// settled border cells (on the library's own unchanged pieces: the Zhang-Suen tables, stair-step
// removal): kept verbatim as the reference the faster versions must reproduce exactly (labels, areas,
// first cells, filled cells, thinned cells), and the distance transform's counted column pass against
// its lower-envelope pass (the library's own, which it still runs past 4096 rows), bit for bit, on
// random shapes of many sizes, including a grid taller than counting allows; and CellDistances (the
// distances at chosen cells, the largest distance) against the whole transform.
#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#include "skeleton/medial_axis.h"

namespace rig2d {
namespace {
namespace reference {

using medial::BinaryGrid;
using medial::Components;

// Neighbours P2..P9 clockwise from north, as in Zhang & Suen's paper.
constexpr std::array<int, 8> kDx{0, 1, 1, 1, 0, -1, -1, -1};
constexpr std::array<int, 8> kDy{-1, -1, 0, 1, 1, 1, 0, -1};

medial::Components label_components(const BinaryGrid& grid) {
  Components c;
  const std::size_t n = grid.on.size();
  const int w = grid.width;
  c.label.assign(n, -1);
  std::vector<std::size_t> stack;
  for (std::size_t start = 0; start < n; ++start) {
    if (!grid.on[start] || c.label[start] >= 0) continue;
    const int id = static_cast<int>(c.area.size());
    c.area.push_back(0);
    c.first.push_back(start);
    c.label[start] = id;
    stack.push_back(start);
    while (!stack.empty()) {
      const std::size_t i = stack.back();
      stack.pop_back();
      ++c.area[static_cast<std::size_t>(id)];
      const int x = static_cast<int>(i % static_cast<std::size_t>(w)), y = static_cast<int>(i / static_cast<std::size_t>(w));
      const bool inner = x > 0 && y > 0 && x + 1 < w && y + 1 < grid.height;
      for (int k = 0; k < 8; ++k) {
        if (!inner && !grid.at(x + kDx[k], y + kDy[k])) continue;
        const std::size_t j = static_cast<std::size_t>(static_cast<std::ptrdiff_t>(i) + kDy[k] * w + kDx[k]);
        if (!grid.on[j] || c.label[j] >= 0) continue;
        c.label[j] = id;
        stack.push_back(j);
      }
    }
  }
  return c;
}

std::size_t fill_small_holes(BinaryGrid& grid, std::size_t max_area) {
  const int w = grid.width, h = grid.height;
  std::vector<std::uint8_t> seen(grid.on.size(), 0);
  std::vector<std::size_t> region, stack;
  std::size_t filled = 0;
  for (std::size_t start = 0; start < grid.on.size(); ++start) {
    if (grid.on[start] || seen[start]) continue;
    region.clear();
    bool touches_border = false;
    seen[start] = 1;
    stack.push_back(start);
    while (!stack.empty()) {
      const std::size_t i = stack.back();
      stack.pop_back();
      region.push_back(i);
      const int x = static_cast<int>(i % w), y = static_cast<int>(i / w);
      if (x == 0 || y == 0 || x == w - 1 || y == h - 1) touches_border = true;
      const int nx[4] = {x + 1, x - 1, x, x};
      const int ny[4] = {y, y, y + 1, y - 1};
      for (int k = 0; k < 4; ++k) {
        if (nx[k] < 0 || ny[k] < 0 || nx[k] >= w || ny[k] >= h) continue;
        const std::size_t j = static_cast<std::size_t>(ny[k]) * w + nx[k];
        if (grid.on[j] || seen[j]) continue;
        seen[j] = 1;
        stack.push_back(j);
      }
    }
    if (touches_border || region.size() > max_area) continue;
    for (std::size_t i : region) grid.on[i] = 1;
    filled += region.size();
  }
  return filled;
}

void thin(BinaryGrid& grid) {
  // Work on a copy padded with one off cell, so neighbours are plain index offsets.
  BinaryGrid g;
  g.width = grid.width + 2;
  g.height = grid.height + 2;
  g.on.assign(static_cast<std::size_t>(g.width) * g.height, 0);
  for (int y = 0; y < grid.height; ++y)
    std::copy_n(grid.on.begin() + static_cast<std::ptrdiff_t>(y) * grid.width, grid.width,
                g.on.begin() + static_cast<std::ptrdiff_t>(y + 1) * g.width + 1);
  const std::ptrdiff_t w = g.width;
  const std::array<std::ptrdiff_t, 8> offset{-w, -w + 1, 1, w + 1, w, w - 1, -1, -w - 1};
  const auto around = [&](std::size_t i) {
    std::array<bool, 8> p{};
    for (int k = 0; k < 8; ++k) p[k] = g.on[static_cast<std::size_t>(static_cast<std::ptrdiff_t>(i) + offset[k])] != 0;
    return p;
  };
  const auto mask_around = [&](std::size_t i) {
    unsigned mask = 0;
    for (int k = 0; k < 8; ++k)
      mask |= (g.on[static_cast<std::size_t>(static_cast<std::ptrdiff_t>(i) + offset[k])] != 0 ? 1u : 0u) << k;
    return mask;
  };
  // Border cells are the only candidates; a removal makes its neighbours candidates next pass.
  std::vector<std::size_t> border, next, marked;
  std::vector<std::uint8_t> queued(g.on.size(), 0);
  for (std::size_t i = 0; i < g.on.size(); ++i) {
    if (!g.on[i]) continue;
    const auto p = around(i);
    if (!(p[0] && p[2] && p[4] && p[6])) {
      border.push_back(i);
      queued[i] = 1;
    }
  }
  bool changed = true;
  while (changed) {
    changed = false;
    for (const bool second : {false, true}) {
      marked.clear();
      for (std::size_t i : border)
        if (g.on[i] && medial::thinning_deletable(mask_around(i), second)) marked.push_back(i);
      // Marked in parallel (centred like Zhang-Suen), removed one by one with a re-check, so a
      // two-cell-thick line or a 2x2 block keeps a cell instead of vanishing.
      for (std::size_t i : marked) {
        if (!medial::thinning_simple(mask_around(i))) continue;
        g.on[i] = 0;
        changed = true;
        for (const std::ptrdiff_t o : offset) {
          const std::size_t j = static_cast<std::size_t>(static_cast<std::ptrdiff_t>(i) + o);
          if (g.on[j] && !queued[j]) {
            queued[j] = 1;
            border.push_back(j);
          }
        }
      }
    }
    next.clear();
    for (std::size_t i : border) {
      if (g.on[i]) next.push_back(i);
      else queued[i] = 0;
    }
    border.swap(next);
  }
  medial::remove_stair_steps(g);
  for (int y = 0; y < grid.height; ++y)
    std::copy_n(g.on.begin() + static_cast<std::ptrdiff_t>(y + 1) * g.width + 1, grid.width,
                grid.on.begin() + static_cast<std::ptrdiff_t>(y) * grid.width);
}

}  // namespace reference

// Blobs (discs and bars), speckle and holes on a w x h grid; `density` of random single cells.
medial::BinaryGrid random_shape(std::mt19937& rng, int w, int h, double density) {
  medial::BinaryGrid g;
  g.width = w;
  g.height = h;
  g.on.assign(static_cast<std::size_t>(w) * h, 0);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  const int blobs = 1 + static_cast<int>(u(rng) * 6);
  for (int b = 0; b < blobs; ++b) {
    const double cx = u(rng) * w, cy = u(rng) * h, r = 1 + u(rng) * 0.4 * std::max(w, h);
    const bool bar = u(rng) < 0.3;
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x) {
        const double dx = x - cx, dy = y - cy;
        const bool in = bar ? std::abs(dx) < r && std::abs(dy) < 0.2 * r : dx * dx + dy * dy < r * r;
        if (in) g.on[static_cast<std::size_t>(y) * w + x] = 1;
      }
  }
  for (auto& c : g.on)
    if (u(rng) < density) c = static_cast<std::uint8_t>(!c);
  return g;
}

bool same_bits(const std::vector<float>& a, const std::vector<float>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0;
}

// CellDistances against the whole transform: every cell, the widest, and the field on a thinned
// subset (what the skeleton reads), bit for bit.
void check_cell_distances(const medial::BinaryGrid& g, const std::vector<float>& dist) {
  const medial::CellDistances cells(g);
  std::vector<float> each(g.on.size());
  for (std::size_t i = 0; i < g.on.size(); ++i) each[i] = cells.at(i);
  REQUIRE(same_bits(each, dist));
  const float widest = dist.empty() ? 0.0f : *std::max_element(dist.begin(), dist.end());
  const float got = cells.widest();
  REQUIRE(std::memcmp(&widest, &got, sizeof got) == 0);
  // The lower bound the hole filling tries first: the distance at a cell, never above the widest.
  const float deep = cells.deepest_in_column();
  REQUIRE(deep <= widest);
  REQUIRE((deep == 0.0f || std::find(dist.begin(), dist.end(), deep) != dist.end()));
  medial::BinaryGrid axis = g;
  medial::thin(axis);
  std::vector<float> want(g.on.size(), 0.0f);
  for (std::size_t i = 0; i < g.on.size(); ++i)
    if (axis.on[i]) want[i] = dist[i];
  REQUIRE(same_bits(cells.at_cells(axis), want));
}

// Holes by flood fill: 4-connected regions of off cells that do not touch the grid's border; the
// largest one's area in `largest`.
std::ptrdiff_t medial_reference_holes(const medial::BinaryGrid& g, std::size_t* largest = nullptr) {
  std::vector<std::uint8_t> seen(g.on.size(), 0);
  std::ptrdiff_t holes = 0;
  if (largest) *largest = 0;
  for (std::size_t start = 0; start < g.on.size(); ++start) {
    if (g.on[start] || seen[start]) continue;
    bool open = false;
    std::size_t area = 0;
    std::vector<std::size_t> stack{start};
    seen[start] = 1;
    while (!stack.empty()) {
      const std::size_t i = stack.back();
      stack.pop_back();
      ++area;
      const int x = static_cast<int>(i % static_cast<std::size_t>(g.width)), y = static_cast<int>(i / static_cast<std::size_t>(g.width));
      open = open || x == 0 || y == 0 || x + 1 == g.width || y + 1 == g.height;
      const int dx[4] = {1, -1, 0, 0}, dy[4] = {0, 0, 1, -1};
      for (int k = 0; k < 4; ++k) {
        const int nx = x + dx[k], ny = y + dy[k];
        if (nx < 0 || ny < 0 || nx >= g.width || ny >= g.height) continue;
        const std::size_t j = static_cast<std::size_t>(ny) * g.width + nx;
        if (g.on[j] || seen[j]) continue;
        seen[j] = 1;
        stack.push_back(j);
      }
    }
    holes += !open;
    if (!open && largest) *largest = std::max(*largest, area);
  }
  return holes;
}

// Thinning alone against the reference, in place (an off frame) and padded: widths about the
// 16-cell steps its states are built in (an inner row of 15, 16, 17 cells and more), and shapes thick
// enough for many passes, where removals list cells long after the first border.
void medial_reference_check_thin(const medial::BinaryGrid& g) {
  medial::BinaryGrid a = g, b = g;
  medial::thin(a);
  reference::thin(b);
  REQUIRE(a.on == b.on);
  medial::BinaryGrid framed{g.width + 2, g.height + 2, {}};
  framed.on.assign(static_cast<std::size_t>(framed.width) * framed.height, 0);
  for (int y = 0; y < g.height; ++y)
    std::copy_n(g.on.begin() + static_cast<std::ptrdiff_t>(y) * g.width, g.width,
                framed.on.begin() + static_cast<std::ptrdiff_t>(y + 1) * framed.width + 1);
  medial::BinaryGrid c = framed, d = framed;
  medial::thin(c);
  reference::thin(d);
  REQUIRE(c.on == d.on);
}

void check_same(const medial::BinaryGrid& g) {
  const medial::Components want = reference::label_components(g), got = medial::label_components(g);
  // The Euler number the skeleton's hole test reads: components minus holes.
  REQUIRE(medial::euler_number(g) == static_cast<std::ptrdiff_t>(want.area.size()) - medial_reference_holes(g));
  REQUIRE(got.label == want.label);
  REQUIRE(got.area == want.area);
  REQUIRE(got.first == want.first);
  REQUIRE(got.box.size() == got.area.size());
  for (std::size_t c = 0; c < got.box.size(); ++c) {  // each component's box: its cells' extremes
    int x0 = g.width, y0 = g.height, x1 = -1, y1 = -1;
    for (int y = 0; y < g.height; ++y)
      for (int x = 0; x < g.width; ++x)
        if (want.label[static_cast<std::size_t>(y) * g.width + x] == static_cast<int>(c))
          x0 = std::min(x0, x), y0 = std::min(y0, y), x1 = std::max(x1, x), y1 = std::max(y1, y);
    const medial::Components::Box& b = got.box[c];
    REQUIRE(std::array{b.x0, b.y0, b.x1, b.y1} == std::array{x0, y0, x1, y1});
  }
  const std::vector<float> dist = medial::distance_transform(g);
  REQUIRE(same_bits(dist, medial::distance_transform(g, medial::ColumnPass::Envelope)));
  if (g.width <= 4094 && g.height <= 4094) check_cell_distances(g, dist);
  for (const std::size_t max_area : {std::size_t{0}, std::size_t{3}, std::size_t{40}, std::size_t{1} << 30}) {
    medial::BinaryGrid a = g, b = g;
    REQUIRE(medial::fill_small_holes(a, max_area) == reference::fill_small_holes(b, max_area));
    REQUIRE(a.on == b.on);
  }
  // The bound is asked for only when there is a hole, and told the largest hole's area.
  std::size_t largest_hole = 0, told = 0;
  const bool has_hole = medial_reference_holes(g, &largest_hole) > 0;
  bool asked = false;
  medial::BinaryGrid e = g;
  medial::fill_small_holes(e, [&](std::size_t largest) {
    asked = true, told = largest;
    return std::size_t{0};
  });
  REQUIRE(asked == has_hole);
  REQUIRE(told == (has_hole ? largest_hole : 0));
  medial_reference_check_thin(g);
}

TEST_CASE("medial: labels, holes, distances and thinning match the reference on random shapes", "[medial]") {
  std::mt19937 rng(20261203);
  std::uniform_int_distribution<int> side(1, 90);
  for (int trial = 0; trial < 400; ++trial) {
    const int w = side(rng), h = side(rng);
    const double density = trial % 4 == 0 ? 0.0 : 0.02 * (trial % 7);
    INFO("trial " << trial << ": " << w << " x " << h);
    check_same(random_shape(rng, w, h, density));
  }
}

// Distance from each on cell to the nearest off cell, the grid's outside counting as off, by trying
// every off cell: squares of integers, so exact in float, and sqrt rounds them the same way.
std::vector<float> brute_distances(const medial::BinaryGrid& g) {
  std::vector<float> out(g.on.size(), 0.0f);
  for (int y = 0; y < g.height; ++y)
    for (int x = 0; x < g.width; ++x) {
      if (!g.at(x, y)) continue;
      long best = std::min({long{x + 1} * (x + 1), long{g.width - x} * (g.width - x), long{y + 1} * (y + 1),
                            long{g.height - y} * (g.height - y)});
      for (int v = 0; v < g.height; ++v)
        for (int u = 0; u < g.width; ++u)
          if (!g.at(u, v)) best = std::min(best, long{u - x} * (u - x) + long{v - y} * (v - y));
      out[static_cast<std::size_t>(y) * g.width + x] = std::sqrt(static_cast<float>(best));
    }
  return out;
}

TEST_CASE("medial: thinning matches the reference about its 16-cell steps and on thick shapes", "[medial]") {
  std::mt19937 rng(20261207);
  for (int w = 13; w <= 20; ++w)
    for (int trial = 0; trial < 12; ++trial) {
      INFO("width " << w << ", trial " << trial);
      medial_reference_check_thin(random_shape(rng, w, 5 + trial * 4, 0.02 * (trial % 4)));
    }
  std::uniform_int_distribution<int> side(90, 220);
  for (int trial = 0; trial < 24; ++trial) {
    const int w = side(rng), h = side(rng);
    INFO("trial " << trial << ": " << w << " x " << h);
    medial_reference_check_thin(random_shape(rng, w, h, trial % 3 == 0 ? 0.0 : 0.01 * (trial % 5)));
  }
}

TEST_CASE("medial: the distance transform is the exact distance to the nearest off cell", "[medial]") {
  std::mt19937 rng(20261205);
  std::uniform_int_distribution<int> side(1, 40);
  for (int trial = 0; trial < 300; ++trial) {
    const int w = side(rng), h = side(rng);
    const medial::BinaryGrid g = random_shape(rng, w, h, 0.03 * (trial % 5));
    INFO("trial " << trial << ": " << w << " x " << h);
    const std::vector<float> want = brute_distances(g);
    REQUIRE(same_bits(medial::distance_transform(g), want));
    REQUIRE(same_bits(medial::distance_transform(g, medial::ColumnPass::Envelope), want));
  }
}

TEST_CASE("medial: edge cases match the reference", "[medial]") {
  medial::BinaryGrid g;
  g.width = 5;
  g.height = 4;
  for (const std::uint8_t fill : {std::uint8_t{0}, std::uint8_t{1}, std::uint8_t{7}}) {
    g.on.assign(20, fill);
    check_same(g);
  }
  std::mt19937 rng(7);
  // Taller than the exact column pass (4096 rows with the padding): the envelope runs instead.
  check_same(random_shape(rng, 3, 4100, 0.01));
  check_same(random_shape(rng, 4100, 2, 0.01));
  check_same(random_shape(rng, 1, 4094, 0.0));
}


TEST_CASE("medial: the Euler number counts components minus holes on hand-made grids", "[medial]") {
  const auto grid = [](int w, int h, std::vector<std::uint8_t> on) { return medial::BinaryGrid{w, h, std::move(on)}; };
  CHECK(medial::euler_number(grid(3, 3, {0, 0, 0, 0, 0, 0, 0, 0, 0})) == 0);
  CHECK(medial::euler_number(grid(1, 1, {1})) == 1);
  CHECK(medial::euler_number(grid(3, 3, {1, 1, 1, 1, 0, 1, 1, 1, 1})) == 0);  // a ring: one hole
  CHECK(medial::euler_number(grid(2, 2, {1, 0, 0, 1})) == 1);                 // diagonal: one component
  CHECK(medial::euler_number(grid(3, 3, {0, 1, 0, 1, 0, 1, 0, 1, 0})) == 0);  // a diamond round a hole
  CHECK(medial::euler_number(grid(3, 1, {1, 0, 1})) == 2);                    // two specks
  // Two rings side by side: two components, two holes.
  CHECK(medial::euler_number(grid(7, 3, {1, 1, 1, 0, 1, 1, 1, 1, 0, 1, 0, 1, 0, 1, 1, 1, 1, 0, 1, 1, 1})) == 0);
  // A figure eight: one component, two holes.
  CHECK(medial::euler_number(grid(5, 3, {1, 1, 1, 1, 1, 1, 0, 1, 0, 1, 1, 1, 1, 1, 1})) == -1);
}

}  // namespace
}  // namespace rig2d
