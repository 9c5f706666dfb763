// SPDX-License-Identifier: Apache-2.0
// Shape-aware bone-heat weights: invariants, the two-leg gap, chains, islands, degenerate input.
#include <catch2/catch.hpp>

#include <cmath>
#include <random>

#include "heat_fixtures.h"
#include "rig2d/skin/skeleton.h"
#include "rig2d/weights/heat_weights.h"
#include "rig2d/weights/joint_weights.h"

using namespace rig2d;
using namespace rig2d::test;

namespace {

HeatWeights heat(const Mesh& mesh, const std::vector<Bone>& bones, const HeatWeightsOptions& o = {}) {
  auto r = compute_heat_weights(mesh, bones, o);
  if (!r) FAIL(r.error().code << ": " << r.error().message);
  return std::move(r).value();
}

bool has_warning(const HeatWeights& h, const std::string& code) {
  for (const auto& d : h.warnings)
    if (d.code == code) return d.severity == Severity::Warning;
  return false;
}

// Mean weight of `bones` over the vertices selected by `pick`.
template <typename Pick>
double mean_weight(const Mesh& m, const SkinWeights& w, std::initializer_list<std::uint32_t> bones, Pick pick,
                   std::size_t* count = nullptr) {
  double total = 0;
  std::size_t n = 0;
  for (std::size_t v = 0; v < m.verts.size(); ++v) {
    if (!pick(m.verts[v])) continue;
    ++n;
    for (const auto b : bones) total += weight_of(w, v, b);
  }
  if (count) *count = n;
  return n ? total / static_cast<double>(n) : 0;
}

bool right_leg(Vec2 p) { return p.x > 0 && p.y > -20; }
bool left_leg(Vec2 p) { return p.x < 0 && p.y > -20; }

}  // namespace

TEST_CASE("heat: weights are >= 0, sum to 1, <= K influences on grid and outline meshes", "[weights][heat]") {
  const auto bones = two_leg_bones();
  const Mesh grid = grid_mesh(80, 120, 4, two_leg_inside);
  const Mesh outline = outline_mesh(two_leg_outline(), 10);  // ear-clipped: boundary vertices, slivers
  const Mesh cdt = cdt_mesh(two_leg_outline(), 8);            // refined constrained Delaunay
  const Mesh cdt_bare = cdt_mesh(two_leg_outline(), 0);       // the 8 corners only
  for (const Mesh* m : {&grid, &outline, &cdt, &cdt_bare}) {
    for (int k = 1; k <= 4; ++k) {
      HeatWeightsOptions o;
      o.max_influences = k;
      const HeatWeights h = heat(*m, bones, o);
      check_weights(h.weights, m->verts.size(), bones.size(), k);
      for (const auto& d : h.warnings) {
        INFO(d.code << " " << d.where.json_pointer << " " << d.message);
        CHECK(d.severity == Severity::Note);  // a bone no vertex is nearest to, on the 8-corner mesh
      }
      if (m != &cdt_bare) CHECK(h.warnings.empty());
      CHECK(h.stats.islands == 1);
    }
  }
}

TEST_CASE("heat: a vertex on a bone segment is dominated by that bone", "[weights][heat]") {
  const auto bones = two_leg_bones();
  const Mesh m = grid_mesh(80, 120, 5, two_leg_inside);  // 5 px cells put vertices on x = +-25
  const HeatWeights h = heat(m, bones);
  const std::vector<Vec2> joints = joint_positions(bones);
  std::size_t checked = 0;
  for (std::size_t v = 0; v < m.verts.size(); ++v) {
    const Vec2 p = m.verts[v];
    // Leg bones run along x = +-25: hip -> knee is y in (-25, 15), knee -> foot y in (15, 55).
    for (const std::uint32_t b : {1u, 2u, 4u, 5u}) {
      const Vec2 a = joints[b];
      const Vec2 e = joints[b + 1];
      if (std::abs(p.x - a.x) > 1e-9 || p.y <= a.y + 8 || p.y >= e.y - 8) continue;
      INFO("vertex " << v << " (" << p.x << "," << p.y << ") bone " << b);
      CHECK(weight_of(h.weights, v, b) >= 0.5);
      CHECK(h.weights.indices[v * 4] == b);
      ++checked;
    }
  }
  CHECK(checked >= 20);
}

