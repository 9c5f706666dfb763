// SPDX-License-Identifier: Apache-2.0
// OpenRaster: a zip holding mimetype, stack.xml (the layer tree, top first) and a PNG per layer.
#include <algorithm>
#include <cctype>
#include <climits>
#include <cmath>
#include <cstdlib>
#include <new>

#include "layered/byte_reader.h"
#include "layered/xml.h"
#include "layered/zip.h"
#include "rig2d/core/limits.h"
#include "rig2d/image/png.h"
#include "rig2d/layered/document.h"

namespace rig2d {
namespace {

using layered::DecodeBudget;
using layered::XmlElement;
using layered::ZipArchive;

class OraReader {
 public:
  OraReader(std::string_view bytes, const std::string& path, const DocumentReadOptions& options)
      : zip_(bytes, path), path_(path), budget_(options.max_bytes, path), options_(options) {}

  LayeredDocument read() {
    check_mimetype();
    const layered::ZipEntry* stack = zip_.find("stack.xml");
    if (!stack) layered::fail("ora.stack", "the archive has no stack.xml", path_);
    xml_ = zip_.read(*stack, budget_);
    const XmlElement root = layered::parse_xml(xml_, path_, kMaxOraDepth);
    if (root.name != "image") error(root, "the root element is <" + root.name + ">, not <image>");
    doc_.format = LayeredFormat::Ora;
    doc_.width = side(root, "w");
    doc_.height = side(root, "h");
    const auto top = std::find_if(root.children.begin(), root.children.end(),
                                  [](const XmlElement& e) { return e.name == "stack"; });
    if (top == root.children.end()) error(root, "<image> holds no <stack>");
    walk(*top, {}, 0, 0);
    std::reverse(top_down_.begin(), top_down_.end());
    doc_.layers = std::move(top_down_);
    if (options_.composite) {
      if (const layered::ZipEntry* merged = zip_.find("mergedimage.png")) doc_.composite = png(*merged, "mergedimage.png");
    }
    return std::move(doc_);
  }

 private:
  [[noreturn]] void error(const XmlElement& at, const std::string& message) const {
    const auto [line, column] = layered::xml_line_column(xml_, at.offset);
    throw layered::ReadFailure{Error{"ora.stack", "stack.xml: " + message, Location{path_, "", line, column}}};
  }

  void check_mimetype() {
    const layered::ZipEntry* m = zip_.find("mimetype");
    if (!m) layered::fail("ora.mimetype", "no mimetype entry: not an OpenRaster file", path_);
    if (m->size > 64) layered::fail("ora.mimetype", "the mimetype entry is not image/openraster", path_);
    std::string type = zip_.read(*m, budget_);
    while (!type.empty() && (type.back() == '\n' || type.back() == '\r')) type.pop_back();
    if (type != "image/openraster")
      layered::fail("ora.mimetype", "mimetype \"" + type.substr(0, 40) + "\", not image/openraster", path_);
  }

  int side(const XmlElement& e, const char* key) const {
    const std::string* v = e.attribute(key);
    const long n = v ? whole(*v) : -1;
    if (n < 1 || n > kMaxImageSide)
      error(e, std::string("<image ") + key + "> must be a whole number of px, 1.." + std::to_string(kMaxImageSide));
    if (std::string_view(key) == "h" && std::uint64_t(doc_.width) * std::uint64_t(n) > kMaxImagePixels)
      layered::fail("ora.too_large", "the canvas is over " + std::to_string(kMaxImagePixels >> 20) + " Mpx", path_);
    return int(n);
  }

  // A whole number (as text), else LONG_MIN.
  static long whole(const std::string& s) {
    if (s.empty() || s.size() > 12) return LONG_MIN;
    char* end = nullptr;
    const long v = std::strtol(s.c_str(), &end, 10);
    return end == s.c_str() + s.size() ? v : LONG_MIN;
  }

  int offset(const XmlElement& e, const char* key) const {
    const std::string* v = e.attribute(key);
    if (!v) return 0;
    long n = whole(*v);
    if (n == LONG_MIN) {  // some writers write "12.0"
      char* end = nullptr;
      const double d = std::strtod(v->c_str(), &end);
      if (end == v->c_str() + v->size() && std::isfinite(d) && std::floor(d) == d && std::abs(d) < 1e9) n = long(d);
    }
    if (n == LONG_MIN || n < -kMaxImageSide * 2L || n > kMaxImageSide * 2L)
      error(e, std::string(key) + "=\"" + *v + "\" must be a whole number of px within " +
                   std::to_string(2 * kMaxImageSide) + " of the canvas");
    return int(n);
  }

