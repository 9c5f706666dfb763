// SPDX-License-Identifier: Apache-2.0
// Photoshop documents (PSD, and PSB's large-document fields): header, layer records, channel data
// (raw, PackBits RLE, zip with or without prediction), layer folders, the merged image.
#include <zlib.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <new>

#include "layered/byte_reader.h"
#include "rig2d/core/limits.h"
#include "rig2d/layered/document.h"

namespace rig2d {
namespace {

using layered::ByteReader;
using layered::DecodeBudget;
using layered::fail;
using layered::layer_label;

constexpr int kModeGray = 1, kModeRgb = 3;

struct Header {
  bool psb = false;
  int channels = 0, width = 0, height = 0, depth = 0, mode = 0;
};

struct Channel {
  std::int16_t id = 0;
  std::uint64_t length = 0;  // with its 2-byte compression field
};

struct Mask {
  bool present = false, disabled = false;
  std::int32_t top = 0, left = 0, bottom = 0, right = 0;
  std::uint8_t fill = 0;  // the value outside the mask's rect
};

enum class Kind { Pixels, GroupOpen, GroupEnd, Adjustment };

struct Record {
  std::size_t offset = 0;  // the record's first byte
  std::int32_t top = 0, left = 0, bottom = 0, right = 0;
  std::vector<Channel> channels;
  std::string blend;
  std::uint8_t opacity = 255, clipping = 0, flags = 0;
  std::string name;
  Mask mask;
  Kind kind = Kind::Pixels;
  bool smart_object = false, text = false;
};

std::string label(const Record& r, std::size_t index) { return layer_label(index, r.name); }

Header read_header(ByteReader& r) {
  const std::string_view sig = r.take(4, "the signature");
  if (sig != "8BPS") fail("psd.signature", "not a Photoshop document (no 8BPS signature)", r.path());
  Header h;
  const std::uint16_t version = r.u16("the version");
  if (version != 1 && version != 2)
    fail("psd.version", "version " + std::to_string(version) + "; 1 (PSD) and 2 (PSB) are read", r.path());
  h.psb = version == 2;
  r.skip(6, "the reserved bytes");
  h.channels = r.u16("the channel count");
  h.height = static_cast<int>(std::min<std::uint32_t>(r.u32("the height"), 1u << 30));
  h.width = static_cast<int>(std::min<std::uint32_t>(r.u32("the width"), 1u << 30));
  h.depth = r.u16("the depth");
  h.mode = r.u16("the colour mode");
  const int max_side = h.psb ? 300000 : 30000;
  if (h.channels < 1 || h.channels > 56 || h.width < 1 || h.height < 1 || h.width > max_side || h.height > max_side)
    fail("psd.header",
         "header: " + std::to_string(h.width) + " x " + std::to_string(h.height) + " px, " + std::to_string(h.channels) +
             " channels is not a valid " + (h.psb ? "PSB" : "PSD") + " (1..56 channels, 1.." + std::to_string(max_side) +
             " px a side)",
         r.path());
  if (h.width > kMaxImageSide || h.height > kMaxImageSide ||
      std::uint64_t(h.width) * std::uint64_t(h.height) > kMaxImagePixels)
    fail("psd.too_large",
         "the document is " + std::to_string(h.width) + " x " + std::to_string(h.height) + " px; the limit is " +
             std::to_string(kMaxImageSide) + " px a side and " + std::to_string(kMaxImagePixels >> 20) + " Mpx",
         r.path());
  if (h.depth != 8)
    fail("psd.depth", std::to_string(h.depth) + "-bit document: only 8 bits per channel are read; convert it to 8 bits",
         r.path());
  if (h.mode == kModeRgb && h.channels < 3)
    fail("psd.header", "an RGB document with " + std::to_string(h.channels) + " channels; it needs at least 3", r.path());
  if (h.mode != kModeRgb && h.mode != kModeGray)
    fail("psd.mode", "colour mode " + std::to_string(h.mode) +
                         " (CMYK is 4, Lab 9, indexed 2): only RGB and grayscale are read; convert it to RGB",
         r.path());
  return h;
}

std::uint64_t length_field(ByteReader& r, bool wide, std::string_view what) { return r.be(wide ? 8 : 4, what); }

// The Unicode name: a count of UTF-16 code units, big-endian.
std::string utf16_name(ByteReader r) {
  const std::uint32_t n = r.u32("the Unicode name's length");
  r.need(std::uint64_t(n) * 2, "the Unicode name");
  std::string out;
  for (std::uint32_t i = 0; i < n; ++i) {
    std::uint32_t c = r.u16("a name character");
    if (c >= 0xD800 && c < 0xDC00 && i + 1 < n) {
      const std::uint32_t low = r.u16("a name character");
      ++i;
      c = (low >= 0xDC00 && low < 0xE000) ? 0x10000 + ((c - 0xD800) << 10) + (low - 0xDC00) : 0xFFFD;
    } else if (c >= 0xD800 && c < 0xE000) {
      c = 0xFFFD;
    }
    if (c == 0) break;  // some writers end the name with a NUL
    layered::append_utf8(out, c);
  }
  return out;
}

bool is_adjustment_key(std::string_view key) {
  static constexpr std::array<std::string_view, 22> kKeys{"SoCo", "GdFl", "PtFl", "brit", "levl", "curv", "expA", "vibA",
                                                          "hue ", "hue2", "blnc", "blwh", "phfl", "mixr", "clrL", "nvrt",
                                                          "post", "thrs", "grdm", "selc", "CgEd", "vscg"};
  return std::find(kKeys.begin(), kKeys.end(), key) != kKeys.end();
}

// PSB widens the length of these keys to 8 bytes.
bool wide_key(std::string_view key) {
  static constexpr std::array<std::string_view, 13> kKeys{"LMsk", "Lr16", "Lr32", "Layr", "Mt16", "Mt32", "Mtrn",
                                                          "Alph", "FMsk", "lnk2", "FEid", "FXid", "PxSD"};
  return std::find(kKeys.begin(), kKeys.end(), key) != kKeys.end();
}

// Tagged blocks after the name: the Unicode name, folder markers, and what marks a layer as a smart
// object, text or an adjustment.
void read_tagged_blocks(ByteReader r, bool psb, Record& rec) {
  while (r.left() >= 12) {
    const std::string_view sig = r.take(4, "a tagged block's signature");
    if (sig != "8BIM" && sig != "8B64") return;  // padding or data we do not know: the name is already read
    const std::string key(r.take(4, "a tagged block's key"));
    const std::uint64_t length = length_field(r, psb && wide_key(key), "a tagged block's length");
    ByteReader data = r.section(length, "tagged block " + key);
    if (key == "luni") {
      rec.name = utf16_name(data);
    } else if (key == "lsct" || key == "lsdk") {
      const std::uint32_t type = data.u32("the folder type");
      if (type == 1 || type == 2) rec.kind = Kind::GroupOpen;
      if (type == 3) rec.kind = Kind::GroupEnd;
    } else if (key == "SoLd" || key == "PlLd" || key == "SoLE") {
      rec.smart_object = true;
    } else if (key == "TySh" || key == "tySh") {
      rec.text = true;
    } else if (is_adjustment_key(key) && rec.kind == Kind::Pixels) {
      rec.kind = Kind::Adjustment;
    }
    // Writers pad blocks to 2 or 4 bytes without always counting it.
    while (r.left() >= 4) {
      const std::string_view next = r.take(4, "padding");
      r.seek(r.pos() - 4, "padding");
      if (next == "8BIM" || next == "8B64" || next[0] != '\0') break;
      r.skip(1, "padding");
    }
  }
}

void read_mask(ByteReader m, Record& rec) {
  if (m.left() < 18) return;
  rec.mask.present = true;
  rec.mask.top = m.i32("the mask's top");
  rec.mask.left = m.i32("the mask's left");
  rec.mask.bottom = m.i32("the mask's bottom");
  rec.mask.right = m.i32("the mask's right");
  rec.mask.fill = m.u8("the mask's default colour");
  rec.mask.disabled = (m.u8("the mask's flags") & 2) != 0;
}

Record read_record(ByteReader& r, const Header& h, std::size_t index) {
  Record rec;
  rec.offset = r.pos();
  rec.top = r.i32("a layer's top");
  rec.left = r.i32("a layer's left");
  rec.bottom = r.i32("a layer's bottom");
  rec.right = r.i32("a layer's right");
  const std::uint16_t n = r.u16("a layer's channel count");
  if (n > 56)
    fail("psd.layer.channels", layer_label(index, "") + " (byte " + std::to_string(rec.offset) + "): " +
                                   std::to_string(n) + " channels; a layer has at most 56", r.path());
  for (std::uint16_t c = 0; c < n; ++c) {
    Channel ch;
    ch.id = r.i16("a channel id");
    ch.length = length_field(r, h.psb, "a channel's length");
    rec.channels.push_back(ch);
  }
  if (r.take(4, "the blend signature") != "8BIM")
    fail("psd.truncated", layer_label(index, "") + " (byte " + std::to_string(rec.offset) +
                              "): no 8BIM blend signature where one must be (a length before it is wrong)", r.path());
  rec.blend = std::string(r.take(4, "the blend mode"));
  rec.opacity = r.u8("the opacity");
  rec.clipping = r.u8("the clipping flag");
  rec.flags = r.u8("the flags");
  r.skip(1, "the filler byte");
  ByteReader extra = r.section(r.u32("the layer's extra data length"), "the layer's extra data");
  read_mask(extra.section(extra.u32("the mask data length"), "the mask data"), rec);
  extra.section(extra.u32("the blending ranges length"), "the blending ranges");
  const std::uint8_t name_length = extra.u8("the layer name's length");
  rec.name = layered::latin1_to_utf8(extra.take(name_length, "the layer name"));
  const std::size_t padded = (std::size_t(name_length) + 1 + 3) / 4 * 4;
  extra.skip(std::min<std::size_t>(padded - 1 - name_length, extra.left()), "the layer name's padding");
  read_tagged_blocks(extra, h.psb, rec);
  return rec;
}

// PackBits: a count byte n, then n + 1 literal bytes (n >= 0) or one byte repeated 1 - n times
// (n < 0; -128 is a no-op). The row must come out exactly `width` bytes long.
void unpack_row(std::string_view in, std::uint8_t* out, std::size_t width, const std::string& where,
                const std::string& path) {
  std::size_t i = 0, o = 0;
  while (i < in.size()) {
    const int n = static_cast<std::int8_t>(in[i++]);
    if (n >= 0) {
      const std::size_t count = std::size_t(n) + 1;
      if (i + count > in.size() || o + count > width)
        fail("psd.rle", where + ": a row's RLE data runs past " + (o + count > width ? "the row" : "its bytes"), path);
      std::copy_n(reinterpret_cast<const std::uint8_t*>(in.data() + i), count, out + o);
      i += count;
      o += count;
    } else if (n != -128) {
      const std::size_t count = std::size_t(1 - n);
      if (i >= in.size() || o + count > width) fail("psd.rle", where + ": a row's RLE data runs past the row", path);
      std::fill_n(out + o, count, static_cast<std::uint8_t>(in[i++]));
      o += count;
    }
  }
  if (o != width)
    fail("psd.rle", where + ": a row decodes to " + std::to_string(o) + " bytes; the row is " + std::to_string(width),
         path);
}

// Inflates exactly `size` bytes; anything else is psd.zip.
void inflate_exact(std::string_view in, std::uint8_t* out, std::size_t size, const std::string& where,
                   const std::string& path) {
  z_stream z{};
  if (inflateInit(&z) != Z_OK) fail("psd.zip", where + ": cannot start zlib", path);
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
  z.avail_in = static_cast<uInt>(std::min<std::size_t>(in.size(), 0xFFFFFFFFu));
  z.next_out = out;
  z.avail_out = static_cast<uInt>(size);
  const int rc = inflate(&z, Z_FINISH);
  const std::size_t produced = size - z.avail_out;
  inflateEnd(&z);
  if (rc != Z_STREAM_END || produced != size)
    fail("psd.zip", where + ": zip data " + (rc == Z_STREAM_END ? "decodes to " + std::to_string(produced) +
                                                                      " bytes, not " + std::to_string(size)
                                                                : std::string("is corrupt or truncated")),
         path);
}

// One plane of w x h bytes, `r` at its compression field. RLE row counts come first for every row.
void decode_plane(ByteReader r, std::size_t w, std::size_t h, bool psb, std::uint8_t* out, const std::string& where) {
  const std::size_t start = r.pos();
  const std::uint16_t compression = r.left() >= 2 ? r.u16("the compression") : 0;
  if (w == 0 || h == 0) return;
  const std::string at = where + " (byte " + std::to_string(start) + ")";
  switch (compression) {
    case 0: {
      const std::string_view raw = r.take(std::uint64_t(w) * h, at + ": raw channel data");
      std::copy(raw.begin(), raw.end(), out);
      return;
    }
    case 1: {
      const int count_bytes = psb ? 4 : 2;
      r.need(std::uint64_t(h) * count_bytes, at + ": RLE row lengths");
      std::vector<std::uint64_t> counts(h);
      for (auto& c : counts) c = r.be(count_bytes, "an RLE row length");
      for (std::size_t y = 0; y < h; ++y) unpack_row(r.take(counts[y], at + ": RLE row"), out + y * w, w, at, r.path());
      return;
    }
    case 2:
    case 3: {
      inflate_exact(r.take(r.left(), "zip data"), out, w * h, at, r.path());
      if (compression == 3)  // prediction: each byte is a difference from its left neighbour
        for (std::size_t y = 0; y < h; ++y)
          for (std::size_t x = 1; x < w; ++x) out[y * w + x] = std::uint8_t(out[y * w + x] + out[y * w + x - 1]);
      return;
    }
    default:
      fail("psd.compression", at + ": compression " + std::to_string(compression) + " (0 raw, 1 RLE, 2, 3 zip)",
           r.path());
  }
}

// The layer's RGBA from its channels (r at the first channel's data); the user mask scales alpha.
Image read_layer_pixels(ByteReader& r, const Record& rec, const Header& h, std::size_t index, DecodeBudget& budget) {
  const std::size_t w = std::size_t(std::int64_t(rec.right) - rec.left), ht = std::size_t(std::int64_t(rec.bottom) - rec.top);
  Image img;
  img.width = int(w);
  img.height = int(ht);
  const std::string where = label(rec, index);
  budget.take(std::uint64_t(w) * ht * 5, where + "'s pixels");
  img.rgba.assign(w * ht * 4, 255);
  std::vector<std::uint8_t> plane(w * ht);
  for (const Channel& ch : rec.channels) {
    ByteReader data = r.section(ch.length, where + ": channel " + std::to_string(ch.id));
    int dst = -1;
    if (ch.id >= 0 && ch.id < (h.mode == kModeRgb ? 3 : 1)) dst = ch.id;
    if (ch.id == -1) dst = 3;
    if (ch.id == -2 && rec.mask.present && !rec.mask.disabled) {
      const std::size_t mw = std::size_t(std::max<std::int64_t>(0, std::int64_t(rec.mask.right) - rec.mask.left));
      const std::size_t mh = std::size_t(std::max<std::int64_t>(0, std::int64_t(rec.mask.bottom) - rec.mask.top));
      if (mw > std::size_t(kMaxImageSide) || mh > std::size_t(kMaxImageSide))
        fail("psd.layer.bounds", where + ": its mask is " + std::to_string(mw) + " x " + std::to_string(mh) + " px",
             r.path());
      budget.take(std::uint64_t(mw) * mh, where + "'s mask");
      std::vector<std::uint8_t> mask(mw * mh);
      decode_plane(data, mw, mh, h.psb, mask.data(), where + ": mask channel");
      for (std::size_t y = 0; y < ht; ++y)
        for (std::size_t x = 0; x < w; ++x) {
          const std::int64_t mx = std::int64_t(x) + rec.left - rec.mask.left, my = std::int64_t(y) + rec.top - rec.mask.top;
          const bool in = mx >= 0 && my >= 0 && mx < std::int64_t(mw) && my < std::int64_t(mh);
          const int m = in ? mask[std::size_t(my) * mw + std::size_t(mx)] : rec.mask.fill;
          std::uint8_t& a = img.rgba[(y * w + x) * 4 + 3];
          a = std::uint8_t((a * m + 127) / 255);
        }
      continue;
    }
    if (dst < 0) continue;  // spot colours, the real user mask: not part of the layer's colour
    decode_plane(data, w, ht, h.psb, plane.data(), where + ": channel " + std::to_string(ch.id));
    if (dst == 3 || h.mode == kModeRgb) {
      for (std::size_t i = 0; i < w * ht; ++i) img.rgba[i * 4 + std::size_t(dst)] = plane[i];
    } else {
      for (std::size_t i = 0; i < w * ht; ++i) std::fill_n(&img.rgba[i * 4], 3, plane[i]);
    }
  }
  return img;
}

void check_bounds(const Record& rec, std::size_t index, const Header& h, const std::string& path) {
  const std::int64_t w = std::int64_t(rec.right) - rec.left, ht = std::int64_t(rec.bottom) - rec.top;
  const std::int64_t reach = std::int64_t(kMaxImageSide);
  const bool bad = w < 0 || ht < 0 || w > reach || ht > reach || rec.left < -reach || rec.top < -reach ||
                   rec.right > h.width + reach || rec.bottom > h.height + reach ||
                   std::uint64_t(w) * std::uint64_t(ht) > kMaxImagePixels;
  if (bad)
    fail("psd.layer.bounds",
         label(rec, index) + " (byte " + std::to_string(rec.offset) + "): bounds top " + std::to_string(rec.top) +
             ", left " + std::to_string(rec.left) + ", bottom " + std::to_string(rec.bottom) + ", right " +
             std::to_string(rec.right) + " are not a layer of at most " + std::to_string(kMaxImageSide) +
             " px a side on or near the " + std::to_string(h.width) + " x " + std::to_string(h.height) + " canvas",
         path);
}

void warn(LayeredDocument& doc, const std::string& path, std::string code, std::string message) {
  doc.warnings.push_back({Severity::Warning, std::move(code), std::move(message), {path}});
}

// Section markers to groups and pixel records to layers, bottom to top; warnings for what is
// skipped or read approximately.
void assemble(LayeredDocument& doc, std::vector<Record>& records, std::vector<Image>& pixels, const std::string& path) {
  // Walk top to bottom: a folder's header comes before (above) its layers, its end marker after them.
  std::vector<std::size_t> open;
  std::vector<std::pair<std::size_t, DocumentLayer>> top_down;
  for (std::size_t k = records.size(); k-- > 0;) {
    Record& rec = records[k];
    if (rec.kind == Kind::GroupOpen) {
      doc.groups.push_back({rec.name, rec.opacity / 255.0, (rec.flags & 2) == 0});
      open.push_back(doc.groups.size() - 1);
      continue;
    }
    if (rec.kind == Kind::GroupEnd) {
      if (open.empty()) fail("psd.groups", label(rec, k) + ": a folder ends that never began", path);
      open.pop_back();
      continue;
    }
    if (rec.kind == Kind::Adjustment) {
      warn(doc, path, "psd.layer.adjustment", label(rec, k) + ": adjustment and fill layers are skipped");
      continue;
    }
    const bool normal = rec.blend == "norm";
    if (!normal)
      warn(doc, path, "psd.layer.blend",
           label(rec, k) + ": blend mode \"" + rec.blend + "\" is drawn as normal (the part cannot carry it)");
    if (rec.clipping)
      warn(doc, path, "psd.layer.clipping", label(rec, k) + ": a clipping mask is not applied; the layer is drawn whole");
    if (rec.smart_object)
      warn(doc, path, "psd.layer.smart_object", label(rec, k) + ": a smart object: its stored pixels are used");
    if (rec.text) warn(doc, path, "psd.layer.text", label(rec, k) + ": a text layer: its stored pixels are used");
    DocumentLayer layer;
    layer.name = rec.name;
    layer.index = k;
    layer.groups = open;
    layer.x = rec.left;
    layer.y = rec.top;
    layer.image = std::move(pixels[k]);
    layer.opacity = rec.opacity / 255.0;
    layer.visible = (rec.flags & 2) == 0;
    layer.normal_blend = normal;
    top_down.emplace_back(k, std::move(layer));
  }
  if (!open.empty()) fail("psd.groups", "a folder (\"" + doc.groups[open.back()].name + "\") never ends", path);
  for (auto it = top_down.rbegin(); it != top_down.rend(); ++it) doc.layers.push_back(std::move(it->second));
}

// The merged image: planes of every channel, RLE row counts for all of them first.
Image read_composite(ByteReader& r, const Header& h, DecodeBudget& budget) {
  const std::size_t w = std::size_t(h.width), ht = std::size_t(h.height);
  const std::size_t planes = std::size_t(h.channels);
  const std::size_t start = r.pos();
  const std::uint16_t compression = r.u16("the merged image's compression");
  budget.take(std::uint64_t(w) * ht * (4 + planes), "the merged image");
  std::vector<std::uint8_t> data(w * ht * planes);
  const std::string at = "the merged image (byte " + std::to_string(start) + ")";
  if (compression == 0) {
    const std::string_view raw = r.take(std::uint64_t(w) * ht * planes, at);
    std::copy(raw.begin(), raw.end(), data.begin());
  } else if (compression == 1) {
    const int count_bytes = h.psb ? 4 : 2;
    r.need(std::uint64_t(ht) * planes * count_bytes, at + ": RLE row lengths");
    std::vector<std::uint64_t> counts(ht * planes);
    for (auto& c : counts) c = r.be(count_bytes, "an RLE row length");
    for (std::size_t row = 0; row < ht * planes; ++row)
      unpack_row(r.take(counts[row], at + ": RLE row"), data.data() + row * w, w, at, r.path());
  } else {
    fail("psd.compression", at + ": compression " + std::to_string(compression) + " (0 raw, 1 RLE)", r.path());
  }
  Image img;
  img.width = h.width;
  img.height = h.height;
  img.rgba.assign(w * ht * 4, 255);
  const std::size_t colour = h.mode == kModeRgb ? 3 : 1;
  for (std::size_t i = 0; i < w * ht; ++i) {
    for (std::size_t c = 0; c < 3; ++c) img.rgba[i * 4 + c] = data[(colour == 3 ? c : 0) * w * ht + i];
    if (planes > colour) img.rgba[i * 4 + 3] = data[colour * w * ht + i];
  }
  return img;
}

LayeredDocument read(std::string_view bytes, const std::string& path, const DocumentReadOptions& options) {
  ByteReader r(bytes, path, "psd.truncated");
  DecodeBudget budget(options.max_bytes, path);
  const Header h = read_header(r);
  LayeredDocument doc;
  doc.format = h.psb ? LayeredFormat::Psb : LayeredFormat::Psd;
  doc.width = h.width;
  doc.height = h.height;
  r.section(r.u32("the colour mode data length"), "the colour mode data");
  r.section(r.u32("the image resources length"), "the image resources");
  ByteReader lm = r.section(length_field(r, h.psb, "the layer and mask section's length"), "the layer and mask section");
  std::vector<Record> records;
  std::vector<Image> pixels;
  if (lm.left() > 0) {
    ByteReader info = lm.section(length_field(lm, h.psb, "the layer info length"), "the layer info");
    if (info.left() >= 2) {
      const int count = std::abs(int(info.i16("the layer count")));
      for (int i = 0; i < count; ++i) {
        records.push_back(read_record(info, h, std::size_t(i)));
        check_bounds(records.back(), std::size_t(i), h, path);
      }
      for (int i = 0; i < count; ++i) pixels.push_back(read_layer_pixels(info, records[std::size_t(i)], h, std::size_t(i), budget));
    }
  }
  std::optional<Image> composite;
  if (options.composite || records.empty()) composite = read_composite(r, h, budget);
  if (records.empty()) {  // a flat document: its merged image is its one layer
    DocumentLayer only;
    only.name = "Background";
    only.image = *composite;
    doc.layers.push_back(std::move(only));
  } else {
    assemble(doc, records, pixels, path);
  }
  if (options.composite) doc.composite = std::move(composite);
  return doc;
}

}  // namespace

Result<LayeredDocument> read_psd(std::string_view bytes, const std::string& path, const DocumentReadOptions& options) {
  try {
    return read(bytes, path, options);
  } catch (const layered::ReadFailure& f) {
    return Unexpected{f.error};
  } catch (const std::bad_alloc&) {
    return make_error("memory.budget", "out of memory while reading the document", {path});
  }
}

}  // namespace rig2d
