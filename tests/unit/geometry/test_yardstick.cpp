// SPDX-License-Identifier: Apache-2.0
// Exact pixel areas under a mesh, the outline yardstick, and outline meshes of sprites whose opaque
// pixels reach the image border.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "geometry/island_hull_steps.h"
#include "geometry/outline_stages.h"
#include "geometry/predicates.h"
#include "masks.h"
#include "rig2d/geometry/contour.h"
#include "rig2d/geometry/island_hulls.h"
#include "rig2d/geometry/outline_mesh.h"
#include "rig2d/geometry/simplify.h"

using rig2d::Image;
using rig2d::Mesh;
using rig2d::OutlineMeshOptions;
using rig2d::OutlineMeshStats;
using rig2d::Ring;
using rig2d::Vec2;

namespace {

// A mesh from pixel positions in a w x h sprite (uvs = position / size; verts are not scored).
Mesh mesh_from_pixels(const std::vector<Vec2>& px, const std::vector<std::uint32_t>& tris, int w, int h) {
  Mesh m;
  for (const Vec2& p : px) {
    m.uvs.push_back({p.x / w, p.y / h});
    m.verts.push_back(p);
  }
  m.tris = tris;
  return m;
}

double at(const std::vector<double>& area, int w, int x, int y) {
  return area[static_cast<std::size_t>(y) * static_cast<std::size_t>(w) + static_cast<std::size_t>(x)];
}

int alpha(const Image& im, int x, int y) {
  return im.rgba[4 * (static_cast<std::size_t>(y) * static_cast<std::size_t>(im.width) + static_cast<std::size_t>(x)) + 3];
}

// Pixels on the image border with alpha above the threshold, and the smallest share of one inside the mesh.
struct BorderPixels {
  std::size_t count = 0;
  double least_inside = 1;
};

BorderPixels border_pixels(const Image& im, const Mesh& mesh, int threshold) {
  const std::vector<double> area = rig2d::mesh_pixel_area(mesh, im.width, im.height);
  BorderPixels b;
  for (int y = 0; y < im.height; ++y)
    for (int x = 0; x < im.width; ++x) {
      const bool border = x == 0 || y == 0 || x == im.width - 1 || y == im.height - 1;
      if (!border || alpha(im, x, y) <= threshold) continue;
      ++b.count;
      b.least_inside = std::min(b.least_inside, at(area, im.width, x, y));
    }
  return b;
}

}  // namespace

TEST_CASE("mesh_pixel_area: exact shares on hand-computed shapes", "[geometry][yardstick]") {
  // A square from (0.5, 0.5) to (2.5, 2.5) over 3 x 3 pixels: quarter corners, half sides, whole centre.
  const Mesh square = mesh_from_pixels({{0.5, 0.5}, {0.5, 2.5}, {2.5, 2.5}, {2.5, 0.5}}, {0, 1, 2, 0, 2, 3}, 3, 3);
  const auto a = rig2d::mesh_pixel_area(square, 3, 3);
  REQUIRE(a.size() == 9);
  const double expected[9] = {0.25, 0.5, 0.25, 0.5, 1, 0.5, 0.25, 0.5, 0.25};
  for (int i = 0; i < 9; ++i) CHECK(a[static_cast<std::size_t>(i)] == Approx(expected[i]).margin(1e-12));

  // The half below the diagonal x + y = 4 of a 4 x 4 sprite; the triangle wound either way.
  for (const std::vector<std::uint32_t>& tris : {std::vector<std::uint32_t>{0, 1, 2}, std::vector<std::uint32_t>{0, 2, 1}}) {
    const Mesh half = mesh_from_pixels({{0, 0}, {0, 4}, {4, 0}}, tris, 4, 4);
    const auto h = rig2d::mesh_pixel_area(half, 4, 4);
    for (int y = 0; y < 4; ++y)
      for (int x = 0; x < 4; ++x) {
        INFO("pixel " << x << ", " << y);
        CHECK(at(h, 4, x, y) == Approx(x + y <= 2 ? 1.0 : x + y == 3 ? 0.5 : 0.0).margin(1e-12));
      }
  }

  // A triangle reaching far beyond the sprite covers all of it.
  const Mesh big = mesh_from_pixels({{-10, -10}, {-10, 30}, {30, -10}}, {0, 1, 2}, 4, 4);
  for (double v : rig2d::mesh_pixel_area(big, 4, 4)) CHECK(v == Approx(1.0).margin(1e-12));

  // Any triangle inside the sprite: the shares add up to its area; bad indices and NaN uvs are skipped.
  Mesh odd = mesh_from_pixels({{0.3, 0.7}, {1.4, 3.8}, {3.9, 1.2}, {std::nan(""), 1}}, {0, 1, 2, 0, 1, 3, 0, 1, 9}, 4, 4);
  double sum = 0;
  for (double v : rig2d::mesh_pixel_area(odd, 4, 4)) sum += v;
  const double area = 0.5 * std::fabs((1.4 - 0.3) * (1.2 - 0.7) - (3.9 - 0.3) * (3.8 - 0.7));
  CHECK(sum == Approx(area).epsilon(1e-12));
  CHECK(rig2d::mesh_pixel_area(odd, 0, 4).empty());
}

