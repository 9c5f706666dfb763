// SPDX-License-Identifier: Apache-2.0
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <vector>

#include "masks.h"
#include "mesh_checks.h"
#include "rig2d/geometry/contour.h"
#include "rig2d/geometry/outline_mesh.h"
#include "rig2d/geometry/simplify.h"
#include "rig2d/autorig/autorig.h"
#include "support/test_math.h"

using rig2d::Image;
using rig2d::Mesh;
using rig2d::OutlineMeshOptions;
using rig2d::OutlineMeshStats;
using rig2d::Ring;
using rig2d::Vec2;

namespace {

std::vector<Vec2> pixel_positions(const Mesh& m, const Image& im) {
  std::vector<Vec2> p;
  for (const Vec2& uv : m.uvs) p.push_back({uv.x * im.width, uv.y * im.height});
  return p;
}

bool covered(const Image& im, int x, int y, int threshold) {
  return x >= 0 && y >= 0 && x < im.width && y < im.height &&
         im.rgba[4 * (static_cast<std::size_t>(y) * static_cast<std::size_t>(im.width) + static_cast<std::size_t>(x)) + 3] > threshold;
}

// Distance from p to the nearest covered pixel centre (searched within `reach`; beyond = reach + 1).
double distance_to_mask(const Image& im, Vec2 p, int threshold, double reach) {
  double best = reach + 1;
  const int r = static_cast<int>(std::ceil(reach)) + 1;
  const int cx = static_cast<int>(std::floor(p.x)), cy = static_cast<int>(std::floor(p.y));
  for (int y = cy - r; y <= cy + r; ++y)
    for (int x = cx - r; x <= cx + r; ++x)
      if (covered(im, x, y, threshold)) best = std::min(best, std::hypot(p.x - (x + 0.5), p.y - (y + 0.5)));
  return best;
}

double interior_angle_deg(Vec2 prev, Vec2 at, Vec2 next) {
  const double a1 = std::atan2(prev.y - at.y, prev.x - at.x), a2 = std::atan2(next.y - at.y, next.x - at.x);
  double d = std::fabs(a1 - a2) * 180 / kPi;
  if (d > 180) d = 360 - d;
  return d;
}

double point_segment(Vec2 p, Vec2 a, Vec2 b) {
  const double dx = b.x - a.x, dy = b.y - a.y, len2 = dx * dx + dy * dy;
  const double t = len2 > 0 ? std::clamp(((p.x - a.x) * dx + (p.y - a.y) * dy) / len2, 0.0, 1.0) : 0.0;
  return std::hypot(p.x - (a.x + t * dx), p.y - (a.y + t * dy));
}

}  // namespace

