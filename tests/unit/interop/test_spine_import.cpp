// SPDX-License-Identifier: Apache-2.0
// Spine import: bind vertices equal Spine's setup-pose world vertices (computed independently from the
// documented bone matrix definition, then y flipped), regions, atlases, weights, animations.
#include <catch2/catch.hpp>
#include <cmath>
#include <string>

#include "rig2d/anim/curve.h"
#include "rig2d/asset/guid.h"
#include "rig2d/interop/atlas.h"
#include "rig2d/interop/spine.h"
#include "rig2d/asset/sprite_meta.h"

using namespace rig2d;

namespace {

// Two bones, one mesh: v0 on root only, v1 half root / half child, v2 on child only.
std::string two_bone_skeleton(const std::string& root_extra, const std::string& child_extra) {
  return R"({"skeleton": {"spine": "4.2.00"},
  "bones": [
    {"name": "root", "x": 10, "y": 20, "rotation": 30)" + root_extra + R"(},
    {"name": "arm", "parent": "root", "x": 50, "rotation": 45, "length": 40)" + child_extra + R"(}
  ],
  "slots": [{"name": "body", "bone": "root", "attachment": "body"}],
  "skins": [{"name": "default", "attachments": {"body": {"body": {
    "type": "mesh", "uvs": [0, 0, 1, 0, 1, 1], "triangles": [0, 1, 2], "hull": 3,
    "vertices": [1, 0, 5, 5, 1,  2, 0, 20, -10, 0.5, 1, 0, 10, 0.5,  1, 1, 30, 0, 1]
  }}}}]
})";
}

void check_verts(const Part& part, const std::vector<Vec2>& expected) {
  REQUIRE(part.mesh.verts.size() == expected.size());
  for (std::size_t i = 0; i < expected.size(); ++i) {
    INFO("vertex " << i);
    CHECK(part.mesh.verts[i].x == Approx(expected[i].x).margin(1e-4));
    CHECK(part.mesh.verts[i].y == Approx(expected[i].y).margin(1e-4));
  }
}

bool has_code(const ImportResult& r, const std::string& code) {
  for (const Diagnostic& d : r.diagnostics) {
    if (d.code == code) return true;
  }
  return false;
}

}  // namespace

TEST_CASE("spine import: two-bone weighted mesh lands on Spine's setup-pose world vertices", "[interop]") {
  auto r = import_spine(two_bone_skeleton("", ""), "two.json", nullptr, {});
  REQUIRE(r.has_value());
  const Rig& rig = r->rig;
  REQUIRE(rig.bones.size() == 2);
  // Spine world = root (translate 10,20, rotate 30 deg) * arm; y flipped for rig2d's +y down.
  check_verts(rig.parts[0], {{11.830127019, -26.830127019}, {37.981260001, -34.463968207}, {61.065841542, -73.977774789}});
  // Bones: the root keeps its place and turns -30 deg (y flip), the arm sits 50 px along it, turned -45 deg.
  CHECK(rig.bones[0].x == Approx(10));
  CHECK(rig.bones[0].y == Approx(-20));
  CHECK(rig.bones[0].rot == Approx(-30 * M_PI / 180));
  CHECK(rig.bones[1].x == Approx(50));
  CHECK(rig.bones[1].y == Approx(0).margin(1e-9));
  CHECK(rig.bones[1].rot == Approx(-45 * M_PI / 180));
  // Weights: 4 slots per vertex, v1 split evenly between root (0) and arm (1).
  const Part& p = rig.parts[0];
  REQUIRE(p.skin_weights.size() == 12);
  CHECK(p.skin_indices[0] == 0);
  CHECK(p.skin_weights[0] == 1.0);
  CHECK(p.skin_weights[4] == Approx(0.5));
  CHECK(p.skin_weights[5] == Approx(0.5));
  CHECK(p.skin_indices[8] == 1);
  CHECK(rig.layout == Layout::V2);
  CHECK(p.order == 0);
}

