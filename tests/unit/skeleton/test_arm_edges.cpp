// SPDX-License-Identifier: Apache-2.0
// Arms drawn against the body, refined from the sprite's inner colour edges
// (TemplateFitOptions::colour_edges): a figure drawn in code with a sleeve and a hand over its torso
// at a known slant, mirrored; the same arm in the torso's own colour, a striped torso and a noisy one
// (no invented evidence); and the real standing figures of tests/data/real-sprites.
#include <algorithm>
#include <array>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "rig2d/image/png.h"
#include "rig2d/skeleton/template.h"
#include "rig2d/skin/skeleton.h"

namespace rig2d {
namespace {

using ArmEdgesColour = std::array<std::uint8_t, 3>;

constexpr ArmEdgesColour kArmEdgesShirt{40, 90, 200}, kArmEdgesSleeve{200, 40, 40}, kArmEdgesSkin{240, 200, 160},
    kArmEdgesLegs{60, 50, 40};
constexpr double kArmEdgesPi = 3.14159265358979323846;

struct ArmEdgesFigure {
  Image image;
  Vec2 shoulder, wrist;  // image px: the drawn arm's
};

void arm_edges_put(Image& im, int x, int y, ArmEdgesColour c) {
  if (x < 0 || y < 0 || x >= im.width || y >= im.height) return;
  std::uint8_t* p = &im.rgba[4 * (static_cast<std::size_t>(y) * static_cast<std::size_t>(im.width) + static_cast<std::size_t>(x))];
  p[0] = c[0], p[1] = c[1], p[2] = c[2], p[3] = 255;
}

// A standing figure 120 x 230: a round head of radius `head` on top of a rectangular torso (x 40..80,
// y 54..130), two legs;
// `shirt(x, y)` colours the torso. An arm of half-width 4.5 is drawn over the torso from `from`
// (image px) along `deg` (image degrees, y down) for 60 px: a sleeve for 50 px, then a hand (unless
// `draw_arm` is false), and its mirror image about x = 60 on the other side (unless `twin` is false).
// The arms lie wholly inside the torso, so the silhouette shows no arm.
template <typename Shirt>
ArmEdgesFigure arm_edges_figure(Vec2 from, double deg, ArmEdgesColour sleeve, ArmEdgesColour hand, Shirt shirt,
                                bool draw_arm = true, bool twin = true, double head = 17) {
  ArmEdgesFigure f;
  f.image.width = 120, f.image.height = 230;
  f.image.rgba.assign(4 * 120 * 230, 0);
  for (int y = 0; y < 230; ++y)
    for (int x = 0; x < 120; ++x) {
      const double cx = x + 0.5, cy = y + 0.5;
      if (std::hypot(cx - 60, cy - (55 - head)) <= head) arm_edges_put(f.image, x, y, kArmEdgesSkin);
      if (x >= 40 && x < 80 && y >= 54 && y < 130) arm_edges_put(f.image, x, y, shirt(x, y));
      if (((x >= 44 && x < 56) || (x >= 64 && x < 76)) && y >= 130 && y < 200) arm_edges_put(f.image, x, y, kArmEdgesLegs);
    }
  const Vec2 u{std::cos(deg * kArmEdgesPi / 180), std::sin(deg * kArmEdgesPi / 180)};
  for (int y = 0; y < 230; ++y)
    for (int x = 0; x < 120; ++x)
      for (const bool mirrored : {false, true}) {
        if (mirrored && !twin) continue;
        const Vec2 d{(mirrored ? 120 - (x + 0.5) : x + 0.5) - from.x, y + 0.5 - from.y};
        const double t = std::clamp(d.x * u.x + d.y * u.y, 0.0, 60.0);
        if (std::hypot(d.x - t * u.x, d.y - t * u.y) > 4.5 || !draw_arm) continue;
        arm_edges_put(f.image, x, y, t < 50 ? sleeve : hand);
      }
  f.shoulder = from;
  f.wrist = {from.x + 50 * u.x, from.y + 50 * u.y};
  return f;
}

ArmEdgesColour arm_edges_plain(int, int) { return kArmEdgesShirt; }

TemplateFit arm_edges_fit(const Image& im, bool edges) {
  auto humanoid = bundled_template("humanoid");
  REQUIRE(humanoid.has_value());
  TemplateFitOptions o;
  o.colour_edges = edges;
  auto fit = fit_template(im, *humanoid, o);
  REQUIRE(fit.has_value());
  return std::move(*fit);
}

// Nothing refined, and every joint exactly where the fit without the refinement puts it.
void arm_edges_check_unrefined(const Image& im) {
  const TemplateFit refined = arm_edges_fit(im, true), plain = arm_edges_fit(im, false);
  CHECK(refined.refined.empty());
  REQUIRE(refined.bones.size() == plain.bones.size());
  for (std::size_t i = 0; i < refined.bones.size(); ++i) {
    INFO(refined.bones[i].name);
    CHECK(refined.bones[i].x == plain.bones[i].x);
    CHECK(refined.bones[i].y == plain.bones[i].y);
  }
}

std::map<std::string, Vec2> arm_edges_joints(const TemplateFit& fit, const Image& im) {  // image px
  const std::vector<Vec2> j = joint_positions(fit.bones);
  std::map<std::string, Vec2> out;
  for (std::size_t i = 0; i < fit.bones.size(); ++i) out[fit.bones[i].name] = {j[i].x + 0.5 * im.width, j[i].y + 0.5 * im.height};
  return out;
}

bool arm_edges_has(const std::vector<std::string>& names, const std::string& name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

double arm_edges_angle(Vec2 a, Vec2 b) { return std::atan2(b.y - a.y, b.x - a.x) * 180 / kArmEdgesPi; }

// The arm on the screen's `side` (+1 right, -1 left) refined onto the drawn one: its shoulder-to-wrist
// direction within 4 degrees of the drawn arm's, its wrist within 4 px of the drawn wrist (where the
// sleeve meets the hand). The other arm, drawn as its mirror image, is refined too.
void arm_edges_check_side(const ArmEdgesFigure& f, double deg, int side) {
  const TemplateFit refined = arm_edges_fit(f.image, true), plain = arm_edges_fit(f.image, false);
  const auto j = arm_edges_joints(refined, f.image), p = arm_edges_joints(plain, f.image);
  // Which template arm is on that side of the screen (a fit may come out mirrored).
  const std::string drawn = (p.at("hand_l").x - p.at("chest").x) * side > 0 ? "_l" : "_r";
  const std::string other = drawn == "_l" ? "_r" : "_l";
  INFO("drawn arm: " << drawn);
  for (const char* bone : {"upper_arm", "lower_arm", "hand"}) {
    CHECK(arm_edges_has(refined.refined, bone + drawn));
    CHECK(arm_edges_has(refined.refined, bone + other));
    CHECK(arm_edges_has(refined.over_body, bone + drawn));
  }
  const Vec2 shoulder = j.at("upper_arm" + drawn), elbow = j.at("lower_arm" + drawn), wrist = j.at("hand" + drawn);
  CHECK(std::abs(arm_edges_angle(shoulder, wrist) - deg) < 4);
  CHECK(std::hypot(wrist.x - f.wrist.x, wrist.y - f.wrist.y) < 4);
  // The elbow lies between them on the arm (straight: the drawn arm does not bend).
  const double along = ((elbow.x - shoulder.x) * (wrist.x - shoulder.x) + (elbow.y - shoulder.y) * (wrist.y - shoulder.y)) /
                       std::pow(std::hypot(wrist.x - shoulder.x, wrist.y - shoulder.y), 2);
  CHECK(along > 0.2);
  CHECK(along < 0.8);
  CHECK(refined.score == plain.score);  // the score stays the shape's
}

TEST_CASE("an arm drawn over the torso in its own colours is found at its slant, either side") {
  // 98 degrees: down and in by 8 degrees from vertical on the screen's right (the template's rest
  // for the forearm is 80: down and out by 10); the twin on the left, 4 px clear of it at the hands.
  SECTION("screen right") {
    const ArmEdgesFigure f = arm_edges_figure({75, 60}, 98, kArmEdgesSleeve, kArmEdgesSkin, arm_edges_plain);
    arm_edges_check_side(f, 98, 1);
  }
  SECTION("screen left, mirrored") {
    const ArmEdgesFigure f = arm_edges_figure({45, 60}, 82, kArmEdgesSleeve, kArmEdgesSkin, arm_edges_plain);
    arm_edges_check_side(f, 82, -1);
  }
}

TEST_CASE("one arm drawn over the torso without its twin is not refined: the proportions' placement stays exactly") {
  // A single tube of edges on one side is as likely a stripe, a jaw or a tail as an arm.
  const ArmEdgesFigure f = arm_edges_figure({74, 62}, 110, kArmEdgesSleeve, kArmEdgesSkin, arm_edges_plain, true, false);
  arm_edges_check_unrefined(f.image);
}

TEST_CASE("a figure a humanoid plainly does not fit is not searched for arms: the placement stays exactly") {
  // The arms found at their slant above, under a head a fifth of the torso's width (a humanoid's is at
  // least 0.3 of it): auto would not take the humanoid, so forced onto the figure it keeps the
  // proportions' arms.
  const double head = 4;
  const ArmEdgesFigure f = arm_edges_figure({75, 60}, 98, kArmEdgesSleeve, kArmEdgesSkin, arm_edges_plain, true, true, head);
  arm_edges_check_unrefined(f.image);
}

TEST_CASE("an arm in the torso's own colour shows no edges: the proportions' placement stays exactly") {
  const ArmEdgesFigure f = arm_edges_figure({74, 62}, 110, kArmEdgesShirt, kArmEdgesShirt, arm_edges_plain);
  arm_edges_check_unrefined(f.image);
}

TEST_CASE("a striped or noisy torso does not pull an arm onto its texture") {
  SECTION("vertical stripes, 3 px each, no arm drawn: nothing refined") {
    const ArmEdgesFigure f = arm_edges_figure({74, 62}, 110, kArmEdgesShirt, kArmEdgesShirt, [](int x, int) {
      return (x / 3) % 2 ? ArmEdgesColour{40, 90, 200} : ArmEdgesColour{200, 220, 240};
    }, false);
    const TemplateFit refined = arm_edges_fit(f.image, true), plain = arm_edges_fit(f.image, false);
    CHECK(refined.refined.empty());
    const auto j = arm_edges_joints(refined, f.image), p = arm_edges_joints(plain, f.image);
    for (const auto& [name, at] : j) {
      INFO(name);
      CHECK(at == p.at(name));
    }
  }
  SECTION("noise over the torso, the arm drawn: rejected, or still on the drawn arm") {
    std::uint32_t state = 12345;  // a fixed LCG: the same noise every run
    const ArmEdgesFigure f = arm_edges_figure({75, 60}, 98, kArmEdgesSleeve, kArmEdgesSkin, [&](int, int) {
      state = state * 1664525u + 1013904223u;
      const auto v = static_cast<std::uint8_t>(state >> 24);
      return ArmEdgesColour{static_cast<std::uint8_t>(v / 2), static_cast<std::uint8_t>(60 + v / 3), 200};
    });
    const TemplateFit refined = arm_edges_fit(f.image, true), plain = arm_edges_fit(f.image, false);
    const auto j = arm_edges_joints(refined, f.image), p = arm_edges_joints(plain, f.image);
    const std::string drawn = p.at("hand_l").x > p.at("chest").x ? "_l" : "_r";
    const std::string other = drawn == "_l" ? "_r" : "_l";
    // Both arms or neither (a pair), each on its drawn arm.
    CHECK(arm_edges_has(refined.refined, "hand" + drawn) == arm_edges_has(refined.refined, "hand" + other));
    if (arm_edges_has(refined.refined, "hand" + drawn)) {
      CHECK(std::abs(arm_edges_angle(j.at("upper_arm" + drawn), j.at("hand" + drawn)) - 98) < 6);
      CHECK(std::hypot(j.at("hand" + drawn).x - f.wrist.x, j.at("hand" + drawn).y - f.wrist.y) < 6);
      CHECK(std::abs(arm_edges_angle(j.at("upper_arm" + other), j.at("hand" + other)) - 82) < 6);
      CHECK(std::hypot(j.at("hand" + other).x - (120 - f.wrist.x), j.at("hand" + other).y - f.wrist.y) < 6);
    }
  }
}

// The real standing player (80 x 110, CC0): its arms hang straight down at the sides, a skin-coloured
// forearm and hand below the shirt's sleeve, from about y 66 to y 100, centred near x 17 and x 63 (read
// off the pictures). Each refined arm: its wrist on a skin pixel (light, yellowish: not the white cuff,
// not the shirt), its shoulder-to-wrist direction within 15 degrees of straight down, outside the
// torso's middle.
TEST_CASE("the real standing player's arms land on the drawn sleeve and hand") {
  const std::filesystem::path dir = std::filesystem::path(RIG2D_SOURCE_DIR) / "tests/data/real-sprites";
  for (const char* name : {"kenney_platformer-characters_player_player_idle.png"}) {
    INFO(name);
    auto im = load_png((dir / name).string());
    REQUIRE(im.has_value());
    const TemplateFit fit = arm_edges_fit(*im, true);
    const auto j = arm_edges_joints(fit, *im);
    // Both arms refined.
    for (const char* bone : {"upper_arm_l", "lower_arm_l", "hand_l", "upper_arm_r", "lower_arm_r", "hand_r"})
      CHECK(arm_edges_has(fit.refined, bone));
    for (const std::string side : {"_l", "_r"}) {
      INFO(side);
      const Vec2 wrist = j.at("hand" + side), shoulder = j.at("upper_arm" + side);
      const int x = static_cast<int>(std::floor(wrist.x)), y = static_cast<int>(std::floor(wrist.y));
      const std::uint8_t* p = &im->rgba[4 * (static_cast<std::size_t>(y) * static_cast<std::size_t>(im->width) + static_cast<std::size_t>(x))];
      INFO("wrist (" << wrist.x << ", " << wrist.y << ") rgba " << int(p[0]) << " " << int(p[1]) << " " << int(p[2]) << " " << int(p[3]));
      CHECK(p[3] > 200);
      CHECK(p[0] > 200);
      CHECK(p[1] > 180);
      CHECK(p[2] > 120);
      CHECK(p[2] < 225);
      CHECK(std::abs(arm_edges_angle(shoulder, wrist) - 90) < 15);
      CHECK(std::abs(wrist.x - 40) > 16);  // at the side, not over the torso's middle
      CHECK(wrist.y > 80);
      CHECK(wrist.y < 100);
    }
  }
}

TEST_CASE("a real figure whose hands hang past where its legs begin keeps the proportions' arms") {
  // The female figure's hands reach below its hip sockets: an arm found there would follow the legs'
  // tops, which move on their own in a walk, so both arms stay where the proportions put them.
  const std::filesystem::path dir = std::filesystem::path(RIG2D_SOURCE_DIR) / "tests/data/real-sprites";
  auto im = load_png((dir / "kenney_platformer-characters_female_female_idle.png").string());
  REQUIRE(im.has_value());
  arm_edges_check_unrefined(*im);
}

}  // namespace
}  // namespace rig2d
