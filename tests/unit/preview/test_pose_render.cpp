// SPDX-License-Identifier: Apache-2.0
// Golden-image tests of render_pose, each against an independent reference: the texture itself
// (bind pose), an inverse-mapped rotation (the 90 degree bend), a mirrored render (flips), the tint
// formula, and hand-computed overlay pixels.
#include <catch2/catch.hpp>
#include <cmath>

#include "rig2d/image/png.h"
#include "rig2d/preview/pose.h"
#include "support/test_math.h"

using namespace rig2d;

namespace {

struct Px {
  int r, g, b, a;
  friend bool operator==(const Px&, const Px&) = default;
};
std::ostream& operator<<(std::ostream& os, const Px& p) {
  return os << "(" << p.r << "," << p.g << "," << p.b << "," << p.a << ")";
}

// push_back, not insert({..}): GCC 12 reports a false -Wstringop-overflow on byte initializer lists.
void push_rgba(Image& img, int r, int g, int b, int a) {
  for (const int c : {r, g, b, a}) img.rgba.push_back(static_cast<std::uint8_t>(c));
}

Px at(const Image& img, int x, int y) {
  const std::size_t i = 4 * (static_cast<std::size_t>(y) * static_cast<std::size_t>(img.width) + static_cast<std::size_t>(x));
  return {img.rgba[i], img.rgba[i + 1], img.rgba[i + 2], img.rgba[i + 3]};
}

// The striped bar: 64 x 256, eight 32 px bands of distinct colours, with x and y folded into the
// channels so any misplaced texel shows.
Image striped_bar() {
  static const std::uint8_t bands[8][3] = {{200, 40, 40},  {240, 240, 240}, {40, 160, 60},  {240, 240, 240},
                                           {40, 80, 200},  {240, 240, 240}, {220, 180, 30}, {240, 240, 240}};
  Image img;
  img.width = 64;
  img.height = 256;
  for (int y = 0; y < 256; ++y) {
    for (int x = 0; x < 64; ++x) {
      const auto* c = bands[y / 32];
      push_rgba(img, c[0] ^ (x & 7), c[1] ^ (y & 15), c[2] ^ ((x >> 3) & 7), 255);
    }
  }
  return img;
}

Image solid(std::uint8_t r, std::uint8_t g, std::uint8_t b, std::uint8_t a = 255) {
  Image img;
  img.width = img.height = 2;
  for (int i = 0; i < 4; ++i) push_rgba(img, r, g, b, a);
  return img;
}

// A (cols x rows) grid part over [x0,x1] x [y0,y1] with 0..1 UVs, every vertex bound to `bone(v)`.
template <typename BoneOf>
Part grid_part(double x0, double y0, double x1, double y1, int cols, int rows, BoneOf bone_of) {
  Part part;
  for (int r = 0; r <= rows; ++r) {
    for (int c = 0; c <= cols; ++c) {
      const Vec2 p{x0 + (x1 - x0) * c / cols, y0 + (y1 - y0) * r / rows};
      part.mesh.verts.push_back(p);
      part.mesh.uvs.push_back({double(c) / cols, double(r) / rows});
      part.skin_indices.insert(part.skin_indices.end(), {bone_of(p), 0, 0, 0});
      part.skin_weights.insert(part.skin_weights.end(), {1, 0, 0, 0});
    }
  }
  for (int r = 0; r < rows; ++r) {
    for (int c = 0; c < cols; ++c) {
      const auto a = static_cast<std::uint32_t>(r * (cols + 1) + c);
      const std::uint32_t b = a + 1, d = a + static_cast<std::uint32_t>(cols) + 1, e = d + 1;
      part.mesh.tris.insert(part.mesh.tris.end(), {a, d, e, a, e, b});
    }
  }
  return part;
}

// base (bottom) -> mid (joint at the centre) -> tip, like the engine's skin-test fixture.
std::vector<Bone> bar_bones() { return {{"base", -1, 0, 64, 0}, {"mid", 0, 0, -64, 0}, {"tip", 1, 0, -64, 0}}; }

Rig bar_rig() {
  Rig rig;
  rig.bones = bar_bones();
  rig.parts.push_back(grid_part(-32, -128, 32, 128, 2, 8, [](Vec2 p) { return p.y >= 0 ? 0u : p.y >= -64 ? 1u : 2u; }));
  rig.parts[0].name = "main";
  return rig;
}

std::vector<PartTexture> textures_of(const std::vector<Image>& images) {
  std::vector<PartTexture> out;
  for (const Image& img : images) out.push_back({std::make_shared<const Texture>(make_texture(img)), std::nullopt});
  return out;
}

Image render(const Rig& rig, const std::vector<PartTexture>& tex, const RigPose& pose, const View& view,
             Overlays overlays = {}, Paint background = {0, 0, 0, 0}) {
  RenderOptions opt;
  opt.view = view;
  opt.background = background;
  opt.overlays = overlays;
  auto img = render_pose(rig, tex, pose, skin_rig(rig, pose), opt);
  REQUIRE(img);
  return std::move(*img);
}

View framed(const Rig& rig, const RigPose& pose, double margin = 0) {
  Bounds b;
  add_pose_bounds(b, rig, skin_rig(rig, pose), pose.sprite);
  FramingOptions f;
  f.margin = margin;
  auto v = frame_view(b, f);
  REQUIRE(v);
  return *v;
}

// A unit quad part [x0,x1] x [y0,y1] bound to bone 0.
Part quad(double x0, double y0, double x1, double y1) {
  return grid_part(x0, y0, x1, y1, 1, 1, [](Vec2) { return 0u; });
}

}  // namespace