TEST_CASE("spine import: a weighted vertex whose per-bone positions disagree warns with the spread", "[interop]") {
  // v1 of the two-bone mesh: on root, (20, -10) lands at (32.3205, 21.3397); on the arm (world at
  // (53.3013, 45), turned 75 deg), (0, 10) lands at (43.6420, 47.5882). They are 28.586 px apart.
  auto r = import_spine(two_bone_skeleton("", ""), "two.json", nullptr, {});
  REQUIRE(r.has_value());
  const Diagnostic* spread = nullptr;
  for (const Diagnostic& d : r->diagnostics)
    if (d.code == "convert.spine.bind.spread") spread = &d;
  REQUIRE(spread != nullptr);
  CHECK(spread->severity == Severity::Warning);
  CHECK(spread->where.json_pointer == "/skins/0/attachments/body/body/vertices/5");
  CHECK(spread->message.find("1 weighted vertices") != std::string::npos);
  CHECK(spread->message.find("by up to 28.59 px") != std::string::npos);

  // The same vertex with both copies at one world point, (32.3205, 21.3397): in the arm's frame that is
  // (-20.9808, -23.6603) turned by -75 deg, (-28.2843, 14.1421). No warning.
  std::string agreeing = two_bone_skeleton("", "");
  const std::string v1 = "1, 0, 10, 0.5";
  agreeing.replace(agreeing.find(v1), v1.size(), "1, -28.284271, 14.142136, 0.5");
  auto same = import_spine(agreeing, "same.json", nullptr, {});
  REQUIRE(same.has_value());
  CHECK_FALSE(has_code(*same, "convert.spine.bind.spread"));
  CHECK(same->rig.parts[0].mesh.verts[1].x == Approx(32.320508).margin(1e-3));
  CHECK(same->rig.parts[0].mesh.verts[1].y == Approx(-21.339746).margin(1e-3));
}

TEST_CASE("spine import: a scaled and sheared parent is baked into the bind vertices", "[interop]") {
  auto r = import_spine(two_bone_skeleton(R"(, "scaleX": 2, "scaleY": 0.5, "shearX": 10, "shearY": -20)", R"(, "scaleX": 1.5)"),
                        "sheared.json", nullptr, {});
  REQUIRE(r.has_value());
  check_verts(r->rig.parts[0], {{17.226323987, -28.889895479}, {58.333509748, -59.72882912}, {132.59248856, -140.853709366}});
  // The arm bone keeps its world position and x-axis direction.
  const Bone& root = r->rig.bones[0];
  const Bone& arm = r->rig.bones[1];
  const double wx = root.x + std::cos(root.rot) * arm.x - std::sin(root.rot) * arm.y;
  const double wy = root.y + std::sin(root.rot) * arm.x + std::cos(root.rot) * arm.y;
  CHECK(wx == Approx(86.60444431189781));
  CHECK(wy == Approx(-84.27876096865393));
  CHECK(root.rot + arm.rot == Approx(-0.8882573041441986));
  CHECK(has_code(*r, "convert.spine.bone.scale"));
}

TEST_CASE("spine import: a region attachment becomes a quad in the right place", "[interop]") {
  const std::string json = R"({"skeleton": {}, "bones": [{"name": "root", "x": 100, "y": 50, "rotation": 90}],
    "slots": [{"name": "main", "bone": "root", "attachment": "head"}],
    "skins": [{"name": "default", "attachments": {"main": {"head": {"x": 10, "width": 40, "height": 20}}}}]})";
  auto r = import_spine(json, "region.json", nullptr, {});
  REQUIRE(r.has_value());
  const Rig& rig = r->rig;
  CHECK(rig.layout == Layout::V1);  // one part named "main" is a v1 rig
  const Part& p = rig.parts[0];
  // The bone turns the image 90 deg counter-clockwise (y up): its top-left corner ends at (90, -40).
  check_verts(p, {{90, -40}, {90, -80}, {110, -80}, {110, -40}});
  REQUIRE(p.mesh.uvs.size() == 4);
  CHECK(p.mesh.uvs[0] == Vec2{0, 0});
  CHECK(p.mesh.uvs[2] == Vec2{1, 1});
  REQUIRE(p.mesh.tris.size() == 6);
  for (std::size_t t = 0; t < 6; t += 3) {  // wound counter-clockwise in +y-down: negative shoelace
    const Vec2 a = p.mesh.verts[p.mesh.tris[t]], b = p.mesh.verts[p.mesh.tris[t + 1]], c = p.mesh.verts[p.mesh.tris[t + 2]];
    CHECK((b.x - a.x) * (c.y - a.y) - (c.x - a.x) * (b.y - a.y) < 0);
  }
}

