// SPDX-License-Identifier: Apache-2.0
// The shared JSON layer: bounded parse, JSON.stringify writer, pointer location.
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "json/json_util.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  auto parsed = rig2d::detail::parse_json(text, "fuzz.json");
  if (!parsed) {
    if (parsed.error().code != "json.syntax" && parsed.error().code != "json.too_deep") std::abort();
    return 0;
  }
  std::string written;
  try {
    written = rig2d::detail::to_js_json(*parsed);
  } catch (...) {
    std::abort();
  }
  // What we write must parse back; a second write is byte-identical (no NaN/Infinity can appear).
  auto again = rig2d::detail::parse_json(written, "again.json");
  if (!again) std::abort();
  if (rig2d::detail::to_js_json(*again) != written) std::abort();
  (void)rig2d::detail::locate_pointer(text, "/a/0/b");
  (void)rig2d::detail::locate_pointer(text, "/bones/1/parent");
  return 0;
}