TEST_CASE("render: the striped bar at bind pose is the texture, texel for texel", "[preview][render]") {
  const Rig rig = bar_rig();
  const Image bar = striped_bar();
  const RigPose pose = bind_pose(rig);
  const View view = framed(rig, pose);
  CHECK(view.width == 64);
  CHECK(view.height == 256);
  const Image out = render(rig, textures_of({bar}), pose, view);
  CHECK(out.rgba == bar.rgba);
}

TEST_CASE("render: the 90 degree bend matches an inverse-mapped reference", "[preview][render]") {
  // Two rigid halves so the reference is a plain rotation: the lower half follows base, the upper
  // half follows mid, whose joint is the bar's centre.
  Rig rig;
  rig.bones = bar_bones();
  rig.parts.push_back(grid_part(-32, 0, 32, 128, 1, 2, [](Vec2) { return 0u; }));
  rig.parts.push_back(grid_part(-32, -128, 32, 0, 1, 2, [](Vec2) { return 1u; }));
  for (Part& p : rig.parts) {
    for (Vec2& uv : p.mesh.uvs) uv.y = (p.mesh.verts[static_cast<std::size_t>(&uv - p.mesh.uvs.data())].y + 128) / 256;
  }
  rig.parts[0].order = 0;
  rig.parts[1].order = 1;
  const Image bar = striped_bar();
  RigPose pose = bind_pose(rig);
  pose.bones[1].rot = kPi / 2;  // mid turns clockwise on screen: the top swings to +x
  const View view{160, 160, 1, 32, 32};
  const Image out = render(rig, textures_of({bar, bar}), pose, view);

  int mismatches = 0;
  for (int y = 0; y < 160; ++y) {
    for (int x = 0; x < 160; ++x) {
      const double qx = x + 0.5 - 32, qy = y + 0.5 - 32;  // rig point of the pixel centre
      Px expected{0, 0, 0, 0};
      // Upper half drawn last: rotation (x, y) -> (-y, x) inverted is (qx, qy) -> (qy, -qx).
      const double ux = qy, uy = -qx;
      if (ux >= -32 && ux < 32 && uy >= -128 && uy < 0) {
        expected = at(bar, static_cast<int>(std::floor(ux + 32)), static_cast<int>(std::floor(uy + 128)));
      } else if (qx >= -32 && qx < 32 && qy >= 0 && qy < 128) {
        expected = at(bar, static_cast<int>(std::floor(qx + 32)), static_cast<int>(std::floor(qy + 128)));
      }
      if (!(at(out, x, y) == expected)) ++mismatches;
    }
  }
  CHECK(mismatches == 0);
}

TEST_CASE("render: flipX and flipY mirror the render about the rig origin", "[preview][render]") {
  const Rig rig = bar_rig();
  const std::vector<PartTexture> tex = textures_of({striped_bar()});
  RigPose pose = bind_pose(rig);
  pose.bones[1].rot = 0.4;  // asymmetric, so a mirror is visible
  const View view{320, 320, 1, 160, 160};
  const Image plain = render(rig, tex, pose, view);
  pose.sprite.flip_x = true;
  const Image fx = render(rig, tex, pose, view);
  pose.sprite.flip_x = false;
  pose.sprite.flip_y = true;
  const Image fy = render(rig, tex, pose, view);
  int nonblank = 0, bad_x = 0, bad_y = 0;
  for (int y = 0; y < 320; ++y) {
    for (int x = 0; x < 320; ++x) {
      if (at(plain, x, y).a) ++nonblank;
      if (!(at(fx, x, y) == at(plain, 319 - x, y))) ++bad_x;
      if (!(at(fy, x, y) == at(plain, x, 319 - y))) ++bad_y;
    }
  }
  CHECK(nonblank > 10000);
  // Mirroring turns the fill rule's top-left ties into top-right ones; only pixel centres exactly on
  // an edge can differ, and the rotated edges of this pose hit none.
  CHECK(bad_x == 0);
  CHECK(bad_y == 0);
}

