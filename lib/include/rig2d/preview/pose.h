// SPDX-License-Identifier: Apache-2.0
// Posing and rendering a rig: skinning at a pose exactly as the engine's skin2DSystem, then drawing
// the parts back-to-front with the editor's overlays (ENGINE-SPEC §2, §3.5; the editor's
// render2DUtils / SceneView styles). Rig space is texture space (px, +y down); a View maps it to
// output pixels.
#pragma once

#include <cstddef>
#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "rig2d/anim/rig_pose.h"
#include "rig2d/anim/skin_rig.h"
#include "rig2d/asset/asset_index.h"
#include "rig2d/core/error.h"
#include "rig2d/core/result.h"
#include "rig2d/export.h"
#include "rig2d/raster/canvas.h"
#include "rig2d/raster/color_ramp.h"
#include "rig2d/raster/draw.h"
#include "rig2d/rig/rig.h"

namespace rig2d {

// A sprite's sub-rect of its texture in UV units (§1.9, §2.7): uv' = (u0 + u * uw, v0 + v * vh).
struct UvRect {
  double u0 = 0, v0 = 0, uw = 1, vh = 1;
};

// What one part draws with. No texture = the flat-tint fallback (the editor's drawSkinnedMeshFlat2D).
struct PartTexture {
  std::shared_ptr<const Texture> texture;
  std::optional<UvRect> uv_rect;
};

// The engine's frameSkin2DUVs: a copy without a rect, else the remapped UVs stored as float32.
RIG2D_EXPORT std::vector<Vec2> frame_uvs(std::span<const Vec2> uvs, const std::optional<UvRect>& rect);

// Axis-aligned bounds in (flipped) rig space; empty until something is added.
struct Bounds {
  double min_x = std::numeric_limits<double>::infinity();
  double min_y = std::numeric_limits<double>::infinity();
  double max_x = -std::numeric_limits<double>::infinity();
  double max_y = -std::numeric_limits<double>::infinity();
  bool empty() const { return !(min_x <= max_x && min_y <= max_y); }
  RIG2D_EXPORT void add(Vec2 p);  // non-finite points are ignored
};

// Adds the skinned vertices of the visible parts (all parts if none is visible), mirrored by the
// sprite's flips; with `joints` non-empty those are added too (the bone overlay).
RIG2D_EXPORT void add_pose_bounds(Bounds& bounds, const Rig& rig, const std::vector<std::vector<Vec2>>& skinned,
                                  const SpriteState& sprite, std::span<const Vec2> joints = {});

// Output pixel = (flipped rig point) * scale + origin.
struct View {
  int width = 0;
  int height = 0;
  double scale = 1;
  double origin_x = 0;
  double origin_y = 0;
};

struct FramingOptions {
  int width = 0;                 // px; 0 with height 0 = size the image to the bounds
  int height = 0;
  std::optional<double> scale;   // rig px -> output px; default 1, or the fitting scale with `fit`
  bool fit = false;              // with a size: scale the bounds to fill it (keeping the aspect)
  double margin = 8;             // px kept free around the bounds
};

// Frames `bounds`: with a size, centres them (scaled to fit with `fit`); without one, sizes the
// image to bounds * scale + 2 * margin with the origin on whole pixels (a bind-pose sprite at
// scale 1 lands texel on pixel). Errors: pose.size (zero, negative or over kMaxImageSide /
// kMaxImagePixels; margin leaves no room), pose.empty (no bounds and no size), pose.scale.
RIG2D_EXPORT Result<View> frame_view(const Bounds& bounds, const FramingOptions& options);

struct Overlays {
  bool wireframe = false;                  // triangle edges, rgba(255,64,180,0.85), 1 px
  bool bones = false;                      // child->parent lines + 5 px joint dots
  bool names = false;                      // each bone's name in a box beside its joint, boxes not overlapping
  bool dominant = false;                   // dominant-bone map, opaque, instead of the texture
  std::optional<std::size_t> weights_bone; // heatmap of one bone's weights, coloured by weight_ramp
  Ramp weight_ramp = Ramp::Viridis;        // Grey = the editor's look
  bool weight_view = false;                // the heatmap replaces the texture, opaque (else alpha 0.55)
  bool folds = false;                      // triangles flipped against the bind pose: red, yellow edges
};

// An earlier frame drawn faintly under the current one (onion skin): its pose and skinned positions
// (skin_rig of that pose; both must outlive the render), its own projection when the view needs one
// (the 2.5D views; else the view's, with the ghost pose's flips), the opacity it is drawn at (times
// its own) and the colour its tint is multiplied by. Only its mesh pass is drawn, no overlays.
struct GhostFrame {
  const RigPose* pose = nullptr;
  const std::vector<std::vector<Vec2>>* skinned = nullptr;
  std::function<Vec2(Vec2)> project;
  double opacity = 0.4;
  std::uint32_t tint = 0x80b0ff;  // 0xRRGGBB
};

struct RenderOptions {
  View view;
  Paint background{0, 0, 0, 0};
  Overlays overlays;
  // When set, maps a rig point (before the sprite's flips) to an output pixel, replacing the view's
  // scale and origin and the flips (the 2.5D views of preview/views.h apply both themselves).
  std::function<Vec2(Vec2)> project;
  // Guide lines in output px drawn over the background, under the sprite (the ground grid); the
  // first `ground_axes` of them are drawn brighter (the lines through the entity's foot point).
  std::vector<Segment> ground_lines;
  std::size_t ground_axes = 0;
  std::vector<GhostFrame> ghosts;  // drawn oldest first, over the ground lines and under the sprite
};

struct RenderStats {
  RasterStats raster;
  std::size_t parts_drawn = 0;
  std::size_t parts_flat = 0;    // drawn with the flat tint (no texture)
  std::size_t parts_hidden = 0;  // visible == false, or the whole sprite hidden
};

// Draws the rig at `skinned` positions (from skin_rig with the same pose): parts stably sorted by
// order, hidden parts skipped, textured with tint/opacity (or flat-tinted), flips about the rig
// origin, then the overlays. textures.size() should equal rig.parts.size() (missing = flat).
// Errors: raster.size (view size out of range).
RIG2D_EXPORT Result<Image> render_pose(const Rig& rig, std::span<const PartTexture> textures, const RigPose& pose,
                                       const std::vector<std::vector<Vec2>>& skinned, const RenderOptions& options,
                                       RenderStats* stats = nullptr);

// The editor's weight fields (§3.5): per vertex, the summed weight of `bone`; and the index of the
// slot with the strictly greatest weight (first slot on ties).
RIG2D_EXPORT std::vector<double> bone_weight_field(const Part& part, std::size_t bone);
RIG2D_EXPORT std::vector<std::uint32_t> dominant_bone_field(const Part& part);
// The editor's dominant-map palette (8 colours, cycling by bone index).
RIG2D_EXPORT Paint bone_color(std::size_t bone);

// Resolves each part's sprite GUID through `assets` (§1.9) and loads its PNG once per texture.
// A part whose sprite is empty, unknown or unloadable gets no texture, plus a warning:
// pose.sprite.none, pose.sprite.unresolved, pose.texture.load, pose.slice.sheet (slice without
// spriteSheet dimensions: the engine samples the whole sheet, so does the preview).
struct PartTextures {
  std::vector<PartTexture> parts;
  std::vector<Diagnostic> warnings;
};
RIG2D_EXPORT PartTextures load_part_textures(const Rig& rig, const AssetIndex& assets, const std::string& rig_path);

}  // namespace rig2d