TEST_CASE("heat: left-leg bones leave the right leg alone (two-leg shape, <= 1%)", "[weights][heat]") {
  const auto bones = two_leg_bones();
  const Mesh grid = grid_mesh(80, 120, 4, two_leg_inside);
  const Mesh outline = outline_mesh(two_leg_outline(), 6);
  const Mesh cdt = cdt_mesh(two_leg_outline(), 6);
  for (const Mesh* m : {&grid, &outline, &cdt}) {
    const HeatWeights h = heat(*m, bones);
    std::size_t n_right = 0;
    std::size_t n_left = 0;
    const double left_on_right = mean_weight(*m, h.weights, {1, 2, 3}, right_leg, &n_right);
    const double right_on_left = mean_weight(*m, h.weights, {4, 5, 6}, left_leg, &n_left);
    // The engine's nearest-joint scheme on the same mesh, for comparison: it measures straight lines.
    const SkinWeights joint = compute_joint_weights(m->verts, bones);
    const double joint_left_on_right = mean_weight(*m, joint, {1, 2, 3}, right_leg);
    INFO("left bones on right leg " << left_on_right << " (joint scheme " << joint_left_on_right
                                    << "), right bones on left leg " << right_on_left);
    CHECK(joint_left_on_right > 0.03);
    CHECK(left_on_right * 10 < joint_left_on_right);
    CHECK(n_right >= 8);
    CHECK(n_left >= 8);
    CHECK(left_on_right <= 0.01);
    CHECK(right_on_left <= 0.01);
    // And the legs are driven by their own bones.
    CHECK(mean_weight(*m, h.weights, {4, 5, 6}, right_leg) >= 0.85);  // the rest is the pelvis, at the hip
  }
}

TEST_CASE("heat: a straight 3-bone chain splits at the joints, smoothly, with <= 4 influences", "[weights][heat]") {
  const auto bones = chain_bones();
  const Mesh m = grid_mesh(32, 192, 4, [](double, double) { return true; });
  const HeatWeights h = heat(m, bones);
  check_weights(h.weights, m.verts.size(), 3, 4);
  // The tip bone sits on the bottom edge with nothing beyond it: no weight, and a note says so.
  for (std::size_t v = 0; v < m.verts.size(); ++v) CHECK(weight_of(h.weights, v, 2) == 0);
  REQUIRE(h.warnings.size() == 1);
  CHECK(h.warnings[0].code == "weights.heat.bone_unweighted");
  CHECK(h.warnings[0].severity == Severity::Note);
  CHECK(h.warnings[0].where.json_pointer == "/bones/2");
  // Down each column: the root fades out monotonically, bone1 fades in; the root dominates above the
  // joint (y = 0), bone1 below it.
  double max_step = 0;
  for (const double x : {-16.0, -8.0, 0.0, 8.0, 16.0}) {
    std::vector<std::size_t> column;
    for (std::size_t v = 0; v < m.verts.size(); ++v)
      if (m.verts[v].x == x) column.push_back(v);
    REQUIRE(column.size() == 49);
    for (std::size_t i = 0; i < column.size(); ++i) {
      const std::size_t v = column[i];
      const double y = m.verts[v].y;
      const double w_root = weight_of(h.weights, v, 0);
      const double w_mid = weight_of(h.weights, v, 1);
      INFO("(" << x << "," << y << ") root " << w_root << " bone1 " << w_mid);
      if (y < 0) CHECK(w_root > w_mid);
      if (y > 0) CHECK(w_mid > w_root);
      if (y == 0) CHECK(std::abs(w_root - 0.5) <= 0.01);
      if (i > 0) {
        const std::size_t u = column[i - 1];
        CHECK(w_root <= weight_of(h.weights, u, 0) + 1e-12);
        CHECK(w_mid + 1e-12 >= weight_of(h.weights, u, 1));
        max_step = std::max(max_step, std::abs(w_root - weight_of(h.weights, u, 0)));
      }
    }
  }
  // As smooth as the engine's nearest-joint weights on the same mesh (largest row-to-row change).
  const SkinWeights joint = compute_joint_weights(m.verts, bones);
  double joint_step = 0;
  for (std::size_t v = 0; v < m.verts.size(); ++v)
    for (std::size_t u = 0; u < m.verts.size(); ++u)
      if (m.verts[u].x == m.verts[v].x && m.verts[u].y == m.verts[v].y - 4)
        for (std::uint32_t b = 0; b < 3; ++b)
          joint_step = std::max(joint_step, std::abs(weight_of(joint, v, b) - weight_of(joint, u, b)));
  INFO("largest step between rows " << max_step << ", joint scheme " << joint_step);
  CHECK(max_step <= joint_step);
  // The blend is wide: a quarter of the way along either bone the other still has a few percent.
  CHECK(weight_of(h.weights, [&] { std::size_t v = 0; while (!(m.verts[v] == Vec2{0, -24})) ++v; return v; }(), 1) > 0.05);
}