TEST_CASE("render: tint multiplies every channel (hand formula)", "[preview][render]") {
  const Rig rig = bar_rig();
  const Image bar = striped_bar();
  RigPose pose = bind_pose(rig);
  pose.sprite.color = 0x80ff40;
  const Image out = render(rig, textures_of({bar}), pose, framed(rig, pose));
  const double mul[3] = {0x80 / 255.0, 1, 0x40 / 255.0};
  int bad = 0;
  for (std::size_t i = 0; i < bar.rgba.size(); i += 4) {
    for (std::size_t c = 0; c < 3; ++c) {
      const int expected = static_cast<int>(std::floor(bar.rgba[i + c] * mul[c] + 0.5));
      if (std::abs(out.rgba[i + c] - expected) > 0) ++bad;
    }
  }
  CHECK(bad == 0);
}

TEST_CASE("render: opacity scales alpha, an invisible sprite draws nothing", "[preview][render]") {
  Rig rig;
  rig.bones = {{"root", -1, 0, 0, 0}};
  rig.parts.push_back(quad(0, 0, 4, 4));
  RigPose pose = bind_pose(rig);
  pose.sprite.opacity = 0.5;
  const View view{4, 4, 1, 0, 0};
  const auto tex = textures_of({solid(255, 0, 0)});
  CHECK(at(render(rig, tex, pose, view), 1, 1) == Px{255, 0, 0, 128});
  pose.sprite.visible = false;
  CHECK(at(render(rig, tex, pose, view), 1, 1) == Px{0, 0, 0, 0});
}

TEST_CASE("render: parts draw back-to-front by order, hidden parts are skipped", "[preview][render]") {
  Rig rig;
  rig.bones = {{"root", -1, 0, 0, 0}};
  rig.parts = {quad(0, 0, 6, 6), quad(2, 2, 8, 8), quad(0, 0, 8, 8)};
  rig.parts[0].order = 5;   // red, front
  rig.parts[1].order = 1;   // green, behind
  rig.parts[2].order = 9;   // blue, but hidden
  rig.parts[2].visible = false;
  const auto tex = textures_of({solid(255, 0, 0), solid(0, 255, 0), solid(0, 0, 255)});
  const RigPose pose = bind_pose(rig);
  const View view{8, 8, 1, 0, 0};
  Image out = render(rig, tex, pose, view);
  CHECK(at(out, 3, 3) == Px{255, 0, 0, 255});  // overlap: the higher order wins
  CHECK(at(out, 7, 7) == Px{0, 255, 0, 255});
  CHECK(at(out, 0, 7) == Px{0, 0, 0, 0});      // only the hidden part covers this
  std::swap(rig.parts[0].order, rig.parts[1].order);
  out = render(rig, tex, pose, view);
  CHECK(at(out, 3, 3) == Px{0, 255, 0, 255});
}

TEST_CASE("render: a part without a texture gets the flat tint at half opacity", "[preview][render]") {
  Rig rig;
  rig.bones = {{"root", -1, 0, 0, 0}};
  rig.parts = {quad(0, 0, 4, 4)};
  RigPose pose = bind_pose(rig);
  pose.sprite.color = 0x3366ff;
  RenderStats stats;
  RenderOptions opt;
  opt.view = {4, 4, 1, 0, 0};
  opt.background = {0, 0, 0, 1};
  auto img = render_pose(rig, {}, pose, skin_rig(rig, pose), opt, &stats);
  REQUIRE(img);
  CHECK(stats.parts_flat == 1);
  // 0x33 * 0.5 = 25.5 -> 26, 0x66 * 0.5 = 51, 0xff * 0.5 = 127.5 -> 128 over opaque black.
  CHECK(at(*img, 2, 1) == Px{26, 51, 128, 255});
}

