// SPDX-License-Identifier: Apache-2.0
// Skinning a rig at a pose (skin2DSystem) and drawing it the way the engine's GameView and the
// editor's SceneView chrome do: textured parts back-to-front, then heatmap / dominant map,
// wireframe and the bone overlay on top.
#include "rig2d/preview/pose.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>

#include "preview/bone_labels.h"
#include "rig2d/core/affine.h"
#include "rig2d/core/limits.h"
#include "rig2d/image/png.h"
#include "rig2d/quality/deform_check.h"
#include "rig2d/skin/lbs.h"
#include "rig2d/skin/skeleton.h"

namespace rig2d {
namespace {

// The editor's styles (SceneView.tsx, render2DUtils.ts).
constexpr Paint kWireframe{255, 64, 180, 0.85};
constexpr double kWireframeWidth = 1;
// Folds: flipped triangles filled in a red no palette colour or texture is likely to hide, and
// outlined in yellow so a sliver that covers no pixel centre still shows.
constexpr Paint kFoldFill{255, 0, 0, 0.85};
constexpr Paint kFoldEdge{255, 230, 0, 1};
constexpr double kFoldEdgeWidth = 1;
constexpr Paint kBoneLine{120, 200, 255, 0.75};
constexpr double kBoneLineWidth = 1.5;
constexpr double kJointRadius = 5;
constexpr Paint kJoint{0x4a, 0x9e, 0xff, 1};
constexpr Paint kJointSelected{0xf1, 0xc4, 0x0f, 1};
constexpr Paint kJointOutline{0x0a, 0x0a, 0x0a, 1};
constexpr double kHeatmapAlpha = 0.55;
// The ground grid of the 2.5D views: faint cells, brighter lines through the entity's foot point.
constexpr Paint kGrid{160, 160, 160, 0.35};
constexpr Paint kGridAxis{230, 230, 230, 0.8};
constexpr double kGridWidth = 1;

constexpr std::uint8_t kPalette[8][3] = {{231, 76, 60},  {46, 204, 113}, {52, 152, 219}, {241, 196, 15},
                                         {155, 89, 182}, {26, 188, 156}, {230, 126, 34}, {236, 240, 241}};

double clamp01(double v) { return v < 0 ? 0 : v > 1 ? 1 : v; }

std::vector<std::size_t> draw_order(const Rig& rig) {
  std::vector<std::size_t> order(rig.parts.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return rig.parts[a].order.value_or(static_cast<double>(a)) < rig.parts[b].order.value_or(static_cast<double>(b));
  });
  return order;
}

struct ToPixels {
  double sx, sy, ox, oy;
  Vec2 operator()(Vec2 p) const { return {p.x * sx + ox, p.y * sy + oy}; }
};

ToPixels to_pixels(const View& view, const SpriteState& sprite) {
  return {(sprite.flip_x ? -1.0 : 1.0) * view.scale, (sprite.flip_y ? -1.0 : 1.0) * view.scale, view.origin_x,
          view.origin_y};
}

std::vector<Vec2> map_points(const std::vector<Vec2>& pts, const std::function<Vec2(Vec2)>& f) {
  std::vector<Vec2> out(pts.size());
  for (std::size_t i = 0; i < pts.size(); ++i) out[i] = f(pts[i]);
  return out;
}

}  // namespace

std::vector<Vec2> frame_uvs(std::span<const Vec2> uvs, const std::optional<UvRect>& rect) {
  std::vector<Vec2> out(uvs.begin(), uvs.end());
  if (!rect) return out;
  for (Vec2& uv : out) uv = {round_to_float(rect->u0 + uv.x * rect->uw), round_to_float(rect->v0 + uv.y * rect->vh)};
  return out;
}

void Bounds::add(Vec2 p) {
  if (!std::isfinite(p.x) || !std::isfinite(p.y)) return;
  min_x = std::min(min_x, p.x);
  min_y = std::min(min_y, p.y);
  max_x = std::max(max_x, p.x);
  max_y = std::max(max_y, p.y);
}

