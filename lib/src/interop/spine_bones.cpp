// SPDX-License-Identifier: Apache-2.0
// Spine bone world transforms (Bone.updateWorldTransform and updateAppliedTransform of the 4.2
// runtimes, skeleton at the origin with scale 1).
#include "interop/spine_bones.h"

#include <cmath>

#include "interop/common.h"

namespace rig2d::interop {

double cos_deg(double deg) {
  const double q = std::fmod(std::fmod(deg, 360) + 360, 360);
  if (q == 0) return 1;
  if (q == 90 || q == 270) return 0;
  if (q == 180) return -1;
  return std::cos(deg_to_rad(deg));
}
double sin_deg(double deg) { return cos_deg(deg - 90); }

namespace {

// A parent's x axis kept, its y axis made perpendicular with the parent's area: what a bone that
// does not inherit rotation (or reflection) sees of its parent. Returns the parent's x-axis angle.
double strip_rotation(double& pa, double& pb, double& pc, double& pd) {
  double s = pa * pa + pc * pc;
  if (s > 0.0001) {
    s = std::abs(pa * pd - pb * pc) / s;
    pb = pc * s;
    pd = pa * s;
    return rad_to_deg(std::atan2(pc, pa));
  }
  pa = 0, pc = 0;
  return 90 - rad_to_deg(std::atan2(pd, pb));
}

// The parent's axes turned by `rotation` and made unit length (scale dropped): the frame a noScale bone
// is placed in. Writes the 2x2 frame into za, zb, zc, zd.
void unscaled_frame(const SpineBone& bone, double rotation, double pa, double pb, double pc, double pd, double& za, double& zb,
                    double& zc, double& zd) {
  const double cr = cos_deg(rotation), sr = sin_deg(rotation);
  za = pa * cr + pb * sr, zc = pc * cr + pd * sr;
  double s = std::sqrt(za * za + zc * zc);
  if (s > 0.00001) s = 1 / s;
  za *= s, zc *= s;
  s = std::sqrt(za * za + zc * zc);
  if (bone.inherit == SpineInherit::NoScale && (pa * pd - pb * pc < 0)) s = -s;
  const double r = kPi / 2 + std::atan2(zc, za);
  zb = std::cos(r) * s, zd = std::sin(r) * s;
}

}  // namespace

void spine_update_world(SpineBone& bone, const SpineBone* parent, const SpineLocal& l) {
  bone.applied = l;
  const double rx = l.rotation + l.shear_x, ry = l.rotation + 90 + l.shear_y;
  const double la = cos_deg(rx) * l.scale_x, lb = cos_deg(ry) * l.scale_y;
  const double lc = sin_deg(rx) * l.scale_x, ld = sin_deg(ry) * l.scale_y;
  if (!parent) {
    bone.a = la, bone.b = lb, bone.c = lc, bone.d = ld, bone.wx = l.x, bone.wy = l.y;
    return;
  }
  double pa = parent->a, pb = parent->b, pc = parent->c, pd = parent->d;
  bone.wx = pa * l.x + pb * l.y + parent->wx;
  bone.wy = pc * l.x + pd * l.y + parent->wy;
  switch (bone.inherit) {
    case SpineInherit::Normal:
      bone.a = pa * la + pb * lc, bone.b = pa * lb + pb * ld;
      bone.c = pc * la + pd * lc, bone.d = pc * lb + pd * ld;
      return;
    case SpineInherit::OnlyTranslation:
      bone.a = la, bone.b = lb, bone.c = lc, bone.d = ld;
      return;
    case SpineInherit::NoRotationOrReflection: {
      const double prx = strip_rotation(pa, pb, pc, pd);
      const double rx2 = l.rotation + l.shear_x - prx, ry2 = l.rotation + l.shear_y - prx + 90;
      const double a2 = cos_deg(rx2) * l.scale_x, b2 = cos_deg(ry2) * l.scale_y;
      const double c2 = sin_deg(rx2) * l.scale_x, d2 = sin_deg(ry2) * l.scale_y;
      bone.a = pa * a2 - pb * c2, bone.b = pa * b2 - pb * d2;
      bone.c = pc * a2 + pd * c2, bone.d = pc * b2 + pd * d2;
      return;
    }
    case SpineInherit::NoScale:
    case SpineInherit::NoScaleOrReflection: {
      double za = 0, zb = 0, zc = 0, zd = 0;
      unscaled_frame(bone, l.rotation, pa, pb, pc, pd, za, zb, zc, zd);
      const double a2 = cos_deg(l.shear_x) * l.scale_x, b2 = cos_deg(90 + l.shear_y) * l.scale_y;
      const double c2 = sin_deg(l.shear_x) * l.scale_x, d2 = sin_deg(90 + l.shear_y) * l.scale_y;
      bone.a = za * a2 + zb * c2, bone.b = za * b2 + zb * d2;
      bone.c = zc * a2 + zd * c2, bone.d = zc * b2 + zd * d2;
      return;
    }
  }
}

void spine_update_applied(SpineBone& bone, const SpineBone* parent) {
  SpineLocal& l = bone.applied;
  if (!parent) {
    l.x = bone.wx, l.y = bone.wy;
    l.rotation = rad_to_deg(std::atan2(bone.c, bone.a));
    l.scale_x = std::hypot(bone.a, bone.c), l.scale_y = std::hypot(bone.b, bone.d);
    l.shear_x = 0;
    l.shear_y = rad_to_deg(std::atan2(bone.a * bone.b + bone.c * bone.d, bone.a * bone.d - bone.b * bone.c));
    return;
  }
  double pa = parent->a, pb = parent->b, pc = parent->c, pd = parent->d;
  double pid = 1 / (pa * pd - pb * pc);
  double ia = pd * pid, ib = pb * pid, ic = pc * pid, id = pa * pid;
  const double dx = bone.wx - parent->wx, dy = bone.wy - parent->wy;
  l.x = dx * ia - dy * ib;
  l.y = dy * id - dx * ic;
  double ra = bone.a, rb = bone.b, rc = bone.c, rd = bone.d;  // the world axes in the frame the bone inherits
  if (bone.inherit != SpineInherit::OnlyTranslation) {
    if (bone.inherit == SpineInherit::NoRotationOrReflection) {
      const double s = std::abs(pa * pd - pb * pc) / (pa * pa + pc * pc);
      pb = -pc * s, pd = pa * s;
      pid = 1 / (pa * pd - pb * pc);
      ia = pd * pid, ib = pb * pid;
    } else if (bone.inherit == SpineInherit::NoScale || bone.inherit == SpineInherit::NoScaleOrReflection) {
      double za = 0, zb = 0, zc = 0, zd = 0;
      // The runtimes read the bone's own (unconstrained) rotation here, not the applied one.
      unscaled_frame(bone, bone.rotation, pa, pb, pc, pd, za, zb, zc, zd);
      pa = za, pb = zb, pc = zc, pd = zd;
      pid = 1 / (pa * pd - pb * pc);
      ia = pd * pid, ib = pb * pid, ic = pc * pid, id = pa * pid;
    }
    ra = ia * bone.a - ib * bone.c, rb = ia * bone.b - ib * bone.d;
    rc = id * bone.c - ic * bone.a, rd = id * bone.d - ic * bone.b;
  }
  l.shear_x = 0;
  l.scale_x = std::hypot(ra, rc);
  if (l.scale_x > 0.0001) {
    const double det = ra * rd - rb * rc;
    l.scale_y = det / l.scale_x;
    l.shear_y = -rad_to_deg(std::atan2(ra * rb + rc * rd, det));
    l.rotation = rad_to_deg(std::atan2(rc, ra));
  } else {
    l.scale_x = 0;
    l.scale_y = std::hypot(rb, rd);
    l.shear_y = 0;
    l.rotation = 90 - rad_to_deg(std::atan2(rd, rb));
  }
}

}  // namespace rig2d::interop
