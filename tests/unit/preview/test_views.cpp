// SPDX-License-Identifier: Apache-2.0
// The 2.5D views (ENGINE-SPEC §3.8): the billboard anchor vectors, feet on the ground line under a
// level camera for any pose, the centre anchor, facing, and the ground view seen from straight
// above being the flat view turned by the heading.
#include <catch2/catch.hpp>
#include <cmath>
#include <memory>

#include "rig2d/image/png.h"
#include "rig2d/preview/pose.h"
#include "rig2d/preview/views.h"
#include "support/test_math.h"

using namespace rig2d;

namespace {

// A 64 x 256 bar, y -128..128, 2 x 8 cells: base (bottom quarter) -> mid -> tip.
Rig views_bar_rig() {
  Rig rig;
  rig.bones = {{"base", -1, 0, 64, 0}, {"mid", 0, 0, -64, 0}, {"tip", 1, 0, -64, 0}};
  Part part;
  const int cols = 2, rows = 8;
  for (int r = 0; r <= rows; ++r) {
    for (int c = 0; c <= cols; ++c) {
      const Vec2 p{-32.0f + 64.0f * c / cols, -128.0f + 256.0f * r / rows};
      part.mesh.verts.push_back(p);
      part.mesh.uvs.push_back({float(c) / cols, float(r) / rows});
      const std::uint32_t bone = p.y >= 0 ? 0u : p.y >= -64 ? 1u : 2u;
      part.skin_indices.insert(part.skin_indices.end(), {bone, 0, 0, 0});
      part.skin_weights.insert(part.skin_weights.end(), {1, 0, 0, 0});
    }
  }
  for (int r = 0; r < rows; ++r) {
    for (int c = 0; c < cols; ++c) {
      const auto a = static_cast<std::uint32_t>(r * (cols + 1) + c);
      const std::uint32_t b = a + 1, d = a + cols + 1, e = d + 1;
      part.mesh.tris.insert(part.mesh.tris.end(), {a, d, e, a, e, b});
    }
  }
  rig.parts = {part};
  return rig;
}

std::vector<PartTexture> white_texture() {
  Image img{2, 2, std::vector<std::uint8_t>(16, 255)};
  return {{std::make_shared<const Texture>(make_texture(img)), std::nullopt}};
}

// Poses that bend, turn, lift and drop the bar (bone rotations in radians, root moves in px).
std::vector<RigPose> test_poses(const Rig& rig) {
  std::vector<RigPose> poses;
  for (int k = 0; k < 6; ++k) {
    RigPose p = bind_pose(rig);
    p.bones[1].rot = 0.4 * k - 1.0;
    p.bones[2].rot = -0.3 * k;
    p.bones[0].y += 12.0 * (k - 3);  // k < 3 lifts the bar off the ground, k > 3 sinks it
    p.bones[0].rot = 0.05 * k;
    poses.push_back(p);
  }
  return poses;
}

SceneViewOptions level_billboard(double yaw, bool ortho) {
  SceneViewOptions o;
  o.kind = ViewKind::Billboard;
  o.camera.pitch = 0;
  o.camera.yaw = yaw;
  o.camera.orthographic = ortho;
  return o;
}

// Output image of the rig seen through `o`, framed on the bind pose, with or without the grid.
Image render_scene(const Rig& rig, const RigPose& pose, const SceneViewOptions& o, View* view_out = nullptr) {
  const SceneProjector projector(rig, pose.sprite, o);
  Bounds b;
  add_scene_bounds(b, rig, skin_rig(rig, bind_pose(rig)), projector);
  FramingOptions f;
  auto view = frame_view(b, f);
  REQUIRE(view);
  RenderOptions opt;
  opt.view = *view;
  opt.background = {0, 0, 0, 1};
  apply_scene_view(opt, projector, o.grid);
  auto img = render_pose(rig, white_texture(), pose, skin_rig(rig, pose), opt);
  REQUIRE(img);
  if (view_out) *view_out = *view;
  return std::move(*img);
}

int lowest_ink_row(const Image& img) {
  for (int y = img.height - 1; y >= 0; --y) {
    for (int x = 0; x < img.width; ++x) {
      if (img.rgba[4 * (static_cast<std::size_t>(y) * static_cast<std::size_t>(img.width) + static_cast<std::size_t>(x))] > 128) return y;
    }
  }
  return -1;
}

}  // namespace

