// SPDX-License-Identifier: Apache-2.0
// Spine constraints applied once to the setup pose: bone world transforms and bind vertices against
// values computed by hand (a 3-4-5 triangle for two-bone IK, a straight 100 px path for the path
// constraints), y flipped for rig2d.
#include <catch2/catch.hpp>
#include <cmath>
#include <fstream>
#include <sstream>
#include <string>

#include "rig2d/interop/spine.h"

using namespace rig2d;

namespace {

std::string constraints_fixture(const std::string& name) {
  std::ifstream in(std::string(RIG2D_SOURCE_DIR) + "/tests/data/convert/constraints/" + name, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string constraints_replace(std::string text, const std::string& from, const std::string& to) {
  const auto at = text.find(from);
  REQUIRE(at != std::string::npos);
  return text.replace(at, from.size(), to);
}

struct ConstraintsWorld {
  double x = 0, y = 0, deg = 0;  // rig space (+y down); deg is Spine's counter-clockwise angle
};

// A bone's world position and direction, composed from the rig's parent-relative bones.
ConstraintsWorld constraints_world(const Rig& rig, const std::string& name) {
  std::vector<ConstraintsWorld> w;
  for (const Bone& b : rig.bones) {
    if (b.parent < 0) {
      w.push_back({b.x, b.y, b.rot});
      continue;
    }
    const ConstraintsWorld& p = w[static_cast<std::size_t>(b.parent)];
    const double c = std::cos(p.deg), s = std::sin(p.deg);
    w.push_back({p.x + c * b.x - s * b.y, p.y + s * b.x + c * b.y, p.deg + b.rot});
  }
  for (std::size_t i = 0; i < rig.bones.size(); ++i) {
    if (rig.bones[i].name == name) return {w[i].x, w[i].y, -std::remainder(w[i].deg, 2 * M_PI) * 180 / M_PI};
  }
  FAIL("no bone " << name);
  return {};
}

void constraints_check_bone(const Rig& rig, const std::string& name, double x, double y, double deg) {
  INFO("bone " << name);
  const ConstraintsWorld w = constraints_world(rig, name);
  CHECK(w.x == Approx(x).margin(1e-4));
  CHECK(w.y == Approx(y).margin(1e-4));
  CHECK(w.deg == Approx(deg).margin(1e-4));
}

void constraints_check_vertex(const Part& part, std::size_t i, double x, double y) {
  INFO("vertex " << i);
  REQUIRE(i < part.mesh.verts.size());
  CHECK(part.mesh.verts[i].x == Approx(x).margin(1e-4));
  CHECK(part.mesh.verts[i].y == Approx(y).margin(1e-4));
}

const Diagnostic* constraints_note(const ImportResult& r, const std::string& text) {
  for (const Diagnostic& d : r.diagnostics) {
    if (d.code == "convert.spine.constraint.applied" && d.message.find(text) != std::string::npos) return &d;
  }
  return nullptr;
}

}  // namespace

TEST_CASE("spine constraints: two-bone IK bends the arm to reach its target, by the law of cosines", "[interop]") {
  // Upper arm 30, forearm 40, target 50 away on the x axis: a 3-4-5 triangle. The elbow is a right
  // angle (cos = (50^2 - 30^2 - 40^2) / (2*30*40) = 0) and the upper arm turns by atan2(-40, 30) =
  // -53.1301 deg (bendPositive: the elbow below the line), to (18, -24) in Spine's y-up frame.
  const double a = std::atan2(4.0, 3.0) * 180 / M_PI;  // 53.1301
  const std::string text = constraints_fixture("ik_two_bone.json");
  SECTION("bendPositive") {
    auto r = import_spine(text, "ik_two_bone.json", nullptr, {});
    REQUIRE(r.has_value());
    constraints_check_bone(r->rig, "arm", 0, 0, -a);
    constraints_check_bone(r->rig, "fore", 18, 24, 90 - a);
    // The forearm's tip reaches the target; weighted vertices follow the constrained bones.
    const Part& limb = r->rig.parts[0];
    constraints_check_vertex(limb, 0, 50, 0);    // (40, 0) on the forearm
    constraints_check_vertex(limb, 1, 44, -8);   // (40, 10) on the forearm: (18,-24) + 40*(.8,.6) + 10*(-.6,.8)
    constraints_check_vertex(limb, 2, 18, 24);   // half on the upper arm's tip, half on the forearm's root
    constraints_check_vertex(limb, 3, 8, -6);    // (0, 10) on the upper arm: 10*(.8, .6)
    const Diagnostic* note = constraints_note(*r, "ik constraint \"reach\"");
    REQUIRE(note);
    CHECK(note->severity == Severity::Note);
    CHECK(note->message.find("\"arm\" (turned -53.13 deg)") != std::string::npos);
    CHECK(note->message.find("\"fore\" (moved 26.83 px, turned 36.87 deg)") != std::string::npos);
    CHECK(note->message.find("rig2d keeps no constraint") != std::string::npos);
  }
  SECTION("bendPositive false mirrors the elbow above the line") {
    auto r = import_spine(constraints_replace(text, "\"target\": \"target\"", "\"target\": \"target\", \"bendPositive\": false"),
                          "ik_two_bone.json", nullptr, {});
    REQUIRE(r.has_value());
    constraints_check_bone(r->rig, "arm", 0, 0, a);
    constraints_check_bone(r->rig, "fore", 18, -24, a - 90);
    constraints_check_vertex(r->rig.parts[0], 0, 50, 0);
    constraints_check_vertex(r->rig.parts[0], 1, 56, -8);  // (50, 0) + 10 * (0.6, 0.8)
    constraints_check_vertex(r->rig.parts[0], 3, -8, -6);
  }
  SECTION("mix 0.5 turns each bone half way") {
    // Upper arm -53.1301 / 2 = -26.5651 deg (tan = 1/2), the elbow 90 / 2 = 45 deg more: 18.4349 deg
    // (tan = 1/3). Elbow 30 * (2, -1) / sqrt 5, tip 40 * (3, 1) / sqrt 10 further.
    auto r = import_spine(constraints_replace(text, "\"target\": \"target\"", "\"target\": \"target\", \"mix\": 0.5"),
                          "ik_two_bone.json", nullptr, {});
    REQUIRE(r.has_value());
    const double ex = 60 / std::sqrt(5.0), ey = -30 / std::sqrt(5.0);
    constraints_check_bone(r->rig, "arm", 0, 0, -a / 2);
    constraints_check_bone(r->rig, "fore", ex, -ey, 45 - a / 2);
    constraints_check_vertex(r->rig.parts[0], 0, ex + 120 / std::sqrt(10.0), -(ey + 40 / std::sqrt(10.0)));
  }
}

TEST_CASE("spine constraints: one-bone IK turns the head to its target, and compress shortens it to reach", "[interop]") {
  // Head at (10, 0), length 20; target at (13, 4): 5 px away along (3, 4). compress scales the x axis
  // by 5 / 20, so the head's tip lands on the target; its y axis keeps length 1.
  auto r = import_spine(constraints_fixture("ik_one_bone.json"), "ik_one_bone.json", nullptr, {});
  REQUIRE(r.has_value());
  constraints_check_bone(r->rig, "head", 10, 0, std::atan2(4.0, 3.0) * 180 / M_PI);
  constraints_check_vertex(r->rig.parts[0], 1, 13, -4);        // (20, 0): the target
  constraints_check_vertex(r->rig.parts[0], 2, 3.6, -4.8);     // (0, 8): (10, 0) + 8 * (-0.8, 0.6)
  REQUIRE(constraints_note(*r, "\"head\" (turned 53.13 deg, scaled 0.25x)"));
  SECTION("without compress the head turns but keeps its length") {
    std::string text = constraints_replace(constraints_fixture("ik_one_bone.json"), ", \"compress\": true", "");
    auto plain = import_spine(text, "ik_one_bone.json", nullptr, {});
    REQUIRE(plain.has_value());
    constraints_check_vertex(plain->rig.parts[0], 1, 22, -16);  // (10, 0) + 20 * (0.6, 0.8)
  }
}

TEST_CASE("spine constraints: transform constraints in world and local space, with offsets and mixes", "[interop]") {
  // World, absolute: the target turned 30 deg at (100, 50). Rotation: 10 + (30 + 15 - 10) * 1 = 45 deg.
  // Position: the offset (20, 0) in the target's frame, (100 + 20 cos 30, 50 + 20 sin 30), mixed half
  // way from the origin (mixY defaults to mixX): (58.6603, 30). The child follows, 10 px along 45 deg.
  auto r = import_spine(constraints_fixture("transform.json"), "transform.json", nullptr, {});
  REQUIRE(r.has_value());
  const double fx = (100 + 20 * std::cos(M_PI / 6)) / 2, fy = 30, h = 10 / std::sqrt(2.0);
  constraints_check_bone(r->rig, "follower", fx, -fy, 45);
  constraints_check_bone(r->rig, "child", fx + h, -(fy + h), 45);
  constraints_check_vertex(r->rig.parts[0], 1, fx + 2 * h, -(fy + 2 * h));  // (10, 0) on the child
  // Local, absolute: rotation 10 + (30 - 10) * 0.5 = 20; x 5 + (100 - 5) * 1 = 100; y kept (mixY 0).
  constraints_check_bone(r->rig, "local", 100, 0, 20);
  CHECK(constraints_note(*r, "transform constraint \"world\""));
  CHECK(constraints_note(*r, "\"local\" (moved 95 px, turned 10 deg)"));
  SECTION("a target among its own bones: later bones read it as already moved") {
    // "t" first: turned by the offset to 45 deg, then moved half way to its own offset point, taken in
    // its turned frame: (100, 50) + 0.5 * 20 * (cos 45, sin 45). "follower" turns by the target's
    // rotation as it was (30 + 15 - 10), but moves half way to the offset point of "t" as it is now.
    auto self = import_spine(constraints_replace(constraints_fixture("transform.json"), "\"bones\": [\"follower\"]", "\"bones\": [\"t\", \"follower\"]"),
                             "transform.json", nullptr, {});
    REQUIRE(self.has_value());
    const double tx = 100 + h, ty = 50 + h;
    constraints_check_bone(self->rig, "t", tx, -ty, 45);
    constraints_check_bone(self->rig, "follower", (tx + 2 * h) / 2, -(ty + 2 * h) / 2, 45);
  }
  SECTION("relative world adds the target's rotation and offset position") {
    // Rotation 10 + (30 + 15) = 55 deg; position (0, 0) + 0.5 * (117.3205, 60).
    auto rel = import_spine(constraints_replace(constraints_fixture("transform.json"), "\"rotation\": 15,", "\"rotation\": 15, \"relative\": true,"),
                            "transform.json", nullptr, {});
    REQUIRE(rel.has_value());
    constraints_check_bone(rel->rig, "follower", fx, -fy, 55);
  }
}

TEST_CASE("spine constraints: path constraints place chains along a straight 100 px path and round a closed square", "[interop]") {
  // The path runs from (0, 0) to (60, 80), handles at the thirds, so a point s px along it is
  // s * (0.6, 0.8) and every tangent points along atan2(4, 3) = 53.1301 deg.
  auto r = import_spine(constraints_fixture("path.json"), "path.json", nullptr, {});
  REQUIRE(r.has_value());
  const double a = 90 - std::atan(0.75) * 180 / M_PI;
  // "fixed": the stored lengths, position 10% = 10 px, fixed spacing 25 px, tangent: bones at 10, 35, 60 px.
  constraints_check_bone(r->rig, "a1", 6, -8, a);
  constraints_check_bone(r->rig, "a2", 21, -28, a);
  constraints_check_bone(r->rig, "a3", 36, -48, a);
  constraints_check_bone(r->rig, "atip", 48, -64, a);  // the bone below follows, 20 px further
  // "scaled": constant speed, percent spacing 25% = 25 px, chainScale: bones at 0, 25, 50 px, each
  // pointing at the next space and stretched from 20 to 25 px (x axis scaled 1.25).
  constraints_check_bone(r->rig, "b1", 0, 0, a);
  constraints_check_bone(r->rig, "b2", 15, -20, a);
  constraints_check_bone(r->rig, "b3", 30, -40, a);
  const Part& tail = r->rig.parts[0];
  constraints_check_vertex(tail, 1, 45, -60);  // (20, 0) on b3: (30, 40) + 1.25 * 20 * (0.6, 0.8)
  constraints_check_vertex(tail, 2, 22, -46);  // (0, 10) on b3: the y axis turned, not scaled
  CHECK(constraints_note(*r, "\"b1\" (moved 50 px, turned 53.13 deg, scaled 1.25x)"));
  // "around": a closed 100 px square (corners (0,0), (100,0), (100,100), (0,100), handles at the
  // thirds: straight sides) 400 px round. Position 90% = 360 px: 60 px down the closing side, at (0, 40)
  // heading -90 deg; then 80 px more wraps to 40 px along the first side, at (40, 0) heading 0 deg.
  constraints_check_bone(r->rig, "c1", 0, -40, -90);
  constraints_check_bone(r->rig, "c2", 40, 0, 0);
  SECTION("chain mode puts each bone at the tip of the one before") {
    // Each bone turns toward the next space and keeps its 20 px length: b2 at 20 * (0.6, 0.8).
    auto chain = import_spine(constraints_replace(constraints_fixture("path.json"), "\"chainScale\"", "\"chain\""), "path.json",
                              nullptr, {});
    REQUIRE(chain.has_value());
    constraints_check_bone(chain->rig, "b2", 12, -16, a);
    constraints_check_bone(chain->rig, "b3", 24, -32, a);
  }
}

TEST_CASE("spine constraints: physics at rest and skin-only constraints leave the setup pose", "[interop]") {
  std::string text = constraints_fixture("ik_one_bone.json");
  SECTION("physics") {
    auto r = import_spine(constraints_replace(text, "\"ik\": [", "\"physics\": [{\"name\": \"wobble\", \"order\": 1, \"bone\": \"head\", \"x\": 1, \"rotate\": 1}], \"ik\": ["),
                          "ik_one_bone.json", nullptr, {});
    REQUIRE(r.has_value());
    constraints_check_bone(r->rig, "head", 10, 0, std::atan2(4.0, 3.0) * 180 / M_PI);  // the IK's pose, physics adds nothing
    CHECK(constraints_note(*r, "moved no bone (the setup pose already meets them): \"wobble\""));
  }
  SECTION("two constraints of one order: Spine applies the first listed only") {
    auto r = import_spine(constraints_replace(text, "\"ik\": [", "\"physics\": [{\"name\": \"wobble\", \"bone\": \"head\"}], \"ik\": ["),
                          "ik_one_bone.json", nullptr, {});
    REQUIRE(r.has_value());
    bool warned = false;
    for (const Diagnostic& d : r->diagnostics) {
      warned = warned || (d.code == "convert.spine.constraint.order" && d.message.find("\"wobble\" has order 0") != std::string::npos);
    }
    CHECK(warned);
  }
  SECTION("skin required") {
    auto r = import_spine(constraints_replace(text, "\"compress\": true", "\"compress\": true, \"skin\": true"), "ik_one_bone.json",
                          nullptr, {});
    REQUIRE(r.has_value());
    constraints_check_bone(r->rig, "head", 10, 0, 0);  // not applied: the constraint's skin is not shown
    bool noted = false;
    for (const Diagnostic& d : r->diagnostics) noted = noted || (d.code == "convert.spine.constraint.skin" && d.message.find("\"gaze\"") != std::string::npos);
    CHECK(noted);
  }
}

TEST_CASE("spine constraints: a malformed constraint is a located error", "[interop]") {
  const std::string text = constraints_fixture("ik_two_bone.json");
  const auto error_of = [](const std::string& json) {
    auto r = import_spine(json, "bad.json", nullptr, {});
    REQUIRE_FALSE(r.has_value());
    return r.error();
  };
  Error e = error_of(constraints_replace(text, "\"target\": \"target\"", "\"target\": \"nowhere\""));
  CHECK(e.code == "spine.constraint.bone");
  CHECK(e.where.json_pointer == "/ik/0/target");
  CHECK(e.where.line == 14);
  e = error_of(constraints_replace(text, "[\"arm\", \"fore\"]", "[\"arm\", \"elbow\"]"));
  CHECK(e.code == "spine.constraint.bone");
  CHECK(e.where.json_pointer == "/ik/0/bones/1");
  e = error_of(constraints_replace(text, "[\"arm\", \"fore\"]", "[\"fore\", \"arm\"]"));
  CHECK(e.code == "spine.constraint.bones");
  e = error_of(constraints_replace(text, "\"name\": \"reach\", ", ""));
  CHECK(e.code == "spine.missing");
  CHECK(e.where.json_pointer == "/ik/0");
  e = error_of(constraints_replace(constraints_fixture("path.json"), "\"chainScale\"", "\"sideways\""));
  CHECK(e.code == "spine.constraint.mode");
  CHECK(e.where.json_pointer == "/path/1/rotateMode");
  CHECK(e.message.find("tangent, chain, chainScale") != std::string::npos);
  e = error_of(constraints_replace(constraints_fixture("path.json"), "\"target\": \"rail-a\"", "\"target\": \"no-slot\""));
  CHECK(e.code == "spine.constraint.target");
  e = error_of(constraints_replace(text, "\"target\": \"target\"", "\"target\": \"target\", \"mix\": \"half\""));
  CHECK(e.code == "spine.type");
  CHECK(e.where.json_pointer == "/ik/0/mix");
}
