// SPDX-License-Identifier: Apache-2.0
// Billboard3D / FlatSprite3D placement after scene3DSync.ts (ENGINE-SPEC §3.8): outer group (entity
// rotation, or the camera-facing rotation of orientBillboards) -> flip group (scale (fx, fy)/ppu,
// anchor offset; -pi/2 about x when flat) -> the part meshes at (px, -py, 0).
#include "rig2d/preview/views.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>

namespace rig2d {
namespace {

double dot3(const double a[3], const double b[3]) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

void rotation_y(double angle, double m[9]) {
  const double c = std::cos(angle), s = std::sin(angle);
  const double r[9] = {c, 0, s, 0, 1, 0, -s, 0, c};  // Three.js makeRotationY
  std::copy(r, r + 9, m);
}

double ppu_or_default(double ppu) { return ppu > 0 && std::isfinite(ppu) ? ppu : 100; }

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr int kMaxGroundGridLines = 64;  // grid lines each side of the origin

// Image-plane units to output pixels.
Vec2 to_output(const View& view, Vec2 q) {
  return Vec2{static_cast<float>(q.x * view.scale + view.origin_x),
              static_cast<float>(q.y * view.scale + view.origin_y)};
}

}  // namespace

BindExtent bind_extent(const Rig& rig) {
  BindExtent e;
  bool any = false;
  for (const Part& part : rig.parts) {
    for (const Vec2& v : part.mesh.verts) {
      if (!std::isfinite(v.x) || !std::isfinite(v.y)) continue;
      if (!any) e = {v.x, v.x, v.y, v.y};
      any = true;
      e.min_x = std::min<double>(e.min_x, v.x);
      e.max_x = std::max<double>(e.max_x, v.x);
      e.min_y = std::min<double>(e.min_y, v.y);
      e.max_y = std::max<double>(e.max_y, v.y);
    }
  }
  return e;
}

double billboard_anchor_y(double bind_min_y, double bind_max_y, double ppu, bool flip_y, BillboardAnchor anchor) {
  const double s = (flip_y ? -1.0 : 1.0) / ppu_or_default(ppu);
  const double y_top = s * -bind_min_y, y_bot = s * -bind_max_y;
  return anchor == BillboardAnchor::Center ? -(y_top + y_bot) / 2 : -std::min(y_top, y_bot);
}

SceneProjector::SceneProjector(const Rig& rig, const SpriteState& sprite, const SceneViewOptions& o) {
  const double ppu = ppu_or_default(o.pixels_per_unit);
  inv_ppu_ = 1 / ppu;
  fx_ = sprite.flip_x ? -1 : 1;
  fy_ = sprite.flip_y ? -1 : 1;
  flat_ = o.kind == ViewKind::Ground;
  const BindExtent e = bind_extent(rig);
  if (!flat_) anchor_y_ = billboard_anchor_y(e.min_y, e.max_y, ppu, sprite.flip_y, o.anchor);

  // The camera orbits the bind extent's centre (for a billboard on the y axis: it turns about it).
  const double cx = fx_ * (e.min_x + e.max_x) / 2 * inv_ppu_, cy = fy_ * (e.min_y + e.max_y) / 2 * inv_ppu_;
  double target[3] = {0, anchor_y_ - cy, 0};
  if (flat_) {
    rotation_y(o.heading, group_);
    target[0] = group_[0] * cx + group_[2] * cy;
    target[1] = 0;
    target[2] = group_[6] * cx + group_[8] * cy;
  }
  const double size = std::max(e.max_x - e.min_x, e.max_y - e.min_y) * inv_ppu_;
  const double distance = o.camera.distance && *o.camera.distance > 0 ? *o.camera.distance : std::max(3 * size, 1.0);
  const double pitch = std::clamp(std::isfinite(o.camera.pitch) ? o.camera.pitch : 0.0, -std::numbers::pi / 2, std::numbers::pi / 2);
  const double dir[3] = {std::sin(o.camera.yaw) * std::cos(pitch), std::sin(pitch), std::cos(o.camera.yaw) * std::cos(pitch)};
  for (int k = 0; k < 3; ++k) {
    cam_[k] = target[k] + distance * dir[k];
    forward_[k] = -dir[k];
  }
  right_[0] = std::cos(o.camera.yaw);
  right_[1] = 0;
  right_[2] = -std::sin(o.camera.yaw);
  up_[0] = right_[1] * forward_[2] - right_[2] * forward_[1];
  up_[1] = right_[2] * forward_[0] - right_[0] * forward_[2];
  up_[2] = right_[0] * forward_[1] - right_[1] * forward_[0];
  orthographic_ = o.camera.orthographic;
  focal_ = ppu * distance;
  near_ = 0.01 * distance;
  ground_margin_ = size > 0 && std::isfinite(size) ? 0.6 * size : 0.5;
  // Whole cells, at most kMaxGroundGridLines lines each way (a NaN extent from absurd inputs gives the least).
  const double extent = std::ceil(1.5 * size + std::hypot(target[0], target[2]) + 1);
  grid_extent_ = extent >= 2 ? std::min(extent, double(kMaxGroundGridLines)) : 2;

  if (!flat_) {
    if (o.facing == BillboardFacing::Spherical) {
      // group.quaternion = camera.quaternion: the sprite's axes are the camera's right, up, back.
      const double m[9] = {right_[0], up_[0], -forward_[0], right_[1], up_[1], -forward_[1],
                           right_[2], up_[2], -forward_[2]};
      std::copy(m, m + 9, group_);
    } else {
      rotation_y(std::atan2(cam_[0], cam_[2]), group_);  // the entity sits at the origin
    }
  }
}

Vec2 SceneProjector::rig_point(Vec2 p) const {
  const double lx = fx_ * p.x * inv_ppu_, ly = fy_ * -p.y * inv_ppu_;
  // Flat: rotation.x = -pi/2 sends local (x, y, 0) to (x, 0, -y). Billboard: flip.position.y = anchor.
  const double local[3] = {lx, flat_ ? 0 : ly + anchor_y_, flat_ ? -ly : 0};
  double w[3];
  for (int r = 0; r < 3; ++r) w[r] = group_[3 * r] * local[0] + group_[3 * r + 1] * local[1] + group_[3 * r + 2] * local[2];
  return world_point(w[0], w[1], w[2]);
}

Vec2 SceneProjector::world_point(double x, double y, double z) const {
  const double d[3] = {x - cam_[0], y - cam_[1], z - cam_[2]};
  const double xc = dot3(d, right_), yc = dot3(d, up_), zc = dot3(d, forward_);
  if (orthographic_) return {static_cast<float>(xc / inv_ppu_), static_cast<float>(-yc / inv_ppu_)};
  if (!(zc > near_)) return {static_cast<float>(kNaN), static_cast<float>(kNaN)};
  return {static_cast<float>(focal_ * xc / zc), static_cast<float>(-focal_ * yc / zc)};
}

std::vector<Segment> SceneProjector::ground_grid() const {
  std::vector<Segment> out;
  const double r = grid_extent_;
  auto add = [&](const double a[3], const double b[3]) {
    double pa[3] = {a[0], a[1], a[2]}, pb[3] = {b[0], b[1], b[2]};
    if (!orthographic_) {
      // Clip to the near plane in camera depth, so a line passing beside the camera stays a line.
      const double da[3] = {a[0] - cam_[0], a[1] - cam_[1], a[2] - cam_[2]};
      const double db[3] = {b[0] - cam_[0], b[1] - cam_[1], b[2] - cam_[2]};
      const double za = dot3(da, forward_), zb = dot3(db, forward_);
      const double limit = near_ * 1.0001;
      if (za < limit && zb < limit) return;
      if (za < limit || zb < limit) {
        const double t = (limit - za) / (zb - za);
        double* moved = za < limit ? pa : pb;
        for (int k = 0; k < 3; ++k) moved[k] = a[k] + t * (b[k] - a[k]);
      }
    }
    out.push_back({world_point(pa[0], pa[1], pa[2]), world_point(pb[0], pb[1], pb[2])});
  };
  auto line_pair = [&](double i) {
    const double ax[3] = {-r, 0, i}, bx[3] = {r, 0, i};  // along x at z = i
    const double az[3] = {i, 0, -r}, bz[3] = {i, 0, r};  // along z at x = i
    add(ax, bx);
    add(az, bz);
  };
  line_pair(0);
  const int cells = static_cast<int>(r);
  for (int i = -cells; i <= cells; ++i) {
    if (i != 0) line_pair(i);
  }
  return out;
}

void add_scene_bounds(Bounds& bounds, const Rig& rig, const std::vector<std::vector<Vec2>>& skinned,
                      const SceneProjector& projector, std::span<const Vec2> joints) {
  bool any_visible = false;
  for (const Part& part : rig.parts) any_visible = any_visible || part.visible.value_or(true);
  for (std::size_t p = 0; p < skinned.size() && p < rig.parts.size(); ++p) {
    if (any_visible && !rig.parts[p].visible.value_or(true)) continue;
    for (const Vec2& v : skinned[p]) bounds.add(projector.rig_point(v));
  }
  for (const Vec2& j : joints) bounds.add(projector.rig_point(j));
  bounds.add(projector.ground_origin());
  // Some ground around the foot point, so the grid shows where the sprite stands or lies.
  const double r = projector.ground_margin();
  for (const double x : {-r, r}) {
    for (const double z : {-r, r}) bounds.add(projector.world_point(x, 0, z));
  }
}

std::function<Vec2(Vec2)> scene_projection(const View& view, const SceneProjector& projector) {
  return [view, projector](Vec2 p) { return to_output(view, projector.rig_point(p)); };
}

void apply_scene_view(RenderOptions& options, const SceneProjector& projector, bool grid) {
  const View view = options.view;
  options.project = scene_projection(view, projector);
  options.ground_lines.clear();
  options.ground_axes = 0;
  if (!grid) return;
  for (const Segment& s : projector.ground_grid())
    options.ground_lines.push_back({to_output(view, s.a), to_output(view, s.b)});
  options.ground_axes = std::min<std::size_t>(2, options.ground_lines.size());
}

}  // namespace rig2d