TEST_CASE("views: billboard anchor vectors of ENGINE-SPEC 3.8", "[preview][views]") {
  CHECK(billboard_anchor_y(0, 200, 100, false, BillboardAnchor::Bottom) == Approx(2));
  CHECK(billboard_anchor_y(0, 200, 100, false, BillboardAnchor::Center) == Approx(1));
  CHECK(billboard_anchor_y(-128, 128, 100, false, BillboardAnchor::Bottom) == Approx(1.28));
  CHECK(billboard_anchor_y(-128, 128, 100, true, BillboardAnchor::Bottom) == Approx(1.28));
  CHECK(billboard_anchor_y(0, 200, 0, false, BillboardAnchor::Bottom) == Approx(2));  // ppu 0 = 100
  CHECK(billboard_anchor_y(0, 200, 200, false, BillboardAnchor::Bottom) == Approx(1));
}

TEST_CASE("views: level camera, bottom anchor: the lowest bind vertex is on the ground line for any pose",
          "[preview][views]") {
  const Rig rig = views_bar_rig();
  const Vec2 lowest{-32, 128};  // a vertex at the bind extent's max y
  for (const bool ortho : {false, true}) {
    for (const double yaw : {0.0, 0.6, -2.0}) {
      const SceneViewOptions o = level_billboard(yaw, ortho);
      for (const RigPose& pose : test_poses(rig)) {
        // The placement depends on the bind extent only, never on the pose.
        const SceneProjector projector(rig, pose.sprite, o);
        CHECK(projector.anchor_y() == Approx(1.28));
        const float ground = projector.ground_origin().y;
        CHECK(std::abs(projector.rig_point(lowest).y - ground) < 1e-3);
        // A posed vertex sits exactly as far above the ground line as the pose lifted it: the foot
        // leaves the ground when the bar is lifted and sinks when it is dropped. The sprite plane
        // faces the level camera through the target, so perspective draws it at 1 px per rig px too.
        const std::vector<Vec2> posed = skin_rig(rig, pose)[0];
        const double expected = ground - (128 - posed[24].y);  // vertex 24 = (-32, 128) at bind
        CHECK(std::abs(projector.rig_point(posed[24]).y - expected) < 1e-2);
      }
    }
  }
  // In pixels: the bind pose's lowest inked row is the ground line's row (within 1 px).
  for (const bool ortho : {false, true}) {
    SceneViewOptions o = level_billboard(0.3, ortho);
    o.grid = false;
    const Rig r = views_bar_rig();
    View view;
    const Image img = render_scene(r, bind_pose(r), o, &view);
    const double ground_row = SceneProjector(r, {}, o).ground_origin().y * view.scale + view.origin_y;
    CHECK(std::abs(lowest_ink_row(img) + 0.5 - ground_row) <= 1.0);
  }
}

TEST_CASE("views: the centre anchor puts the bind extent's midpoint on the ground", "[preview][views]") {
  Rig rig = views_bar_rig();
  for (Vec2& v : rig.parts[0].mesh.verts) v.y += 40;  // bind y -88..168: midpoint 40
  SceneViewOptions o = level_billboard(0, true);
  o.anchor = BillboardAnchor::Center;
  const SceneProjector projector(rig, {}, o);
  CHECK(projector.anchor_y() == Approx(0.4));  // -(yTop + yBot) / 2 = -(0.88 - 1.68) / 2
  const float ground = projector.ground_origin().y;
  CHECK(std::abs(projector.rig_point({0, 40}).y - ground) < 1e-3);
  // The extent's ends are equally far above and below it: 128 px each at 1 px per rig px.
  CHECK(projector.rig_point({0, -88}).y == Approx(ground - 128).margin(1e-2));
  CHECK(projector.rig_point({0, 168}).y == Approx(ground + 128).margin(1e-2));
}

