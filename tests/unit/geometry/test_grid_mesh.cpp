// SPDX-License-Identifier: Apache-2.0
// generateGridMesh: ENGINE-SPEC §3.1, §5.5 #1-2, §5.12 (extra grid cases), striped-bar culling.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

#include "rig2d/geometry/grid_mesh.h"
#include "rig2d/image/coverage.h"

using namespace rig2d;

namespace {

Mesh grid(double w, double h, double cols, double rows, const UvPredicate& inside = {}, double px = 0.5,
          double py = 0.5) {
  GridMeshOptions o;
  o.width = w;
  o.height = h;
  o.cols = cols;
  o.rows = rows;
  o.pivot_x = px;
  o.pivot_y = py;
  auto m = generate_grid_mesh(o, inside);
  REQUIRE(m);
  return *m;
}

std::vector<Vec2> pts(std::initializer_list<std::pair<double, double>> l) {
  std::vector<Vec2> out;
  for (const auto& [x, y] : l) out.push_back({x, y});
  return out;
}

}  // namespace

TEST_CASE("grid: 64x64 2x2 full output (spec 5.5 #1)", "[geometry][grid]") {
  const Mesh m = grid(64, 64, 2, 2);
  CHECK(m.verts == pts({{-32, -32}, {0, -32}, {32, -32}, {-32, 0}, {0, 0}, {32, 0}, {-32, 32}, {0, 32}, {32, 32}}));
  CHECK(m.uvs == pts({{0, 0}, {0.5, 0}, {1, 0}, {0, 0.5}, {0.5, 0.5}, {1, 0.5}, {0, 1}, {0.5, 1}, {1, 1}}));
  CHECK(m.tris == std::vector<std::uint32_t>{0, 3, 1, 1, 3, 4, 1, 4, 2, 2, 4, 5, 3, 6, 4, 4, 6, 7, 4, 7, 5, 5, 7, 8});

  const Mesh tall = grid(64, 256, 2, 2);
  REQUIRE(tall.verts.size() == 9);
  CHECK(tall.verts[0] == Vec2{-32, -128});
  CHECK(tall.verts[8] == Vec2{32, 128});
  CHECK(tall.uvs == m.uvs);
  CHECK(tall.tris == m.tris);
}

TEST_CASE("grid: 40x40 4x4 culled by u < 0.5 (spec 5.5 #2)", "[geometry][grid]") {
  const Mesh full = grid(40, 40, 4, 4);
  CHECK(full.verts.size() == 25);
  CHECK(full.tris.size() == 96);

  const Mesh half = grid(40, 40, 4, 4, [](double u, double) { return u < 0.5; });
  CHECK(half.verts.size() == 15);
  CHECK(half.tris.size() == 48);
  for (const auto i : half.tris) CHECK(i < half.verts.size());
  // Columns 0..2 of vertices survive, row-major: 3 per row.
  CHECK(half.verts.front() == Vec2{-20, -20});
  CHECK(half.verts.back() == Vec2{0, 20});
  for (std::size_t r = 0; r < 5; ++r) {
    CHECK(half.verts[r * 3] == Vec2{-20, -20 + 10.0 * double(r)});
    CHECK(half.verts[r * 3 + 2] == Vec2{0, -20 + 10.0 * double(r)});
  }
  // Cell (0,0) of the culled grid keeps the engine's a,d,b, b,d,e pattern in compact indices.
  CHECK(std::vector<std::uint32_t>(half.tris.begin(), half.tris.begin() + 6) ==
        std::vector<std::uint32_t>{0, 3, 1, 1, 3, 4});
}

