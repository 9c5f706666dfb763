// SPDX-License-Identifier: Apache-2.0
#include "rig2d/quality/clip_deform.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "rig2d/anim/rig_pose.h"
#include "rig2d/anim/skin_rig.h"

namespace rig2d {
namespace {

constexpr std::size_t kMaxClipFrames = 10000;

std::string fixed(double v, int digits) {
  char text[64];
  std::snprintf(text, sizeof text, "%.*f", digits, v);
  return text;
}

}  // namespace

ClipDeformReport check_clip_deformation(const Rig& rig, const Clip& clip, const std::string& clip_name,
                                        const DeformOptions& options, double fps) {
  ClipDeformReport report;
  ClipDeformStats& st = report.stats;
  if (!(fps > 0) || !std::isfinite(fps)) fps = 30;
  const ClipBinding binding = bind_clip(clip, rig, clip_name);
  report.findings = binding.skipped;
  st.tracks_bound = binding.bones.size();
  const double duration = std::isfinite(clip.duration) && clip.duration > 0 ? clip.duration : 0;
  const std::size_t frames = std::min(kMaxClipFrames, static_cast<std::size_t>(std::floor(duration * fps + 1e-9)) + 1);
  const RigSkinPlan plan = plan_rig_skin(rig);  // every frame skins the same rig
  RigSkinScratch scratch;
  std::vector<std::vector<Vec2>> skinned;
  for (std::size_t k = 0; k < frames; ++k) {
    const double t = std::min(duration, static_cast<double>(k) / fps);
    RigPose pose = bind_pose(rig);
    apply_clip(clip, binding, t, pose);
    skin_rig(rig, pose, plan, scratch, skinned);
    std::size_t flipped = 0, triangles = 0;
    for (std::size_t p = 0; p < rig.parts.size() && p < skinned.size(); ++p) {
      const Mesh& mesh = rig.parts[p].mesh;
      if (skinned[p].size() != mesh.verts.size()) continue;
      const TriangleChange c = measure_triangles(mesh.verts, skinned[p], mesh.tris);
      flipped += c.flipped;
      triangles += c.triangles;
      st.min_area_ratio = std::min(st.min_area_ratio, c.min_area_ratio);
      st.max_area_ratio = std::max(st.max_area_ratio, c.max_area_ratio);
      if (c.max_edge_stretch > st.max_edge_stretch) st.max_edge_stretch = c.max_edge_stretch, st.stretch_time = t;
    }
    st.triangles = triangles;
    const double fraction = triangles ? static_cast<double>(flipped) / static_cast<double>(triangles) : 0;
    if (fraction > st.flip_fraction) st.flip_fraction = fraction, st.flip_time = t;
    ++st.frames;
  }
  const DeformThresholds& th = options.thresholds;
  auto add = [&](Severity severity, const char* code, std::string message) {
    Diagnostic d;
    d.severity = severity;
    d.code = code;
    d.message = std::move(message);
    report.findings.push_back(std::move(d));
  };
  const std::string clip_label = "clip " + clip_name;
  if (st.flip_fraction > th.max_flip_fraction)
    add(options.severity, "deform.clip.flip",
        clip_label + " turns " + fixed(100 * st.flip_fraction, 2) + " % of the triangles inside out at " +
            fixed(st.flip_time, 3) + " s (limit " + fixed(100 * th.max_flip_fraction, 2) + " %)");
  if (st.min_area_ratio < th.min_area_ratio || st.max_area_ratio > th.max_area_ratio)
    add(options.severity, "deform.clip.area",
        clip_label + " changes a triangle's area to " + fixed(st.min_area_ratio, 3) + ".." + fixed(st.max_area_ratio, 3) +
            " x its bind area (limits " + fixed(th.min_area_ratio, 2) + ".." + fixed(th.max_area_ratio, 2) + ")");
  if (st.max_edge_stretch > th.max_edge_stretch)
    add(options.severity, "deform.clip.stretch",
        clip_label + " stretches an edge to " + fixed(st.max_edge_stretch, 2) + " x its bind length at " +
            fixed(st.stretch_time, 3) + " s (limit " + fixed(th.max_edge_stretch, 2) + ")");
  add(Severity::Note, "deform.clip.summary",
      clip_label + ": " + std::to_string(st.frames) + " frames, " + std::to_string(st.tracks_bound) +
          " tracks bound; worst flipped " + fixed(100 * st.flip_fraction, 2) + " % at " + fixed(st.flip_time, 3) +
          " s, area " + fixed(st.min_area_ratio, 3) + ".." + fixed(st.max_area_ratio, 3) + ", stretch " +
          fixed(st.max_edge_stretch, 2));
  return report;
}

}  // namespace rig2d