TEST_CASE("outline yardstick: hand-computed values on a 2 x 2 block", "[geometry][yardstick]") {
  // Alpha 255 in the centre 2 x 2 pixels of a 4 x 4 sprite, hard edges. Its alpha outline runs
  // 0.9667 px (= 246.5 / 255, the iso-level 8.5 between 255 and 0) beyond the opaque centres: four
  // unit sides and four diagonal corner cuts of 0.9667 * sqrt(2).
  const Image block = rig2d::test::make_sprite(4, 4, [](double x, double y) { return x >= 1 && x < 3 && y >= 1 && y < 3; }, false);
  const double outline = 4 + 4 * (246.5 / 255) * std::sqrt(2.0);
  CHECK(rig2d::alpha_outline_length(block, 8) == Approx(outline).epsilon(1e-6));

  const Mesh exact = mesh_from_pixels({{1, 1}, {1, 3}, {3, 3}, {3, 1}}, {0, 1, 2, 0, 2, 3}, 4, 4);
  auto y = rig2d::outline_yardstick(exact, block, 8);
  CHECK(y.alpha_mass_inside == Approx(1.0).margin(1e-12));
  CHECK(y.opaque_outside == 0);
  CHECK(y.opaque_min_inside == Approx(1.0).margin(1e-12));
  CHECK(y.transparent_inside == 0);
  CHECK(y.border_per_outline_px == 0);
  CHECK(rig2d::passes(y));

  // The whole sprite: the 12 transparent pixels around the block are inside.
  const Mesh whole = mesh_from_pixels({{0, 0}, {0, 4}, {4, 4}, {4, 0}}, {0, 1, 2, 0, 2, 3}, 4, 4);
  y = rig2d::outline_yardstick(whole, block, 8);
  CHECK(y.transparent_inside == 12);
  CHECK(y.border_per_outline_px == Approx(12 / outline).epsilon(1e-6));
  CHECK_FALSE(rig2d::passes(y));  // 1.27 px of transparent border per px of outline

  // The top half of the block only: two opaque pixels lost, half the mass.
  const Mesh top = mesh_from_pixels({{1, 1}, {1, 2}, {3, 2}, {3, 1}}, {0, 1, 2, 0, 2, 3}, 4, 4);
  y = rig2d::outline_yardstick(top, block, 8);
  CHECK(y.alpha_mass_inside == Approx(0.5).margin(1e-12));
  CHECK(y.opaque_outside == 2);
  CHECK(y.opaque_min_inside == Approx(0.0).margin(1e-12));
  CHECK_FALSE(rig2d::passes(y));

  // A sliver clipped off the right column: the pixel stays (more than half inside), the mass does not.
  const Mesh clipped = mesh_from_pixels({{1, 1}, {1, 3}, {2.8, 3}, {2.8, 1}}, {0, 1, 2, 0, 2, 3}, 4, 4);
  y = rig2d::outline_yardstick(clipped, block, 8);
  CHECK(y.opaque_outside == 0);
  CHECK(y.opaque_min_inside == Approx(0.8).margin(1e-12));
  CHECK(y.alpha_mass_inside == Approx(0.9).margin(1e-12));
  CHECK_FALSE(rig2d::passes(y));

  // Nothing to measure: the default.
  CHECK(rig2d::outline_yardstick(exact, Image{}, 8).alpha_mass_inside == 1.0);
}

