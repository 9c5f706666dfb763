// SPDX-License-Identifier: Apache-2.0

#include "rig2d/preview/preview.h"

#include <array>
#include <cmath>
#include <cstring>
#include <string_view>
#include <vector>

#include <zlib.h>

#include "rig2d/image/png.h"
#include "rig2d/raster/draw.h"

namespace rig2d {
namespace {

bool same_size(std::span<const Image> frames) {
  for (const Image& f : frames) {
    if (f.width != frames[0].width || f.height != frames[0].height) return false;
  }
  return true;
}

// CRC-32 as PNG uses it (ISO 3309), zlib's.
std::uint32_t crc32(std::string_view bytes) {
  return static_cast<std::uint32_t>(
      ::crc32_z(::crc32_z(0, nullptr, 0), reinterpret_cast<const Bytef*>(bytes.data()), bytes.size()));
}

void put_be32(std::string& out, std::uint32_t v) {
  for (int shift = 24; shift >= 0; shift -= 8) out.push_back(static_cast<char>((v >> shift) & 0xff));
}

void put_be16(std::string& out, std::uint16_t v) {
  out.push_back(static_cast<char>(v >> 8));
  out.push_back(static_cast<char>(v & 0xff));
}

void put_chunk(std::string& out, const char type[4], std::string_view data) {
  put_be32(out, static_cast<std::uint32_t>(data.size()));
  std::string body(type, 4);
  body.append(data);
  out += body;
  put_be32(out, crc32(body));
}

std::uint32_t be32(std::string_view s, std::size_t at) {
  const auto* p = reinterpret_cast<const unsigned char*>(s.data() + at);
  return (std::uint32_t(p[0]) << 24) | (std::uint32_t(p[1]) << 16) | (std::uint32_t(p[2]) << 8) | p[3];
}

struct PngParts {
  std::string ihdr;
  std::vector<std::string_view> idat;
};

// Splits our own encoder's output into IHDR data and IDAT payloads.
bool split_png(std::string_view png, PngParts& parts) {
  std::size_t at = 8;
  while (at + 12 <= png.size()) {
    const std::uint32_t len = be32(png, at);
    if (at + 12 + len > png.size()) return false;
    const std::string_view type = png.substr(at + 4, 4);
    const std::string_view data = png.substr(at + 8, len);
    if (type == "IHDR") parts.ihdr = std::string(data);
    else if (type == "IDAT") parts.idat.push_back(data);
    at += 12 + len;
  }
  return parts.ihdr.size() == 13 && !parts.idat.empty();
}

}  // namespace

Result<Image> contact_sheet(std::span<const Image> frames, std::span<const std::string> labels,
                            const SheetOptions& o) {
  if (frames.empty()) return make_error("pose.sheet", "a contact sheet needs at least one frame");
  if (!same_size(frames)) return make_error("pose.sheet", "contact sheet frames must all have the same size");
  const int n = static_cast<int>(frames.size());
  const int cols = o.columns > 0 ? std::min(o.columns, n) : static_cast<int>(std::ceil(std::sqrt(double(n))));
  const int rows = (n + cols - 1) / cols;
  const int pad = std::max(0, o.padding);
  const int label_h = labels.empty() ? 0 : text_height(o.label_scale) + pad;
  int widest_label = 0;
  for (const std::string& label : labels) widest_label = std::max(widest_label, text_width(label, o.label_scale));
  const long long cell_w = std::max(frames[0].width, widest_label), cell_h = frames[0].height + label_h;
  const int inset = static_cast<int>(cell_w - frames[0].width) / 2;  // the frame, centred in a wider cell
  const long long w = cols * cell_w + (cols + 1) * static_cast<long long>(pad);
  const long long h = rows * cell_h + (rows + 1) * static_cast<long long>(pad);
  if (w > 1 << 20 || h > 1 << 20) return make_error("raster.size", "the contact sheet would be too large");
  auto canvas = make_canvas(static_cast<int>(w), static_cast<int>(h), o.background);
  if (!canvas) return Unexpected{canvas.error()};
  for (int i = 0; i < n; ++i) {
    const int x = pad + (i % cols) * static_cast<int>(cell_w + pad);
    const int y = pad + (i / cols) * static_cast<int>(cell_h + pad);
    draw_image(*canvas, frames[static_cast<std::size_t>(i)], x + inset, y);
    if (static_cast<std::size_t>(i) < labels.size()) {
      const std::string& label = labels[static_cast<std::size_t>(i)];
      const int tx = x + (static_cast<int>(cell_w) - text_width(label, o.label_scale)) / 2;
      draw_text(*canvas, tx, y + frames[0].height + pad, label, o.label_scale, o.label);
    }
  }
  return canvas_to_image(*canvas);
}

Result<std::string> encode_apng(std::span<const Image> frames, std::span<const std::uint32_t> delays_ms) {
  if (frames.empty()) return make_error("pose.apng", "an animated PNG needs at least one frame");
  if (!same_size(frames)) return make_error("pose.apng", "animated PNG frames must all have the same size");
  std::string out("\x89PNG\r\n\x1a\n", 8);
  std::uint32_t sequence = 0;
  std::uint32_t delay = 100;
  for (std::size_t i = 0; i < frames.size(); ++i) {
    auto png = encode_png(frames[i]);
    if (!png) return Unexpected{png.error()};
    PngParts parts;
    if (!split_png(*png, parts)) return make_error("png.encode", "the PNG encoder produced an unexpected stream");
    if (i == 0) {
      put_chunk(out, "IHDR", parts.ihdr);
      std::string actl;
      put_be32(actl, static_cast<std::uint32_t>(frames.size()));
      put_be32(actl, 0);  // loop forever
      put_chunk(out, "acTL", actl);
    }
    if (i < delays_ms.size()) delay = delays_ms[i];
    // Delay as a fraction of a second; a delay over 65535 ms is expressed in centiseconds.
    const bool ms = delay <= 65535;
    std::string fctl;
    put_be32(fctl, sequence++);
    put_be32(fctl, static_cast<std::uint32_t>(frames[i].width));
    put_be32(fctl, static_cast<std::uint32_t>(frames[i].height));
    put_be32(fctl, 0);
    put_be32(fctl, 0);
    put_be16(fctl, static_cast<std::uint16_t>(ms ? delay : std::min<std::uint32_t>(delay / 10, 65535)));
    put_be16(fctl, static_cast<std::uint16_t>(ms ? 1000 : 100));
    fctl.push_back(0);  // dispose: none
    fctl.push_back(0);  // blend: source (every frame is full)
    put_chunk(out, "fcTL", fctl);
    for (const std::string_view data : parts.idat) {
      if (i == 0) {
        put_chunk(out, "IDAT", data);
      } else {
        std::string fdat;
        put_be32(fdat, sequence++);
        fdat.append(data);
        put_chunk(out, "fdAT", fdat);
      }
    }
  }
  put_chunk(out, "IEND", {});
  return out;
}

}  // namespace rig2d
