// SPDX-License-Identifier: Apache-2.0
// The folds overlay: triangles flipped against the bind pose are painted red, nothing else is.
#include <catch2/catch.hpp>

#include "rig2d/preview/pose.h"
#include "rig2d/preview/pose_job.h"
#include "support/strip_rig.h"

using namespace rig2d;

namespace {

// Two 10x10 quads along +x; the right column of vertices follows bone "tip" (joint at x = 10).
Rig fold_rig() { return test::strip_rig(5, false); }

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

TEST_CASE("pose: the folds overlay paints flipped triangles only", "[preview][pose]") {
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