TEST_CASE("heat: translating or rotating the whole sprite leaves the weights unchanged", "[weights][heat]") {
  const auto bones = two_leg_bones();
  const Mesh base = grid_mesh(80, 120, 4, two_leg_inside);
  const auto ref = as_maps(heat(base, bones).weights);
  for (const double angle : {0.0, 0.7, 2.0, -1.3}) {
    const double c = std::cos(angle), s = std::sin(angle);
    const Vec2 shift{37.25, -12.5};
    Mesh m = base;
    for (Vec2& p : m.verts) p = {c * p.x - s * p.y + shift.x, s * p.x + c * p.y + shift.y};
    auto moved = bones;
    const Vec2 r{bones[0].x, bones[0].y};
    moved[0].x = c * r.x - s * r.y + shift.x;
    moved[0].y = s * r.x + c * r.y + shift.y;
    moved[0].rot = angle;  // children are local to the root, so they follow
    const auto got = as_maps(heat(m, moved).weights);
    REQUIRE(got.size() == ref.size());
    double worst = 0;
    for (std::size_t v = 0; v < ref.size(); ++v) {
      for (std::uint32_t b = 0; b < bones.size(); ++b) {
        const double x = ref[v].count(b) ? ref[v].at(b) : 0;
        const double y = got[v].count(b) ? got[v].at(b) : 0;
        worst = std::max(worst, std::abs(x - y));
      }
    }
    INFO("angle " << angle << " largest weight difference " << worst);
    CHECK(worst <= 1e-6);
  }
}

TEST_CASE("heat: the same input gives the same bytes", "[weights][heat]") {
  const auto bones = two_leg_bones();
  const Mesh m = outline_mesh(two_leg_outline(), 5);
  HeatWeightsOptions o;
  o.smooth_passes = 2;
  const HeatWeights a = heat(m, bones, o);
  const HeatWeights b = heat(m, bones, o);
  CHECK(a.weights.indices == b.weights.indices);
  CHECK(a.weights.weights == b.weights.weights);  // exact, not approximate
}

TEST_CASE("heat: each island is weighted by the bones that cross it", "[weights][heat]") {
  // Two separate bars 40 px apart, one two-bone chain in each.
  const Mesh m = grid_mesh(120, 60, 5, [](double x, double) { return std::abs(x) > 20; });
  const std::vector<Bone> bones{{"l0", -1, -50, -25, 0}, {"l1", 0, 0, 50, 0},
                                {"r0", -1, 50, -25, 0},  {"r1", 2, 0, 50, 0}};
  const HeatWeights h = heat(m, bones);
  check_weights(h.weights, m.verts.size(), bones.size(), 4);
  CHECK(h.stats.islands == 2);
  CHECK(h.warnings.empty());
  for (std::size_t v = 0; v < m.verts.size(); ++v) {
    const bool left = m.verts[v].x < 0;
    INFO("vertex " << v);
    CHECK(weight_of(h.weights, v, left ? 2 : 0) + weight_of(h.weights, v, left ? 3 : 1) == 0);
  }
}