TEST_CASE("outline mesh: properties over masks made in code", "[geometry][outline]") {
  const OutlineMeshOptions opt;  // defaults
  for (const auto& sprite : rig2d::test::property_sprites()) {
    INFO("sprite " << sprite.name);
    const Image& im = sprite.image;
    OutlineMeshStats st;
    const auto mesh = rig2d::outline_mesh(im, opt, &st);
    REQUIRE(mesh);
    REQUIRE(mesh->verts.size() == mesh->uvs.size());
    REQUIRE_FALSE(mesh->tris.empty());
    const std::vector<Vec2> px = pixel_positions(*mesh, im);

    // Valid: strictly CCW (+y down), no duplicate vertex, edge-manifold, no fold; in texture space and
    // in pixel space alike.
    CHECK(rig2d::test::check_triangulation(mesh->verts, mesh->tris) == "");
    CHECK(rig2d::test::check_triangulation(px, mesh->tris) == "");

    // Texture-space convention of the engine grid, and uvs within the sprite.
    for (std::size_t v = 0; v < px.size(); ++v) {
      CHECK(mesh->uvs[v].x >= 0.0);
      CHECK(mesh->uvs[v].x <= 1.0);
      CHECK(mesh->uvs[v].y >= 0.0);
      CHECK(mesh->uvs[v].y <= 1.0);
      CHECK(mesh->verts[v].x == (mesh->uvs[v].x - 0.5) * im.width);
      CHECK(mesh->verts[v].y == (mesh->uvs[v].y - 0.5) * im.height);
    }

    // Inside the dilated mask: every vertex, edge midpoint and centroid lies within margin + tolerance
    // + 1 px (the iso-contour lies less than a pixel beyond the covered centres) of a covered centre.
    const double reach = opt.margin + opt.tolerance + 1.0;
    double worst = 0;
    for (std::size_t t = 0; t < mesh->tris.size(); t += 3) {
      const Vec2 a = px[mesh->tris[t]], b = px[mesh->tris[t + 1]], c = px[mesh->tris[t + 2]];
      for (const Vec2 p : {a, b, c, Vec2{(a.x + b.x) / 2, (a.y + b.y) / 2}, Vec2{(b.x + c.x) / 2, (b.y + c.y) / 2},
                           Vec2{(a.x + c.x) / 2, (a.y + c.y) / 2}, Vec2{(a.x + b.x + c.x) / 3, (a.y + b.y + c.y) / 3}})
        worst = std::max(worst, distance_to_mask(im, p, opt.alpha_threshold, reach));
    }
    CHECK(worst <= reach);

    // Nothing covered is clipped (tolerance <= margin), and the area stays within the stated bound:
    // N - E/2 <= area <= N + E * (margin + tolerance + 1), N covered pixels, E their boundary length.
    CHECK(st.coverage.recall == 1.0);
    std::size_t n = 0, e = 0;
    for (int y = 0; y < im.height; ++y)
      for (int x = 0; x < im.width; ++x) {
        if (!covered(im, x, y, opt.alpha_threshold)) continue;
        ++n;
        e += !covered(im, x - 1, y, opt.alpha_threshold) + !covered(im, x + 1, y, opt.alpha_threshold) +
             !covered(im, x, y - 1, opt.alpha_threshold) + !covered(im, x, y + 1, opt.alpha_threshold);
      }
    const double area = rig2d::test::earcut_triangles_area(px, mesh->tris) / 2;
    CHECK(area >= static_cast<double>(n) - static_cast<double>(e) / 2);
    CHECK(area <= static_cast<double>(n) + static_cast<double>(e) * reach);

    // No overlap: sample points (offset off the lattice so none sits on an edge) lie in at most one
    // triangle.
    std::size_t double_covered = 0;
    for (double y = 0.137; y < im.height; y += 0.5)
      for (double x = 0.291; x < im.width; x += 0.5) {
        int count = 0;
        for (std::size_t t = 0; t < mesh->tris.size(); t += 3) {
          const Vec2 a = px[mesh->tris[t]], b = px[mesh->tris[t + 1]], c = px[mesh->tris[t + 2]];
          const Vec2 p{x, y};
          if (rig2d::detail::orient2d(a, b, p) < 0 && rig2d::detail::orient2d(b, c, p) < 0 &&
              rig2d::detail::orient2d(c, a, p) < 0)
            ++count;
        }
        double_covered += count > 1;
      }
    CHECK(double_covered == 0);

    // Minimum angle: met everywhere except next to an outline corner sharper than 60 degrees, where
    // the polygon's own angle forbids it.
    auto traced = rig2d::trace_alpha_contours(im, {opt.alpha_threshold, opt.margin});
    REQUIRE(traced);
    const std::vector<Ring> rings =
        rig2d::simplify_rings(rig2d::drop_small_rings(*traced, opt.min_area), opt.tolerance,
                              rig2d::ClipFrame{static_cast<double>(im.width), static_cast<double>(im.height)});
    std::vector<std::pair<Vec2, Vec2>> sharp_sides;  // the two sides of each sharp corner
    for (const Ring& r : rings)
      for (std::size_t k = 0; k < r.size(); ++k) {
        const Vec2 prev = r[(k + r.size() - 1) % r.size()], at = r[k], next = r[(k + 1) % r.size()];
        if (interior_angle_deg(prev, at, next) < 60) {
          sharp_sides.push_back({at, prev});
          sharp_sides.push_back({at, next});
        }
      }
    std::size_t skinny = 0, unexplained = 0;
    for (std::size_t t = 0; t < mesh->tris.size(); t += 3) {
      const Vec2 a = px[mesh->tris[t]], b = px[mesh->tris[t + 1]], c = px[mesh->tris[t + 2]];
      if (rig2d::triangle_min_angle_deg(a, b, c) >= opt.min_angle_deg - 1e-6) continue;
      ++skinny;
      bool near_sharp = false;
      for (const Vec2 v : {a, b, c})
        for (const auto& [p, q] : sharp_sides) near_sharp = near_sharp || point_segment(v, p, q) < 1e-6;
      unexplained += !near_sharp;
    }
    CHECK(skinny == st.skinny_triangles);
    CHECK(unexplained == 0);
    CHECK_FALSE(st.budget_reached);

    // Deterministic.
    const auto again = rig2d::outline_mesh(im, opt);
    REQUIRE(again);
    CHECK(again->verts == mesh->verts);
    CHECK(again->uvs == mesh->uvs);
    CHECK(again->tris == mesh->tris);
  }
}

