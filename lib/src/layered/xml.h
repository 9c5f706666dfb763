// SPDX-License-Identifier: Apache-2.0
// Just enough XML for OpenRaster's stack.xml: elements with attributes (entities decoded), nested to a
// fixed depth; text, comments, processing instructions and a doctype are skipped. Errors carry
// line:col (thrown as ReadFailure): ora.xml, ora.xml.depth.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace rig2d::layered {

struct XmlElement {
  std::string name;
  std::vector<std::pair<std::string, std::string>> attributes;
  std::vector<XmlElement> children;
  std::size_t offset = 0;  // of its '<' in the text
  const std::string* attribute(std::string_view key) const {
    for (const auto& [k, v] : attributes)
      if (k == key) return &v;
    return nullptr;
  }
};

XmlElement parse_xml(std::string_view text, const std::string& path, int max_depth);
// 1-based line and column of a byte offset.
std::pair<int, int> xml_line_column(std::string_view text, std::size_t offset);

}  // namespace rig2d::layered