TEST_CASE("views: facing, cylindrical turns about y only, spherical faces the camera", "[preview][views]") {
  const Rig rig = views_bar_rig();
  SceneViewOptions o;
  o.kind = ViewKind::Billboard;
  o.camera.orthographic = true;
  for (const double yaw : {0.0, kPi / 2, 2.5}) {
    // Level: both facings show the sprite as drawn in 2D, whatever the yaw (engine test: a camera at
    // (10, 0, 0) gives the group yaw pi/2).
    for (const BillboardFacing facing : {BillboardFacing::Cylindrical, BillboardFacing::Spherical}) {
      o.facing = facing;
      o.camera.yaw = yaw;
      o.camera.pitch = facing == BillboardFacing::Spherical ? 0.9 : 0;
      const SceneProjector p(rig, {}, o);
      const Vec2 origin = p.rig_point({0, 0});
      for (const Vec2 v : {Vec2{-32, -128}, Vec2{32, 100}, Vec2{10, 5}}) {
        const Vec2 q = p.rig_point(v);
        CHECK(q.x - origin.x == Approx(v.x).margin(1e-3));
        CHECK(q.y - origin.y == Approx(v.y).margin(1e-3));
      }
    }
  }
  // Cylindrical seen from above at 60 degrees: the sprite stays vertical, so its height shrinks by
  // cos(60 degrees) in an orthographic view while its width does not.
  o.facing = BillboardFacing::Cylindrical;
  o.camera.yaw = 0.4;
  o.camera.pitch = kPi / 3;
  const SceneProjector p(rig, {}, o);
  CHECK(p.rig_point({0, 128}).y - p.rig_point({0, -128}).y == Approx(256 * 0.5).margin(1e-2));
  CHECK(p.rig_point({32, 0}).x - p.rig_point({-32, 0}).x == Approx(64).margin(1e-2));
}

TEST_CASE("views: ground seen from straight above is the flat view turned by the heading", "[preview][views]") {
  const Rig rig = views_bar_rig();
  SceneViewOptions o;
  o.kind = ViewKind::Ground;
  o.camera.pitch = kPi / 2;
  o.camera.orthographic = true;
  for (const double heading : {0.0, 0.7, kPi / 2, -2.2}) {
    o.heading = heading;
    const SceneProjector p(rig, {}, o);
    const Vec2 origin = p.rig_point({0, 0});
    const double c = std::cos(heading), s = std::sin(heading);
    for (const Vec2& v : rig.parts[0].mesh.verts) {
      // Turned counter-clockwise on screen (+y down) by the heading, as Three.js's rotation.y is
      // seen from above.
      const Vec2 q = p.rig_point(v);
      CHECK(q.x - origin.x == Approx(c * v.x + s * v.y).margin(1e-3));
      CHECK(q.y - origin.y == Approx(-s * v.x + c * v.y).margin(1e-3));
    }
  }
  // In pixels, heading 0 and 90 degrees: the flat render, and the flat render turned a quarter.
  o.grid = false;
  o.heading = 0;
  const Image flat0 = render_scene(rig, bind_pose(rig), o);
  o.heading = kPi / 2;
  const Image flat90 = render_scene(rig, bind_pose(rig), o);
  REQUIRE(flat0.width > 0);
  // The 64 x 256 bar: upright at heading 0, lying (256 x 64) at 90 degrees.
  auto ink_box = [](const Image& img) {
    int x0 = img.width, y0 = img.height, x1 = -1, y1 = -1;
    for (int y = 0; y < img.height; ++y) {
      for (int x = 0; x < img.width; ++x) {
        if (img.rgba[4 * (static_cast<std::size_t>(y) * static_cast<std::size_t>(img.width) + static_cast<std::size_t>(x))] > 128) {
          x0 = std::min(x0, x), y0 = std::min(y0, y), x1 = std::max(x1, x), y1 = std::max(y1, y);
        }
      }
    }
    return std::array<int, 2>{x1 - x0 + 1, y1 - y0 + 1};
  };
  CHECK(ink_box(flat0) == std::array<int, 2>{64, 256});
  CHECK(ink_box(flat90) == std::array<int, 2>{256, 64});
}

