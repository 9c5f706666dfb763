// SPDX-License-Identifier: Apache-2.0
// Layouts: a layered figure becomes one v2 rig whose limb parts follow their own limb's bones and
// whose bind render is the composite of the layers.
#include <catch2/catch.hpp>

#include <cmath>
#include <functional>
#include <map>
#include <set>

#include "rig2d/anim/rig_pose.h"
#include "rig2d/image/png.h"
#include "rig2d/autorig/layout.h"
#include "rig2d/preview/pose.h"
#include "rig2d/quality/deform_check.h"
#include "rig2d/raster/canvas.h"
#include "rig2d/rig/rig_json.h"
#include "rig2d/anim/bundled_clips.h"
#include "rig2d/quality/clip_deform.h"
#include "rig2d/layered/document.h"
#include "rig2d/layered/document_parts.h"
#include "rig2d/skeleton/template.h"
#include "rig2d/skin/skeleton.h"
#include "sheet_fixtures.h"

using namespace rig2d;
using namespace rig2d::test;

namespace {

constexpr int kW = 192, kH = 256;

std::string derive_guid_for_test(const std::string& name) {
  // Distinct GUID-shaped strings; the rig never resolves them here.
  std::string hex = "00000000";
  for (std::size_t i = 0; i < name.size() && i < 8; ++i) hex[i] = "0123456789abcdef"[std::uint8_t(name[i]) % 16];
  return hex + "-0000-4000-8000-000000000000";
}

// One full-canvas layer drawn by `draw`, its colour a gradient over the canvas (so a part sampled
// from the wrong place shows).
Image layer(int id, const std::function<void(Image&)>& draw) {
  Image shape = blank(kW, kH);
  draw(shape);
  for (int y = 0; y < kH; ++y)
    for (int x = 0; x < kW; ++x)
      if (alpha_at(shape, x, y)) put(shape, x, y, std::uint8_t(x), std::uint8_t(y), std::uint8_t(30 + 40 * id));
  return shape;
}

// Appends a layer named `name` with a GUID derived from it, drawn after the parts before it.
void add_part(std::vector<PlacedPart>& parts, const char* name, Image img) {
  PlacedPart p;
  p.name = name;
  p.sprite = derive_guid_for_test(name);
  p.image = std::move(img);
  p.order = double(parts.size());
  parts.push_back(std::move(p));
}

// torso, head, arm_l, arm_r, leg_l, leg_r.
std::vector<PlacedPart> figure() {
  std::vector<PlacedPart> parts;
  const auto add = [&](const char* name, Image img) { add_part(parts, name, std::move(img)); };
  add("torso", layer(0, [](Image& i) { rect(i, 74, 52, 118, 150, 1, 1, 1); }));
  add("head", layer(1, [](Image& i) { star(i, 96, 32, 21, 23, 6, 1, 1, 1); }));
  add("arm_l", layer(2, [](Image& i) { capsule(i, 80, 64, 26, 150, 8, 1, 1, 1); }));
  add("arm_r", layer(3, [](Image& i) { capsule(i, 112, 64, 166, 150, 8, 1, 1, 1); }));
  add("leg_l", layer(4, [](Image& i) { capsule(i, 86, 140, 70, 244, 10, 1, 1, 1); }));
  add("leg_r", layer(5, [](Image& i) { capsule(i, 106, 140, 122, 244, 10, 1, 1, 1); }));
  return parts;
}

// Share of a bone's segments (joint to each child joint, a leaf its joint) on the layer's alpha.
double share_on(const Image& layer_img, const std::vector<Bone>& bones, std::size_t b) {
  const std::vector<Vec2> j = joint_positions(bones);
  std::size_t in = 0, total = 0;
  auto sample = [&](Vec2 a, Vec2 c) {
    const int n = std::max(1, int(std::ceil(std::hypot(c.x - a.x, c.y - a.y))));
    for (int k = 0; k <= n; ++k) {
      const double x = a.x + (c.x - a.x) * k / n + kW / 2.0, y = a.y + (c.y - a.y) * k / n + kH / 2.0;
      ++total;
      if (x >= 0 && y >= 0 && x < kW && y < kH) in += alpha_at(layer_img, int(x), int(y)) > 8;
    }
  };
  bool child = false;
  for (std::size_t c = 0; c < bones.size(); ++c)
    if (bones[c].parent == std::int64_t(b)) sample(j[b], j[c]), child = true;
  if (!child) sample(j[b], j[b]);
  return total ? double(in) / double(total) : 0;
}

}  // namespace


