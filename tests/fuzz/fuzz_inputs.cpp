// SPDX-License-Identifier: Apache-2.0
// The small files and strings users write by hand, on any bytes: --bones files, texture sidecars,
// part layouts, pose files and --pose assignments, colours, overlay lists, skeleton template files
// (each one read is also fitted into a small figure), template maps and their globs. No reader may
// crash or return an error without a code, and what a reader accepts keeps the promises its header
// makes.
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <set>
#include <string>
#include <string_view>

#include "rig2d/anim/rig_pose.h"
#include "rig2d/core/limits.h"
#include "rig2d/asset/sprite_meta.h"
#include "rig2d/autorig/autorig_inputs.h"
#include "rig2d/autorig/layout.h"
#include "rig2d/preview/pose_input.h"
#include "rig2d/preview/pose_job.h"
#include "rig2d/autorig/slices.h"
#include "rig2d/raster/canvas.h"
#include "rig2d/skeleton/template.h"
#include "rig2d/skeleton/template_map.h"
#include "template_checks.h"

namespace {

template <class T>
bool coded(const rig2d::Result<T>& result) {
  if (!result && result.error().code.empty()) std::abort();
  return result.has_value();
}

// Names unique and non-empty, coordinates finite, every parent in range and no cycle.
void check_bones(const std::vector<rig2d::Bone>& bones) {
  if (bones.empty() || bones.size() > rig2d::kMaxBones) std::abort();
  std::set<std::string> names;
  const auto n = static_cast<std::int64_t>(bones.size());
  for (const rig2d::Bone& b : bones) {
    if (b.name.empty() || !names.insert(b.name).second) std::abort();
    if (!std::isfinite(b.x) || !std::isfinite(b.y) || !std::isfinite(b.rot)) std::abort();
    if (b.parent < -1 || b.parent >= n) std::abort();
  }
  for (const rig2d::Bone& b : bones) {
    std::int64_t at = b.parent;
    for (std::int64_t steps = 0; at >= 0; ++steps) {
      if (steps > n) std::abort();
      at = bones[static_cast<std::size_t>(at)].parent;
    }
  }
}

void check_layout(const rig2d::PartLayout& layout) {
  if (layout.width < 1 || layout.height < 1 || layout.width > rig2d::kMaxImageSide ||
      layout.height > rig2d::kMaxImageSide) {
    std::abort();
  }
  if (layout.parts.empty() || layout.parts.size() > rig2d::kMaxLayoutParts) std::abort();
  std::set<std::string> names;
  for (const rig2d::LayoutPart& p : layout.parts) {
    if (p.name.empty() || !names.insert(p.name).second) std::abort();
    if (p.png.empty() && !p.slice) std::abort();
  }
}

// A three-bone chain the pose readers address by name.
const rig2d::Rig& small_rig() {
  static const rig2d::Rig rig = [] {
    rig2d::Rig r;
    r.bones = {{"root", -1, 0, 0, 0}, {"arm", 0, 10, 0, 0}, {"arm.hand", 1, 10, 0, 0}};
    return r;
  }();
  return rig;
}

void check_pose(const rig2d::RigPose& pose) {
  for (const rig2d::BoneLocal& b : pose.bones) {
    for (double v : {b.x, b.y, b.rot, b.sx, b.sy}) {
      if (!std::isfinite(v)) std::abort();
    }
  }
}

// A template as read_skeleton_template promises it: bones parents first under exactly one root, names
// unique and non-empty, ranges finite with min <= max (lengths not negative, directions at most 360
// degrees wide), symmetry pairs of two distinct bones other than the root, each bone in one pair at most.
void check_template(const rig2d::SkeletonTemplate& t) {
  if (t.name.empty() || t.bones.empty() || t.bones.size() > rig2d::kMaxTemplateBones) std::abort();
  std::set<std::string> names;
  const auto ordered = [](const rig2d::TemplateRange& r) { return std::isfinite(r.min) && std::isfinite(r.max) && r.min <= r.max; };
  for (std::size_t i = 0; i < t.bones.size(); ++i) {
    const rig2d::TemplateBone& b = t.bones[i];
    if (b.name.empty() || !names.insert(b.name).second) std::abort();
    if ((i == 0) != (b.parent < 0) || b.parent >= static_cast<std::int64_t>(i)) std::abort();
    if (i > 0 && (!ordered(b.length) || b.length.min < 0 || !ordered(b.direction) ||
                  b.direction.max - b.direction.min > 360)) {
      std::abort();
    }
  }
  std::set<std::size_t> paired;
  for (const auto& [l, r] : t.symmetry)
    if (l == r || l == 0 || r == 0 || l >= t.bones.size() || r >= t.bones.size() || !paired.insert(l).second ||
        !paired.insert(r).second) {
      std::abort();
    }
}

// A standing figure of rectangles, 48 x 96: a head, a torso with arms at its sides, two legs.
const rig2d::Image& small_figure() {
  static const rig2d::Image image = [] {
    rig2d::Image im;
    im.width = 48, im.height = 96;
    im.rgba.assign(4 * 48 * 96, 0);
    const auto fill = [&](int x0, int y0, int x1, int y1, std::uint8_t grey) {
      for (int y = y0; y < y1; ++y)
        for (int x = x0; x < x1; ++x) {
          std::uint8_t* p = &im.rgba[4 * (static_cast<std::size_t>(y) * 48 + static_cast<std::size_t>(x))];
          p[0] = p[1] = p[2] = grey;
          p[3] = 255;
        }
    };
    fill(17, 2, 31, 18, 200);   // head
    fill(14, 18, 34, 52, 120);  // torso
    fill(9, 20, 14, 50, 60);    // arms, a darker colour against it
    fill(34, 20, 39, 50, 60);
    fill(15, 52, 23, 94, 90);   // legs
    fill(25, 52, 33, 94, 90);
    return im;
  }();
  return image;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);