TEST_CASE("views: a behind-the-camera point is NaN, the grid is clipped, output repeats", "[preview][views]") {
  const Rig rig = views_bar_rig();
  SceneViewOptions o = level_billboard(0, false);
  o.camera.distance = 2;
  const SceneProjector p(rig, {}, o);
  const Vec2 behind = p.world_point(0, 0, 50);  // the camera is at z = 2
  CHECK(std::isnan(behind.x));
  for (const Segment& s : p.ground_grid()) {
    CHECK(std::isfinite(s.a.x));
    CHECK(std::isfinite(s.b.y));
  }
  // A huge rig in world units (ppu 0.001) keeps a bounded grid: 64 cells each side, 2 lines per step.
  SceneViewOptions huge = level_billboard(0, true);
  huge.pixels_per_unit = 0.001;
  CHECK(SceneProjector(rig, {}, huge).ground_grid().size() == 2 * (2 * 64 + 1));
  o.camera.pitch = 0.5;
  const auto a = encode_png(render_scene(rig, test_poses(rig)[1], o));
  const auto b = encode_png(render_scene(rig, test_poses(rig)[1], o));
  REQUIRE(a);
  REQUIRE(b);
  CHECK(*a == *b);
}

TEST_CASE("views: parts keep the painter's order by `order` under every camera", "[preview][views]") {
  // Two coplanar, overlapping quads: part 0 (red) has order 1, part 1 (blue) order 0, so red is on
  // top wherever they overlap, as the engine's renderOrder (depth writes off) draws them.
  Rig rig;
  rig.bones = {{"root", -1, 0, 0, 0}};
  auto quad = [](float x0, float y0, float x1, float y1) {
    Part p;
    p.mesh.verts = {{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}};
    p.mesh.uvs = {{0, 0}, {1, 0}, {1, 1}, {0, 1}};
    p.mesh.tris = {0, 1, 2, 0, 2, 3};
    p.skin_indices = std::vector<std::uint32_t>(16, 0);
    p.skin_weights = {1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0};
    return p;
  };
  rig.parts = {quad(-40, -80, 40, 0), quad(-20, -100, 60, -20)};
  rig.parts[0].order = 1;
  rig.parts[1].order = 0;
  auto solid = [](std::uint8_t r, std::uint8_t b) {
    Image img{2, 2, {}};
    for (int i = 0; i < 4; ++i) {
      for (const std::uint8_t c : {r, std::uint8_t{0}, b, std::uint8_t{255}}) img.rgba.push_back(c);  // not insert: GCC 12 false positive
    }
    return PartTexture{std::make_shared<const Texture>(make_texture(img)), std::nullopt};
  };
  const std::vector<PartTexture> textures{solid(255, 0), solid(0, 255)};
  for (const ViewKind kind : {ViewKind::Billboard, ViewKind::Ground}) {
    for (const double pitch : {0.0, 0.6, -0.6, kPi / 2}) {
      for (const double yaw : {0.0, kPi, 2.0}) {
        // Edge-on, the sprite covers no pixel: a standing billboard from straight above, a ground
        // sprite from a level camera.
        if ((kind == ViewKind::Billboard && pitch == kPi / 2) || (kind == ViewKind::Ground && pitch == 0)) continue;
        SceneViewOptions o;
        o.kind = kind;
        o.camera.pitch = pitch;
        o.camera.yaw = yaw;
        o.grid = false;
        const SceneProjector projector(rig, {}, o);
        Bounds b;
        add_scene_bounds(b, rig, skin_rig(rig, bind_pose(rig)), projector);
        auto view = frame_view(b, {});
        REQUIRE(view);
        RenderOptions opt;
        opt.view = *view;
        apply_scene_view(opt, projector, false);
        auto img = render_pose(rig, textures, bind_pose(rig), skin_rig(rig, bind_pose(rig)), opt);
        REQUIRE(img);
        INFO("kind " << int(kind) << " pitch " << pitch << " yaw " << yaw);
        // (10, -40) lies inside both quads.
        const Vec2 q = projector.rig_point({10, -40});
        const int x = static_cast<int>(q.x * view->scale + view->origin_x);
        const int y = static_cast<int>(q.y * view->scale + view->origin_y);
        REQUIRE(x >= 0);
        REQUIRE(y >= 0);
        const std::size_t i = 4 * (static_cast<std::size_t>(y) * static_cast<std::size_t>(img->width) + static_cast<std::size_t>(x));
        CHECK(img->rgba[i] == 255);     // red: part 0, the higher order
        CHECK(img->rgba[i + 2] == 0);
      }
    }
  }
}
