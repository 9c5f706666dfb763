// SPDX-License-Identifier: Apache-2.0
#include "rig2d/layered/document_parts.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "layered/byte_reader.h"
#include "rig2d/core/limits.h"

namespace rig2d {
namespace {

bool shown(const LayeredDocument& doc, const DocumentLayer& layer) {
  if (!layer.visible) return false;
  for (std::size_t g : layer.groups)
    if (g >= doc.groups.size() || !doc.groups[g].visible) return false;
  return true;
}

double group_opacity(const LayeredDocument& doc, const DocumentLayer& layer, std::size_t from) {
  double o = 1;
  for (std::size_t i = from; i < layer.groups.size(); ++i) o *= doc.groups[layer.groups[i]].opacity;
  return o;
}

// "arm #rigid" -> ("arm", true).
std::pair<std::string, bool> strip_rigid(std::string name) {
  if (name.size() < kRigidSuffix.size() || name.compare(name.size() - kRigidSuffix.size(), kRigidSuffix.size(), kRigidSuffix) != 0)
    return {std::move(name), false};
  name.resize(name.size() - kRigidSuffix.size());
  while (!name.empty() && name.back() == ' ') name.pop_back();
  return {std::move(name), true};
}

// Straight-alpha "over" of `layer` (at its place, opacity applied) onto a canvas-sized buffer of
// premultiplied floats.
void draw_over(std::vector<float>& acc, int width, int height, const DocumentLayer& layer, double opacity) {
  const Image& img = layer.image;
  for (int y = std::max(0, -layer.y); y < img.height && layer.y + y < height; ++y)
    for (int x = std::max(0, -layer.x); x < img.width && layer.x + x < width; ++x) {
      const std::uint8_t* p = &img.rgba[(std::size_t(y) * std::size_t(img.width) + std::size_t(x)) * 4];
      const float a = float(p[3] / 255.0 * opacity);
      float* d = &acc[(std::size_t(layer.y + y) * std::size_t(width) + std::size_t(layer.x + x)) * 4];
      for (int c = 0; c < 3; ++c) d[c] = p[c] / 255.0f * a + d[c] * (1 - a);
      d[3] = a + d[3] * (1 - a);
    }
}

// The canvas-sized premultiplied buffer as straight RGBA8, cropped to alpha > 0; empty when clear.
DocumentPart crop(const std::vector<float>& acc, int width, int height) {
  int x0 = width, y0 = height, x1 = -1, y1 = -1;
  std::vector<std::uint8_t> rgba(std::size_t(width) * std::size_t(height) * 4, 0);
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x) {
      const std::size_t i = (std::size_t(y) * std::size_t(width) + std::size_t(x)) * 4;
      const int a = int(std::lround(acc[i + 3] * 255));
      if (a == 0) continue;
      for (int c = 0; c < 3; ++c) rgba[i + std::size_t(c)] = std::uint8_t(std::clamp(std::lround(acc[i + std::size_t(c)] / acc[i + 3] * 255), 0l, 255l));
      rgba[i + 3] = std::uint8_t(a);
      x0 = std::min(x0, x), y0 = std::min(y0, y), x1 = std::max(x1, x), y1 = std::max(y1, y);
    }
  DocumentPart part;
  if (x1 < 0) return part;
  part.x = x0;
  part.y = y0;
  part.image.width = x1 - x0 + 1;
  part.image.height = y1 - y0 + 1;
  part.image.rgba.resize(std::size_t(part.image.width) * std::size_t(part.image.height) * 4);
  for (int y = 0; y < part.image.height; ++y)
    std::copy_n(&rgba[(std::size_t(y0 + y) * std::size_t(width) + std::size_t(x0)) * 4], std::size_t(part.image.width) * 4,
                &part.image.rgba[std::size_t(y) * std::size_t(part.image.width) * 4]);
  return part;
}

// One layer alone: its pixels with opacity baked in (exact integer rounding), cropped to the canvas and its art.
DocumentPart single(const DocumentLayer& layer, int width, int height, double opacity) {
  const Image& img = layer.image;
  const int ox0 = std::max(0, layer.x), oy0 = std::max(0, layer.y);
  const int ox1 = std::min(width, layer.x + img.width), oy1 = std::min(height, layer.y + img.height);
  int x0 = ox1, y0 = oy1, x1 = ox0 - 1, y1 = oy0 - 1;
  const int scale = int(std::lround(opacity * 255));
  auto alpha_at = [&](int cx, int cy) {
    const std::uint8_t a = img.rgba[(std::size_t(cy - layer.y) * std::size_t(img.width) + std::size_t(cx - layer.x)) * 4 + 3];
    return (a * scale + 127) / 255;
  };
  for (int y = oy0; y < oy1; ++y)
    for (int x = ox0; x < ox1; ++x)
      if (alpha_at(x, y) > 0) x0 = std::min(x0, x), y0 = std::min(y0, y), x1 = std::max(x1, x), y1 = std::max(y1, y);
  DocumentPart part;
  if (x1 < x0) return part;
  part.x = x0;
  part.y = y0;
  part.image.width = x1 - x0 + 1;
  part.image.height = y1 - y0 + 1;
  part.image.rgba.assign(std::size_t(part.image.width) * std::size_t(part.image.height) * 4, 0);
  for (int y = y0; y <= y1; ++y)
    for (int x = x0; x <= x1; ++x) {
      const int a = alpha_at(x, y);
      if (a == 0) continue;
      const std::uint8_t* s = &img.rgba[(std::size_t(y - layer.y) * std::size_t(img.width) + std::size_t(x - layer.x)) * 4];
      std::uint8_t* d = &part.image.rgba[(std::size_t(y - y0) * std::size_t(part.image.width) + std::size_t(x - x0)) * 4];
      std::copy_n(s, 3, d);
      d[3] = std::uint8_t(a);
    }
  return part;
}

void name_parts(std::vector<DocumentPart>& parts) {
  std::set<std::string> used;
  for (DocumentPart& p : parts) {
    auto [base, rigid] = strip_rigid(p.source_name);
    p.rigid = rigid;
    std::string name = safe_part_name(base);
    if (name.empty()) name = "layer" + std::to_string(p.layer_index);
    std::string unique = name;
    for (int k = 2; !used.insert(unique).second; ++k) unique = name + "-" + std::to_string(k);
    p.name = unique;
  }
}

}  // namespace