TEST_CASE("layout: a six-layer figure gives one v2 rig, limbs weighted by their own bones", "[autorig][layout]") {
  const std::vector<PlacedPart> parts = figure();
  LayoutStats st;
  auto rig = autorig_parts(parts, kW, kH, cli_defaults(), &st);
  REQUIRE(rig);
  CHECK(rig->layout == Layout::V2);
  REQUIRE(rig->parts.size() == 6);
  const char* names[6] = {"torso", "head", "arm_l", "arm_r", "leg_l", "leg_r"};
  for (std::size_t p = 0; p < 6; ++p) {
    CHECK(rig->parts[p].name == names[p]);
    CHECK(rig->parts[p].order == double(p));
    CHECK(rig->parts[p].sprite == parts[p].sprite);
    Rig one;
    one.bones = rig->bones;
    one.parts.push_back(rig->parts[p]);
    CHECK(verify_rig(one));
  }
  CHECK(st.vertices <= 4096);
  CHECK(st.bones == rig->bones.size());
  INFO("bones: " << rig->bones.size() << ", vertices: " << st.vertices);

  // Which bones belong to which limb: at least half of their segments on that limb's layer.
  for (std::size_t p = 2; p < 6; ++p) {
    const Part& part = rig->parts[p];
    std::size_t own = 0, other_limb = 0;
    const std::size_t n = part.mesh.verts.size();
    for (std::size_t v = 0; v < n; ++v) {
      std::size_t best = 0;
      for (std::size_t k = 1; k < 4; ++k)
        if (part.skin_weights[v * 4 + k] > part.skin_weights[v * 4 + best]) best = k;
      const std::size_t bone = part.skin_indices[v * 4 + best];
      own += share_on(parts[p].image, rig->bones, bone) >= 0.5;
      for (std::size_t q = 2; q < 6; ++q)
        if (q != p && share_on(parts[q].image, rig->bones, bone) >= 0.5) ++other_limb;
    }
    INFO(names[p] << ": " << own << " of " << n << " vertices dominated by its own bones");
    CHECK(double(own) >= 0.9 * double(n));
    CHECK(other_limb == 0);
    CHECK_FALSE(st.parts[p].nearest_bone_fallback);
  }

  // Bind render (library renderer, canvas-sized, the rig origin at the canvas pivot) vs the
  // composite of the layers back to front.
  std::vector<PartTexture> tex;
  for (const PlacedPart& p : parts)
    tex.push_back({std::make_shared<const Texture>(make_texture(p.image)), UvRect{0, 0, 1, 1}});
  RenderOptions ro;
  ro.view = {kW, kH, 1, kW / 2.0, kH / 2.0};
  const RigPose pose = bind_pose(*rig);
  auto img = render_pose(*rig, tex, pose, skin_rig(*rig, pose), ro);
  REQUIRE(img);
  Image composite = blank(kW, kH);
  for (const PlacedPart& p : parts)  // order = index here; layers are opaque or clear
    for (std::size_t i = 0; i < composite.rgba.size(); i += 4)
      if (p.image.rgba[i + 3] == 255) std::copy(&p.image.rgba[i], &p.image.rgba[i] + 4, &composite.rgba[i]);
  std::size_t close = 0;
  for (std::size_t i = 0; i < composite.rgba.size(); i += 4) {
    bool ok = true;
    for (int c = 0; c < 4; ++c) ok = ok && std::abs(int(img->rgba[i + c]) - int(composite.rgba[i + c])) <= 2;
    close += ok;
  }
  const double share = double(close) / double(kW * kH);
  INFO("pixels within 2 LSB: " << share);
  CHECK(share >= 0.995);
}