void add_pose_bounds(Bounds& bounds, const Rig& rig, const std::vector<std::vector<Vec2>>& skinned,
                     const SpriteState& sprite, std::span<const Vec2> joints) {
  const double fx = sprite.flip_x ? -1 : 1, fy = sprite.flip_y ? -1 : 1;
  bool any_visible = false;
  for (const Part& part : rig.parts) any_visible = any_visible || part.visible.value_or(true);
  for (std::size_t p = 0; p < skinned.size() && p < rig.parts.size(); ++p) {
    if (any_visible && !rig.parts[p].visible.value_or(true)) continue;
    for (const Vec2& v : skinned[p]) bounds.add({v.x * fx, v.y * fy});
  }
  for (const Vec2& j : joints) bounds.add({j.x * fx, j.y * fy});
}

Result<View> frame_view(const Bounds& bounds, const FramingOptions& o) {
  if (!(o.margin >= 0) || !std::isfinite(o.margin)) return make_error("pose.size", "the margin must be >= 0 px");
  if (o.scale && !(*o.scale > 0 && std::isfinite(*o.scale))) {
    return make_error("pose.scale", "the scale must be a positive number");
  }
  auto check_size = [](double w, double h) -> Result<void> {
    if (!(w >= 1 && h >= 1) || w > kMaxImageSide || h > kMaxImageSide || w * h > double(kMaxImagePixels)) {
      // %.0f up to 1e15, then %.3g: a cast to an integer would overflow (--scale 1e300 printed a negative size).
      auto side = [](double v) {
        char buf[32];
        std::snprintf(buf, sizeof buf, std::fabs(v) < 1e15 ? "%.0f" : "%.3g", v);
        return std::string(buf);
      };
      const std::string size = std::isfinite(w) && std::isfinite(h) ? side(w) + "x" + side(h) : std::string("unbounded");
      return make_error("pose.size", "the output would be " + size + " px; it must be 1.." +
                                         std::to_string(kMaxImageSide) + " px a side and at most " +
                                         std::to_string(kMaxImagePixels) + " pixels (use --size or --scale)");
    }
    return {};
  };
  View view;
  const bool sized = o.width != 0 || o.height != 0;
  if (sized) {
    if (auto ok = check_size(o.width, o.height); !ok) return Unexpected{ok.error()};
    view.width = o.width;
    view.height = o.height;
    const double cx = bounds.empty() ? 0 : (bounds.min_x + bounds.max_x) / 2;
    const double cy = bounds.empty() ? 0 : (bounds.min_y + bounds.max_y) / 2;
    view.scale = o.scale.value_or(1);
    if (o.fit && !bounds.empty()) {
      const double aw = o.width - 2 * o.margin, ah = o.height - 2 * o.margin;
      if (!(aw > 0 && ah > 0)) return make_error("pose.size", "the margin leaves no room in the requested size");
      const double bw = bounds.max_x - bounds.min_x, bh = bounds.max_y - bounds.min_y;
      const double s = std::min(bw > 0 ? aw / bw : HUGE_VAL, bh > 0 ? ah / bh : HUGE_VAL);
      if (std::isfinite(s)) view.scale = s;
    }
    view.origin_x = o.width / 2.0 - cx * view.scale;
    view.origin_y = o.height / 2.0 - cy * view.scale;
    return view;
  }
  if (bounds.empty()) return make_error("pose.empty", "nothing to frame (no vertices); give --size WxH");
  view.scale = o.scale.value_or(1);
  // Whole-pixel origin keeps an unscaled bind-pose sprite texel-aligned.
  view.origin_x = std::ceil(o.margin - bounds.min_x * view.scale);
  view.origin_y = std::ceil(o.margin - bounds.min_y * view.scale);
  const double w = std::ceil(view.origin_x + bounds.max_x * view.scale + o.margin);
  const double h = std::ceil(view.origin_y + bounds.max_y * view.scale + o.margin);
  if (auto ok = check_size(w, h); !ok) return Unexpected{ok.error()};
  view.width = static_cast<int>(w);
  view.height = static_cast<int>(h);
  return view;
}

