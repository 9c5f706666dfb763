// SPDX-License-Identifier: Apache-2.0
// The bundled clips: clips/<template>/<clip>.anim.json, embedded at build time (lib/src/anim/module.cmake,
// which generates bundled_clip_table.inc from the same list).
#include "rig2d/anim/bundled_clips.h"

#include <cstddef>
#include <filesystem>

#include "core/embedded_files.h"

#define RIG2D_CLIP(symbol, name)            \
  extern const unsigned char symbol[];      \
  extern const std::size_t symbol##_size;
#include "bundled_clip_table.inc"
#undef RIG2D_CLIP

namespace rig2d {
namespace {

#define RIG2D_CLIP(symbol, name) detail::EmbeddedFile{name, symbol, &symbol##_size},
const detail::EmbeddedFile kBundled[] = {
#include "bundled_clip_table.inc"
};
#undef RIG2D_CLIP

}  // namespace

std::vector<std::string> bundled_clip_names() { return detail::embedded_names(kBundled); }

std::string_view bundled_clip_text(std::string_view name) { return detail::embedded_text(kBundled, name); }

Result<Clip> load_clip_spec(const std::string& spec, std::vector<Diagnostic>* warnings) {
  std::error_code ec;
  const bool bundled_name = spec.find('.') == std::string::npos && spec.find('/') != std::string::npos &&
                            !std::filesystem::exists(spec, ec);
  if (!bundled_name) return load_clip(spec, warnings);
  const std::string_view text = bundled_clip_text(spec);
  if (text.empty()) {
    const std::string list = detail::embedded_name_list(kBundled);
    return make_error("anim.clip.unknown", "no clip file or bundled clip \"" + spec + "\" (bundled: " + list + ")",
                      {spec});
  }
  return read_clip(text, "<bundled>/" + spec + ".anim.json", warnings);
}

}  // namespace rig2d
