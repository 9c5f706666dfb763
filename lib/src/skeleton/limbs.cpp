// SPDX-License-Identifier: Apache-2.0
#include "skeleton/limbs.h"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <numeric>

namespace rig2d::medial {
namespace {

double distance(Vec2 a, Vec2 b) { return std::hypot(b.x - a.x, b.y - a.y); }

double angle_between(Vec2 u, Vec2 v) {
  const double lu = std::hypot(u.x, u.y), lv = std::hypot(v.x, v.y);
  if (!(lu > 0) || !(lv > 0)) return 0;
  const double c = std::clamp((u.x * v.x + u.y * v.y) / (lu * lv), -1.0, 1.0);
  return std::acos(c) * 180.0 / std::numbers::pi;
}

// Stretch ends: the first joint, every bend past it, the full span.
std::vector<double> stretch_ends(const Limb& limb, const std::vector<double>& bends) {
  const double span = limb.length() + limb.reach;
  std::vector<double> ends{std::clamp(limb.start, 0.0, span)};
  for (const double b : bends)
    if (b > ends.back() && b < span) ends.push_back(b);
  ends.push_back(span);
  return ends;
}

// A leaf bone continues its parent's direction, so a tip limb's last stretch holds two joints when
// that direction is not the stretch's own: after a bend, or on a limb leaving the middle of a bar.
// A straight limb leaving a junction's disc needs no second joint: its parent's link, from the
// junction to the limb's first joint, already points along it; one that turns away from that link
// (an arm leaving a shoulder above the hips, limb.turns_at_start) does.
bool leaf_needs_own_stretch(const Limb& limb, std::size_t stretches) {
  return limb.tip && (stretches > 1 || !(limb.start > 0) || limb.turns_at_start);
}

}  // namespace

double Limb::length() const { return arclength_at(points.size() - 1); }

void Limb::measure() {
  step.assign(points.size(), 0.0);
  arc.assign(points.size(), 0.0);
  double s = 0;
  for (std::size_t i = 1; i < points.size(); ++i) {
    step[i] = distance(points[i - 1], points[i]);
    arc[i] = s += step[i];
  }
}

double Limb::arclength_at(std::size_t point) const {
  if (arc.size() == points.size() && !arc.empty()) return arc[std::min(point, arc.size() - 1)];
  double s = 0;
  for (std::size_t i = 1; i <= point && i < points.size(); ++i) s += distance(points[i - 1], points[i]);
  return s;
}

double Limb::step_to(std::size_t point) const {
  return step.size() == points.size() ? step[point] : distance(points[point - 1], points[point]);
}

double junction_exit(const Limb& limb) {
  if (limb.radius.empty()) return 0;
  const std::size_t j = std::min(limb.leaves_at, limb.radius.size() - 1);
  const double at = limb.arclength_at(j);
  const double past = std::max(limb.radius.front(), at + limb.radius[j]);
  return std::min(past, at + 0.5 * (limb.length() + limb.reach - at));
}

double Limb::mean_radius() const {
  if (radius.empty()) return 0;
  double sum = 0;
  for (double r : radius) sum += r;
  return sum / static_cast<double>(radius.size());
}

bool turns_at_start(const Limb& limb, double bend_deg) {
  const Vec2 from = limb.points.front(), joint = point_along(limb, limb.start);
  const Vec2 end = point_along(limb, limb.length() + limb.reach);
  return angle_between({joint.x - from.x, joint.y - from.y}, {end.x - joint.x, end.y - joint.y}) > bend_deg;
}

Vec2 point_along(const Limb& limb, double s) {
  const auto& p = limb.points;
  if (p.size() == 1 || s <= 0) return p.front();
  double walked = 0;
  for (std::size_t i = 1; i < p.size(); ++i) {
    const double step = limb.step_to(i);
    if (walked + step >= s && step > 0) {
      const double t = (s - walked) / step;
      return {p[i - 1].x + (p[i].x - p[i - 1].x) * t, p[i - 1].y + (p[i].y - p[i - 1].y) * t};
    }
    walked += step;
  }
  // Past the end: continue along the last stretch of about the tip's radius.
  const double over = s - walked;
  const Vec2 end = p.back();
  const Vec2 from = point_along(limb, std::max(0.0, walked - std::max(limb.reach, 2.0)));
  const double len = distance(from, end);
  if (!(len > 0)) return end;
  return {end.x + (end.x - from.x) / len * over, end.y + (end.y - from.y) / len * over};
}

std::vector<double> bend_points(const Limb& limb, double bend_deg, double window) {
  const double length = limb.length();
  std::vector<double> bends;
  if (length < 2 * window) return bends;
  // The axis resampled every half pixel, in one walk along it.
  constexpr double kStep = 0.5;
  std::vector<Vec2> q;
  const auto& p = limb.points;
  double walked = 0;
  for (std::size_t i = 1; i < p.size(); ++i) {
    const double step = limb.step_to(i);
    for (double s = static_cast<double>(q.size()) * kStep; s <= walked + step && step > 0; s += kStep) {
      const double t = (s - walked) / step;
      q.push_back({p[i - 1].x + (p[i].x - p[i - 1].x) * t, p[i - 1].y + (p[i].y - p[i - 1].y) * t});
    }
    walked += step;
  }
  const auto w = static_cast<std::size_t>(std::lround(window / kStep));
  // Inside the inscribed disc of the junction it leaves, the axis is still body, not limb.
  const auto first = std::max(w, static_cast<std::size_t>(limb.radius.front() / kStep));
  std::vector<std::pair<double, double>> turns;  // (arclength, turn in degrees)
  for (std::size_t i = first; i + w < q.size(); ++i) {
    const Vec2 a = q[i - w], m = q[i], b = q[i + w];
    turns.emplace_back(static_cast<double>(i) * kStep, angle_between({m.x - a.x, m.y - a.y}, {b.x - m.x, b.y - m.y}));
  }
  // The sharpest sample of each run above the threshold is the bend.
  for (std::size_t i = 0; i < turns.size();) {
    if (turns[i].second <= bend_deg) {
      ++i;
      continue;
    }
    std::size_t best = i;
    for (; i < turns.size() && turns[i].second > bend_deg; ++i)
      if (turns[i].second > turns[best].second) best = i;
    if (bends.empty() || turns[best].first - bends.back() >= window) bends.push_back(turns[best].first);
  }
  return bends;
}

std::vector<double> spaced_bends(const Limb& limb, const std::vector<double>& bends, double min_gap) {
  const double span = limb.length() + limb.reach;
  std::vector<double> kept;
  double last = std::max(0.0, limb.start);
  for (const double b : bends) {
    if (b - last < min_gap || span - b < min_gap) continue;
    kept.push_back(b);
    last = b;
  }
  return kept;
}

int wanted_bones(const Limb& limb, const std::vector<double>& bends, double bone_px) {
  const std::vector<double> ends = stretch_ends(limb, bends);
  int n = 0;
  for (std::size_t i = 1; i < ends.size(); ++i)
    n += std::max(1, static_cast<int>(std::lround((ends[i] - ends[i - 1]) / bone_px)));
  const auto stretches = ends.size() - 1;
  return leaf_needs_own_stretch(limb, stretches) ? std::max(n, static_cast<int>(stretches) + 1) : n;
}

std::vector<double> joint_arclengths(const Limb& limb, const std::vector<double>& bends) {
  const std::vector<double> ends = stretch_ends(limb, bends);
  const std::size_t stretches = ends.size() - 1;
  const int n = std::max(1, limb.bones);
  std::vector<double> joints;
  if (static_cast<std::size_t>(n) < stretches) {
    for (int k = 0; k < n; ++k) joints.push_back(ends.front() + (ends.back() - ends.front()) * k / n);
    return joints;
  }
  // One bone per stretch (two on a tip limb's last: its leaf continues its parent's direction), then
  // each spare bone to the stretch with the longest bones.
  std::vector<int> count(stretches, 1);
  if (leaf_needs_own_stretch(limb, stretches) && static_cast<std::size_t>(n) > stretches) count.back() = 2;
  const int used = std::accumulate(count.begin(), count.end(), 0);
  for (int spare = n - used; spare > 0; --spare) {
    std::size_t best = 0;
    for (std::size_t i = 1; i < stretches; ++i)
      if ((ends[i + 1] - ends[i]) / count[i] > (ends[best + 1] - ends[best]) / count[best] + 1e-9) best = i;
    ++count[best];
  }
  for (std::size_t i = 0; i < stretches; ++i)
    for (int k = 0; k < count[i]; ++k) joints.push_back(ends[i] + (ends[i + 1] - ends[i]) * k / count[i]);
  return joints;
}

}  // namespace rig2d::medial