std::vector<double> bone_weight_field(const Part& part, std::size_t bone) {
  const std::size_t n = part.mesh.verts.size();
  std::vector<double> field(n, 0);
  for (std::size_t v = 0; v < n; ++v) {
    double s = 0;
    for (std::size_t k = 0; k < 4; ++k) {
      const std::size_t o = 4 * v + k;
      if (o < part.skin_indices.size() && o < part.skin_weights.size() && part.skin_indices[o] == bone) {
        s += part.skin_weights[o];
      }
    }
    field[v] = s;
  }
  return field;
}

std::vector<std::uint32_t> dominant_bone_field(const Part& part) {
  const std::size_t n = part.mesh.verts.size();
  std::vector<std::uint32_t> field(n, 0);
  for (std::size_t v = 0; v < n; ++v) {
    double best_w = -1;
    std::uint32_t best = 0;
    for (std::size_t k = 0; k < 4; ++k) {
      const std::size_t o = 4 * v + k;
      const double w = o < part.skin_weights.size() ? part.skin_weights[o] : 0;
      if (w > best_w) {
        best_w = w;
        best = o < part.skin_indices.size() ? part.skin_indices[o] : 0;
      }
    }
    field[v] = best;
  }
  return field;
}

Paint bone_color(std::size_t bone) {
  const auto& c = kPalette[bone % 8];
  return {c[0], c[1], c[2], 1};
}