  double opacity(const XmlElement& e) const {
    const std::string* v = e.attribute("opacity");
    if (!v) return 1;
    char* end = nullptr;
    const double d = std::strtod(v->c_str(), &end);
    if (v->empty() || end != v->c_str() + v->size() || !(d >= 0 && d <= 1))
      error(e, "opacity=\"" + *v + "\" must be a number 0..1");
    return d;
  }

  bool visible(const XmlElement& e) const {
    const std::string* v = e.attribute("visibility");
    return !v || *v != "hidden";
  }

  bool normal_blend(const XmlElement& e, const std::string& label) {
    const std::string* op = e.attribute("composite-op");
    if (!op || *op == "svg:src-over") return true;
    doc_.warnings.push_back({Severity::Warning, "ora.layer.blend",
                             label + ": composite-op \"" + *op + "\" is drawn as normal (the part cannot carry it)",
                             {path_}});
    return false;
  }

  Image png(const layered::ZipEntry& entry, const std::string& label) {
    const std::string bytes = zip_.read(entry, budget_);
    auto info = png_info(bytes, path_);
    if (!info) {
      Error e = info.error();
      e.message = label + " (" + entry.name + "): " + e.message;
      throw layered::ReadFailure{e};
    }
    budget_.take(png_decode_peak_bytes(*info), label + "'s pixels");
    auto image = decode_png(bytes, path_);
    if (!image) {
      Error e = image.error();
      e.message = label + " (" + entry.name + "): " + e.message;
      throw layered::ReadFailure{e};
    }
    return std::move(*image);
  }

  // Children are listed top first; stack offsets add to their layers'.
  void walk(const XmlElement& stack, const std::vector<std::size_t>& groups, int dx, int dy) {
    for (const XmlElement& child : stack.children) {
      if (child.name == "stack") {
        const std::string* name = child.attribute("name");
        doc_.groups.push_back({name ? *name : "", opacity(child), visible(child)});
        std::vector<std::size_t> inner = groups;
        inner.push_back(doc_.groups.size() - 1);
        walk(child, inner, dx + offset(child, "x"), dy + offset(child, "y"));
      } else if (child.name == "layer") {
        layer(child, groups, dx, dy);
      }  // <text>, <filter> and other elements: nothing to draw
    }
  }

  void layer(const XmlElement& e, const std::vector<std::size_t>& groups, int dx, int dy) {
    DocumentLayer layer;
    layer.index = next_index_++;
    if (const std::string* name = e.attribute("name")) layer.name = *name;
    const std::string label = layered::layer_label(layer.index, layer.name);
    const std::string* src = e.attribute("src");
    if (!src) error(e, label + " has no src");
    std::string ext = src->size() >= 4 ? src->substr(src->size() - 4) : "";
    std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    if (ext != ".png") {
      doc_.warnings.push_back({Severity::Warning, "ora.layer.format",
                               label + ": src \"" + *src + "\" is not a PNG; the layer is skipped", {path_}});
      return;
    }
    const layered::ZipEntry* entry = zip_.find(*src);
    if (!entry) layered::fail("ora.layer.src", label + ": its src \"" + *src + "\" is not in the archive", path_);
    layer.x = dx + offset(e, "x");
    layer.y = dy + offset(e, "y");
    layer.opacity = opacity(e);
    layer.visible = visible(e);
    layer.normal_blend = normal_blend(e, label);
    layer.groups = groups;
    layer.image = png(*entry, label);
    top_down_.push_back(std::move(layer));
  }

  ZipArchive zip_;
  std::string path_;
  DecodeBudget budget_;
  DocumentReadOptions options_;
  std::string xml_;
  LayeredDocument doc_;
  std::vector<DocumentLayer> top_down_;
  std::size_t next_index_ = 0;
};

}  // namespace

Result<LayeredDocument> read_ora(std::string_view bytes, const std::string& path, const DocumentReadOptions& options) {
  try {
    return OraReader(bytes, path, options).read();
  } catch (const layered::ReadFailure& f) {
    return Unexpected{f.error};
  } catch (const std::bad_alloc&) {
    return make_error("memory.budget", "out of memory while reading the document", {path});
  }
}

}  // namespace rig2d