TEST_CASE("yardstick_within: the full yardstick's answer at any border, outline length given", "[geometry][yardstick]") {
  const Image block = rig2d::test::make_sprite(4, 4, [](double x, double y) { return x >= 1 && x < 3 && y >= 1 && y < 3; }, false);
  const double outline = rig2d::alpha_outline_length(block, 8);
  const std::vector<Mesh> meshes = {
      mesh_from_pixels({{1, 1}, {1, 3}, {3, 3}, {3, 1}}, {0, 1, 2, 0, 2, 3}, 4, 4),      // exact: passes
      mesh_from_pixels({{0, 0}, {0, 4}, {4, 4}, {4, 0}}, {0, 1, 2, 0, 2, 3}, 4, 4),      // border 1.27
      mesh_from_pixels({{1, 1}, {1, 2}, {3, 2}, {3, 1}}, {0, 1, 2, 0, 2, 3}, 4, 4),      // loses opaque pixels
      mesh_from_pixels({{1, 1}, {1, 3}, {2.8, 3}, {2.8, 1}}, {0, 1, 2, 0, 2, 3}, 4, 4),  // loses mass
      mesh_from_pixels({{0, 0}, {0, 4}, {4, 2}}, {0, 1, 2}, 4, 4)};                       // some of each
  const std::vector<bool> expected_at_1 = {true, false, false, false, false};
  for (std::size_t i = 0; i < meshes.size(); ++i) {
    const auto y = rig2d::outline_yardstick(meshes[i], block, 8);
    for (const double border : {0.0, 0.5, 1.0, 1.2, 1.3, 10.0}) {
      const bool full = y.alpha_mass_inside >= rig2d::kYardstickMinAlphaMass && y.opaque_outside == 0 &&
                        y.border_per_outline_px <= border;
      CAPTURE(i, border);
      CHECK(rig2d::detail::yardstick_within(meshes[i], block, 8, outline, border) == full);
    }
    CHECK(rig2d::detail::yardstick_within(meshes[i], block, 8, outline, rig2d::kYardstickMaxBorder) == expected_at_1[i]);
  }
  // The whole sprite passes once its 1.27 px of border per px of outline is allowed.
  CHECK(rig2d::detail::yardstick_within(meshes[1], block, 8, outline, 1.3));
  CHECK(rig2d::detail::yardstick_within(meshes[0], Image{}, 8, outline, 0.0));  // nothing to measure
}

// The full yardstick's mass and opaque figures, as yardstick_within used to test them pixel by pixel.
bool yardstick_mass_ok(const Mesh& mesh, const Image& image) {
  const auto y = rig2d::outline_yardstick(mesh, image, 8);
  return y.alpha_mass_inside >= rig2d::kYardstickMinAlphaMass && y.opaque_outside == 0;
}