TEST_CASE("layout: a part with nothing on the canvas is named, not a skeleton error", "[autorig][layout]") {
  std::vector<PlacedPart> parts = figure();
  parts[1].x = kW + 500;  // the head, moved wholly off the canvas (a mistyped x)
  auto off = autorig_parts(parts, kW, kH, cli_defaults());
  REQUIRE_FALSE(off);
  CHECK(off.error().code == "layout.part.outside");
  CHECK(off.error().where.json_pointer == "/parts/1");
  CHECK(off.error().message.find("\"head\"") != std::string::npos);
  // Half off the canvas is fine: the part keeps what lies on it.
  parts[1].x = -parts[1].image.width / 2;
  CHECK(autorig_parts(parts, kW, kH, cli_defaults()));
}

TEST_CASE("layout: parse errors name the pointer", "[autorig][layout]") {
  auto ok = parse_part_layout(R"({"canvas": {"width": 64, "height": 32}, "pivot": {"x": 0.5, "y": 1},
    "parts": [{"png": "a/torso.png", "x": 3, "y": -2}, {"name": "arm", "png": "arm.png", "order": -1}]})", "l.json");
  REQUIRE(ok);
  CHECK(ok->width == 64);
  CHECK(ok->pivot_given);
  CHECK(ok->pivot_y == 1);
  REQUIRE(ok->parts.size() == 2);
  CHECK(ok->parts[0].name == "torso");
  CHECK(ok->parts[0].x == 3);
  CHECK(ok->parts[0].y == -2);
  CHECK(ok->parts[0].order == 0);
  CHECK(ok->parts[1].order == -1);
  auto dup = parse_part_layout(R"({"canvas": {"width": 64, "height": 32}, "parts": [{"png": "a.png"}, {"png": "b/a.png"}]})", "l.json");
  REQUIRE_FALSE(dup);
  CHECK(dup.error().code == "layout.name");
  CHECK(dup.error().where.json_pointer == "/parts/1");
  auto canvas = parse_part_layout(R"({"canvas": {"width": 0, "height": 32}, "parts": [{"png": "a.png"}]})", "l.json");
  REQUIRE_FALSE(canvas);
  CHECK(canvas.error().code == "layout.canvas");
  auto nopng = parse_part_layout(R"({"canvas": {"width": 8, "height": 8}, "parts": [{"x": 1.5}]})", "l.json");
  REQUIRE_FALSE(nopng);
  CHECK(nopng.error().code == "layout.part");
  auto typo = parse_part_layout(R"({"canvas": {"width": 8, "height": 8}, "parts": [{"png": "a.png", "ordr": 2}]})", "l.json");
  REQUIRE_FALSE(typo);
  CHECK(typo.error().code == "layout.key");
  CHECK(typo.error().where.json_pointer == "/parts/0/ordr");
  CHECK(typo.error().where.line == 1);
}