TEST_CASE("heat: a bone bridging to a detached island acts in its own island only", "[weights][heat]") {
  // Two bars; the chain root -> mid runs along the left one, and the right bar's root hangs from mid:
  // mid's only segment is the bridge across the gap (as the shape skeleton joins islands).
  const Mesh m = grid_mesh(120, 60, 5, [](double x, double y) { return std::abs(x) > 20 && std::abs(y) <= 10; });
  const std::vector<Bone> bones{{"root", -1, -55, 0, 0}, {"mid", 0, 20, 0, 0}, {"island", 1, 65, 0, 0},
                                {"island_tip", 2, 20, 0, 0}};
  const HeatWeights h = heat(m, bones);
  check_weights(h.weights, m.verts.size(), bones.size(), 4);
  CHECK(h.stats.islands == 2);
  // Past mid's joint the left bar follows mid (its bridge is as long as its part inside, 15 px, not 65 px).
  std::size_t past = 0;
  const auto past_mid = [](Vec2 p) { return p.x > -30 && p.x < 0; };
  CHECK(mean_weight(m, h.weights, {1}, past_mid, &past) > 0.5);
  CHECK(past > 0);
  CHECK(mean_weight(m, h.weights, {1}, past_mid) > mean_weight(m, h.weights, {0}, past_mid));
  // The right bar moves by its own bones alone: the bridge seeds nothing there.
  for (std::size_t v = 0; v < m.verts.size(); ++v) {
    if (m.verts[v].x < 0) continue;
    INFO("vertex " << v);
    CHECK(weight_of(h.weights, v, 0) + weight_of(h.weights, v, 1) == 0);
  }
}

TEST_CASE("heat: an island no bone crosses takes the nearest bones and says so", "[weights][heat]") {
  // The chain runs through the left bar only; the right bar (a detached piece) must still be weighted.
  const Mesh m = grid_mesh(120, 60, 5, [](double x, double) { return std::abs(x) > 20; });
  const std::vector<Bone> bones{{"top", -1, -40, -25, 0}, {"bottom", 0, 0, 50, 0}};
  const HeatWeights h = heat(m, bones);
  check_weights(h.weights, m.verts.size(), bones.size(), 4);
  CHECK(has_warning(h, "weights.heat.island_without_bone"));
  // The detached bar moves nearly rigidly (far from both bones, heat spreads evenly), leaning to
  // the bone nearest each end: more "top" at its top than at its bottom.
  double top_row = 0, bottom_row = 0;
  for (std::size_t v = 0; v < m.verts.size(); ++v) {
    const Vec2 p = m.verts[v];
    if (p.x < 20) continue;
    CHECK(weight_of(h.weights, v, 0) + weight_of(h.weights, v, 1) == Approx(1));
    if (p.y == -30) top_row += weight_of(h.weights, v, 0);
    if (p.y == 30) bottom_row += weight_of(h.weights, v, 0);
  }
  CHECK(top_row > bottom_row);
}

TEST_CASE("heat: degenerate meshes degrade with a warning, never a crash", "[weights][heat]") {
  const std::vector<Bone> bones{{"root", -1, 0, -20, 0}, {"mid", 0, 0, 20, 0}, {"tip", 1, 0, 20, 0}};
  Mesh m = grid_mesh(20, 40, 5, [](double, double) { return true; });
  const std::size_t n = m.verts.size();

  SECTION("zero-area triangles are ignored") {
    m.tris.insert(m.tris.end(), {0, 1, 1, 0, 1, 2});  // repeated index; three collinear top-row vertices
    const HeatWeights h = heat(m, bones);
    check_weights(h.weights, n, 3, 4);
    CHECK(h.stats.degenerate_triangles == 2);
    CHECK(has_warning(h, "weights.heat.degenerate"));
  }
  SECTION("an isolated vertex takes its nearest bone") {
    m.verts.push_back({3, 10});  // 3 px from the mid bone, in no triangle
    const HeatWeights h = heat(m, bones);
    check_weights(h.weights, n + 1, 3, 4);
    CHECK(h.stats.isolated_vertices == 1);
    CHECK(has_warning(h, "weights.heat.isolated"));
    CHECK(h.weights.indices[n * 4] == 1);
    CHECK(h.weights.weights[n * 4] == 1);
  }
  SECTION("a mesh with only zero-area triangles is all nearest-bone") {
    Mesh flat;
    flat.verts = {{0, -15}, {0, 0}, {0, 15}};
    flat.tris = {0, 1, 2};
    const HeatWeights h = heat(flat, bones);
    check_weights(h.weights, 3, 3, 4);
    CHECK(h.weights.indices[0] == 0);
    CHECK(h.weights.indices[8] == 1);
    CHECK(h.stats.isolated_vertices == 3);
  }
  SECTION("a bone off the mesh is attached to its nearest point") {
    auto off = bones;
    off.push_back({"tail", 0, 60, 0, 0});  // 50 px right of the bar
    const HeatWeights h = heat(m, off);
    check_weights(h.weights, n, 4, 4);
    CHECK(h.stats.bones_outside == 1);
    CHECK(has_warning(h, "weights.heat.bone_outside"));
  }
  SECTION("an empty mesh gives empty weights") {
    const HeatWeights h = heat(Mesh{}, bones);
    CHECK(h.weights.indices.empty());
    CHECK(h.weights.weights.empty());
  }
  SECTION("one bone binds everything to it") {
    const HeatWeights h = heat(m, {bones[0]});
    for (std::size_t v = 0; v < n; ++v) CHECK(h.weights.weights[v * 4] == 1);
  }
}