TEST_CASE("outline mesh: the all-opaque sprite is its rectangle, the 1x1 sprite two triangles", "[geometry][outline]") {
  OutlineMeshOptions opt;
  opt.max_edge = 0;
  const Image one = rig2d::test::make_sprite(1, 1, [](double, double) { return true; }, false);
  OutlineMeshStats st;
  const auto m = rig2d::outline_mesh(one, opt, &st);
  REQUIRE(m);
  CHECK(m->verts.size() == 4);
  CHECK(m->tris.size() == 6);
  CHECK(st.coverage.iou == 1.0);
  const Image bar = rig2d::test::make_sprite(64, 256, [](double, double) { return true; }, false);
  const auto b = rig2d::outline_mesh(bar, opt, &st);
  REQUIRE(b);
  CHECK(st.simplified_points == 4);  // the four image corners, restored after marching squares
  CHECK(st.coverage.iou == 1.0);
  CHECK(rig2d::test::earcut_triangles_area(b->verts, b->tris) / 2 == 64.0 * 256.0);
  for (const Vec2& v : b->verts) {
    CHECK(std::fabs(v.x) <= 32.0);
    CHECK(std::fabs(v.y) <= 128.0);
  }
}

TEST_CASE("outline mesh: pivot, margin and budget options", "[geometry][outline]") {
  const Image disk = rig2d::test::make_sprite(64, 64, [](double x, double y) { return std::hypot(x - 32, y - 32) <= 24; });
  OutlineMeshOptions opt;
  opt.pivot_x = 0;
  opt.pivot_y = 1;
  const auto m = rig2d::outline_mesh(disk, opt);
  REQUIRE(m);
  for (std::size_t v = 0; v < m->verts.size(); ++v) {
    CHECK(m->verts[v].x == (m->uvs[v].x - 0) * 64);
    CHECK(m->verts[v].y == (m->uvs[v].y - 1) * 64);
  }
  // A larger margin grows the mesh by about 2 pi r dm.
  OutlineMeshOptions small, large;
  small.margin = 0.5;
  small.tolerance = 0.25;
  large.margin = 3.5;
  large.tolerance = 0.25;
  const auto ms = rig2d::outline_mesh(disk, small), ml = rig2d::outline_mesh(disk, large);
  REQUIRE(ms);
  REQUIRE(ml);
  const double as = rig2d::test::earcut_triangles_area(ms->verts, ms->tris) / 2;
  const double al = rig2d::test::earcut_triangles_area(ml->verts, ml->tris) / 2;
  const double r = 24.5;  // radius of the threshold contour (the AA edge sits at 24)
  CHECK(as == Approx(kPi * (r + 0.5) * (r + 0.5)).epsilon(0.02));
  CHECK(al == Approx(kPi * (r + 3.5) * (r + 3.5)).epsilon(0.02));
  // The vertex budget caps refinement.
  OutlineMeshOptions capped;
  capped.max_vertices = 20;
  capped.max_edge = 4;
  OutlineMeshStats st;
  const auto mc = rig2d::outline_mesh(disk, capped, &st);
  REQUIRE(mc);
  CHECK(st.budget_reached);
  CHECK(mc->verts.size() <= 20);
  CHECK(rig2d::test::check_triangulation(mc->verts, mc->tris) == "");
}

