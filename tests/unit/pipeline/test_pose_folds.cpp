// SPDX-License-Identifier: Apache-2.0
// The folds overlay: triangles flipped against the bind pose are painted red, nothing else is.
#include <catch2/catch.hpp>

#include "rig2d/pipeline/pose.h"
#include "rig2d/pipeline/pose_job.h"

using namespace rig2d;

namespace {

// Two 10x10 quads along +x; the right column of vertices follows bone "tip" (joint at x = 10).
Rig fold_rig() {
  Rig rig;
  rig.bones = {{"root", -1, 0, 0, 0}, {"tip", 0, 10, 0, 0}};
  Part part;
  part.mesh.verts = {{0, -5}, {10, -5}, {20, -5}, {0, 5}, {10, 5}, {20, 5}};
  part.mesh.uvs = {{0, 0}, {0.5, 0}, {1, 0}, {0, 1}, {0.5, 1}, {1, 1}};
  part.mesh.tris = {0, 3, 1, 1, 3, 4, 1, 4, 2, 2, 4, 5};
  for (const std::uint32_t bone : {0u, 0u, 1u, 0u, 0u, 1u}) {
    part.skin_indices.insert(part.skin_indices.end(), {bone, 0, 0, 0});
    part.skin_weights.insert(part.skin_weights.end(), {1, 0, 0, 0});
  }
  rig.parts = {part};
  return rig;
}

std::size_t red_pixels(const Image& img) {
  std::size_t n = 0;
  for (std::size_t k = 0; k + 3 < img.rgba.size(); k += 4) {
    if (img.rgba[k] > 200 && img.rgba[k + 1] < 60 && img.rgba[k + 2] < 60 && img.rgba[k + 3] > 0) ++n;
  }
  return n;
}

Image render(const Rig& rig, const RigPose& pose, bool folds) {
  RenderOptions o;
  o.view = View{80, 80, 2, 30, 40};
  o.overlays.folds = folds;
  auto img = render_pose(rig, {}, pose, skin_rig(rig, pose), o);
  REQUIRE(img);
  return *img;
}

}  // namespace

TEST_CASE("pose: the folds overlay paints flipped triangles only", "[pipeline][pose]") {
  const Rig rig = fold_rig();
  REQUIRE(parse_overlays(rig, "folds,wireframe")->folds);
  RigPose pose = bind_pose(rig);
  CHECK(red_pixels(render(rig, pose, true)) == 0);  // the bind pose folds nothing
  // Bending "tip" by t swings v2 to (10 + 10 cos t + 5 sin t, ...): triangle (v1, v4, v2) keeps
  // its orientation while cos t + sin t / 2 > 0, which is -0.62 at 150 degrees, so it turns
  // inside out; the left quad stays as it was.
  pose.bones[1].rot = 150 * 3.14159265358979323846 / 180;
  const std::size_t folded = red_pixels(render(rig, pose, true));
  CHECK(folded > 20);
  CHECK(red_pixels(render(rig, pose, false)) == 0);
}