TEST_CASE("heat: bad input is a clear error with a pointer", "[weights][heat]") {
  const std::vector<Bone> bones{{"root", -1, 0, 0, 0}};
  const Mesh good = grid_mesh(10, 10, 5, [](double, double) { return true; });
  auto code_of = [&](const Mesh& m, const std::vector<Bone>& b, const HeatWeightsOptions& o = {}) {
    auto r = compute_heat_weights(m, b, o);
    REQUIRE_FALSE(r);
    return r.error().code + " " + r.error().where.json_pointer;
  };
  CHECK(code_of(good, {}) == "weights.heat.no_bones /bones");
  Mesh m = good;
  m.tris.push_back(0);
  CHECK(code_of(m, bones) == "weights.heat.tris_count /mesh/tris");
  m = good;
  m.tris[4] = 99;
  CHECK(code_of(m, bones) == "weights.heat.index /mesh/tris/4");
  m = good;
  m.verts[2].y = std::nan("");
  CHECK(code_of(m, bones) == "weights.heat.non_finite /mesh/verts/2");
  std::vector<Bone> far{{"root", -1, 1e308, 0, 0}, {"child", 0, 1e308, 0, 0}};
  CHECK(code_of(good, far) == "weights.heat.non_finite /bones/1");
  HeatWeightsOptions o;
  o.max_influences = 5;
  CHECK(code_of(good, bones, o) == "weights.heat.options ");
  o = {};
  o.min_weight = 0.3;
  CHECK(code_of(good, bones, o) == "weights.heat.options ");
  o = {};
  o.smooth_passes = -1;
  CHECK(code_of(good, bones, o) == "weights.heat.options ");
  o = {};
  o.default_leaf_length = std::nan("");
  CHECK(code_of(good, bones, o) == "weights.heat.options ");
}

TEST_CASE("heat: smoothing passes widen the joint blend and keep the invariants", "[weights][heat]") {
  const auto bones = chain_bones();
  const Mesh m = grid_mesh(32, 192, 4, [](double, double) { return true; });
  HeatWeightsOptions o;
  const HeatWeights plain = heat(m, bones, o);
  o.smooth_passes = 8;
  const HeatWeights smooth = heat(m, bones, o);
  check_weights(smooth.weights, m.verts.size(), 3, 4);
  // 12 px above the joint (x = 0, y = -12): smoothing moves weight from the root toward bone1.
  std::size_t v = 0;
  while (!(m.verts[v].x == 0 && m.verts[v].y == -12)) ++v;
  INFO("plain " << weight_of(plain.weights, v, 1) << " smoothed " << weight_of(smooth.weights, v, 1));
  CHECK(weight_of(smooth.weights, v, 1) > weight_of(plain.weights, v, 1));
}

