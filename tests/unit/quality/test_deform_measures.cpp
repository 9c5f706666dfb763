// SPDX-License-Identifier: Apache-2.0
// Deformation check figures on tiny meshes, against numbers worked out by hand.
#include <catch2/catch.hpp>
#include <cmath>

#include "rig2d/quality/deform_check.h"
#include "support/strip_rig.h"
#include "support/test_math.h"

using namespace rig2d;

namespace {

// The 10x2 strip with a weightless leaf "end": bending "tip" by t moves v2, v5 rigidly about (10, 0).
Rig strip_rig() { return test::strip_rig(1, true); }

bool has_code(const DeformReport& r, const std::string& code, const std::string& pointer) {
  for (const Diagnostic& d : r.findings) {
    if (d.code == code && d.where.json_pointer == pointer) return true;
  }
  return false;
}

}  // namespace

TEST_CASE("deform check: triangle measures of a hand-posed mesh", "[quality]") {
  const std::vector<Vec2> bind = {{0, 0}, {2, 0}, {0, 2}, {0, 0}, {2, 0}, {0, 2}, {0, 0}, {1, 0}, {0, 1}, {0, 0}, {1, 1}, {2, 2}};
  // t0 doubles along x (area x2, edge 2 -> 4); t1 mirrors through y = 0 (flips, edge lengths kept);
  // t2 squashes its y edge to a quarter (area x0.25); t3 is degenerate at bind and is skipped.
  const std::vector<Vec2> posed = {{0, 0}, {4, 0}, {0, 2}, {0, 0}, {2, 0}, {0, -2}, {0, 0}, {1, 0}, {0, 0.25}, {0, 0}, {5, 1}, {2, 9}};
  const std::vector<std::uint32_t> tris = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11};
  const TriangleChange c = measure_triangles(bind, posed, tris);
  CHECK(c.triangles == 3);
  CHECK(c.flipped == 1);
  CHECK(c.flips == std::vector<bool>{false, true, false, false});
  CHECK(c.min_area_ratio == Approx(0.25));
  CHECK(c.max_area_ratio == Approx(2));
  CHECK(c.max_edge_stretch == Approx(2));    // t0's bottom edge
  CHECK(c.min_edge_ratio == Approx(0.25));   // t2's vertical edge
  SECTION("the winding of the bind triangle does not matter") {
    const std::vector<std::uint32_t> reversed = {0, 2, 1};
    const TriangleChange r = measure_triangles(bind, posed, reversed);
    CHECK(r.flipped == 0);
    CHECK(r.max_area_ratio == Approx(2));
  }
}

