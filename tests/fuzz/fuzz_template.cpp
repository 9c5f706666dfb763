// SPDX-License-Identifier: Apache-2.0
// A sprite (PNG bytes, or palette_image.h's form) -> a skeleton template fitted into its shape: `auto`
// over the bundled templates or one of them by name, with and without the colour-edge arm search,
// directly or through autorig_image. Whatever the sprite, a fit is an error or keeps fit_template's promises: the
// template's bones in its order (parents first, its names), a score within 0..1, and every joint
// finite and on a covered pixel; a rig passes verify_rig.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "rig2d/autorig/autorig.h"
#include "rig2d/image/png.h"
#include "rig2d/skeleton/template.h"
#include "palette_image.h"
#include "template_checks.h"

namespace {

const std::vector<rig2d::SkeletonTemplate>& bundled() {
  static const std::vector<rig2d::SkeletonTemplate> all = [] {
    std::vector<rig2d::SkeletonTemplate> out;
    for (const std::string& name : rig2d::bundled_template_names()) {
      auto t = rig2d::bundled_template(name);
      if (!t) std::abort();
      out.push_back(std::move(*t));
    }
    return out;
  }();
  return all;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 2) return 0;
  // The first byte picks the options, so one corpus explores them all.
  const std::uint8_t knobs = data[0];
  std::optional<rig2d::Image> image;
  if (knobs & 0x20) {
    image = rig2d::fuzz::palette_image(data + 1, size - 1);
    if (image->rgba.empty()) return 0;
  } else {
    const std::string_view bytes(reinterpret_cast<const char*>(data + 1), size - 1);
    auto info = rig2d::png_info(bytes, "fuzz.png");
    if (!info || static_cast<std::uint64_t>(info->width) * static_cast<std::uint64_t>(info->height) > (1u << 16)) return 0;
    auto decoded = rig2d::decode_png(bytes, "fuzz.png");
    if (!decoded) return 0;
    image = std::move(*decoded);
  }
  const auto& templates = bundled();
  const std::size_t pick = (knobs >> 2) % (templates.size() + 1);  // templates.size(): auto
  rig2d::TemplateFitOptions o;
  o.alpha_threshold = (knobs & 1) ? 128 : 8;
  o.colour_edges = (knobs & 2) != 0;
  if (knobs & 0x80) o.pivot_y = 1;  // feet at the origin
  // knobs & 0x20: the palette form (above)

  if (knobs & 0x40) {  // the whole autorig through the template path
    rig2d::AutorigOptions options;
    options.sprite = "00000000-0000-0000-0000-000000000000";
    options.alpha_threshold = o.alpha_threshold;
    options.pivot_y = o.pivot_y;
    options.mesh = rig2d::MeshMode::Outline;
    options.skeleton = rig2d::SkeletonMode::Shape;
    options.template_colour_edges = o.colour_edges;
    if (pick == templates.size()) options.template_auto = true;
    else options.skeleton_template = templates[pick];
    auto rig = rig2d::autorig_image(*image, options);
    if (rig && !rig2d::verify_rig(*rig)) std::abort();
    return 0;
  }
  if (pick == templates.size()) {
    auto fit = rig2d::fit_template_auto(*image, templates, o);
    if (fit && fit->best) {
      const auto t = std::find_if(templates.begin(), templates.end(),
                                  [&](const rig2d::SkeletonTemplate& s) { return s.name == fit->best->template_name; });
      if (t == templates.end()) std::abort();
      rig2d::fuzz::check_fit(*fit->best, *t, *image, o);
    }
    return 0;
  }
  auto fit = rig2d::fit_template(*image, templates[pick], o);
  if (fit) rig2d::fuzz::check_fit(*fit, templates[pick], *image, o);
  return 0;
}