TEST_CASE("grid: pivot, centre-only predicate, fractional sizes (spec 5.12)", "[geometry][grid]") {
  CHECK(grid(10, 20, 1, 1, {}, 0, 1).verts == pts({{0, -20}, {10, -20}, {0, 0}, {10, 0}}));

  const Mesh centre = grid(30, 30, 3, 3, [](double u, double v) { return u == 0.5 && v == 0.5; });
  CHECK(centre.verts == pts({{-5.000000000000001, -5.000000000000001},
                             {4.999999999999999, -5.000000000000001},
                             {-5.000000000000001, 4.999999999999999},
                             {4.999999999999999, 4.999999999999999}}));
  CHECK(centre.tris == std::vector<std::uint32_t>{0, 2, 1, 1, 2, 3});

  const Mesh frac = grid(20, 10, 2.9, 0);
  CHECK(frac.verts.size() == 6);  // 2 x 1 cells
  CHECK(frac.tris == std::vector<std::uint32_t>{0, 3, 1, 1, 3, 4, 1, 4, 2, 2, 4, 5});
}

TEST_CASE("grid: 32x96 1x3 keeps the engine's double rounding (spec 3.1)", "[geometry][grid]") {
  const Mesh m = grid(32, 96, 1, 3);
  REQUIRE(m.verts.size() == 8);
  CHECK(m.verts[4] == Vec2{-16, 15.999999999999996});
  CHECK(m.uvs[2].y == 0.3333333333333333);
  CHECK(m.uvs[4].y == 0.6666666666666666);
}

TEST_CASE("grid: NaN gives an empty mesh, huge grids are rejected before allocating", "[geometry][grid]") {
  const Mesh empty = grid(10, 10, std::nan(""), 2);
  CHECK(empty.verts.empty());
  CHECK(empty.tris.empty());
  CHECK(grid(10, 10, 3, 3, [](double, double) { return false; }).verts.empty());

  GridMeshOptions o;
  o.width = o.height = 10;
  o.cols = std::numeric_limits<double>::infinity();
  CHECK(generate_grid_mesh(o).error().code == "grid.too_large");
  o.cols = 5000;
  o.rows = 5000;
  CHECK(generate_grid_mesh(o).error().code == "grid.too_large");
}

TEST_CASE("grid: culling on a striped 64x256 bar", "[geometry][grid]") {
  // Opaque in the 32-px bands whose index is even (rows 0-31, 64-95, ...). With a 4 x 8 grid each
  // cell row r spans one band; its v samples hit pixel rows 32r, 32r+16 and 32(r+1) (clamped to 255).
  // Even rows are kept by their own band; odd rows r < 7 are kept by their bottom edge sample, which
  // lands in band r+1; row 7's bottom sample clamps to pixel row 255 (band 7): culled.
  Image img;
  img.width = 64;
  img.height = 256;
  img.rgba.assign(64 * 256 * 4, 0);
  for (int y = 0; y < 256; ++y) {
    for (int x = 0; x < 64; ++x) img.rgba[std::size_t(y * 64 + x) * 4 + 3] = (y / 32) % 2 == 0 ? 255 : 0;
  }
  auto mask = coverage_mask(img);
  REQUIRE(mask);
  const CoverageMask& cm = *mask;
  const Mesh m = grid(64, 256, 4, 8, [&cm](double u, double v) { return is_inside(cm, u, v); });
  CHECK(m.verts.size() == 8 * 5);  // vertex rows 0..7
  CHECK(m.tris.size() == 7 * 4 * 6);
  CHECK(m.verts.front() == Vec2{-32, -128});
  CHECK(m.verts.back() == Vec2{32, 96});
  CHECK(m.uvs.back() == Vec2{1, 0.875});

  // Thin 4-px stripes at y = 8..11 (mod 32) fall between every sample: everything is culled.
  for (int y = 0; y < 256; ++y) {
    for (int x = 0; x < 64; ++x) img.rgba[std::size_t(y * 64 + x) * 4 + 3] = (y % 32) >= 8 && (y % 32) < 12 ? 255 : 0;
  }
  auto thin = coverage_mask(img);
  REQUIRE(thin);
  const CoverageMask& tm = *thin;
  CHECK(covered_cells(tm) == 64 * 4 * 8);
  CHECK(grid(64, 256, 4, 8, [&tm](double u, double v) { return is_inside(tm, u, v); }).verts.empty());
}