TEST_CASE("layout: a folder of layers is rigged in name order, the rig passes the strict reader", "[autorig][layout]") {
  Sandbox box("folder");
  const std::vector<PlacedPart> parts = figure();
  const char* files[6] = {"0_torso", "1_head", "2_arm_l", "3_arm_r", "4_leg_l", "5_leg_r"};
  for (std::size_t p = 0; p < 6; ++p) {
    box.write(std::string("layers/") + files[p] + ".png", *encode_png(parts[p].image));
    box.write(std::string("layers/") + files[p] + ".png.meta.json",
              "{\"version\": 2, \"id\": \"" + derive_guid_for_test(files[p]) + "\", \"type\": \"2d\"}");
  }
  LayoutRigRequest req;
  req.layout_path = box.path("layers");
  req.rig_path = box.path("hero.rig2d.json");
  auto res = autorig_layout(req, cli_defaults());
  REQUIRE(res);
  CHECK(res->inputs.size() == 12);  // six PNGs and six sidecars
  const StrictRig strict = read_rig_strict(res->rig_text, req.rig_path);
  for (const Diagnostic& d : strict.diagnostics) CHECK(d.severity != Severity::Error);
  auto rig = read_rig_normalized(res->rig_text, req.rig_path);
  REQUIRE(rig);
  REQUIRE(rig->parts.size() == 6);
  CHECK(rig->parts[0].name == "0_torso");
  CHECK(rig->parts[5].name == "5_leg_r");
  // Same layout as a file: torso and a head placed by x, y instead of full-canvas.
  box.write("hero.layout.json", R"({"canvas": {"width": 192, "height": 256},
    "parts": [{"name": "torso", "png": "layers/0_torso.png"}, {"name": "head", "png": "layers/1_head.png", "x": 4, "y": 0}]})");
  req.layout_path = box.path("hero.layout.json");
  auto file = autorig_layout(req, cli_defaults());
  REQUIRE(file);
  CHECK(file->inputs.front() == req.layout_path);
  CHECK(file->inputs.size() == 5);
  // Two layouts of the same parts (a front and a side view) written to two rigs get ids of their own;
  // the same rig path gives the same id again.
  req.rig_path = box.path("hero_side.rig2d.json");
  auto side = autorig_layout(req, cli_defaults());
  REQUIRE(side);
  CHECK(side->rig_id != file->rig_id);
  req.rig_path = box.path("hero.rig2d.json");
  auto again = autorig_layout(req, cli_defaults());
  REQUIRE(again);
  CHECK(again->rig_id == file->rig_id);
  // A part taking the whole of a sheet: the engine has no sprite for that, so it is named as an error.
  box.write("layers/1_head.png.meta.json",
            "{\"version\": 2, \"id\": \"" + derive_guid_for_test("1_head") +
                "\", \"type\": \"2d\", \"sprites\": [{\"guid\": \"11111111-0000-4000-8000-000000000001\", "
                "\"name\": \"face\", \"rect\": {\"x\": 64, \"y\": 0, \"w\": 64, \"h\": 64}}]}");
  auto sheet = autorig_layout(req, cli_defaults());
  REQUIRE_FALSE(sheet);
  CHECK(sheet.error().code == "layout.part.sheet");
  CHECK(sheet.error().where.json_pointer == "/parts/1");
}