TEST_CASE("atlas: a rotated region gives the page rect as the slice and rotated UVs", "[interop]") {
  const std::string atlas_text = "\nparts.png\n\tsize: 256, 128\n\tfilter: Linear, Linear\narm\n\tbounds: 10, 20, 40, 16\n\trotate: 90\n";
  auto atlas = parse_spine_atlas(atlas_text, "parts.atlas");
  REQUIRE(atlas.has_value());
  REQUIRE(atlas->pages.size() == 1);
  const AtlasRegion& arm = atlas->pages[0].regions.at(0);
  CHECK(arm.degrees == 90);
  const PixelRect rect = region_page_rect(arm);
  CHECK((rect.x == 10 && rect.y == 20 && rect.w == 16 && rect.h == 40));
  // Stored turned 90 deg counter-clockwise: the image's top-left is the rect's bottom-left.
  CHECK(region_uv_to_page(arm, {0, 0}) == Vec2{10, 60});
  CHECK(region_uv_to_page(arm, {1, 0}) == Vec2{10, 20});
  CHECK(region_uv_to_page(arm, {1, 1}) == Vec2{26, 20});

  const std::string json = R"({"skeleton": {}, "bones": [{"name": "root"}],
    "slots": [{"name": "arm", "bone": "root", "attachment": "arm"}],
    "skins": [{"name": "default", "attachments": {"arm": {"arm": {"width": 40, "height": 16}}}}]})";
  auto r = import_spine(json, "arm.json", &*atlas, {});
  REQUIRE(r.has_value());
  REQUIRE(r->sheets.size() == 1);
  const TextureSheet& sheet = r->sheets[0];
  CHECK(sheet.image == "parts.png");
  CHECK((sheet.width == 256 && sheet.height == 128));
  REQUIRE(sheet.slices.size() == 1);
  const SliceOut& slice = sheet.slices[0];
  CHECK((slice.name == "arm" && slice.x == 10 && slice.y == 20 && slice.w == 16 && slice.h == 40));
  const Part& p = r->rig.parts[0];
  CHECK(p.sprite == slice.guid);
  // Quad corners top-left, top-right, bottom-right, bottom-left of the image, in slice UVs.
  REQUIRE(p.mesh.uvs.size() == 4);
  CHECK(p.mesh.uvs[0] == Vec2{0, 1});
  CHECK(p.mesh.uvs[1] == Vec2{0, 0});
  CHECK(p.mesh.uvs[2] == Vec2{1, 0});
  CHECK(p.mesh.uvs[3] == Vec2{1, 1});
  // The engine's uvRect (slice / sheet) then samples exactly the page pixels Spine samples.
  const double u0 = 10.0 / 256, uw = 16.0 / 256;
  CHECK(u0 + p.mesh.uvs[0].x * uw == Approx(10.0 / 256));
}

TEST_CASE("atlas: whitespace-stripped regions keep only the packed pixels, in place", "[interop]") {
  // A 40x20 image packed as 30x12 after stripping 6 px at the left and 3 px at the bottom.
  const std::string atlas_text = "page.png\nsize: 64, 64\nhead\nbounds: 2, 4, 30, 12\noffsets: 6, 3, 40, 20\n";
  auto atlas = parse_spine_atlas(atlas_text, "page.atlas");
  REQUIRE(atlas.has_value());
  const std::string json = R"({"skeleton": {}, "bones": [{"name": "root"}],
    "slots": [{"name": "head", "bone": "root", "attachment": "head"}],
    "skins": [{"name": "default", "attachments": {"head": {"head": {"width": 40, "height": 20}}}}]})";
  auto r = import_spine(json, "head.json", &*atlas, {});
  REQUIRE(r.has_value());
  const Part& p = r->rig.parts[0];
  // Original image spans x -20..20, y(up) -10..10; packed pixels: x -14..16, y(up) -7..5 -> rig y -5..7.
  check_verts(p, {{-14, -5}, {16, -5}, {16, 7}, {-14, 7}});
  CHECK(p.mesh.uvs[0] == Vec2{0, 0});
  CHECK(p.mesh.uvs[2] == Vec2{1, 1});
  CHECK(r->sheets[0].slices[0].w == 30);
}

