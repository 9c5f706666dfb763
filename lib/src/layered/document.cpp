// SPDX-License-Identifier: Apache-2.0
// Reading a layered document by path, and the helpers its readers share.
#include <algorithm>
#include <cctype>

#include "layered/byte_reader.h"
#include "rig2d/io/files.h"
#include "rig2d/layered/document.h"

namespace rig2d {

namespace layered {

std::string layer_label(std::size_t index, std::string_view name) {
  std::string out = "layer " + std::to_string(index);
  if (!name.empty()) out += " \"" + std::string(name) + "\"";
  return out;
}

void append_utf8(std::string& out, std::uint32_t c) {
  if (c < 0x80) {
    out += char(c);
  } else if (c < 0x800) {
    out += char(0xC0 | (c >> 6));
    out += char(0x80 | (c & 0x3F));
  } else if (c < 0x10000) {
    out += char(0xE0 | (c >> 12));
    out += char(0x80 | ((c >> 6) & 0x3F));
    out += char(0x80 | (c & 0x3F));
  } else {
    out += char(0xF0 | (c >> 18));
    out += char(0x80 | ((c >> 12) & 0x3F));
    out += char(0x80 | ((c >> 6) & 0x3F));
    out += char(0x80 | (c & 0x3F));
  }
}

std::string latin1_to_utf8(std::string_view bytes) {
  std::string out;
  for (char c : bytes) append_utf8(out, std::uint8_t(c));
  return out;
}

}  // namespace layered

namespace {
constexpr std::uint64_t kMaxDocumentFileBytes = 2048ull << 20;
}

std::optional<LayeredFormat> layered_format_of(std::string_view path) {
  const std::size_t dot = path.rfind('.');
  if (dot == std::string_view::npos || path.find('/', dot) != std::string_view::npos) return std::nullopt;
  std::string ext(path.substr(dot + 1));
  std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return char(std::tolower(c)); });
  if (ext == "psd") return LayeredFormat::Psd;
  if (ext == "psb") return LayeredFormat::Psb;
  if (ext == "ora") return LayeredFormat::Ora;
  return std::nullopt;
}

Result<LayeredDocument> read_layered_document(const std::string& path, const DocumentReadOptions& options) {
  auto bytes = read_file(path, std::min(kMaxDocumentFileBytes, std::max<std::uint64_t>(options.max_bytes, 1u << 20)));
  if (!bytes) return Unexpected{bytes.error()};
  const std::string_view b = *bytes;
  if (b.substr(0, 4) == "8BPS") return read_psd(b, path, options);
  if (b.substr(0, 4) == std::string_view("PK\x03\x04", 4)) return read_ora(b, path, options);
  return make_error("layered.format", "neither a Photoshop document (8BPS) nor an OpenRaster zip", {path});
}

}  // namespace rig2d