  if (auto bones = rig2d::parse_bones_json(text, "fuzz.bones.json"); coded(bones)) check_bones(*bones);

  if (coded(rig2d::parse_sprite_meta(text, "fuzz.png.meta.json"))) {
    // Setting the type keeps a sidecar readable, and then it says 2d.
    auto typed = rig2d::sprite_meta_with_2d_type(text, "fuzz.png.meta.json");
    if (!typed) std::abort();
    auto again = rig2d::parse_sprite_meta(*typed, "typed.meta.json");
    if (!again || again->type != rig2d::TextureType::TwoD) std::abort();
  }
  (void)coded(rig2d::parse_sprite_slices(text, "fuzz.png.meta.json"));

  if (auto layout = rig2d::parse_part_layout(text, "fuzz.layout.json"); coded(layout)) check_layout(*layout);

  const rig2d::Rig& rig = small_rig();
  rig2d::RigPose pose = rig2d::bind_pose(rig);
  if (coded(rig2d::apply_pose_file(rig, text, "fuzz.pose.json", pose))) check_pose(pose);
  rig2d::RigPose assigned = rig2d::bind_pose(rig);
  if (coded(rig2d::apply_pose_assignment(rig, text, assigned))) check_pose(assigned);

  if (auto tmpl = rig2d::read_skeleton_template(text, "fuzz.rig2d-template.json"); coded(tmpl)) {
    check_template(*tmpl);
    rig2d::TemplateFitOptions o;
    o.colour_edges = true;
    if (auto fit = rig2d::fit_template(small_figure(), *tmpl, o); coded(fit))
      rig2d::fuzz::check_fit(*fit, *tmpl, small_figure(), o);
  }
  // A map's template files are looked for in a folder that does not exist (io errors, located).
  if (auto map = rig2d::read_template_map(text, "/nonexistent-rig2d-fuzz/map.json"); coded(map))
    (void)rig2d::match_template_rule(*map, "/nonexistent-rig2d-fuzz/heroes/a.png");
  const std::size_t cut = text.find('\n');  // a glob, then a path
  if (cut != std::string_view::npos) (void)rig2d::template_glob_match(text.substr(0, cut), text.substr(cut + 1));

  (void)coded(rig2d::parse_color(text));
  (void)coded(rig2d::parse_overlays(rig, std::string(text)));
  return 0;
}