TEST_CASE("spine import: more than 4 influences keeps the 4 largest and reports it", "[interop]") {
  const std::string json = R"({"skeleton": {}, "bones": [{"name": "a"}, {"name": "b", "parent": "a"}, {"name": "c", "parent": "a"},
      {"name": "d", "parent": "a"}, {"name": "e", "parent": "a"}],
    "slots": [{"name": "s", "bone": "a", "attachment": "m"}],
    "skins": [{"name": "default", "attachments": {"s": {"m": {"type": "mesh", "uvs": [0, 0, 1, 0, 0, 1], "triangles": [0, 1, 2],
      "vertices": [5, 0, 0, 0, 0.1, 1, 0, 0, 0.3, 2, 0, 0, 0.2, 3, 0, 0, 0.25, 4, 0, 0, 0.15,
                   1, 0, 10, 0, 1,  1, 0, 0, 10, 1]}}}}]})";
  auto r = import_spine(json, "five.json", nullptr, {});
  REQUIRE(r.has_value());
  const Part& p = r->rig.parts[0];
  // Kept b .3, d .25, c .2, e .15 (sum .9), renormalized; a's 0.1 dropped.
  CHECK(p.skin_indices[0] == 1);
  CHECK(p.skin_weights[0] == Approx(0.3 / 0.9));
  CHECK(p.skin_indices[3] == 4);
  CHECK(p.skin_weights[0] + p.skin_weights[1] + p.skin_weights[2] + p.skin_weights[3] == Approx(1));
  bool found = false;
  for (const Diagnostic& d : r->diagnostics) {
    if (d.code != "convert.weights.trimmed") continue;
    found = true;
    CHECK(d.message.find("1 vertices") != std::string::npos);
    CHECK(d.message.find("0.1") != std::string::npos);
  }
  CHECK(found);
}

TEST_CASE("spine import: rotate and translate timelines become clips that replay Spine", "[interop]") {
  const std::string json =
      R"({"skeleton": {}, "bones": [{"name": "root", "rotation": 10}, {"name": "arm", "parent": "root", "x": 5}], "slots": [{"name": "s", "bone": "root", "attachment": "box"}],
    "skins": [{"name": "default", "attachments": {"s": {"box": {"width": 4, "height": 4}}}}],
    "animations": {"wave": {"bones": {
      "arm": {"rotate": [{"value": 0}, {"time": 0.5, "value": 90, "curve": "stepped"}, {"time": 1, "value": -30}],
              "scale": [{"x": 2}]},
      "root": {"translate": [{"time": 0.25, "x": 4, "y": 6, "curve": [0.4, 4, 0.6, 10, 0.4, 6, 0.6, 6]}, {"time": 1, "x": 10, "y": 6}]}
    }}}})";
  auto r = import_spine(json, "anim.json", nullptr, {});
  REQUIRE(r.has_value());
  REQUIRE(r->clips.size() == 1);
  const Clip& clip = r->clips[0];
  CHECK(clip.name == "wave");
  CHECK(clip.duration == 1);
  CHECK(has_code(*r, "convert.spine.anim.timeline"));  // the scale timeline
  const Track* rz = nullptr;
  const Track* x = nullptr;
  const Track* y = nullptr;
  for (const Track& t : clip.tracks) {
    if (t.path == "root/arm" && t.field == "rz") rz = &t;
    if (t.path == "root" && t.field == "x") x = &t;
    if (t.path == "root" && t.field == "y") y = &t;
  }
  REQUIRE(rz);
  REQUIRE(x);
  REQUIRE(y);
  const double bind = r->rig.bones[1].rot;
  const double deg = M_PI / 180;
  // Linear 0 -> 90 over 0..0.5: at 0.25 the arm is 45 deg on (clockwise on screen after the y flip).
  CHECK(eval_track(*rz, 0.25) == Approx(bind - 45 * deg));
  // Stepped from 0.5 to 1: holds 90 until the last key.
  CHECK(eval_track(*rz, 0.75) == Approx(bind - 90 * deg));
  CHECK(eval_track(*rz, 1.0) == Approx(bind + 30 * deg));
  // Root translate: before its first key (0.25) the setup pose holds; y is constant 6 from 0.25 on.
  CHECK(eval_track(*x, 0.1) == Approx(0));
  CHECK(eval_track(*y, 0.5) == Approx(-6));
  CHECK(eval_track(*y, 0.1) == Approx(0));
  // The Bézier x curve is read as Spine plays it: a polyline through u = 0.1 .. 0.9.
  // At u = 0.5 the handles give t = 0.53125 and x = 0.125 * 4 + 0.375 * 4 + 0.375 * 10 + 0.125 * 10 = 7.
  CHECK(eval_track(*x, 0.53125) == Approx(7).margin(1e-6));
  CHECK(eval_track(*x, 1.0) == Approx(10));
}