TEST_CASE("layout: an arm hanging over a leg is weighted by arm bones only, the leg by leg bones only",
          "[autorig][layout]") {
  std::vector<PlacedPart> parts(3);
  parts[0].name = "torso";
  parts[0].image = layer(0, [](Image& i) { rect(i, 74, 52, 118, 150, 1, 1, 1); });
  parts[1].name = "leg_l";
  parts[1].image = layer(4, [](Image& i) { capsule(i, 84, 140, 72, 244, 10, 1, 1, 1); });
  parts[2].name = "arm_l";  // drawn in front, its forearm across the thigh
  parts[2].image = layer(2, [](Image& i) { capsule(i, 78, 64, 70, 137, 7, 1, 1, 1); capsule(i, 70, 137, 80, 215, 7, 1, 1, 1); });
  for (std::size_t p = 0; p < 3; ++p) {
    parts[p].sprite = derive_guid_for_test(parts[p].name);
    parts[p].order = double(p);
  }
  // Hand-placed bones (canvas px minus the centre 96, 128): spine, arm chain, leg chain.
  AutorigOptions o = cli_defaults();
  o.bones = std::vector<Bone>{{"root", -1, 0, -8, 0, false},  {"spine", 0, 0, -50, 0, false},
                              {"upper_arm", 1, -18, -6, 0, false}, {"forearm", 2, -8, 73, 0, false},
                              {"hand", 3, 10, 78, 0, false},      {"thigh", 0, -12, 20, 0, false},
                              {"shin", 5, -6, 52, 0, false},      {"foot", 6, -6, 52, 0, false}};
  LayoutStats st;
  auto rig = autorig_parts(parts, kW, kH, o, &st);
  REQUIRE(rig);
  const std::set<std::uint32_t> arm{2, 3, 4}, leg{5, 6, 7};
  auto dominated = [&](std::size_t p, const std::set<std::uint32_t>& own, const std::set<std::uint32_t>& other) {
    const Part& part = rig->parts[p];
    std::size_t by_own = 0, by_other = 0, any_other = 0;
    const std::size_t n = part.mesh.verts.size();
    for (std::size_t v = 0; v < n; ++v) {
      std::size_t best = 0;
      for (std::size_t k = 0; k < 4; ++k) {
        if (part.skin_weights[v * 4 + k] > part.skin_weights[v * 4 + best]) best = k;
        if (part.skin_weights[v * 4 + k] > 0 && other.count(part.skin_indices[v * 4 + k])) ++any_other;
      }
      by_own += own.count(part.skin_indices[v * 4 + best]);
      by_other += other.count(part.skin_indices[v * 4 + best]);
    }
    INFO(part.name.value_or("") << ": " << by_own << " of " << n << " vertices by its own bones");
    CHECK(double(by_own) >= 0.9 * double(n));
    CHECK(by_other == 0);
    CHECK(any_other == 0);  // not even a small weight from the other limb
  };
  dominated(2, arm, leg);
  dominated(1, leg, arm);
}

namespace {

// A chubby figure in eight layers: a round body with a head, short thick arms and legs and two ears
// mostly over it, so the union of the layers is one blob with stubs.
std::vector<PlacedPart> chubby() {
  std::vector<PlacedPart> parts;
  const auto add = [&](const char* name, Image img) { add_part(parts, name, std::move(img)); };
  add("body", layer(0, [](Image& i) { capsule(i, 96, 120, 96, 150, 42, 1, 1, 1); }));
  add("head", layer(1, [](Image& i) { capsule(i, 96, 58, 96, 66, 34, 1, 1, 1); }));
  add("arm_l", layer(2, [](Image& i) { capsule(i, 72, 110, 44, 160, 14, 1, 1, 1); }));
  add("arm_r", layer(3, [](Image& i) { capsule(i, 120, 110, 148, 160, 14, 1, 1, 1); }));
  add("leg_l", layer(4, [](Image& i) { capsule(i, 80, 170, 74, 228, 16, 1, 1, 1); }));
  add("leg_r", layer(5, [](Image& i) { capsule(i, 112, 170, 118, 228, 16, 1, 1, 1); }));
  add("ear_l", layer(6, [](Image& i) { capsule(i, 76, 36, 62, 10, 8, 1, 1, 1); }));
  add("ear_r", layer(7, [](Image& i) { capsule(i, 116, 36, 130, 10, 8, 1, 1, 1); }));
  return parts;
}

}  // namespace