TEST_CASE("alpha_mass_within: the full yardstick's mass and opaque answer, from runs of equal share", "[geometry][yardstick]") {
  // Every pixel alpha 100 (under the opaque 128), 50 x 40: a mass of 200000, so leaving out one whole
  // pixel keeps exactly 0.9995 of it (the bar: passes), two pixels 0.999 (fails). The sums land on the
  // bar itself, where the run sums give way to the pixel-by-pixel sum.
  Image flat{50, 40, std::vector<std::uint8_t>(50 * 40 * 4, 0)};
  for (std::size_t i = 0; i < 50 * 40; ++i) flat.rgba[4 * i + 3] = 100;
  const Mesh all_but_one = mesh_from_pixels({{0, 0}, {0, 40}, {49, 40}, {49, 0}, {50, 0}, {50, 39}, {49, 39}},
                                            {0, 1, 2, 0, 2, 3, 3, 4, 5, 3, 5, 6}, 50, 40);
  const Mesh all_but_two = mesh_from_pixels({{0, 0}, {0, 40}, {49, 40}, {49, 0}, {50, 0}, {50, 38}, {49, 38}},
                                            {0, 1, 2, 0, 2, 3, 3, 4, 5, 3, 5, 6}, 50, 40);
  CHECK(yardstick_mass_ok(all_but_one, flat));
  CHECK(rig2d::detail::alpha_mass_within(all_but_one, flat));
  CHECK_FALSE(yardstick_mass_ok(all_but_two, flat));
  CHECK_FALSE(rig2d::detail::alpha_mass_within(all_but_two, flat));

  // Random sprites (clear and opaque runs, soft pixels) under random fans and triangles, partly off
  // the image: the same answer as the full yardstick every time.
  std::uint32_t state = 12345;
  auto next = [&] { return state = state * 1664525u + 1013904223u; };
  auto uniform = [&](double lo, double hi) { return lo + (hi - lo) * ((next() >> 8) / 16777216.0); };
  int passed = 0;
  for (int round = 0; round < 300; ++round) {
    const int w = 1 + static_cast<int>(next() % 90), h = 1 + static_cast<int>(next() % 90);
    Image im{w, h, std::vector<std::uint8_t>(static_cast<std::size_t>(w) * static_cast<std::size_t>(h) * 4, 0)};
    const double cx = uniform(0, w), cy = uniform(0, h), r = uniform(1, 0.7 * std::max(w, h));
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x) {
        const double d = std::hypot(x + 0.5 - cx, y + 0.5 - cy) - r;
        const int a = d < -1 ? 255 : d > 1 ? 0 : static_cast<int>(127.5 * (1 - d));
        im.rgba[4 * (static_cast<std::size_t>(y) * static_cast<std::size_t>(w) + static_cast<std::size_t>(x)) + 3] =
            static_cast<std::uint8_t>(d < -1 && next() % 7 == 0 ? next() % 256 : static_cast<unsigned>(a));
      }
    // A fan around the disc, slightly larger or smaller than it, or a few random triangles.
    std::vector<Vec2> px;
    std::vector<std::uint32_t> tris;
    if (round % 3 != 2) {
      const int corners = 3 + static_cast<int>(next() % 12);
      const double grow = uniform(-1.5, 3.0);
      px.push_back({cx, cy});
      for (int k = 0; k < corners; ++k) {
        const double t = 2 * 3.141592653589793 * k / corners + uniform(0, 0.1);
        px.push_back({cx + (r + grow) / std::cos(3.141592653589793 / corners) * std::cos(t),
                      cy + (r + grow) / std::cos(3.141592653589793 / corners) * std::sin(t)});
        tris.insert(tris.end(), {0u, static_cast<std::uint32_t>(1 + k), static_cast<std::uint32_t>(1 + (k + 1) % corners)});
      }
    } else {
      for (int t = 0; t < 1 + static_cast<int>(next() % 5); ++t)
        for (int k = 0; k < 3; ++k) {
          px.push_back({uniform(-5, w + 5), uniform(-5, h + 5)});
          tris.push_back(static_cast<std::uint32_t>(px.size() - 1));
        }
    }
    const Mesh mesh = mesh_from_pixels(px, tris, w, h);
    const bool expected = yardstick_mass_ok(mesh, im);
    CAPTURE(round, w, h);
    CHECK(rig2d::detail::alpha_mass_within(mesh, im) == expected);
    passed += expected;
  }
  CHECK(passed > 60);  // both answers are exercised
  CHECK(passed < 240);
}