TEST_CASE("render: wireframe pixels (hand-computed coverage)", "[preview][render][overlay]") {
  Rig rig;
  rig.bones = {{"root", -1, 0, 0, 0}};
  Part p;
  p.mesh.verts = {{0, 0}, {8, 0}, {8, 8}, {0, 8}};
  p.mesh.uvs = {{0, 0}, {1, 0}, {1, 1}, {0, 1}};
  p.mesh.tris = {0, 1, 2, 0, 2, 3};
  p.skin_indices.assign(16, 0);
  p.skin_weights = {1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0};
  rig.parts = {p};
  const auto tex = textures_of({solid(0, 0, 0, 0)});  // invisible texture: only the overlay shows
  Overlays ov;
  ov.wireframe = true;
  const Image out = render(rig, tex, bind_pose(rig), {12, 12, 1, 2.5, 2.5}, ov, {0, 0, 0, 1});
  // Top edge along y = 2.5 covers row 2 fully: 0.85 * (255, 64, 180) = (216.75, 54.4, 153).
  CHECK(at(out, 6, 2) == Px{217, 54, 153, 255});
  CHECK(at(out, 2, 6) == Px{217, 54, 153, 255});  // left edge
  // The diagonal through pixel centres covers 14 of 16 samples of (6, 6): alpha 0.85 * 14/16.
  CHECK(at(out, 6, 6) == Px{190, 48, 134, 255});
  CHECK(at(out, 8, 4) == Px{0, 0, 0, 255});       // inside a triangle, off the edges
  CHECK(at(out, 0, 0) == Px{0, 0, 0, 255});
}

TEST_CASE("render: weight heatmap and dominant-bone map (hand-computed)", "[preview][render][overlay]") {
  Rig rig;
  rig.bones = {{"a", -1, 0, 0, 0}, {"b", -1, 0, 0, 0}};
  Part p;
  p.mesh.verts = {{0, 0}, {8, 0}, {8, 8}, {0, 8}};
  p.mesh.uvs = {{0, 0}, {1, 0}, {1, 1}, {0, 1}};
  p.mesh.tris = {0, 1, 2, 2, 3, 0};
  // bone a: v0 1, v1 0, v2 0.5, v3 1 (the rest on b)
  p.skin_indices = {0, 1, 0, 0, 0, 1, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0};
  p.skin_weights = {1, 0, 0, 0, 0, 1, 0, 0, 0.5, 0.5, 0, 0, 1, 0, 0, 0};
  rig.parts = {p};
  const auto white = textures_of({solid(255, 255, 255)});
  const RigPose pose = bind_pose(rig);
  const View view{8, 8, 1, 0, 0};
  CHECK(bone_weight_field(p, 0) == std::vector<double>{1, 0, 0.5, 1});
  // v2's slots tie at 0.5: the first slot (bone 1) wins.
  CHECK(dominant_bone_field(p) == std::vector<std::uint32_t>{0, 1, 1, 0});

  Overlays ov;
  ov.weights_bone = 0;
  ov.weight_view = true;
  ov.weight_ramp = Ramp::Grey;  // the editor's ramp: grey round(255 * w)
  Image out = render(rig, white, pose, view, ov, {0, 0, 0, 1});
  // Triangle (0,1,2): mean (1 + 0 + 0.5) / 3 = 0.5 -> round(127.5) = 128.
  CHECK(at(out, 6, 1) == Px{128, 128, 128, 255});
  // Triangle (2,3,0): mean 2.5 / 3 -> round(212.5) = 213.
  CHECK(at(out, 1, 6) == Px{213, 213, 213, 255});

  ov.weight_view = false;  // translucent over the texture: 213 * 0.55 + 255 * 0.45 = 231.9
  out = render(rig, white, pose, view, ov, {0, 0, 0, 1});
  CHECK(at(out, 1, 6) == Px{232, 232, 232, 255});
  CHECK(at(out, 6, 1) == Px{185, 185, 185, 255});  // 128 * 0.55 + 255 * 0.45 = 185.15

  // viridis: entries 128 and 213 of matplotlib's table, round(255 * v).
  ov.weight_ramp = Ramp::Viridis;
  ov.weight_view = true;
  out = render(rig, white, pose, view, ov, {0, 0, 0, 1});
  CHECK(at(out, 6, 1) == Px{33, 145, 140, 255});  // _viridis_data[128] = (0.127568, 0.566949, 0.550556)
  CHECK(at(out, 1, 6) == Px{144, 215, 67, 255});  // _viridis_data[213] = (0.565498, 0.842430, 0.262877)

  Overlays dom;
  dom.dominant = true;
  out = render(rig, white, pose, view, dom, {0, 0, 0, 1});
  // Each pixel takes its nearest corner's bone: the corner regions of triangle (0,1,2) meet at its
  // edge midpoints (4,0), (8,4), (4,4) and centroid (5.33,2.67).
  CHECK(at(out, 6, 1) == Px{46, 204, 113, 255});  // centre (6.5,1.5): v1's region -> bone 1
  CHECK(at(out, 2, 1) == Px{231, 76, 60, 255});   // centre (2.5,1.5): v0's region -> bone 0
  CHECK(at(out, 7, 5) == Px{46, 204, 113, 255});  // centre (7.5,5.5): v2's region -> bone 1
  CHECK(at(out, 1, 6) == Px{231, 76, 60, 255});   // centre (1.5,6.5), triangle (2,3,0): v3 -> bone 0
}

