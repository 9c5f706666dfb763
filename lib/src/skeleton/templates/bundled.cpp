// SPDX-License-Identifier: Apache-2.0
// The bundled templates: templates/*.rig2d-template.json, embedded at build time
// (lib/src/skeleton/module.cmake).
#include <array>
#include <cstddef>

#include "core/embedded_files.h"
#include "rig2d/skeleton/template.h"

#define RIG2D_TEMPLATE(name)                            \
  extern const unsigned char rig2d_template_##name[]; \
  extern const std::size_t rig2d_template_##name##_size;
RIG2D_TEMPLATE(humanoid)
RIG2D_TEMPLATE(quadruped)
RIG2D_TEMPLATE(bird)
RIG2D_TEMPLATE(fish)
RIG2D_TEMPLATE(snake)
RIG2D_TEMPLATE(tree)
RIG2D_TEMPLATE(prop)
#undef RIG2D_TEMPLATE

namespace rig2d {
namespace {

#define RIG2D_TEMPLATE(name) detail::EmbeddedFile{#name, rig2d_template_##name, &rig2d_template_##name##_size}
const std::array kBundled{RIG2D_TEMPLATE(humanoid), RIG2D_TEMPLATE(quadruped), RIG2D_TEMPLATE(bird),
                          RIG2D_TEMPLATE(fish),     RIG2D_TEMPLATE(snake),     RIG2D_TEMPLATE(tree),
                          RIG2D_TEMPLATE(prop)};
#undef RIG2D_TEMPLATE

}  // namespace

std::vector<std::string> bundled_template_names() { return detail::embedded_names(kBundled); }

std::string_view bundled_template_text(std::string_view name) { return detail::embedded_text(kBundled, name); }

Result<SkeletonTemplate> bundled_template(std::string_view name) {
  const std::string_view text = bundled_template_text(name);
  if (text.empty()) {
    const std::string list = detail::embedded_name_list(kBundled);
    return make_error("template.unknown", "no bundled template \"" + std::string(name) + "\" (bundled: " + list +
                                              "); a template file's path has a '.' or a '/'");
  }
  return read_skeleton_template(text, "<bundled>/" + std::string(name) + ".rig2d-template.json");
}

}  // namespace rig2d
