// SPDX-License-Identifier: Apache-2.0
// The shared JSON layer: bounded parse, JSON.stringify writer, pointer location (every value of a
// parsed document is found).
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

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
  // Every value of the parsed document is located (the first 512 pointers, depth first).
  std::vector<std::string> pointers;
  std::vector<std::pair<const rig2d::detail::Json*, std::string>> stack{{&*parsed, ""}};
  while (!stack.empty() && pointers.size() < 512) {
    const auto [value, at] = stack.back();
    stack.pop_back();
    pointers.push_back(at);
    (void)rig2d::detail::json_type_name(*value);
    if (value->is_object()) {
      for (auto it = value->begin(); it != value->end(); ++it)
        stack.emplace_back(&it.value(), at + "/" + rig2d::detail::pointer_token(it.key()));
    } else if (value->is_array()) {
      for (std::size_t i = 0; i < value->size(); ++i) stack.emplace_back(&(*value)[i], at + "/" + std::to_string(i));
    }
  }
  for (const auto& [line, column] : rig2d::detail::locate_pointers(text, pointers))
    if (line < 1 || column < 1) std::abort();
  return 0;
}
