// SPDX-License-Identifier: Apache-2.0
// Spine skins and linked meshes: tests/data/convert/skins/skins.json has a default skin, skins "a"
// and "b" that both replace the body and add a cape ("a") or a linked hat ("b"), and "c/d", whose hat
// is linked to "b"'s linked hat. Every expected number below is worked out by hand from the file.
#include <catch2/catch.hpp>
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "rig2d/interop/atlas.h"
#include "rig2d/interop/spine.h"

using namespace rig2d;
namespace fs = std::filesystem;

namespace {

std::string skins_slurp(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

const fs::path kSkinsData = fs::path(RIG2D_SOURCE_DIR) / "tests/data/convert/skins";

std::string skins_json() { return skins_slurp(kSkinsData / "skins.json"); }

// `text` with its one occurrence of `from` replaced.
std::string skins_edit(std::string text, const std::string& from, const std::string& to) {
  const std::size_t at = text.find(from);
  REQUIRE(at != std::string::npos);
  REQUIRE(text.find(from, at + 1) == std::string::npos);
  return text.replace(at, from.size(), to);
}

Result<ImportResult> skins_import(const std::string& text, std::vector<std::string> skins) {
  static const Atlas atlas = *parse_spine_atlas(skins_slurp(kSkinsData / "skins.atlas"), "skins.atlas");
  SpineImportOptions options;
  options.skins = std::move(skins);
  return import_spine(text, "skins.json", &atlas, options);
}

const Part& skins_part(const ImportResult& r, const std::string& name) {
  const auto it = std::find_if(r.rig.parts.begin(), r.rig.parts.end(), [&](const Part& p) { return p.name == name; });
  REQUIRE(it != r.rig.parts.end());
  return *it;
}

// The slice of the page the part draws: its name and rect.
const SliceOut& skins_slice(const ImportResult& r, const Part& part) {
  REQUIRE(r.sheets.size() == 1);
  const auto& slices = r.sheets[0].slices;
  const auto it = std::find_if(slices.begin(), slices.end(), [&](const SliceOut& s) { return s.guid == part.sprite; });
  REQUIRE(it != slices.end());
  return *it;
}

std::size_t skins_count(const ImportResult& r, const std::string& code) {
  return static_cast<std::size_t>(
      std::count_if(r.diagnostics.begin(), r.diagnostics.end(), [&](const Diagnostic& d) { return d.code == code; }));
}

void skins_check_verts(const Part& part, const std::vector<Vec2>& expected) {
  REQUIRE(part.mesh.verts.size() == expected.size());
  for (std::size_t i = 0; i < expected.size(); ++i) {
    INFO("vertex " << i);
    CHECK(part.mesh.verts[i].x == Approx(expected[i].x).margin(1e-9));
    CHECK(part.mesh.verts[i].y == Approx(expected[i].y).margin(1e-9));
  }
}

// The default skin's weighted hat on bone "arm" (at (10, 0), turned 90 deg): v0 = root (10, 0); v1 =
// root (20, 0) and arm (0, -10) -> (10 + 10, 0), both (20, 0), half each; v2 = arm (10, 0) -> (10, 10).
// y flipped: (10, 0), (20, 0), (10, -10); the triangle is already counter-clockwise in +y down.
void skins_check_hat_geometry(const Part& hat) {
  skins_check_verts(hat, {{10, 0}, {20, 0}, {10, -10}});
  CHECK(hat.mesh.tris == std::vector<std::uint32_t>{0, 1, 2});
  REQUIRE(hat.mesh.uvs.size() == 3);
  CHECK(hat.mesh.uvs[1].x == 1);
  CHECK(hat.mesh.uvs[1].y == 0);
  CHECK(hat.mesh.uvs[2].x == 0);
  CHECK(hat.mesh.uvs[2].y == 1);
  CHECK(hat.skin_indices == std::vector<std::uint32_t>{0, 0, 0, 0, 0, 1, 0, 0, 1, 0, 0, 0});
  CHECK(hat.skin_weights == std::vector<double>{1, 0, 0, 0, 0.5, 0.5, 0, 0, 1, 0, 0, 0});
}

}  // namespace

TEST_CASE("spine skins: without skins only the default skin shows, and the others are named", "[interop]") {
  auto r = skins_import(skins_json(), {});
  REQUIRE(r.has_value());
  REQUIRE(r->rig.parts.size() == 2);  // body, hat; the cape is in skin "a" only
  skins_check_verts(skins_part(*r, "body"), {{-10, -5}, {10, -5}, {10, 5}, {-10, 5}});  // 20 x 10 around the root
  CHECK(skins_slice(*r, skins_part(*r, "body")).name == "body");
  skins_check_hat_geometry(skins_part(*r, "hat"));
  CHECK(skins_slice(*r, skins_part(*r, "hat")).name == "hat");
  CHECK(skins_count(*r, "convert.spine.skin") == 1);
  CHECK(skins_count(*r, "convert.spine.slot.attachment") == 1);
}

TEST_CASE("spine skins: later skins replace earlier ones, the default skin lies under all", "[interop]") {
  auto ab = skins_import(skins_json(), {"a", "b"});
  REQUIRE(ab.has_value());
  REQUIRE(ab->rig.parts.size() == 3);
  // "b" is given last: its body (40 x 10, region by "path") replaces "a"'s (30 x 10).
  skins_check_verts(skins_part(*ab, "body"), {{-20, -5}, {20, -5}, {20, 5}, {-20, 5}});
  CHECK(skins_slice(*ab, skins_part(*ab, "body")).name == "body-b");
  // "a"'s cape, 8 x 8 at y = 20 up: corners (-4, 24) .. (4, 16), y flipped.
  skins_check_verts(skins_part(*ab, "cape"), {{-4, -24}, {4, -24}, {4, -16}, {-4, -16}});
  CHECK(skins_part(*ab, "cape").order == 2);  // slot order, whichever skin holds the attachment
  CHECK(skins_count(*ab, "convert.spine.skin") == 0);
  CHECK(skins_count(*ab, "convert.spine.slot.attachment") == 0);

  auto ba = skins_import(skins_json(), {"b", "a"});
  REQUIRE(ba.has_value());
  skins_check_verts(skins_part(*ba, "body"), {{-15, -5}, {15, -5}, {15, 5}, {-15, 5}});  // "a" last: 30 x 10
  CHECK(skins_slice(*ba, skins_part(*ba, "body")).name == "body-a");  // by "name"
}

TEST_CASE("spine skins: a linked mesh is its parent mesh with its own region", "[interop]") {
  auto r = skins_import(skins_json(), {"b"});
  REQUIRE(r.has_value());
  const Part& hat = skins_part(*r, "hat");
  skins_check_hat_geometry(hat);  // the default skin's mesh: vertices, weights, uvs, triangles
  const SliceOut& slice = skins_slice(*r, hat);
  CHECK(slice.name == "hat-b");
  CHECK((slice.x == 16 && slice.y == 0 && slice.w == 16 && slice.h == 16));
  CHECK(hat.mesh.uvs[0].x == 0);
  CHECK(hat.mesh.uvs[0].y == 0);

  // "c/d"'s hat is linked to "b"'s linked hat: the chain ends at the default skin's mesh.
  auto chained = skins_import(skins_json(), {"c/d"});
  REQUIRE(chained.has_value());
  skins_check_hat_geometry(skins_part(*chained, "hat"));
  CHECK(skins_slice(*chained, skins_part(*chained, "hat")).name == "hat-c");
  CHECK(skins_count(*chained, "convert.spine.linkedmesh") == 0);
}

TEST_CASE("spine skins: a linked mesh without its parent mesh is a warning, not a part", "[interop]") {
  const std::string linked = R"("parent": "hat", "path": "hat-b")";
  SECTION("no such parent") {
    auto r = skins_import(skins_edit(skins_json(), linked, R"("parent": "cap", "path": "hat-b")"), {"b"});
    REQUIRE(r.has_value());
    CHECK(r->rig.parts.size() == 1);  // the body alone
    REQUIRE(skins_count(*r, "convert.spine.linkedmesh") == 1);
    const Diagnostic& d = *std::find_if(r->diagnostics.begin(), r->diagnostics.end(),
                                        [](const Diagnostic& x) { return x.code == "convert.spine.linkedmesh"; });
    CHECK(d.where.json_pointer == "/skins/2/attachments/hat/hat/parent");
    CHECK(d.where.line == 23);  // the linked hat of skin "b"
    CHECK(d.message.find("\"cap\"") != std::string::npos);
  }
  SECTION("a chain that loops") {  // b's hat -> c/d's hat -> b's hat
    auto r = skins_import(skins_edit(skins_json(), linked, R"("skin": "c/d", "parent": "hat", "path": "hat-b")"), {"b"});
    REQUIRE(r.has_value());
    CHECK(r->rig.parts.size() == 1);
    CHECK(skins_count(*r, "convert.spine.linkedmesh") == 1);
  }
  SECTION("a parent that is a region") {
    std::string text = skins_edit(skins_json(), linked, R"("parent": "brim", "path": "hat-b")");
    text = skins_edit(text, R"("hat": {"hat": {"type": "mesh")", R"("hat": {"brim": {"width": 4, "height": 4}, "hat": {"type": "mesh")");
    auto r = skins_import(text, {"b"});
    REQUIRE(r.has_value());
    CHECK(r->rig.parts.size() == 1);
    REQUIRE(skins_count(*r, "convert.spine.linkedmesh") == 1);
    const Diagnostic& d = *std::find_if(r->diagnostics.begin(), r->diagnostics.end(),
                                        [](const Diagnostic& x) { return x.code == "convert.spine.linkedmesh"; });
    CHECK(d.message.find("is a region attachment, not a mesh") != std::string::npos);
  }
}

TEST_CASE("spine skins: an unknown skin is an error naming the skins the file has", "[interop]") {
  auto r = skins_import(skins_json(), {"a", "nope"});
  REQUIRE_FALSE(r.has_value());
  CHECK(r.error().code == "spine.skin.unknown");
  CHECK(r.error().where.json_pointer == "/skins");
  CHECK(r.error().where.line == 11);
  CHECK(r.error().message.find(R"("default", "a", "b", "c/d")") != std::string::npos);

  auto names = spine_skin_names(skins_json(), "skins.json");
  REQUIRE(names.has_value());
  CHECK(*names == std::vector<std::string>{"default", "a", "b", "c/d"});
}

TEST_CASE("spine skins: a constraint a chosen skin lists is applied to the setup pose", "[interop]") {
  // ik_one_bone.json: "head" at (10, 0) turns toward "look" at (13, 4) when the IK applies, by
  // atan2(4, 3) counter-clockwise in Spine, so -atan2(4, 3) rad in rig2d (y down). Marked "skin": true,
  // the IK applies only when a shown skin lists it: here the skin "gazer", which has no attachments.
  std::string text = skins_slurp(fs::path(RIG2D_SOURCE_DIR) / "tests/data/convert/constraints/ik_one_bone.json");
  text = skins_edit(text, R"("compress": true)", R"("compress": true, "skin": true)");
  text = skins_edit(text, R"("skins": [{"name": "default",)", R"("skins": [{"name": "gazer", "ik": ["gaze"]}, {"name": "default",)");
  const auto head_rot = [&](std::vector<std::string> skins) {
    SpineImportOptions options;
    options.skins = std::move(skins);
    auto r = import_spine(text, "ik_one_bone.json", nullptr, options);
    REQUIRE(r.has_value());
    REQUIRE(r->rig.bones.size() == 4);
    CHECK(r->rig.bones[2].name == "head");
    return r->rig.bones[2].rot;  // relative to "neck", which is not turned
  };
  CHECK(head_rot({}) == Approx(0).margin(1e-12));
  CHECK(head_rot({"gazer"}) == Approx(-std::atan2(4.0, 3.0)).margin(1e-9));
}