TEST_CASE("render: bone overlay lines and screen-constant dots (hand-computed)", "[preview][render][overlay]") {
  Rig rig;
  rig.bones = {{"root", -1, 4, 4, 0}, {"arm", 0, 30, 0, 0}};
  rig.parts = {quad(0, 0, 1, 1)};
  rig.parts[0].visible = false;
  Overlays ov;
  ov.bones = true;
  for (const double scale : {1.0, 0.5}) {
    // At scale 0.5 the joints are at (2,2) and (17,2) px but the dots keep their 5 px radius.
    const View view{40, 10, scale, 0, 0};
    const Image out = render(rig, {}, bind_pose(rig), view, ov, {0, 0, 0, 1});
    const int jx = static_cast<int>(4 * scale), jy = static_cast<int>(4 * scale);
    CHECK(at(out, jx, jy) == Px{0x4a, 0x9e, 0xff, 255});
    CHECK(at(out, static_cast<int>(34 * scale), jy) == Px{0x4a, 0x9e, 0xff, 255});
    // Pixel 4..5 px right of the joint: inside the dot, 12 of its 16 samples on the outline ring
    // (4.25..5.75 px): #0a0a0a at 0.75 over the dot = (7.5 + 74/4, 7.5 + 158/4, 7.5 + 255/4).
    CHECK(at(out, jx + 4, jy) == Px{26, 47, 71, 255});
  }
  const Image out = render(rig, {}, bind_pose(rig), {40, 10, 1, 0, 0}, ov, {0, 0, 0, 1});
  // The line y = 4, width 1.5, covers 12 of 16 samples of row 3: alpha 0.75 * 0.75 = 0.5625.
  CHECK(at(out, 19, 3) == Px{68, 113, 143, 255});
  CHECK(at(out, 19, 4) == Px{68, 113, 143, 255});
  CHECK(at(out, 19, 6) == Px{0, 0, 0, 255});
  // Selecting a bone for the heatmap colours its joint yellow.
  ov.weights_bone = 1;
  const Image sel = render(rig, {}, bind_pose(rig), {40, 10, 1, 0, 0}, ov, {0, 0, 0, 1});
  CHECK(at(sel, 34, 4) == Px{0xf1, 0xc4, 0x0f, 255});
  CHECK(at(sel, 4, 4) == Px{0x4a, 0x9e, 0xff, 255});
}

TEST_CASE("render: the same inputs give the same PNG bytes", "[preview][render]") {
  const Rig rig = bar_rig();
  const auto tex = textures_of({striped_bar()});
  RigPose pose = bind_pose(rig);
  pose.bones[1].rot = 0.7;
  pose.bones[2].rot = -0.3;
  Overlays ov;
  ov.wireframe = ov.bones = true;
  ov.weights_bone = 1;
  const View view{200, 300, 0.9, 100, 160};
  auto a = encode_png(render(rig, tex, pose, view, ov));
  auto b = encode_png(render(rig, tex, pose, view, ov));
  REQUIRE(a);
  REQUIRE(b);
  CHECK(*a == *b);
}

TEST_CASE("frame_view: sizes, fit and errors", "[preview]") {
  Bounds b;
  b.add({-32, -128});
  b.add({32, 128});
  FramingOptions o;
  auto v = frame_view(b, o);
  REQUIRE(v);
  CHECK(v->width == 80);
  CHECK(v->height == 272);
  CHECK(v->origin_x == 40);
  o.width = 100;
  o.height = 100;
  o.fit = true;
  o.margin = 10;
  v = frame_view(b, o);
  REQUIRE(v);
  CHECK(v->scale == 80.0 / 256);
  CHECK(v->origin_x == 50);
  o.width = 0;
  o.height = 0;
  o.fit = false;
  o.scale = 1000;
  CHECK(frame_view(b, o).error().code == "pose.size");
  o.scale = 0;
  CHECK(frame_view(b, o).error().code == "pose.scale");
  CHECK(frame_view(Bounds{}, FramingOptions{}).error().code == "pose.empty");
  FramingOptions zero;
  zero.width = 0;
  zero.height = 10;
  CHECK(frame_view(b, zero).error().code == "pose.size");
}