namespace {

// The folds overlay: every triangle of a visible part whose orientation at `skinned` is the
// reverse of its orientation at the bind pose (quality/deform_check.h measure_triangles).
void draw_folds(Canvas& canvas, const Rig& rig, const std::vector<std::size_t>& order,
                const std::vector<std::vector<Vec2>>& skinned, const std::vector<std::vector<Vec2>>& px) {
  const std::vector<std::vector<Vec2>> bind = skin_rig(rig, bind_pose(rig));
  std::vector<Segment> edges;
  for (const std::size_t p : order) {
    if (!rig.parts[p].visible.value_or(true) || p >= skinned.size()) continue;
    const auto& tris = rig.parts[p].mesh.tris;
    const TriangleChange change = measure_triangles(bind[p], skinned[p], tris);
    std::vector<std::uint32_t> folded;
    for (std::size_t t = 0; t < change.flips.size(); ++t) {
      if (!change.flips[t]) continue;
      folded.insert(folded.end(), {tris[3 * t], tris[3 * t + 1], tris[3 * t + 2]});
      for (int k = 0; k < 3; ++k) edges.push_back({px[p][tris[3 * t + k]], px[p][tris[3 * t + (k + 1) % 3]]});
    }
    fill_triangles(canvas, px[p], folded, std::span<const Paint>(&kFoldFill, 1), nullptr);
  }
  stroke_segments(canvas, edges, kFoldEdgeWidth, kFoldEdge);
}

// The dominant-bone map: each triangle split into three corner regions (corner, its two edge
// midpoints, the centroid), each in its corner's bone colour, so every pixel shows the bone of its
// nearest vertex and the map follows the weights instead of the order a triangle lists its corners.
Vec2 mid(Vec2 a, Vec2 b) { return {(a.x + b.x) / 2, (a.y + b.y) / 2}; }

struct CornerRegions {
  std::vector<Vec2> positions;
  std::vector<std::uint32_t> tris;
  std::vector<Paint> paints;
};

CornerRegions corner_regions(std::span<const Vec2> px, std::span<const std::uint32_t> tris,
                             const std::vector<std::uint32_t>& bones) {
  CornerRegions out;
  for (std::size_t t = 0; t + 2 < tris.size(); t += 3) {
    const std::uint32_t v[3] = {tris[t], tris[t + 1], tris[t + 2]};
    if (v[0] >= px.size() || v[1] >= px.size() || v[2] >= px.size()) continue;
    const Vec2 a = px[v[0]], b = px[v[1]], c = px[v[2]];
    const Vec2 centroid{(a.x + b.x + c.x) / 3, (a.y + b.y + c.y) / 3};
    const auto base = static_cast<std::uint32_t>(out.positions.size());
    out.positions.insert(out.positions.end(), {a, b, c, mid(a, b), mid(b, c), mid(c, a), centroid});
    // Corner k: the quad (corner, midpoint after it, centroid, midpoint before it), as two triangles.
    for (std::uint32_t k = 0; k < 3; ++k) {
      const std::uint32_t after = base + 3 + k, before = base + 3 + (k + 2) % 3, centre = base + 6;
      out.tris.insert(out.tris.end(), {base + k, after, centre, base + k, centre, before});
      const Paint paint = bone_color(v[k] < bones.size() ? bones[v[k]] : 0);
      out.paints.insert(out.paints.end(), {paint, paint});
    }
  }
  return out;
}

bool has_texture(std::span<const PartTexture> textures, std::size_t p) {
  return p < textures.size() && textures[p].texture;
}

// The mesh pass (GameView): every visible part back to front, textured with `color` as its tint at
// `opacity`, or flat-tinted without a texture.
void draw_parts(Canvas& canvas, const Rig& rig, std::span<const PartTexture> textures,
                const std::vector<std::size_t>& order, const std::vector<std::vector<Vec2>>& px, std::uint32_t color,
                double opacity, RasterStats* stats) {
  const auto r = static_cast<std::uint8_t>(color >> 16), g = static_cast<std::uint8_t>(color >> 8),
             b = static_cast<std::uint8_t>(color);
  for (const std::size_t p : order) {
    const Part& part = rig.parts[p];
    if (!part.visible.value_or(true)) continue;
    if (has_texture(textures, p)) {
      const std::vector<Vec2> uvs = frame_uvs(part.mesh.uvs, textures[p].uv_rect);
      draw_textured_triangles(canvas, px[p], uvs, part.mesh.tris, *textures[p].texture, {r, g, b, opacity}, stats);
    } else {
      // drawSkinnedMeshFlat2D: the tint at half of (opacity || 1).
      const Paint flat{r, g, b, (opacity == 0 ? 1 : opacity) * 0.5};
      fill_triangles(canvas, px[p], part.mesh.tris, std::span<const Paint>(&flat, 1), stats);
    }
  }
}

// Channel by channel, a * b / 255 rounded: the ghost's tint over the frame's own.
std::uint32_t multiply_colors(std::uint32_t a, std::uint32_t b) {
  std::uint32_t out = 0;
  for (const int shift : {16, 8, 0}) {
    const std::uint32_t ca = (a >> shift) & 0xFF, cb = (b >> shift) & 0xFF;
    out |= ((ca * cb + 127) / 255) << shift;
  }
  return out;
}

// Rig points to output pixels: `project` when the view has one (the 2.5D views), else the view's
// scale and origin with the sprite's flips.
std::function<Vec2(Vec2)> pixel_map(const std::function<Vec2(Vec2)>& project, const View& view,
                                    const SpriteState& sprite) {
  return project ? project : std::function<Vec2(Vec2)>(to_pixels(view, sprite));
}

// Every part's skinned vertices in output pixels.
std::vector<std::vector<Vec2>> parts_in_pixels(const Rig& rig, const std::vector<std::vector<Vec2>>& skinned,
                                               const std::function<Vec2(Vec2)>& to_px) {
  std::vector<std::vector<Vec2>> px(rig.parts.size());
  for (std::size_t p = 0; p < rig.parts.size() && p < skinned.size(); ++p) px[p] = map_points(skinned[p], to_px);
  return px;
}

double sprite_opacity(const SpriteState& sprite) { return clamp01(std::isnan(sprite.opacity) ? 0 : sprite.opacity); }

void draw_ghost(Canvas& canvas, const Rig& rig, std::span<const PartTexture> textures,
                const std::vector<std::size_t>& order, const RenderOptions& options, const GhostFrame& ghost) {
  if (!ghost.pose || !ghost.skinned || !ghost.pose->sprite.visible) return;
  const SpriteState& sprite = ghost.pose->sprite;
  const auto px = parts_in_pixels(rig, *ghost.skinned, pixel_map(ghost.project, options.view, sprite));
  draw_parts(canvas, rig, textures, order, px, multiply_colors(sprite.color, ghost.tint),
             sprite_opacity(sprite) * clamp01(ghost.opacity), nullptr);
}

}  // namespace

