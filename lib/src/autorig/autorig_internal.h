// SPDX-License-Identifier: Apache-2.0
// Pieces of autorig_image (autorig.cpp) that the layout pipeline shares.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "rig2d/autorig/autorig.h"
#include "rig2d/autorig/slices.h"
#include "rig2d/image/coverage.h"
#include "weights/leg_slit.h"

namespace rig2d {

namespace detail {
// Milliseconds since `start`, for the stage timings in AutorigStats.
inline double ms_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

// The PNG's path under its asset root ('/' separators), which --write-meta mints its GUID from.
std::string relative_to_asset_root(const std::string& png_path, const std::string& mint_root = {});

// guess_sheet, keeping the coverage it tests pixel by pixel (alpha > threshold, one 0/1 byte a pixel,
// row-major) in `coverage` (width * height bytes; left empty for an image that is not well formed),
// which autorig_image_covered takes instead of testing every pixel again.
SheetGuess guess_sheet_keeping_coverage(const Image& image, int alpha_threshold, std::vector<std::uint8_t>& coverage);

// autorig_image, given the image's per-pixel coverage (alpha > options.alpha_threshold, as
// guess_sheet_keeping_coverage keeps it; the image within coverage_mask's limits), taken over: the
// coverage mask and the shape skeleton start from it instead of testing every pixel again. nullptr or
// empty: they test the pixels themselves.
Result<Rig> autorig_image_covered(const Image& image, const AutorigOptions& options, AutorigStats* stats,
                                  std::vector<std::uint8_t>* covered_pixels);

// sheet_island_slices of an image guess_sheet takes for a sheet, else nullopt: one labelling of its
// islands serves both (--slice-sheets).
std::optional<std::vector<SpriteSlice>> slices_if_sheet(const Image& image, int alpha_threshold, std::string_view stem,
                                                        std::string_view texture_guid);

// The error when a generated rig's text does not read back as the rig meant (autorig_file and the
// layout pipeline check every rig they write).
inline Unexpected verify_failure(const std::string& rig_path, const std::string& what) {
  return make_error("autorig.verify", "generated rig failed its read-back check: " + what, {rig_path});
}

// What a multi-part rig (a layout or a layered document) takes besides its parts: the hand-placed
// bones of `bones_path` into options.bones (the file added to `inputs`), and its id: the one an
// earlier run wrote at `rig_path` (kept = true), else UUID v5 of the rig's place in the asset tree
// (a front and a side view drawn from one set of textures differ there; outside an assets/ tree, its
// file name) and its parts' sprite GUIDs, in part order.
Result<void> read_parts_bones(const std::optional<std::string>& bones_path, std::vector<std::string>& inputs,
                              AutorigOptions& options);
struct PartsRigId {
  std::string id;
  bool kept = false;
};
PartsRigId parts_rig_id(const std::string& rig_path, const std::vector<std::string>& sprites);

// A multi-part rig's checks before it is written: each part passes verify_rig as a rig of its own,
// the text reads back to the rig the engine would load, and the strict reader finds no error.
Result<void> check_layout_rig(const Rig& rig, const std::string& text, const std::string& path);

// The bones of options.skeleton_template fitted into the sprite, or under template_auto the best
// bundled template's (empty when none fits well: the caller suggests bones as without a template).
// Poor fits warn (autorig.template.poor_fit in st.mesh_warnings); st.template_note says what was done.
// `over_body` (when given) gets one flag per bone: placed over the body from the proportions (an arm
// held against the torso), for HeatWeightsOptions::over_body; `legs` (when given) the template's pairs
// of legs, for slit_between_legs. The returned bones never hold the template's ground bone
// (SkeletonTemplate::ground): when the fit has one it goes to `ground` (when given; relative to the
// rig origin), for add_ground_bone once the rig is made.
Result<std::vector<Bone>> template_bones(const Image& image, const AutorigOptions& o, AutorigStats& st,
                                         std::vector<std::uint8_t>* over_body = nullptr,
                                         std::vector<LegPair>* legs = nullptr, std::optional<Bone>* ground = nullptr);

// `ground` (relative to the rig origin) put first in the rig, as the parent of its roots: the
// template fit's ground bone, where the figure stands. It carries no skin weight (every skin index
// moves up by one) and the meshes do not change.
void add_ground_bone(Rig& rig, const Bone& ground);

// Rigging a multi-part canvas holds about 9 bytes a canvas pixel (two RGBA8 canvases and a mask;
// measured: a 4096 x 4096 canvas with one small part peaks at 155 MB, 9.2 bytes a pixel).
std::uint64_t canvas_peak_bytes(int width, int height);

// memory.budget, located at `where`, when `peak` (a canvas's rigging with `held` bytes of parts)
// exceeds `budget`: checked before the canvas is made, so a huge one fails at once.
Result<void> check_canvas_budget(int width, int height, std::uint64_t peak, std::uint64_t budget,
                                 const Location& where);
}  // namespace detail

// The bones autorig_image weights: hand-placed, the shape skeleton, or the engine's chain over the
// coverage mask (`inside`).
// `over_body` and `legs` as template_bones (all zero / empty unless a template was fitted). The shape
// skeleton takes over `covered_pixels`, the image's per-pixel coverage, when it holds it
// (detail::shape_skeleton_covered).
Result<std::vector<Bone>> autorig_bones(const Image& image, const AutorigOptions& o, const UvPredicate& inside,
                                        AutorigStats& st, std::vector<std::uint8_t>* over_body = nullptr,
                                        std::vector<detail::LegPair>* legs = nullptr,
                                        std::vector<std::uint8_t>* covered_pixels = nullptr, std::optional<Bone>* ground = nullptr);

// The outline options autorig_image meshes `image` with: its threshold and pivot, the detail's
// tolerance, and vertices where the bones bend (a joint at j lies at image px j + joint_to_px).
OutlineMeshOptions outline_options(const AutorigOptions& o, const std::vector<Bone>& bones, const Image& image,
                                   Vec2 joint_to_px);

}  // namespace rig2d
