// SPDX-License-Identifier: Apache-2.0
// An arm drawn against the torso lies over pixels that are the torso's (and, at the hand, the
// thigh's). Bone heat alone gives such a bone every vertex nearer to it than to any other bone, and a
// hand's leaf runs on down through the leg: when a walk swings the arm one way and the leg the other,
// those vertices are pulled both ways and the triangles between them turn over. So a bone over the
// body is a layer on the body's weights: it is the nearest bone only of the vertices close to it
// (about an arm's half-width) and clearly closer to it than to the body's own bones, and its weight
// fades out over a band as wide as a bone half the length of its arm.
#include "weights/over_body.h"

#include <cmath>
#include <limits>

#include "weights/mesh_graph.h"

namespace rig2d::detail {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
// Reach: this share of the chain's length (shoulder to wrist), about an arm's half-width for a
// figure of adult proportions and a third of it for a chibi's short, thick arms.
constexpr double kReach = 0.15;
// A vertex goes to a bone over the body only when it is at most this share of its distance to the
// nearest body bone from it: a hand lying over a thigh takes none of the thigh.
constexpr double kNearer = 0.5;
// The heat softening of a bone over the body is set from at least this share of its chain's length:
// a blend about as wide as the arm is long, instead of a short hand's narrow one.
constexpr double kSoftening = 0.5;

}  // namespace

OverBodyBones over_body_bones(std::span<const Bone> bones, std::span<const Vec2> joints,
                              std::span<const std::uint8_t> over_body, std::span<const std::uint8_t> allowed) {
  const std::size_t nb = bones.size();
  OverBodyBones out;
  out.reach.assign(nb, kInf);
  out.soft_length.assign(nb, 0);
  if (over_body.size() != nb) return out;
  auto parent_of = [&](std::size_t b) -> std::int64_t {
    const std::int64_t p = bones[b].parent;
    return p >= 0 && p < static_cast<std::int64_t>(nb) && p != static_cast<std::int64_t>(b) ? p : -1;
  };
  // Each bone's chain: its topmost ancestor over the body (itself when its parent is not); the
  // chain's length sums the links of its bones from their parents' joints.
  std::vector<std::size_t> top(nb);
  std::vector<double> chain_length(nb, 0);
  for (std::size_t b = 0; b < nb; ++b) {
    std::size_t r = b;
    for (std::size_t guard = 0; guard < nb; ++guard) {  // a cycle cannot loop forever
      const std::int64_t p = parent_of(r);
      if (p < 0 || !over_body[static_cast<std::size_t>(p)]) break;
      r = static_cast<std::size_t>(p);
    }
    top[b] = r;
    const std::int64_t p = parent_of(b);
    if (over_body[b] && p >= 0) chain_length[r] += std::sqrt(dist2(joints[b], joints[static_cast<std::size_t>(p)]));
  }
  bool any_over = false;
  bool any_body = false;
  for (std::size_t b = 0; b < nb; ++b) {
    const double chain = chain_length[top[b]];
    const bool over = over_body[b] && chain > 0 && std::isfinite(chain);
    if (allowed.empty() || allowed[b]) (over ? any_over : any_body) = true;
    if (!over) continue;
    out.reach[b] = kReach * chain;
    out.soft_length[b] = kSoftening * chain;
  }
  out.layered = any_over && any_body;
  if (!out.layered) {  // nothing to lie over: every bone is an ordinary one
    out.reach.assign(nb, kInf);
    out.soft_length.assign(nb, 0);
  }
  return out;
}

void cap_over_body_leaves(std::vector<BoneSegment>& segments, const OverBodyBones& over) {
  for (BoneSegment& s : segments) {
    const double reach = over.reach[s.bone];
    if (!s.leaf || !std::isfinite(reach)) continue;
    const double l = std::sqrt(dist2(s.a, s.b));
    if (l > reach) s.b = {s.a.x + (s.b.x - s.a.x) * reach / l, s.a.y + (s.b.y - s.a.y) * reach / l};
  }
}

bool over_body_takes(const OverBodyBones& over, std::uint32_t bone, double d, double body_d) {
  return d <= over.reach[bone] && d <= kNearer * body_d;
}

}  // namespace rig2d::detail