TEST_CASE("deform check: bends of a two-quad strip, figures by hand", "[quality]") {
  const Rig rig = strip_rig();
  const DeformReport r = check_deformation(rig, {});
  const DeformStats& s = r.stats;
  REQUIRE(s.parts.size() == 1);
  const PartDeformStats& p = s.parts[0];
  CHECK(s.bends == 6);
  CHECK(p.triangles == 4);
  CHECK(s.flip_fraction == 0);
  // Triangle (v1, v4, v2): area 10 at bind, 10 cos t + sin t after bending "tip" by t, so the
  // ratio is cos t + sin t / 10; (v2, v4, v5) keeps its 10 px edge v2-v5 and its apex v4 moves
  // relative to it, giving 1 - sin t / 10. Both extremes come from the -60 degree bend.
  const double s60 = std::sqrt(3.0) / 2;
  CHECK(p.min_area_ratio == Approx(0.5 - s60 / 10));
  CHECK(p.max_area_ratio == Approx(1 + s60 / 10));
  CHECK(p.area_bend.bone == 1);
  CHECK(p.area_bend.angle == Approx(-kPi / 3));
  // Edge v1 -> v2 (10 px at bind): |(10c + s, 10s - c + 1)|^2 = 102 + 20s - 2c, longest at +60.
  CHECK(p.max_edge_stretch == Approx(std::sqrt(102 + 20 * s60 - 1) / 10));
  // Edge v4 -> v2 (sqrt(104) px at bind): |(10c + s, 10s - c - 1)|^2 = 102 - 20s + 2c, shortest at +60.
  CHECK(p.min_edge_ratio == Approx(std::sqrt(102 - 20 * s60 + 1) / std::sqrt(104.0)));
  CHECK(p.stretch_bend.bone == 1);
  // The left quad is bound to "root" alone: half of the area is rigid.
  CHECK(p.rigid_fraction == Approx(0.5));
  CHECK(s.bone_share == std::vector<double>{4.0 / 6, 2.0 / 6, 0});
  CHECK(s.unused_bones == std::vector<std::uint32_t>{2});
  CHECK(p.leak_fraction == 0);
  CHECK(p.total_weight == Approx(6));
  CHECK(!p.has_alpha);
  // Default limits: only the unused bone is a finding, as a warning; then the summary note.
  REQUIRE(r.findings.size() == 2);
  CHECK(r.findings[0].code == "deform.bone.unused");
  CHECK(r.findings[0].where.json_pointer == "/bones/2");
  CHECK(r.findings[0].severity == Severity::Warning);
  CHECK(r.findings[0].message.find("\"end\"") != std::string::npos);
  CHECK(r.findings[1].code == "deform.summary");
  CHECK(r.findings[1].severity == Severity::Note);
  CHECK(r.findings[1].message ==
        "6 bends of 60 deg: worst flips 0.00%, area ratio 0.413 to 1.09, edge stretch 1.09, rigid 50.00%, leak 0.00%, "
        "bones dominating no vertex 1 of 3, texture coverage not checked, vertices per bone (%) 67/33/0");
}

TEST_CASE("deform check: a weightless bone that places others (a ground root) is not unused", "[quality]") {
  Rig rig = strip_rig();
  // "ground" on top, as a template's ground bone: no vertex weighted to it, the strip hangs from it.
  std::vector<Bone> bones{{"ground", -1, 0, 5, 0, false}};
  for (Bone b : rig.bones) {
    if (b.parent < 0) b.y -= 5;
    b.parent += 1;
    bones.push_back(b);
  }
  rig.bones = bones;
  for (Part& part : rig.parts)
    for (std::uint32_t& i : part.skin_indices) ++i;
  const DeformStats s = check_deformation(rig, {}).stats;
  CHECK(s.bone_share == std::vector<double>{0, 4.0 / 6, 2.0 / 6, 0});
  CHECK(s.unused_bones == std::vector<std::uint32_t>{3});  // the weightless leaf "end" only
}

TEST_CASE("deform check: a 150 degree bend folds the strip's joint triangle", "[quality]") {
  DeformOptions o;
  o.angle = 150 * kPi / 180;
  o.severity = Severity::Error;
  const DeformReport r = check_deformation(strip_rig(), {}, o);
  const PartDeformStats& p = r.stats.parts[0];
  // cos 150 + sin 150 / 10 = -0.816 < 0: (v1, v4, v2) turns inside out, for +150 and -150 alike.
  CHECK(p.flipped == 1);
  CHECK(p.flip_fraction == Approx(0.25));
  CHECK(p.flip_bend.bone == 1);
  CHECK(p.flip_bend.angle == Approx(o.angle));  // the first of equal bends
  CHECK(r.stats.flip_fraction == Approx(0.25));
  REQUIRE(has_code(r, "deform.flip", "/mesh/tris"));
  for (const Diagnostic& d : r.findings) CHECK(d.severity == (d.code == "deform.summary" ? Severity::Note : Severity::Error));
  for (const Diagnostic& d : r.findings) {
    if (d.code == "deform.flip") CHECK(d.message.find("1 of 4 triangles (25.00%)") != std::string::npos);
  }
}