TEST_CASE("layout: every layer of a chubby figure gets bones of its own, joined where layers overlap",
          "[autorig][layout]") {
  const std::vector<PlacedPart> parts = chubby();
  LayoutStats st;
  auto rig = autorig_parts(parts, kW, kH, cli_defaults(), &st);
  REQUIRE(rig);
  REQUIRE(rig->parts.size() == parts.size());
  CHECK(rig->bones.size() <= 32);
  const std::vector<Vec2> joints = joint_positions(rig->bones);
  for (std::size_t p = 1; p < parts.size(); ++p) {  // the body, the largest, is the root's
    const std::string prefix = parts[p].name + "_";
    const auto own = [&](std::size_t b) { return rig->bones[b].name.rfind(prefix, 0) == 0; };
    std::size_t own_bones = 0;
    for (std::size_t b = 0; b < rig->bones.size(); ++b) {
      if (!own(b)) continue;
      ++own_bones;
      // Its joints lie on its own layer.
      const Vec2 j{joints[b].x + kW / 2.0, joints[b].y + kH / 2.0};
      CHECK(alpha_at(parts[p].image, int(j.x), int(j.y)) > 8);
    }
    INFO(parts[p].name << ": " << own_bones << " bones of its own");
    CHECK(own_bones >= 2);
    // Its vertices are moved mostly by its own bones.
    const Part& part = rig->parts[p];
    std::size_t by_own = 0;
    const std::size_t n = part.mesh.verts.size();
    for (std::size_t v = 0; v < n; ++v) {
      std::size_t best = 0;
      for (std::size_t k = 1; k < 4; ++k)
        if (part.skin_weights[v * 4 + k] > part.skin_weights[v * 4 + best]) best = k;
      by_own += own(part.skin_indices[v * 4 + best]);
    }
    INFO(by_own << " of " << n << " vertices dominated by its own bones");
    CHECK(double(by_own) >= 0.5 * double(n));
  }
  // Bending any bone 60 degrees turns no triangle of any layer inside out and keeps their areas
  // within 0.2..5 times (one skeleton over the union of these layers gave 11 bones, 6 layers moved by
  // a single bone, 8.7% of a layer's triangles flipped and one shrank to 0.021).
  const DeformReport report = check_deformation(*rig, {});
  for (const PartDeformStats& part : report.stats.parts) {
    CHECK(part.flip_fraction == 0);
    CHECK(part.min_area_ratio >= 0.2);
    CHECK(part.max_area_ratio <= 5);
  }
}

namespace {

// The limb a humanoid bone belongs to: "arm_l", "leg_r", or "" for the trunk and head.
std::string layout_tmpl_limb(const std::string& bone) {
  for (const char* side : {"_l", "_r"}) {
    if (bone.size() < 2 || bone.compare(bone.size() - 2, 2, side) != 0) continue;
    const bool arm = bone.rfind("upper_arm", 0) == 0 || bone.rfind("lower_arm", 0) == 0 || bone.rfind("hand", 0) == 0;
    const bool leg = bone.rfind("thigh", 0) == 0 || bone.rfind("shin", 0) == 0 || bone.rfind("foot", 0) == 0;
    if (arm || leg) return std::string(arm ? "arm" : "leg") + side;
  }
  return {};
}

}  // namespace