TEST_CASE("spine import: a translate key moves the bone where Spine moves it under a turned, scaled parent", "[interop]") {
  const std::string json =
      R"({"skeleton": {}, "bones": [{"name": "root", "rotation": 90, "scaleX": 2}, {"name": "arm", "parent": "root", "x": 5}], "slots": [{"name": "s", "bone": "root", "attachment": "box"}],
    "skins": [{"name": "default", "attachments": {"s": {"box": {"width": 4, "height": 4}}}}],
    "animations": {"reach": {"bones": {"arm": {"translate": [{"x": 5}]}}}}})";
  auto r = import_spine(json, "reach.json", nullptr, {});
  REQUIRE(r.has_value());
  // Spine: the arm sits at root * (5, 0) = (0, 10) (y up); the key takes it to root * (10, 0) = (0, 20).
  const Bone& arm = r->rig.bones[1];
  CHECK(arm.x == Approx(10));
  CHECK(arm.y == Approx(0).margin(1e-12));
  const Track* x = nullptr;
  const Track* y = nullptr;
  for (const Track& t : r->clips.at(0).tracks) {
    if (t.field == "x") x = &t;
    if (t.field == "y") y = &t;
  }
  REQUIRE(x);
  CHECK(eval_track(*x, 0) == Approx(20));  // rig parent frame: 20 px along the root's (unscaled) x axis
  CHECK((y == nullptr || std::abs(eval_track(*y, 0)) < 1e-9));
  CHECK(has_code(*r, "convert.spine.anim.nonrigid"));
}

TEST_CASE("atlas: a lone region covering its page draws the texture's whole-image sprite", "[interop]") {
  auto atlas = parse_spine_atlas("sprite.png\nsize: 32, 16\nsprite\nbounds: 0, 0, 32, 16\n", "sprite.atlas");
  REQUIRE(atlas.has_value());
  const std::string json = R"({"skeleton": {}, "bones": [{"name": "root"}],
    "slots": [{"name": "main", "bone": "root", "attachment": "sprite"}],
    "skins": [{"name": "default", "attachments": {"main": {"sprite": {"width": 32, "height": 16}}}}]})";
  auto r = import_spine(json, "sprite.json", &*atlas, {});
  REQUIRE(r.has_value());
  REQUIRE(r->sheets.size() == 1);
  CHECK(r->sheets[0].whole_image);
  CHECK(r->sheets[0].slices.empty());
  CHECK(r->rig.parts[0].sprite == whole_image_sprite_guid(r->sheets[0].texture_guid));
  // A new texture's GUID is named by its page, or by the name the caller gives that page (its path in
  // an asset tree, so same-named pages of two characters differ).
  CHECK(r->sheets[0].texture_guid == uuid_v5(kRigIdNamespace, "texture:sprite.png"));
  ImportOptions named;
  named.texture_names["sprite.png"] = "chars/a/sprite.png";
  auto r2 = import_spine(json, "sprite.json", &*atlas, named);
  REQUIRE(r2.has_value());
  CHECK(r2->sheets[0].texture_guid == uuid_v5(kRigIdNamespace, "texture:chars/a/sprite.png"));
  CHECK(r2->rig.parts[0].sprite == whole_image_sprite_guid(r2->sheets[0].texture_guid));
  // The sidecar gets "type": "2d" (so the engine derives that sprite) and no slice, which would hide it.
  auto sidecar = write_texture_sidecar(r->sheets[0], "", "");
  REQUIRE(sidecar.has_value());
  CHECK(sidecar->find("\"type\": \"2d\"") != std::string::npos);
  CHECK(sidecar->find("sprites") == std::string::npos);
}