TEST_CASE("deform check: a v2 part's findings point into /parts/N", "[quality]") {
  Rig rig = strip_rig();
  rig.layout = Layout::V2;
  rig.parts.push_back(rig.parts[0]);
  DeformOptions o;
  o.thresholds.max_rigid_fraction = 0.4;
  const DeformReport r = check_deformation(rig, {}, o);
  CHECK(has_code(r, "deform.rigid", "/parts/0/skinWeights"));
  CHECK(has_code(r, "deform.rigid", "/parts/1/skinWeights"));
  CHECK(r.stats.rigid_fraction == Approx(0.5));
}

TEST_CASE("deform check: visible pixels outside the mesh", "[quality]") {
  Rig rig = strip_rig();
  // The strip's UVs span the whole 4x2 alpha map; cut the mesh to its left quad (u <= 0.5).
  rig.parts[0].mesh.tris = {0, 3, 1, 1, 3, 4};
  AlphaMap alpha{4, 2, {255, 255, 255, 200, 255, 255, 0, 100}};
  const std::vector<std::optional<AlphaMap>> maps = {alpha};
  const DeformReport r = check_deformation(rig, maps);
  const PartDeformStats& p = r.stats.parts[0];
  CHECK(p.has_alpha);
  CHECK(p.visible_pixels == 6);    // alpha > 127: all but the 0 and the 100
  CHECK(p.uncovered_pixels == 2);  // columns 2 and 3 of row 0 (255, 200); row 1's are not visible
  CHECK(p.uncovered_max_alpha == 255);
  CHECK(has_code(r, "deform.uncovered", "/mesh"));
}

TEST_CASE("deform check: weight that reaches a bone across a gap", "[quality]") {
  // Two 10x10 squares, x in [0, 10] and [20, 30], with a 10 px gap; bone "a" runs through the left
  // square, bone "b" through the right one. No way leads from one square to the other.
  Rig rig;
  rig.bones = {{"a", -1, 0, 5, 0}, {"a_end", 0, 8, 0, 0}, {"b", -1, 20, 5, 0}, {"b_end", 2, 8, 0, 0}};
  Part part;
  part.mesh.verts = {{0, 0}, {10, 0}, {0, 10}, {10, 10}, {20, 0}, {30, 0}, {20, 10}, {30, 10}};
  part.mesh.uvs.assign(8, {0, 0});
  part.mesh.tris = {0, 2, 1, 1, 2, 3, 4, 6, 5, 5, 6, 7};
  // Left vertices: 0.75 "a" + 0.25 "b" (the 0.25 crosses the gap); right vertices: all "b".
  for (int v = 0; v < 8; ++v) {
    if (v < 4) {
      part.skin_indices.insert(part.skin_indices.end(), {0, 2, 0, 0});
      part.skin_weights.insert(part.skin_weights.end(), {0.75, 0.25, 0, 0});
    } else {
      part.skin_indices.insert(part.skin_indices.end(), {2, 0, 0, 0});
      part.skin_weights.insert(part.skin_weights.end(), {1, 0, 0, 0});
    }
  }
  rig.parts = {part};
  const DeformReport r = check_deformation(rig, {});
  const PartDeformStats& p = r.stats.parts[0];
  CHECK(p.total_weight == Approx(8));
  CHECK(p.leaked_weight == Approx(4 * 0.25));
  CHECK(p.leak_fraction == Approx(0.125));
  CHECK(p.leak_bone == 2);
  CHECK(has_code(r, "deform.leak", "/skinWeights"));
  SECTION("joined by a bridge at mid-height, every bone is reached through the shape") {
    Rig joined = rig;
    Mesh& m = joined.parts[0].mesh;
    const auto base = static_cast<std::uint32_t>(m.verts.size());
    m.verts.insert(m.verts.end(), {{10, 4}, {20, 4}, {10, 6}, {20, 6}});
    m.tris.insert(m.tris.end(), {base, base + 2, base + 1, base + 1, base + 2, base + 3});
    for (int v = 0; v < 4; ++v) {
      joined.parts[0].skin_indices.insert(joined.parts[0].skin_indices.end(), {0, 0, 0, 0});
      joined.parts[0].skin_weights.insert(joined.parts[0].skin_weights.end(), {1, 0, 0, 0});
    }
    CHECK(check_deformation(joined, {}).stats.parts[0].leaked_weight == 0);
  }
  SECTION("with alpha, a transparent band inside the mesh is a gap too") {
    Rig bridged = rig;
    // One 30x10 mesh over both squares; the texture is transparent in the middle third.
    bridged.parts[0].mesh.verts = {{0, 0}, {30, 0}, {0, 10}, {30, 10}, {20, 0}, {30, 0}, {20, 10}, {30, 10}};
    bridged.parts[0].mesh.uvs = {{0, 0}, {1, 0}, {0, 1}, {1, 1}, {0, 0}, {0, 0}, {0, 0}, {0, 0}};
    bridged.parts[0].mesh.tris = {0, 2, 1, 1, 2, 3};
    AlphaMap alpha{3, 1, {255, 0, 255}};
    const std::vector<std::optional<AlphaMap>> maps = {alpha};
    const PartDeformStats q = check_deformation(bridged, maps).stats.parts[0];
    CHECK(check_deformation(bridged, {}).stats.parts[0].leaked_weight == 0);  // no alpha: one solid slab
    // v0, v2 (x = 0) reach "b" only over the gap; v1, v3 (x = 30) sit in the right square next to
    // "b" and reach "a" (0.75) only across it: 2 * 0.25 + 2 * 0.75.
    CHECK(q.leaked_weight == Approx(2 * 0.25 + 2 * 0.75));
  }
}