TEST_CASE("simplify: no shortcut passes inside a point on the clip frame", "[geometry][simplify]") {
  // An island whose left side runs down the frame x = 0 between y = 2 and y = 8, leaving it at a
  // shallow angle (within the tolerance): plain Douglas-Peucker cuts the corner at (0, 8).
  const Ring island{{0, 2}, {0, 5}, {0, 8}, {0.6, 10}, {1.2, 12}, {10, 12}, {10, 0}, {2, 0}};
  const auto plain = rig2d::simplify_rings({island}, 1.0);
  const auto framed = rig2d::simplify_rings({island}, 1.0, rig2d::ClipFrame{20, 20});
  REQUIRE(plain.size() == 1);
  REQUIRE(framed.size() == 1);
  auto keeps = [](const Ring& r, Vec2 p) { return std::find(r.begin(), r.end(), p) != r.end(); };
  CHECK_FALSE(keeps(plain[0], Vec2{0, 8}));
  CHECK(keeps(framed[0], Vec2{0, 8}));
  CHECK(keeps(framed[0], Vec2{0, 2}));
  // Every frame point lies on the simplified ring (on its boundary, not inside the shortcut).
  for (const Vec2& p : island) {
    if (p.x != 0 && p.y != 0) continue;
    bool on = false;
    for (std::size_t i = 0; i < framed[0].size(); ++i) {
      const Vec2 a = framed[0][i], b = framed[0][(i + 1) % framed[0].size()];
      on = on || (rig2d::detail::orient2d(a, b, p) == 0 && std::min(a.x, b.x) <= p.x && p.x <= std::max(a.x, b.x) &&
                  std::min(a.y, b.y) <= p.y && p.y <= std::max(a.y, b.y));
    }
    CHECK(on);
  }
  // A frame with no area is no frame.
  CHECK(rig2d::simplify_rings({island}, 1.0, rig2d::ClipFrame{}) == plain);
}

TEST_CASE("outline mesh: opaque pixels on every image edge keep their whole area", "[geometry][outline][yardstick]") {
  struct Case {
    const char* name;
    Image image;
  };
  const std::vector<Case> cases{
      // A cross whose arms run off all four edges, the right one ending 0.25 px short of it (its
      // border column at alpha 191), antialiased.
      {"cross", rig2d::test::make_sprite(48, 40, [](double x, double y) {
         return (std::fabs(y - 20) <= 5 && x <= 47.75) || std::fabs(x - 24) <= 4;
       })},
      // A body cropped on the left, top and bottom with a thin limb leaving through the right edge
      // at a slant.
      {"cropped limb", rig2d::test::make_sprite(60, 36, [](double x, double y) {
         const double t = std::clamp((x - 20) / 40, 0.0, 1.0);
         const double limb_y = 18 + 10 * t;
         return std::hypot(x - 6, y - 18) <= 24 || (x >= 20 && std::fabs(y - limb_y) <= 1.6);
       })},
      // Hard-edged pixel art filling the four corners, a notch in each side.
      {"corners", rig2d::test::make_sprite(20, 16, [](double x, double y) {
         return !(std::fabs(x - 10) < 3 && (y < 2 || y > 14)) && !(std::fabs(y - 8) < 2 && (x < 2 || x > 18));
       }, false)},
  };
  for (const Case& c : cases) {
    for (double margin_tolerance : {0.75, 1.0, 3.0}) {
      for (double tolerance : {margin_tolerance, 2 * margin_tolerance + 0.5}) {
        INFO(c.name << ", margin " << margin_tolerance << ", tolerance " << tolerance);
        OutlineMeshOptions opt;
        opt.margin = margin_tolerance;
        opt.tolerance = tolerance;
        OutlineMeshStats st;
        const auto mesh = rig2d::outline_mesh(c.image, opt, &st);
        REQUIRE(mesh);
        for (const Vec2& uv : mesh->uvs) {
          CHECK(uv.x >= 0.0);
          CHECK(uv.x <= 1.0);
          CHECK(uv.y >= 0.0);
          CHECK(uv.y <= 1.0);
        }
        // Whatever the tolerance: the outline stays on the border where the art meets it.
        const BorderPixels b = border_pixels(c.image, *mesh, opt.alpha_threshold);
        CHECK(b.count > 0);
        CHECK(b.least_inside == Approx(1.0).margin(1e-9));
        if (tolerance <= margin_tolerance) {
          CHECK(st.yardstick.opaque_outside == 0);
          CHECK(st.yardstick.alpha_mass_inside >= rig2d::kYardstickMinAlphaMass);
          CHECK(st.coverage.recall == 1.0);
        }
      }
    }
  }
}