namespace {

// One mesh attachment "arm" on the root, its uvs the corners of the region's original image.
std::string corner_mesh_skeleton(const std::string& uvs) {
  return R"({"skeleton": {}, "bones": [{"name": "root"}],
    "slots": [{"name": "arm", "bone": "root", "attachment": "arm"}],
    "skins": [{"name": "default", "attachments": {"arm": {"arm": {
      "type": "mesh", "uvs": )" +
         uvs + R"(, "triangles": [0, 1, 2, 0, 2, 3], "hull": 4,
      "vertices": [0, 0, 30, 0, 30, -30, 0, -30]}}}}]})";
}

}  // namespace

TEST_CASE("spine import: a mesh reaching into stripped whitespace grows its slice over the page", "[interop]") {
  // The 30 x 30 original lost 5 px on each side: 20 x 20 packed at (10, 10). The original's corners
  // sit at page (5, 5) and (35, 35): the slice grows to that rect and the uvs become its corners.
  auto atlas =
      parse_spine_atlas("page.png\nsize: 64, 64\narm\nbounds: 10, 10, 20, 20\noffsets: 5, 5, 30, 30\n", "a.atlas");
  REQUIRE(atlas.has_value());
  auto r = import_spine(corner_mesh_skeleton("[0, 0, 1, 0, 1, 1, 0, 1]"), "arm.json", &*atlas, {});
  REQUIRE(r.has_value());
  REQUIRE(r->sheets.size() == 1);
  REQUIRE(r->sheets[0].slices.size() == 1);
  const SliceOut& slice = r->sheets[0].slices[0];
  CHECK(slice.x == 5);
  CHECK(slice.y == 5);
  CHECK(slice.w == 30);
  CHECK(slice.h == 30);
  const std::vector<Vec2> expected = {{0, 0}, {1, 0}, {1, 1}, {0, 1}};
  REQUIRE(r->rig.parts[0].mesh.uvs.size() == 4);
  for (std::size_t i = 0; i < 4; ++i) {
    CHECK(r->rig.parts[0].mesh.uvs[i].x == expected[i].x);
    CHECK(r->rig.parts[0].mesh.uvs[i].y == expected[i].y);
  }
  CHECK(has_code(*r, "convert.spine.uv.slice"));
  CHECK_FALSE(has_code(*r, "convert.spine.uv.clamped"));

  // Uvs inside the packed pixels leave the slice as packed, with no warning.
  auto inside = import_spine(corner_mesh_skeleton("[0.2, 0.2, 0.8, 0.2, 0.8, 0.8, 0.2, 0.8]"), "arm.json", &*atlas, {});
  REQUIRE(inside.has_value());
  const SliceOut& packed = inside->sheets[0].slices[0];
  CHECK((packed.x == 10 && packed.y == 10 && packed.w == 20 && packed.h == 20));
  CHECK(inside->rig.parts[0].mesh.uvs[0].x == Approx(0.05));  // page 11 of 10..30
  CHECK(inside->diagnostics.empty());
}