Result<Image> render_pose(const Rig& rig, std::span<const PartTexture> textures, const RigPose& pose,
                          const std::vector<std::vector<Vec2>>& skinned, const RenderOptions& options,
                          RenderStats* stats) {
  auto canvas = make_canvas(options.view.width, options.view.height, options.background);
  if (!canvas) return Unexpected{canvas.error()};
  RenderStats local;
  RenderStats& st = stats ? *stats : local;
  const SpriteState& sprite = pose.sprite;
  const std::function<Vec2(Vec2)> to_px = pixel_map(options.project, options.view, sprite);
  const Overlays& ov = options.overlays;
  const double opacity = sprite_opacity(sprite);
  const std::vector<std::size_t> order = draw_order(rig);
  const std::vector<std::vector<Vec2>> px = parts_in_pixels(rig, skinned, to_px);
  const bool weight_fill = ov.dominant || (ov.weight_view && ov.weights_bone);

  auto heatmap = [&](std::size_t p, double alpha) {
    const Part& part = rig.parts[p];
    const std::vector<double> f = bone_weight_field(part, *ov.weights_bone);
    std::vector<Paint> paints(part.mesh.tris.size() / 3);
    for (std::size_t t = 0; t < paints.size(); ++t) {
      double sum = 0;
      for (std::size_t k = 0; k < 3; ++k) {
        const std::uint32_t i = part.mesh.tris[3 * t + k];
        sum += i < f.size() ? f[i] : 0;
      }
      const double w = sum / 3;
      paints[t] = ramp_color(ov.weight_ramp, w);
      paints[t].alpha = alpha;
    }
    fill_triangles(*canvas, px[p], part.mesh.tris, paints, &st.raster);
  };
  auto dominant = [&](std::size_t p) {
    const CornerRegions regions = corner_regions(px[p], rig.parts[p].mesh.tris, dominant_bone_field(rig.parts[p]));
    fill_triangles(*canvas, regions.positions, regions.tris, regions.paints, &st.raster);
  };

  if (!options.ground_lines.empty()) {
    const std::size_t axes = std::min(options.ground_axes, options.ground_lines.size());
    const std::span<const Segment> lines(options.ground_lines);
    stroke_segments(*canvas, lines.subspan(axes), kGridWidth, kGrid);
    stroke_segments(*canvas, lines.first(axes), kGridWidth, kGridAxis);
  }
  for (const GhostFrame& ghost : options.ghosts) draw_ghost(*canvas, rig, textures, order, options, ghost);
  if (sprite.visible) {
    for (const std::size_t p : order) {
      if (!rig.parts[p].visible.value_or(true))
        ++st.parts_hidden;
      else if (!weight_fill)
        ++st.parts_drawn, st.parts_flat += !has_texture(textures, p);  // the weight view draws no texture
    }
    if (!weight_fill) draw_parts(*canvas, rig, textures, order, px, sprite.color, opacity, &st.raster);
    // The chrome pass (SceneView): weight fields, then the wireframe over every part.
    for (const std::size_t p : order) {
      if (!rig.parts[p].visible.value_or(true)) continue;
      if (ov.dominant) {
        ++st.parts_drawn;
        dominant(p);
      } else if (ov.weights_bone) {
        if (ov.weight_view) ++st.parts_drawn;
        heatmap(p, ov.weight_view ? 1 : kHeatmapAlpha);
      }
    }
    if (ov.wireframe) {
      std::vector<Segment> edges;
      for (const std::size_t p : order) {
        const auto& tris = rig.parts[p].mesh.tris;
        for (std::size_t t = 0; t + 2 < tris.size(); t += 3) {
          const std::uint32_t i[3] = {tris[t], tris[t + 1], tris[t + 2]};
          if (i[0] >= px[p].size() || i[1] >= px[p].size() || i[2] >= px[p].size()) continue;
          for (int k = 0; k < 3; ++k) edges.push_back({px[p][i[k]], px[p][i[(k + 1) % 3]]});
        }
      }
      stroke_segments(*canvas, edges, kWireframeWidth, kWireframe);
    }
    if (ov.folds) draw_folds(*canvas, rig, order, skinned, px);
  } else {
    st.parts_hidden += rig.parts.size();
  }

  const std::vector<Vec2> joints =
      ov.bones || ov.names ? map_points(posed_joints(rig, pose), to_px) : std::vector<Vec2>{};
  if (ov.bones) {
    const std::vector<std::int64_t> parents = subtree_parents(rig.bones);
    for (std::size_t b = 0; b < joints.size(); ++b) {
      if (parents[b] < 0) continue;
      const Segment line{joints[static_cast<std::size_t>(parents[b])], joints[b]};
      stroke_segments(*canvas, std::span<const Segment>(&line, 1), kBoneLineWidth, kBoneLine);
    }
    for (std::size_t b = 0; b < joints.size(); ++b) {
      fill_disc(*canvas, joints[b], kJointRadius, ov.weights_bone == b ? kJointSelected : kJoint);
      stroke_circle(*canvas, joints[b], kJointRadius, kBoneLineWidth, kJointOutline);
    }
  }
  if (ov.names) {
    std::vector<std::string> names;
    for (const Bone& bone : rig.bones) names.push_back(bone.name);
    detail::draw_joint_labels(*canvas, joints, names, kJointRadius);
  }
  return canvas_to_image(*canvas);
}