TEST_CASE("outline yardstick: default outline meshes meet it", "[geometry][outline][yardstick]") {
  struct Case {
    const char* name;
    Image image;
  };
  auto near_segment = [](double x, double y, Vec2 a, Vec2 b, double r) {
    const double dx = b.x - a.x, dy = b.y - a.y;
    const double t = std::clamp(((x - a.x) * dx + (y - a.y) * dy) / (dx * dx + dy * dy), 0.0, 1.0);
    return std::hypot(x - a.x - t * dx, y - a.y - t * dy) <= r;
  };
  std::vector<Case> cases{
      {"antialiased disk", rig2d::test::make_sprite(96, 96, [](double x, double y) { return std::hypot(x - 48, y - 48) <= 40; })},
      {"ring with a hole", rig2d::test::make_sprite(128, 128, [](double x, double y) {
         const double d = std::hypot(x - 64, y - 64);
         return d <= 58 && d >= 28;
       })},
      {"thin limbs", rig2d::test::make_sprite(120, 100, [&](double x, double y) {
         return std::hypot(x - 60, y - 30) <= 14 || near_segment(x, y, {60, 40}, {20, 95}, 1.2) ||
                near_segment(x, y, {60, 40}, {100, 92}, 2.0) || near_segment(x, y, {50, 30}, {8, 8}, 0.9);
       })},
      {"small hand", rig2d::test::make_sprite(17, 15, [](double x, double y) {
         return std::hypot((x - 8.5) / 9, (y - 7.5) / 8) <= 1;  // cropped by all four edges
       })},
      {"figure with holes and an island", rig2d::test::make_sprite(96, 128, [](double x, double y) {
         const bool body = std::hypot(x - 48, y - 40) <= 30 || (x >= 30 && x <= 66 && y >= 60 && y <= 120);
         const bool holes = std::hypot(x - 40, y - 36) <= 5 || std::hypot(x - 58, y - 90) <= 7;
         return (body && !holes) || std::hypot(x - 86, y - 110) <= 6;
       })},
  };
  for (const Case& c : cases) {
    INFO(c.name);
    OutlineMeshStats st;
    const auto mesh = rig2d::outline_mesh(c.image, {}, &st);
    REQUIRE(mesh);
    const rig2d::OutlineYardstick& y = st.yardstick;
    INFO("mass " << y.alpha_mass_inside << ", opaque outside " << y.opaque_outside << ", border "
                 << y.border_per_outline_px << " (" << y.transparent_inside << " px over " << y.outline_length << " px)");
    CHECK(y.alpha_mass_inside >= rig2d::kYardstickMinAlphaMass);
    CHECK(y.opaque_outside == 0);
    CHECK(y.border_per_outline_px <= rig2d::kYardstickMaxBorder);
    CHECK(y.border_per_outline_px > 0.3);  // the margin is there
    CHECK(rig2d::passes(y));
    // The stats hold the same figures as a direct call.
    const rig2d::OutlineYardstick direct = rig2d::outline_yardstick(*mesh, c.image, OutlineMeshOptions{}.alpha_threshold);
    CHECK(direct.alpha_mass_inside == y.alpha_mass_inside);
    CHECK(direct.transparent_inside == y.transparent_inside);
  }
  // Holes stay open: the centre pixel of each hole is not in the mesh.
  const auto holes = rig2d::outline_mesh(cases[4].image);
  REQUIRE(holes);
  const auto area = rig2d::mesh_pixel_area(*holes, 96, 128);
  CHECK(at(area, 96, 40, 36) == 0.0);
  CHECK(at(area, 96, 58, 90) == 0.0);
  CHECK(at(area, 96, 48, 20) == 1.0);
}

// A hull search's candidate meshed as mesh_outline meshes it (no point added), in image px.
Mesh yardstick_hull_mesh(const Image& im, const std::vector<Ring>& rings) {
  OutlineMeshOptions o;
  o.min_angle_deg = 0;
  o.max_edge = 0;
  o.pivot_x = o.pivot_y = 0;
  OutlineMeshStats st;
  auto mesh = rig2d::detail::mesh_outline(im, rig2d::detail::TracedOutline{}, rings, o, st, false);
  REQUIRE(mesh);
  return *mesh;
}