TEST_CASE("spine import: uvs that would leave the page or have no sprite are clamped into 0..1", "[interop]") {
  // Packed at the page's corner: the original's top-left would be page (-5, -5).
  auto atlas =
      parse_spine_atlas("page.png\nsize: 64, 64\narm\nbounds: 0, 0, 20, 20\noffsets: 5, 5, 30, 30\n", "a.atlas");
  REQUIRE(atlas.has_value());
  auto r = import_spine(corner_mesh_skeleton("[0, 0, 1, 0, 1, 1, 0, 1]"), "arm.json", &*atlas, {});
  REQUIRE(r.has_value());
  const SliceOut& slice = r->sheets[0].slices[0];
  CHECK((slice.x == 0 && slice.y == 0 && slice.w == 25 && slice.h == 25));
  for (const Vec2& uv : r->rig.parts[0].mesh.uvs) {
    CHECK((uv.x >= 0 && uv.x <= 1 && uv.y >= 0 && uv.y <= 1));
  }
  CHECK(r->rig.parts[0].mesh.uvs[2].x == 1);  // page 25 is the grown slice's right edge
  CHECK(has_code(*r, "convert.spine.uv.slice"));
  CHECK(has_code(*r, "convert.spine.uv.clamped"));  // the top-left corner, off the page

  // Without an atlas the uvs stay region-relative: one outside 0..1 is clamped.
  auto bare = import_spine(corner_mesh_skeleton("[5, 0, 1, 0, 1, 1, -0.5, 1]"), "arm.json", nullptr, {});
  REQUIRE(bare.has_value());
  CHECK(bare->rig.parts[0].mesh.uvs[0].x == 1);
  CHECK(bare->rig.parts[0].mesh.uvs[3].x == 0);
  CHECK(has_code(*bare, "convert.spine.uv.clamped"));
}

TEST_CASE("spine import: a skeleton that shows no attachment is refused", "[interop]") {
  auto r = import_spine(R"({"skeleton": {}, "bones": [{"name": "root"}], "slots": [{"name": "s", "bone": "root"}]})",
                        "bones.json", nullptr, {});
  REQUIRE_FALSE(r.has_value());
  CHECK(r.error().code == "spine.attachment.none");
  CHECK(r.error().where.json_pointer == "/slots");
}

TEST_CASE("atlas: what write_spine_atlas writes parses back to the same pages and regions", "[interop]") {
  const std::string text =
      "hero.png\nsize: 128, 64\nformat: RGBA8888\nfilter: Linear, Linear\n"
      "arm\nbounds: 2, 4, 20, 10\noffsets: 1, 2, 24, 14\nrotate: 90\n"
      "walk\nindex: 3\nbounds: 30, 4, 8, 8\n"
      "\nhero2.png\nsize: 32, 32\nhead\nxy: 0, 0\nsize: 16, 16\norig: 18, 18\noffset: 1, 1\n";
  auto atlas = parse_spine_atlas(text, "hero.atlas");
  REQUIRE(atlas.has_value());
  const auto same = [](const Atlas& a, const Atlas& b) {
    REQUIRE(a.pages.size() == b.pages.size());
    for (std::size_t p = 0; p < a.pages.size(); ++p) {
      const AtlasPage &x = a.pages[p], &y = b.pages[p];
      CHECK((x.name == y.name && x.width == y.width && x.height == y.height));
      REQUIRE(x.regions.size() == y.regions.size());
      for (std::size_t r = 0; r < x.regions.size(); ++r) {
        const AtlasRegion &u = x.regions[r], &v = y.regions[r];
        CHECK((u.name == v.name && u.x == v.x && u.y == v.y && u.width == v.width && u.height == v.height));
        CHECK((u.degrees == v.degrees && u.offset_x == v.offset_x && u.offset_y == v.offset_y));
        CHECK((u.original_width == v.original_width && u.original_height == v.original_height && u.index == v.index));
      }
    }
  };
  auto again = parse_spine_atlas(write_spine_atlas(*atlas), "again.atlas");
  REQUIRE(again.has_value());
  same(*atlas, *again);
  CHECK(again->pages[1].regions[0].original_width == 18);  // the 3.x keys come back as 4.x offsets

  // A page name that starts like a byte order mark is still a name when it comes first.
  auto bom = parse_spine_atlas("\n\xEF\xBB\xBFpage.png\nsize: 8, 8\n", "bom.atlas");
  REQUIRE(bom.has_value());
  auto bom_again = parse_spine_atlas(write_spine_atlas(*bom), "again.atlas");
  REQUIRE(bom_again.has_value());
  same(*bom, *bom_again);
}
