// SPDX-License-Identifier: Apache-2.0
// check_deformation: bends every bone both ways, measures each part, turns figures into findings.
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "quality/shape_raster.h"
#include "quality/weight_measures.h"
#include "rig2d/anim/rig_pose.h"
#include "rig2d/anim/skin_rig.h"
#include "rig2d/quality/deform_check.h"
#include "skin/skinned_bones.h"

namespace rig2d {
namespace {

constexpr double kPi = 3.14159265358979323846;
// Bone shares listed in the summary note; a longer rig ends the list with "...".
constexpr std::size_t kListedShares = 16;

std::string figure(const char* format, double value) {
  char buf[64];
  std::snprintf(buf, sizeof buf, format, value);
  return buf;
}
std::string percent(double fraction) { return figure("%.2f%%", 100 * fraction); }

std::string part_base(const Rig& rig, std::size_t p) {
  return rig.layout == Layout::V1 ? std::string() : "/parts/" + std::to_string(p);
}

std::string bone_label(const Rig& rig, std::int64_t bone) {
  if (bone < 0 || static_cast<std::size_t>(bone) >= rig.bones.size()) return "(none)";
  return "\"" + rig.bones[static_cast<std::size_t>(bone)].name + "\"";
}

std::string bend_label(const Rig& rig, const Bend& bend) {
  return "bone " + bone_label(rig, bend.bone) + " bends " + figure("%+.4g", bend.angle * 180 / kPi) + " deg";
}

// |log| of a ratio: how far it is from "unchanged", shrinking and growing alike.
double distance_from_one(double ratio) { return ratio > 0 ? std::abs(std::log(ratio)) : HUGE_VAL; }

// Folds one bend's triangle measures into the part's worst figures.
void add_bend(PartDeformStats& s, const TriangleChange& c, const Bend& bend) {
  s.triangles = c.triangles;
  const double flips = c.triangles ? static_cast<double>(c.flipped) / static_cast<double>(c.triangles) : 0;
  if (flips > s.flip_fraction) s.flip_fraction = flips, s.flipped = c.flipped, s.flip_bend = bend;
  const double worst_before = std::max(distance_from_one(s.min_area_ratio), distance_from_one(s.max_area_ratio));
  s.min_area_ratio = std::min(s.min_area_ratio, c.min_area_ratio);
  s.max_area_ratio = std::max(s.max_area_ratio, c.max_area_ratio);
  if (std::max(distance_from_one(c.min_area_ratio), distance_from_one(c.max_area_ratio)) > worst_before) s.area_bend = bend;
  if (c.max_edge_stretch > s.max_edge_stretch) s.max_edge_stretch = c.max_edge_stretch, s.stretch_bend = bend;
  s.min_edge_ratio = std::min(s.min_edge_ratio, c.min_edge_ratio);
}

void bend_all(const Rig& rig, const DeformOptions& o, DeformStats& stats) {
  const double angle = std::isfinite(o.angle) ? o.angle : 0;
  const RigPose rest = bind_pose(rig);
  const RigSkinPlan plan = plan_rig_skin(rig);  // every bend skins the same rig: bind matrices and meshes once
  RigSkinScratch scratch;
  std::vector<std::vector<Vec2>> bind, posed;
  skin_rig(rig, rest, plan, scratch, bind);  // what the engine shows at rest
  RigPose pose = rest;
  for (std::size_t b = 0; b < rig.bones.size(); ++b) {
    for (const double sign : {1.0, -1.0}) {
      const Bend bend{static_cast<std::int64_t>(b), sign * angle};
      pose.bones[b].rot = rest.bones[b].rot + bend.angle;
      skin_rig(rig, pose, plan, scratch, posed);
      std::size_t flipped = 0, triangles = 0;
      for (std::size_t p = 0; p < rig.parts.size(); ++p) {
        const TriangleChange c = measure_triangles(bind[p], posed[p], rig.parts[p].mesh.tris);
        add_bend(stats.parts[p], c, bend);
        flipped += c.flipped;
        triangles += c.triangles;
      }
      const double fraction = triangles ? static_cast<double>(flipped) / static_cast<double>(triangles) : 0;
      if (fraction > stats.flip_fraction) stats.flip_fraction = fraction, stats.flip_bend = bend;
      ++stats.bends;
    }
    pose.bones[b].rot = rest.bones[b].rot;
  }
}

void measure_weights(const Rig& rig, std::span<const std::optional<AlphaMap>> alpha, const DeformOptions& o,
                     DeformStats& stats) {
  std::vector<std::size_t> dominated(rig.bones.size(), 0);
  std::size_t vertices = 0;
  double rigid_area = 0, area = 0, leaked = 0, total = 0;
  for (std::size_t p = 0; p < rig.parts.size(); ++p) {
    const Part& part = rig.parts[p];
    PartDeformStats& s = stats.parts[p];
    s.vertices = part.mesh.verts.size();
    vertices += s.vertices;
    for (const std::int64_t bone : detail::dominant_bones(part, rig.bones.size())) {
      if (bone >= 0) ++dominated[static_cast<std::size_t>(bone)];
    }
    detail::measure_rigid(part, o.rigid_weight, s);
    const AlphaMap* a = p < alpha.size() && alpha[p] ? &*alpha[p] : nullptr;
    detail::ShapeRaster shape = detail::rasterize_shape(part.mesh, a, o.gap_alpha);
    detail::dilate_rim(shape, o.gap_rim);
    std::vector<double> leaked_by_bone(rig.bones.size(), 0);
    detail::measure_leak(rig, part, shape, {o.gap_detour, o.gap_tolerance}, s, leaked_by_bone);
    const auto worst = std::max_element(leaked_by_bone.begin(), leaked_by_bone.end());
    if (worst != leaked_by_bone.end() && *worst > 0) s.leak_bone = worst - leaked_by_bone.begin();
    if (a) detail::measure_coverage(part.mesh, *a, o.visible_alpha, s);
    // Area weights for the rig-wide rigid fraction: the part's bind area, from its rigid figure.
    double part_area = 0;
    const auto& t = part.mesh.tris;
    for (std::size_t k = 0; k + 2 < t.size(); k += 3) {
      if (t[k] >= s.vertices || t[k + 1] >= s.vertices || t[k + 2] >= s.vertices) continue;
      const Vec2 va = part.mesh.verts[t[k]], vb = part.mesh.verts[t[k + 1]], vc = part.mesh.verts[t[k + 2]];
      const double a2 = std::abs((vb.x - va.x) * (vc.y - va.y) - (vb.y - va.y) * (vc.x - va.x));
      if (std::isfinite(a2)) part_area += a2 / 2;
    }
    rigid_area += s.rigid_fraction * part_area;
    area += part_area;
    leaked += s.leaked_weight;
    total += s.total_weight;
  }
  // A bone no vertex is weighted to at all, with bones under it, only places them (a root where the
  // figure stands): posing it moves the whole subtree, so it is not unused.
  const std::vector<std::uint8_t> weighted = detail::bones_read_by_skin(rig);
  std::vector<std::uint8_t> has_children(rig.bones.size(), 0);
  for (const Bone& bone : rig.bones)
    if (bone.parent >= 0 && static_cast<std::size_t>(bone.parent) < rig.bones.size()) has_children[static_cast<std::size_t>(bone.parent)] = 1;
  stats.bone_share.assign(rig.bones.size(), 0);
  for (std::size_t b = 0; b < rig.bones.size(); ++b) {
    if (vertices) stats.bone_share[b] = static_cast<double>(dominated[b]) / static_cast<double>(vertices);
    if (dominated[b] == 0 && (weighted[b] || !has_children[b])) stats.unused_bones.push_back(static_cast<std::uint32_t>(b));
  }
  stats.rigid_fraction = area > 0 ? rigid_area / area : 0;
  stats.leak_fraction = total > 0 ? leaked / total : 0;
}

struct Findings {
  const DeformOptions& o;
  std::vector<Diagnostic>& out;
  void add(const char* code, std::string message, std::string pointer) {
    out.push_back(Diagnostic{o.severity, code, std::move(message), Location{{}, std::move(pointer)}});
  }
};

void part_findings(const Rig& rig, std::size_t p, const PartDeformStats& s, std::size_t used_bones, Findings& f) {
  const DeformThresholds& t = f.o.thresholds;
  const std::string base = part_base(rig, p);
  if (s.flip_fraction > t.max_flip_fraction) {
    f.add("deform.flip",
          std::to_string(s.flipped) + " of " + std::to_string(s.triangles) + " triangles (" + percent(s.flip_fraction) +
              ") turn inside out when " + bend_label(rig, s.flip_bend) + " (limit " + percent(t.max_flip_fraction) +
              "): the weights change too abruptly across that joint; blend them over a wider band",
          base + "/mesh/tris");
  }
  if (s.min_area_ratio < t.min_area_ratio || s.max_area_ratio > t.max_area_ratio) {
    f.add("deform.area",
          "a triangle's area changes to " + figure("%.3g", s.min_area_ratio < t.min_area_ratio ? s.min_area_ratio : s.max_area_ratio) +
              " times its bind area when " + bend_label(rig, s.area_bend) + " (allowed " + figure("%g", t.min_area_ratio) +
              " to " + figure("%g", t.max_area_ratio) + "; range over all bends " + figure("%.3g", s.min_area_ratio) +
              " to " + figure("%.3g", s.max_area_ratio) + ")",
          base + "/mesh/tris");
  }
  if (s.max_edge_stretch > t.max_edge_stretch) {
    f.add("deform.stretch",
          "an edge stretches to " + figure("%.3g", s.max_edge_stretch) + " times its bind length when " +
              bend_label(rig, s.stretch_bend) + " (limit " + figure("%g", t.max_edge_stretch) + ")",
          base + "/mesh/tris");
  }
  if (used_bones >= 2 && s.rigid_fraction > t.max_rigid_fraction) {
    f.add("deform.rigid",
          percent(s.rigid_fraction) + " of the mesh area is bound to a single bone per triangle (weight >= " +
              figure("%g", f.o.rigid_weight) + "; limit " + percent(t.max_rigid_fraction) +
              "): joints crease instead of bending smoothly; blend weights across the joints",
          base + "/skinWeights");
  }
  if (s.leak_fraction > t.max_leak_fraction) {
    f.add("deform.leak",
          percent(s.leak_fraction) + " of the skin weight reaches its bone across a transparent gap (most: bone " +
              bone_label(rig, s.leak_bone) + "; limit " + percent(t.max_leak_fraction) +
              "): bending one limb drags the other; use shape-aware (heat) weights",
          base + "/skinWeights");
  }
  if (s.has_alpha && s.uncovered_pixels > t.max_uncovered_pixels) {
    f.add("deform.uncovered",
          std::to_string(s.uncovered_pixels) + " of " + std::to_string(s.visible_pixels) + " visible pixels (alpha > " +
              std::to_string(f.o.visible_alpha) + ", up to " + std::to_string(s.uncovered_max_alpha) +
              ") lie outside the mesh and are never drawn (limit " + std::to_string(t.max_uncovered_pixels) +
              "); regenerate the mesh so it covers them",
          base + "/mesh");
  }
}

// One line of rig-wide figures, so every report shows them, also when nothing crosses a limit.
std::string summary(const Rig& rig, const DeformStats& s, const DeformOptions& o) {
  double min_area = 1, max_area = 1, stretch = 1;
  std::size_t visible = 0, uncovered = 0;
  bool alpha = false;
  for (const PartDeformStats& p : s.parts) {
    min_area = std::min(min_area, p.min_area_ratio);
    max_area = std::max(max_area, p.max_area_ratio);
    stretch = std::max(stretch, p.max_edge_stretch);
    visible += p.visible_pixels;
    uncovered += p.uncovered_pixels;
    alpha = alpha || p.has_alpha;
  }
  std::string text = std::to_string(s.bends) + " bends of " + figure("%.4g", o.angle * 180 / kPi) +
                     " deg: worst flips " + percent(s.flip_fraction) +
                     (s.flip_bend.bone >= 0 && s.flip_fraction > 0 ? " (" + bend_label(rig, s.flip_bend) + ")" : "") +
                     ", area ratio " + figure("%.3g", min_area) + " to " + figure("%.3g", max_area) + ", edge stretch " +
                     figure("%.3g", stretch) + ", rigid " + percent(s.rigid_fraction) + ", leak " +
                     percent(s.leak_fraction) + ", bones dominating no vertex " + std::to_string(s.unused_bones.size()) +
                     " of " + std::to_string(rig.bones.size());
  text += alpha ? ", uncovered pixels " + std::to_string(uncovered) + " of " + std::to_string(visible)
                : ", texture coverage not checked";
  if (!s.bone_share.empty()) {
    text += ", vertices per bone (%)";
    for (std::size_t b = 0; b < s.bone_share.size() && b < kListedShares; ++b) {
      text += (b ? "/" : " ") + figure("%.0f", 100 * s.bone_share[b]);
    }
    if (s.bone_share.size() > kListedShares) text += "/...";
  }
  return text;
}

}  // namespace

DeformReport check_deformation(const Rig& rig, std::span<const std::optional<AlphaMap>> alpha,
                               const DeformOptions& options) {
  DeformReport report;
  DeformStats& stats = report.stats;
  stats.parts.resize(rig.parts.size());
  measure_weights(rig, alpha, options, stats);
  bend_all(rig, options, stats);

  Findings f{options, report.findings};
  const std::size_t used_bones = rig.bones.size() - stats.unused_bones.size();
  std::size_t vertices = 0;
  for (const PartDeformStats& s : stats.parts) vertices += s.vertices;
  if (rig.bones.size() >= 2 && vertices > 0) {
    for (const std::uint32_t b : stats.unused_bones) {
      f.add("deform.bone.unused",
            "bone " + bone_label(rig, b) + " dominates no vertex (" + std::to_string(used_bones) + " of " +
                std::to_string(rig.bones.size()) +
                " bones do): it only ever follows its neighbours' weights, so bending it barely moves the art",
            "/bones/" + std::to_string(b));
    }
  }
  for (std::size_t p = 0; p < rig.parts.size(); ++p) part_findings(rig, p, stats.parts[p], used_bones, f);
  report.findings.push_back(Diagnostic{Severity::Note, "deform.summary", summary(rig, stats, options), Location{}});
  return report;
}

const std::vector<DeformCodeInfo>& deform_codes() {
  static const std::vector<DeformCodeInfo> codes = {
      {"deform.flip", "bending one joint by the check angle turns more than the allowed fraction of triangles inside out"},
      {"deform.area", "bending one joint shrinks or grows a triangle's area beyond the allowed ratio"},
      {"deform.stretch", "bending one joint stretches a mesh edge beyond the allowed ratio"},
      {"deform.bone.unused", "a bone is the strongest influence of no vertex, so posing it barely moves the art"},
      {"deform.rigid", "nearly all of the mesh is bound to single bones, so joints crease instead of bending"},
      {"deform.leak", "skin weight reaches its bone across a transparent gap (one limb drags another)"},
      {"deform.uncovered", "visible texture pixels lie outside the mesh and are never drawn"},
      {"deform.texture", "the part's texture could not be resolved, so coverage and gaps are measured on the mesh only"},
      {"deform.skipped", "the rig has reader errors, so it was not bent"},
      {"deform.summary", "the rig's deformation figures (a note; see docs/quality.md)"},
      {"deform.clip.flip", "a frame of the --anim clip turns more than the allowed fraction of triangles inside out"},
      {"deform.clip.area", "a frame of the --anim clip shrinks or grows a triangle's area beyond the allowed ratio"},
      {"deform.clip.stretch", "a frame of the --anim clip stretches a mesh edge beyond the allowed ratio"},
      {"deform.clip.summary", "the --anim clip's deformation figures over all its frames (a note)"},
  };
  return codes;
}

}  // namespace rig2d