std::string safe_part_name(std::string_view name) {
  std::string out;
  for (char c : name) {
    const bool keep = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_';
    out += keep ? c : '_';
  }
  return out;
}

Result<std::vector<DocumentPart>> document_parts(const LayeredDocument& doc, GroupMode groups, const std::string& path,
                                                 std::vector<Diagnostic>& warnings) {
  std::vector<DocumentPart> parts;
  auto empty_warning = [&](std::size_t index, const std::string& name, bool group) {
    warnings.push_back({Severity::Warning, "layered.layer.empty",
                        (group ? "group \"" + name + "\"" : layered::layer_label(index, name)) +
                            ": nothing visible on the canvas (clear, fully transparent, or off the canvas); no part",
                        {path}});
  };
  for (std::size_t i = 0; i < doc.layers.size(); ++i) {
    const DocumentLayer& layer = doc.layers[i];
    if (!shown(doc, layer)) continue;
    if (groups == GroupMode::Flatten && !layer.groups.empty()) {
      // The whole top-level group at once, at the place of its bottom layer.
      const std::size_t top = layer.groups.front();
      std::vector<float> acc(std::size_t(doc.width) * std::size_t(doc.height) * 4, 0.f);
      std::size_t j = i;
      for (; j < doc.layers.size() && !doc.layers[j].groups.empty() && doc.layers[j].groups.front() == top; ++j)
        if (shown(doc, doc.layers[j]))
          draw_over(acc, doc.width, doc.height, doc.layers[j], doc.layers[j].opacity * group_opacity(doc, doc.layers[j], 1));
      const double o = doc.groups[top].opacity;
      for (std::size_t k = 3; k < acc.size(); k += 4)
        for (std::size_t c = 0; c < 4; ++c) acc[k - 3 + c] *= float(o);
      DocumentPart part = crop(acc, doc.width, doc.height);
      part.source_name = doc.groups[top].name;
      part.layer_index = layer.index;
      if (part.image.width == 0) empty_warning(layer.index, part.source_name, true);
      else parts.push_back(std::move(part));
      i = j - 1;
      continue;
    }
    DocumentPart part = single(layer, doc.width, doc.height, layer.opacity * group_opacity(doc, layer, 0));
    part.source_name = layer.name;
    part.layer_index = layer.index;
    if (part.image.width == 0) empty_warning(layer.index, layer.name, false);
    else parts.push_back(std::move(part));
  }
  if (parts.empty())
    return make_error("layered.empty", "no visible layer has pixels on the canvas: nothing to rig", {path});
  if (parts.size() > kMaxParts)
    return make_error("layered.parts", std::to_string(parts.size()) + " visible layers; a rig holds at most " +
                                           std::to_string(kMaxParts) + " parts (try --groups flatten)", {path});
  name_parts(parts);
  return parts;
}

}  // namespace rig2d