TEST_CASE("layout: a template over the union names every limb layer's own bones", "[autorig][layout]") {
  const std::vector<PlacedPart> parts = chubby();
  AutorigOptions o = cli_defaults();
  o.skeleton_template = *bundled_template("humanoid");
  LayoutStats st;
  auto rig = autorig_parts(parts, kW, kH, o, &st);
  REQUIRE(rig);
  INFO(st.template_note);
  std::vector<std::string> drawn{o.skeleton_template->ground};  // where it stands, then the template's bones but the eyes: these parts draw no face
  for (const TemplateBone& b : o.skeleton_template->bones)
    if (!b.spot) drawn.push_back(b.name);
  REQUIRE(rig->bones.size() == drawn.size());
  for (std::size_t b = 0; b < rig->bones.size(); ++b) CHECK(rig->bones[b].name == drawn[b]);
  CHECK(st.template_note.rfind("template humanoid", 0) == 0);
  // Each limb layer is moved by one limb of the template, all of its vertices, through at least two
  // bones of that limb, and no two layers share a limb (the screen-left arm is the figure's right).
  std::set<std::string> limbs_taken;
  for (std::size_t p = 2; p <= 5; ++p) {
    const Part& part = rig->parts[p];
    std::map<std::string, std::size_t> by_limb;
    const std::size_t n = part.mesh.verts.size();
    for (std::size_t v = 0; v < n; ++v) {
      std::size_t best = 0;
      for (std::size_t k = 1; k < 4; ++k)
        if (part.skin_weights[v * 4 + k] > part.skin_weights[v * 4 + best]) best = k;
      ++by_limb[layout_tmpl_limb(rig->bones[part.skin_indices[v * 4 + best]].name)];
    }
    INFO(parts[p].name);
    REQUIRE(by_limb.size() == 1);
    const std::string limb = by_limb.begin()->first;
    CHECK(limb.rfind(parts[p].name.substr(0, 3), 0) == 0);  // an arm layer by arm bones, a leg by leg bones
    CHECK(limbs_taken.insert(limb).second);
    CHECK(st.parts[p].bones.size() >= 2);
    for (std::size_t b : st.parts[p].bones) CHECK(layout_tmpl_limb(rig->bones[b].name) == limb);
  }
  // The head layer has the neck and head; the ears ride on the neck (the humanoid has no ears).
  std::set<std::string> head_bones;
  for (std::size_t b : st.parts[1].bones) head_bones.insert(rig->bones[b].name);
  CHECK(head_bones == std::set<std::string>{"neck", "head"});
  // Bending every limb root 60 degrees: no layer but the body flips a triangle; the body, under the
  // upper arms drawn over it, flips under 1 %.
  const DeformReport report = check_deformation(*rig, {});
  REQUIRE(report.stats.parts.size() == parts.size());
  CHECK(report.stats.parts[0].flip_fraction < 0.01);
  for (std::size_t p = 1; p < parts.size(); ++p) CHECK(report.stats.parts[p].flip_fraction == 0);
}

TEST_CASE("layout: an arm a template places over the body layer is weighted as a layer over it", "[autorig][layout]") {
  // The GIMP fixture: body, head, legs and one arm held out on layers of their own; the other arm is
  // not drawn apart from the torso, so the template places it over the body.
  const std::filesystem::path psd = std::filesystem::path(RIG2D_SOURCE_DIR) / "tests/data/layered/gimp-figure.psd";
  auto doc = read_layered_document(psd.string());
  REQUIRE(doc);
  std::vector<Diagnostic> warnings;
  auto doc_parts = document_parts(*doc, GroupMode::Parts, psd.string(), warnings);
  REQUIRE(doc_parts);
  std::vector<PlacedPart> parts;
  for (DocumentPart& d : *doc_parts) {
    PlacedPart p;
    p.name = d.name;
    p.sprite = derive_guid_for_test(d.name);
    p.image = std::move(d.image);
    p.x = d.x;
    p.y = d.y;
    p.order = double(parts.size());
    parts.push_back(std::move(p));
  }
  AutorigOptions o = AutorigOptions::tool_defaults();
  o.skeleton_template = *bundled_template("humanoid");
  LayoutStats st;
  auto rig = autorig_parts(parts, doc->width, doc->height, o, &st);
  REQUIRE(rig);
  INFO(st.template_note);
  REQUIRE(st.template_note.find("over the body: upper_arm_") != std::string::npos);
  // As a layer over the body's own bones, the arm bends the torso no more than its own art: every
  // joint bent 60 degrees both ways folds no triangle of any layer (weighted as ordinary bones, the
  // arm's hand took the middle of the torso and bending the chest folded 2.35% of the rig).
  const DeformReport report = check_deformation(*rig, {});
  CHECK(report.stats.flip_fraction == 0);
  // And the bundled idle, walk and run fold none either.
  for (const char* name : {"humanoid/idle", "humanoid/walk", "humanoid/run"}) {
    auto clip = load_clip_spec(name);
    REQUIRE(clip.has_value());
    INFO(name);
    CHECK(check_clip_deformation(*rig, *clip, name).stats.flip_fraction == 0);
  }
}