TEST_CASE("heat: random meshes and skeletons never crash and always give valid weights", "[weights][heat]") {
  // Triangle soups with duplicate and isolated vertices, mixed winding, overlapping and zero-area
  // triangles, scales from 1e-6 to 1e12 px, and skeletons with cycles and out-of-range parents.
  std::mt19937 rng(20240607);
  for (int round = 0; round < 200; ++round) {
    INFO("round " << round);
    const double scale = std::pow(10.0, std::uniform_int_distribution<int>(-6, 12)(rng));
    std::uniform_real_distribution<double> coord(-scale, scale);
    Mesh m;
    const int nv = std::uniform_int_distribution<int>(1, 60)(rng);
    for (int i = 0; i < nv; ++i) {
      if (i > 0 && rng() % 8 == 0) {
        m.verts.push_back(m.verts[rng() % m.verts.size()]);  // a duplicate position
      } else {
        m.verts.push_back({coord(rng), coord(rng)});
      }
    }
    const int nt = std::uniform_int_distribution<int>(0, 80)(rng);
    for (int t = 0; t < 3 * nt; ++t) m.tris.push_back(static_cast<std::uint32_t>(rng() % m.verts.size()));
    std::vector<Bone> bones(1 + rng() % 6);
    for (std::size_t b = 0; b < bones.size(); ++b) {
      bones[b].name = "b" + std::to_string(b);
      bones[b].parent = static_cast<std::int64_t>(rng() % (bones.size() + 2)) - 1;  // cycles, self, out of range
      bones[b].x = coord(rng);
      bones[b].y = coord(rng);
      bones[b].rot = std::uniform_real_distribution<double>(-4, 4)(rng);
    }
    HeatWeightsOptions o;
    o.max_influences = 1 + static_cast<int>(rng() % 4);
    o.smooth_passes = static_cast<int>(rng() % 3);
    auto r = compute_heat_weights(m, bones, o);
    if (!r) {
      // Only a joint pushed past double range by chained offsets can fail here.
      CHECK(r.error().code == "weights.heat.non_finite");
      continue;
    }
    check_weights(r->weights, m.verts.size(), bones.size(), o.max_influences);
  }
}

TEST_CASE("heat: a bone that is every vertex's only nearest bone weighs 1 everywhere", "[weights][heat]") {
  const Mesh m = grid_mesh(40, 60, 4, [](double x, double y) { return x * x / 400 + y * y / 900 <= 1; });
  auto only_bone = [&](const HeatWeights& h, std::uint32_t bone) {
    REQUIRE(h.weights.indices.size() == m.verts.size() * kSlotsPerVertex);
    REQUIRE(h.weights.weights.size() == m.verts.size() * kSlotsPerVertex);
    for (std::size_t v = 0; v < m.verts.size(); ++v) {
      INFO("vertex " << v);
      CHECK(h.weights.indices[v * kSlotsPerVertex] == bone);
      CHECK(h.weights.weights[v * kSlotsPerVertex] == 1.0);
      for (int k = 1; k < kSlotsPerVertex; ++k) {
        CHECK(h.weights.indices[v * kSlotsPerVertex + std::size_t(k)] == 0);
        CHECK(h.weights.weights[v * kSlotsPerVertex + std::size_t(k)] == 0.0);
      }
    }
    CHECK(h.stats.solved_bones == 1);
    CHECK_FALSE(h.stats.solver_fallback);
  };
  std::vector<Bone> bones(1);
  bones[0].name = "root";
  bones[0].y = -20;
  bones[0].rot = 1.5707963267948966;
  only_bone(heat(m, bones), 0);

  // Two bones, one masked out: the other is the only source.
  bones.push_back(bones[0]);
  bones[1].name = "tip";
  bones[1].parent = 0;
  bones[1].x = 20;
  HeatWeightsOptions masked;
  masked.bone_mask = {0, 1};
  only_bone(heat(m, bones, masked), 1);

  // A tip joint beyond the mesh's end with nothing past it is nobody's nearest: a note says so, and
  // the parent takes every vertex.
  bones[1].x = 60;
  const HeatWeights tip = heat(m, bones);
  only_bone(tip, 0);
  bool noted = false;
  for (const auto& d : tip.warnings) noted = noted || (d.code == "weights.heat.bone_unweighted" && d.severity == Severity::Note);
  CHECK(noted);
}