PartTextures load_part_textures(const Rig& rig, const AssetIndex& assets, const std::string& rig_path) {
  PartTextures out;
  out.parts.resize(rig.parts.size());
  std::map<std::string, std::shared_ptr<const Texture>> cache;  // by texture path
  std::map<std::string, bool> failed;
  for (std::size_t p = 0; p < rig.parts.size(); ++p) {
    const Part& part = rig.parts[p];
    const std::string name = part.name.value_or("part" + std::to_string(p));
    const std::string pointer = rig.layout == Layout::V1 ? "/sprite" : "/parts/" + std::to_string(p) + "/sprite";
    auto warn = [&](const char* code, std::string message) {
      out.warnings.push_back({Severity::Warning, code, std::move(message) + "; drawing it with the flat tint",
                              Location{rig_path, pointer}});
    };
    if (part.sprite.empty()) {
      warn("pose.sprite.none", "part \"" + name + "\" has no sprite");
      continue;
    }
    const auto source = assets.resolve_sprite(part.sprite);
    if (!source) {
      warn("pose.sprite.unresolved",
           "part \"" + name + "\": sprite " + part.sprite + " is not in the asset index of " + assets.root());
      continue;
    }
    if (!assets.contains(source->texture_path)) {  // a symlink out of the tree: lookups never leave the root
      warn("pose.texture.outside", "part \"" + name + "\": texture " + source->texture_path +
                                       " leads outside the asset root " + assets.root() + " (a symlink); it is not read");
      continue;
    }
    std::shared_ptr<const Texture>& tex = cache[source->texture_path];
    if (!tex && !failed[source->texture_path]) {
      auto image = load_png(source->texture_path);
      if (!image) {
        failed[source->texture_path] = true;
        warn("pose.texture.load", "part \"" + name + "\": " + format_error(image.error()));
        continue;
      }
      tex = std::make_shared<const Texture>(make_texture(*image));
    }
    if (!tex) {
      warn("pose.texture.load", "part \"" + name + "\": texture " + source->texture_path + " could not be loaded");
      continue;
    }
    out.parts[p].texture = tex;
    // §1.9: a rect exists when frame, sheetW and sheetH are all truthy.
    if (source->whole_image && !source->raw_texture) {
      out.parts[p].uv_rect = UvRect{0, 0, 1, 1};
    } else if (!source->whole_image) {
      if (source->w > 0 && source->h > 0 && source->sheet_w > 0 && source->sheet_h > 0) {
        out.parts[p].uv_rect = UvRect{double(source->x) / source->sheet_w, double(source->y) / source->sheet_h,
                                      double(source->w) / source->sheet_w, double(source->h) / source->sheet_h};
      } else {
        out.warnings.push_back({Severity::Warning, "pose.slice.sheet",
                                "part \"" + name + "\": slice " + part.sprite +
                                    " has no spriteSheet dimensions, so the engine (and this preview) samples the whole sheet",
                                Location{rig_path, pointer}});
      }
    }
  }
  return out;
}

}  // namespace rig2d