TEST_CASE("deform check: hostile rigs measure without crashing, deterministically", "[quality]") {
  const double nan = std::nan(""), inf = HUGE_VAL;
  Rig rig = strip_rig();
  SECTION("far-away, non-finite and missing data") {
    Part& p = rig.parts[0];
    p.mesh.verts[2] = {1e15, -1};
    p.mesh.verts[5] = {nan, inf};
    p.mesh.uvs[1] = {1e12, -1e12};
    p.mesh.tris.insert(p.mesh.tris.end(), {0, 1, 99, 7, 7, 7});
    p.skin_weights.resize(10);
    p.skin_indices[0] = 1000;
    rig.bones[1].x = nan;
    AlphaMap alpha{2, 2, {255, 0, 0, 255}};
    const std::vector<std::optional<AlphaMap>> maps = {alpha};
    const DeformReport a = check_deformation(rig, maps);
    const DeformReport b = check_deformation(rig, maps);
    REQUIRE(a.findings.size() == b.findings.size());
    for (std::size_t k = 0; k < a.findings.size(); ++k) CHECK(a.findings[k].message == b.findings[k].message);
    CHECK(a.stats.parts[0].leak_fraction >= 0);
    CHECK(a.stats.parts[0].leak_fraction <= 1);
    // A malformed alpha map (3x3 with 2 values) is ignored, not read past its end.
    const std::vector<std::optional<AlphaMap>> bad = {AlphaMap{3, 3, {1, 2}}};
    CHECK(!check_deformation(rig, bad).stats.parts[0].has_alpha);
  }
  SECTION("a long thin mesh keeps the raster small") {
    rig.parts[0].mesh.verts = {{0, -1}, {1e7, -1}, {2e7, -1}, {0, 1}, {1e7, 1}, {2e7, 1}};
    const DeformReport r = check_deformation(rig, {});
    CHECK(r.stats.parts[0].triangles == 4);
  }
  SECTION("no bones, no parts") {
    Rig empty;
    const DeformReport r = check_deformation(empty, {});
    CHECK(r.stats.bends == 0);
    REQUIRE(r.findings.size() == 1);
    CHECK(r.findings[0].code == "deform.summary");
  }
}