TEST_CASE("outline mesh: bad input", "[geometry][outline]") {
  Image empty;
  auto e = rig2d::outline_mesh(empty);
  REQUIRE_FALSE(e);
  CHECK(e.error().code == "contour.image");
  const Image clear = rig2d::test::make_sprite(16, 16, [](double, double) { return false; });
  auto c = rig2d::outline_mesh(clear);
  REQUIRE_FALSE(c);
  CHECK(c.error().code == "outline.empty");
  const Image disk = rig2d::test::make_sprite(16, 16, [](double x, double y) { return std::hypot(x - 8, y - 8) < 5; });
  for (auto set : std::vector<void (*)(OutlineMeshOptions&)>{
           [](OutlineMeshOptions& o) { o.margin = -1; }, [](OutlineMeshOptions& o) { o.margin = std::nan(""); },
           [](OutlineMeshOptions& o) { o.tolerance = 100; }, [](OutlineMeshOptions& o) { o.min_angle_deg = 40; },
           [](OutlineMeshOptions& o) { o.max_vertices = 2; }, [](OutlineMeshOptions& o) { o.alpha_threshold = 255; },
           [](OutlineMeshOptions& o) { o.pivot_x = 2; }, [](OutlineMeshOptions& o) { o.max_edge = -3; }}) {
    OutlineMeshOptions o;
    set(o);
    auto r = rig2d::outline_mesh(disk, o);
    REQUIRE_FALSE(r);
    CHECK(r.error().code == "outline.options");
  }
}

TEST_CASE("outline mesh: autorig_image with MeshMode::Outline", "[geometry][outline][pipeline]") {
  const Image figure = rig2d::test::make_sprite(96, 160, [](double x, double y) {
    return std::hypot(x - 48, y - 28) <= 20 || (x >= 24 && x <= 72 && y >= 44 && y <= 100) ||
           (x >= 24 && x <= 42 && y >= 96 && y <= 156) || (x >= 54 && x <= 72 && y >= 96 && y <= 156);
  });
  rig2d::AutorigOptions o;
  o.mesh = rig2d::MeshMode::Outline;
  o.pivot_y = 1.0;  // feet
  o.outline.margin = 0.5;
  o.outline.tolerance = 0.5;
  o.outline.max_edge = 16;  // under half the chain's 80 px bone spacing, so the bones do not lower it
  rig2d::AutorigStats st;
  auto rig = rig2d::autorig_image(figure, o, &st);
  REQUIRE(rig);
  CHECK(rig2d::verify_rig(*rig).has_value());
  // The rig's mesh is the outline mesh with the rig's threshold and pivot.
  OutlineMeshOptions m = o.outline;
  m.pivot_y = 1.0;
  const auto direct = rig2d::outline_mesh(figure, m);
  REQUIRE(direct);
  const Mesh& mesh = rig->parts[0].mesh;
  CHECK(mesh.verts == direct->verts);
  CHECK(mesh.tris == direct->tris);
  CHECK(st.vertices == mesh.verts.size());
  CHECK(st.outline.vertices == mesh.verts.size());
  CHECK(st.outline.coverage.recall == 1.0);
  CHECK(st.coverage.iou == st.outline.coverage.iou);  // the mode-independent score is the outline's
  CHECK(rig->parts[0].skin_weights.size() == 4 * mesh.verts.size());
  // Out-of-range outline options are autorig.options errors before any work.
  o.outline.min_angle_deg = 50;
  auto bad = rig2d::autorig_image(figure, o);
  REQUIRE_FALSE(bad);
  CHECK(bad.error().code == "autorig.options");
  CHECK(rig2d::parse_mesh_mode("outline") == rig2d::MeshMode::Outline);
  CHECK(rig2d::mesh_mode_name(rig2d::MeshMode::Outline) == "outline");
}