TEST_CASE("HullYardstick: the rings of convex candidates settle only what every mesh of them passes or fails", "[geometry][yardstick]") {
  using rig2d::detail::HullVerdict;
  // Hand-computed: a 2 x 2 opaque block in a 4 x 4 sprite. Its own square keeps everything with no
  // border; the whole sprite has 12 transparent centres over an outline of 9.43 px (1.27 px per px).
  const Image block = rig2d::test::make_sprite(4, 4, [](double x, double y) { return x >= 1 && x < 3 && y >= 1 && y < 3; }, false);
  const double outline = rig2d::alpha_outline_length(block, 8);
  const Ring own{{1, 1}, {1, 3}, {3, 3}, {3, 1}}, whole{{0, 0}, {0, 4}, {4, 4}, {4, 0}};
  const Ring cut{{1, 1}, {1, 3}, {2.8, 3}, {2.8, 1}};  // loses mass: never sure
  const Ring bent{{0, 0}, {0, 4}, {2, 2}, {4, 4}, {4, 0}};  // not convex: never sure
  const Ring out{{-1, 0}, {0, 4}, {4, 4}, {4, 0}};  // off the frame: never sure
  rig2d::detail::HullYardstick at_1(block, 8, outline, 1.0), at_1_3(block, 8, outline, 1.3);
  CHECK(at_1.surely_within({own}));
  CHECK_FALSE(at_1.surely_within({whole}));
  CHECK(at_1_3.surely_within({whole}));
  for (const Ring& r : {cut, bent, out}) CHECK_FALSE(at_1_3.surely_within({r}));
  CHECK_FALSE(at_1_3.surely_within({own, whole}));  // rings whose boxes meet
  // The whole sprite covers its 12 transparent centres, 4 of them on its diagonals, where the two
  // triangles of one may round apart: at least 8 covered, 0.85 px per px of outline.
  rig2d::detail::HullYardstick at_0_8(block, 8, outline, 0.8);
  CHECK(at_1.judge({own}) == HullVerdict::Within);
  CHECK(at_1.judge({whole}) == HullVerdict::Unsure);
  CHECK(at_0_8.judge({whole}) == HullVerdict::Beyond);
  CHECK(at_0_8.judge({bent}) == HullVerdict::Unsure);  // not convex: never sure
  // Inside `whole` lie 12 transparent centres, 1.27 px per px of outline: over 1.5 x 0.8, not over
  // 2 x 0.8 or 1.5 x 1.0. A ring whose box meets a larger one's is left out, and so is one off the frame.
  CHECK(at_0_8.surely_beyond_inside({whole}, 1.5));
  CHECK_FALSE(at_0_8.surely_beyond_inside({whole}, 2));
  CHECK_FALSE(at_1.surely_beyond_inside({whole}, 1.5));
  CHECK(at_0_8.surely_beyond_inside({own, whole}, 1.5));
  CHECK_FALSE(at_0_8.surely_beyond_inside({own}, 0.01));  // no transparent centre
  CHECK_FALSE(at_0_8.surely_beyond_inside({out}, 0.01));

  // Random soft discs (one or two, opaque cores with holes of clear pixels) under their traced
  // islands' hulls cut to any number of corners, and under convex polygons whose corners sit on
  // pixel centres (diagonals through centres): whenever the rings say sure, the mesh passes too, and
  // the rings settle most of what passes.
  std::uint32_t state = 777;
  auto next = [&] { return state = state * 1664525u + 1013904223u; };
  auto uniform = [&](double lo, double hi) { return lo + (hi - lo) * ((next() >> 8) / 16777216.0); };
  int sure = 0, passes = 0, beyond = 0, fails = 0, inscribed_beyond = 0;
  for (int round = 0; round < 200; ++round) {
    const int w = 8 + static_cast<int>(next() % 80), h = 8 + static_cast<int>(next() % 80);
    const int discs = 1 + static_cast<int>(next() % 2);
    double cx[2], cy[2], r[2];
    for (int d = 0; d < discs; ++d) {
      r[d] = uniform(2, 0.25 * std::min(w, h));
      cx[d] = uniform(r[d] + 1, w - r[d] - 1);
      cy[d] = uniform(r[d] + 1, h - r[d] - 1);
    }
    Image im{w, h, std::vector<std::uint8_t>(static_cast<std::size_t>(w) * static_cast<std::size_t>(h) * 4, 0)};
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x) {
        double d = HUGE_VAL;
        for (int k = 0; k < discs; ++k) d = std::min(d, std::hypot(x + 0.5 - cx[k], y + 0.5 - cy[k]) - r[k]);
        const int a = d < -1 ? (next() % 13 == 0 ? 0 : 255) : d > 1 ? 0 : static_cast<int>(127.5 * (1 - d));
        im.rgba[4 * (static_cast<std::size_t>(y) * static_cast<std::size_t>(w) + static_cast<std::size_t>(x)) + 3] =
            static_cast<std::uint8_t>(a);
      }
    const double length = rig2d::alpha_outline_length(im, 8);
    OutlineMeshOptions o;
    o.margin = uniform(0, 1.5);
    OutlineMeshStats st;
    auto traced = rig2d::detail::trace_outline(im, o, st);
    REQUIRE(traced);
    std::vector<std::vector<Ring>> candidates;
    for (const std::size_t corners : {3u, 4u, 5u, 7u, 10u, 40u})
      candidates.push_back(rig2d::island_hulls(traced->rings, corners, rig2d::ClipFrame{double(w), double(h)}));
    std::vector<Vec2> around;  // a polygon on pixel centres around the first disc
    const int corners = 3 + static_cast<int>(next() % 9);
    const double grow = uniform(0, 3) + r[0] / std::cos(3.141592653589793 / corners);
    for (int k = 0; k < corners; ++k) {
      const double t = 2 * 3.141592653589793 * k / corners;
      around.push_back({std::clamp(std::floor(cx[0] + grow * std::cos(t)), 0.0, w - 1.0) + 0.5,
                        std::clamp(std::floor(cy[0] + grow * std::sin(t)), 0.0, h - 1.0) + 0.5});
    }
    const std::size_t hull_candidates = candidates.size();
    candidates.push_back({around});
    // Each island's inscribed polygon is made of its own points and lies in its hull.
    const std::vector<Ring> inscribed = rig2d::detail::inscribed_island_hulls(traced->rings);
    const std::vector<Ring> uncut = rig2d::detail::uncut_island_hulls(traced->rings);
    for (const Ring& poly : inscribed) {
      CHECK(poly.size() >= 3);
      for (const Vec2& p : poly)
        CHECK(std::any_of(uncut.begin(), uncut.end(), [&](const Ring& hull) {
          for (std::size_t k = 0; k < hull.size(); ++k)
            if (rig2d::detail::orient2d(hull[k], hull[(k + 1) % hull.size()], p) > 0) return false;
          return true;  // on the inner side of every edge (hulls are wound as islands)
        }));
    }
    for (const double border : {0.5, 1.0, 2.0, 4.0}) {
      rig2d::detail::HullYardstick yardstick(im, 8, length, border);
      // When the inscribed polygons are over 1.5 borders, every hull of the islands fails.
      const bool surely_beyond = yardstick.surely_beyond_inside(inscribed, 1.5);
      inscribed_beyond += surely_beyond;
      for (std::size_t c = 0; c < hull_candidates && surely_beyond; ++c)
        CHECK_FALSE(rig2d::detail::yardstick_within(yardstick_hull_mesh(im, candidates[c]), im, 8, length, border));
      for (const auto& rings : candidates) {
        const Mesh mesh = yardstick_hull_mesh(im, rings);
        const bool pass = rig2d::detail::yardstick_within(mesh, im, 8, length, border);
        const HullVerdict verdict = yardstick.judge(rings);
        CAPTURE(round, border, rings.size(), rings.empty() ? 0 : rings[0].size());
        // The full yardstick's answer (its border counted over the whole image at once; yardstick_within
        // counts a band of rows at a time and stops once over).
        const auto full = rig2d::outline_yardstick(mesh, im, 8);
        CHECK(pass == (full.alpha_mass_inside >= rig2d::kYardstickMinAlphaMass && full.opaque_outside == 0 &&
                       full.border_per_outline_px <= border));
        if (verdict == HullVerdict::Within) CHECK(pass);
        if (verdict == HullVerdict::Beyond) CHECK_FALSE(pass);
        sure += verdict == HullVerdict::Within;
        beyond += verdict == HullVerdict::Beyond;
        passes += pass;
        fails += !pass;
      }
    }
  }
  CHECK(passes > 1000);
  CHECK(sure > passes / 2);
  CHECK(fails > 500);
  CHECK(beyond > fails / 2);
  CHECK(inscribed_beyond > 150);
}
