// SPDX-License-Identifier: Apache-2.0
// The engine's 2.5D placements of a skinned rig (ENGINE-SPEC §3.8), seen through a preview camera:
// a Billboard3D standing on the ground plane (feet anchored at the lowest bind-pose vertex, or the
// bind extent's centre; cylindrical or spherical facing) and a FlatSprite3D lying on the ground with
// its own heading. World space is the engine's (Three.js): +y up, the entity at the origin, the
// ground plane y = 0. A rig vertex (px, py) becomes (px, -py, 0) scaled by (flipX?-1:1, flipY?-1:1)/ppu.
#pragma once

#include <optional>
#include <span>
#include <vector>

#include "rig2d/core/types.h"
#include "rig2d/export.h"
#include "rig2d/raster/draw.h"
#include "rig2d/rig/rig.h"
#include "rig2d/anim/rig_pose.h"
#include "rig2d/preview/pose.h"

namespace rig2d {

enum class ViewKind { Flat2D, Billboard, Ground };
enum class BillboardFacing { Cylindrical, Spherical };
enum class BillboardAnchor { Bottom, Center };

// An orbit camera around a target point: yaw turns it about +y (0 = on the +z side, looking
// towards -z), pitch raises it (pi/2 = straight down). Perspective draws the target's depth plane
// at pixels_per_unit px per world unit (the rig's own scale); orthographic draws every depth so.
struct SceneCamera {
  double yaw = 0;                   // radians
  double pitch = 0.3490658503988659;  // radians (20 degrees) [Limit: -pi/2..pi/2]
  std::optional<double> distance;   // world units from the target; default 3 * the bind extent's larger side
  bool orthographic = false;
};

struct SceneViewOptions {
  ViewKind kind = ViewKind::Flat2D;
  BillboardFacing facing = BillboardFacing::Cylindrical;  // Billboard3D.mode
  BillboardAnchor anchor = BillboardAnchor::Bottom;       // Billboard3D.anchor
  double pixels_per_unit = 100;     // Billboard3D / FlatSprite3D pixelsPerUnit; <= 0 counts as 100
  double heading = 0;               // radians: the ground sprite's Transform.ry (ignored by billboards)
  SceneCamera camera;
  bool grid = true;                 // the ground grid (1 world unit cells) under the sprite
};

// The bind-pose vertical extent of all parts (invisible ones too), as the engine measures it
// (§2.6): min and max y over every part's bind vertices, 0/0 without vertices.
struct BindExtent {
  double min_x = 0, max_x = 0, min_y = 0, max_y = 0;
};
RIG2D_EXPORT BindExtent bind_extent(const Rig& rig);

// flip.position.y of a billboard (§3.8): bottom puts the lowest bind vertex (after flips) at 0,
// center puts the bind extent's midpoint there. ppu <= 0 counts as 100.
RIG2D_EXPORT double billboard_anchor_y(double bind_min_y, double bind_max_y, double ppu, bool flip_y,
                                       BillboardAnchor anchor);

// Rig points -> the camera's image plane, in px at scale 1 with +y down (frame it with frame_view,
// then output = plane * view.scale + origin). Points behind the camera (or on its near plane) map
// to NaN, so triangles using them are skipped.
class RIG2D_EXPORT SceneProjector {
 public:
  SceneProjector(const Rig& rig, const SpriteState& sprite, const SceneViewOptions& options);
  Vec2 rig_point(Vec2 p) const;                      // a rig vertex (before flips)
  Vec2 world_point(double x, double y, double z) const;
  Vec2 ground_origin() const { return world_point(0, 0, 0); }  // the entity's foot point
  // Grid lines on y = 0 every world unit, clipped to the near plane, in image-plane px; the two
  // lines through the origin (x = 0 and z = 0) come first.
  std::vector<Segment> ground_grid() const;
  double anchor_y() const { return anchor_y_; }
  // Half the side of the ground square framed around the foot point (world units).
  double ground_margin() const { return ground_margin_; }

 private:
  double fx_ = 1, fy_ = 1, inv_ppu_ = 0.01, anchor_y_ = 0;
  double group_[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};  // row-major rotation of the sprite group
  bool flat_ = false;
  double cam_[3] = {0, 0, 1}, right_[3] = {1, 0, 0}, up_[3] = {0, 1, 0}, forward_[3] = {0, 0, -1};
  double focal_ = 100, near_ = 0.01, grid_extent_ = 2, ground_margin_ = 0.5;
  bool orthographic_ = false;
};

// add_pose_bounds in the image plane: the projected skinned vertices of the visible parts (all
// parts if none is visible), the projected `joints`, the ground origin (the foot point) and a
// square of ground around it (ground_margin()).
RIG2D_EXPORT void add_scene_bounds(Bounds& bounds, const Rig& rig, const std::vector<std::vector<Vec2>>& skinned,
                                   const SceneProjector& projector, std::span<const Vec2> joints = {});

// The map from rig points to output pixels through the projector and `view` (which must frame the
// image plane).
RIG2D_EXPORT std::function<Vec2(Vec2)> scene_projection(const View& view, const SceneProjector& projector);

// Points `options` at the projector: options.project = scene_projection(options.view, projector), and
// with `grid` the ground grid becomes options.ground_lines.
RIG2D_EXPORT void apply_scene_view(RenderOptions& options, const SceneProjector& projector, bool grid);

}  // namespace rig2d
