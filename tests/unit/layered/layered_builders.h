// SPDX-License-Identifier: Apache-2.0
// Tiny writers of PSD and zip bytes for the layered readers' tests and fuzz seeds: just the fields a
// test needs, each one settable to something wrong.
#pragma once

#include <zlib.h>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace rig2d::test {

inline void put_be(std::string& out, std::uint64_t v, int bytes) {
  for (int i = bytes - 1; i >= 0; --i) out += char((v >> (8 * i)) & 0xFF);
}
inline void put_le(std::string& out, std::uint64_t v, int bytes) {
  for (int i = 0; i < bytes; ++i) out += char((v >> (8 * i)) & 0xFF);
}

struct TestChannel {
  std::int16_t id = 0;
  std::string data;  // with its 2-byte compression field
};

struct TestLayer {
  std::string name = "a";
  std::int32_t top = 0, left = 0, bottom = 2, right = 2;
  std::vector<TestChannel> channels;
  std::string blend = "norm";
  std::uint8_t opacity = 255, flags = 0;
};

// Raw channel data: compression 0, then the bytes.
inline TestChannel raw_channel(std::int16_t id, const std::string& bytes) { return {id, std::string("\0\0", 2) + bytes}; }

// RLE channel data (PSD widths: 2-byte row counts): each row given as its PackBits bytes.
inline TestChannel rle_channel(std::int16_t id, const std::vector<std::string>& rows) {
  TestChannel c{id, std::string("\0\x01", 2)};
  for (const std::string& r : rows) put_be(c.data, r.size(), 2);
  for (const std::string& r : rows) c.data += r;
  return c;
}

struct TestPsd {
  int version = 1, channels = 3, width = 4, height = 4, depth = 8, mode = 3;
  std::vector<TestLayer> layers;
  std::string composite;  // image data after the compression field; empty: raw zeros
};

inline std::string make_psd(const TestPsd& p) {
  const bool psb = p.version == 2;
  std::string out = "8BPS";
  put_be(out, std::uint64_t(p.version), 2);
  out += std::string(6, '\0');
  put_be(out, std::uint64_t(p.channels), 2);
  put_be(out, std::uint64_t(p.height), 4);
  put_be(out, std::uint64_t(p.width), 4);
  put_be(out, std::uint64_t(p.depth), 2);
  put_be(out, std::uint64_t(p.mode), 2);
  put_be(out, 0, 4);  // colour mode data
  put_be(out, 0, 4);  // image resources
  std::string info;
  put_be(info, p.layers.size(), 2);
  for (const TestLayer& l : p.layers) {
    put_be(info, std::uint32_t(l.top), 4);
    put_be(info, std::uint32_t(l.left), 4);
    put_be(info, std::uint32_t(l.bottom), 4);
    put_be(info, std::uint32_t(l.right), 4);
    put_be(info, l.channels.size(), 2);
    for (const TestChannel& c : l.channels) {
      put_be(info, std::uint16_t(c.id), 2);
      put_be(info, c.data.size(), psb ? 8 : 4);
    }
    info += "8BIM" + l.blend;
    info += char(l.opacity);
    info += '\0';
    info += char(l.flags);
    info += '\0';
    std::string extra;
    put_be(extra, 0, 4);  // mask
    put_be(extra, 0, 4);  // blending ranges
    extra += char(l.name.size());
    extra += l.name;
    while ((extra.size() - 8) % 4 != 0) extra += '\0';
    put_be(info, extra.size(), 4);
    info += extra;
  }
  for (const TestLayer& l : p.layers)
    for (const TestChannel& c : l.channels) info += c.data;
  std::string lm;
  put_be(lm, info.size(), psb ? 8 : 4);
  lm += info;
  put_be(out, lm.size(), psb ? 8 : 4);
  out += lm;
  out += std::string("\0\0", 2);
  out += p.composite.empty() ? std::string(std::size_t(p.channels) * std::size_t(p.width) * std::size_t(p.height), '\0')
                             : p.composite;
  return out;
}

struct TestZipEntry {
  std::string name;
  std::string data;       // as stored (deflated when deflate is set)
  std::uint32_t crc = 0;
  std::uint64_t size = 0;  // the declared uncompressed size
  bool deflate = false;
};

inline TestZipEntry stored(std::string name, const std::string& data) {
  TestZipEntry e{std::move(name), data, 0, data.size(), false};
  e.crc = std::uint32_t(crc32(0, reinterpret_cast<const Bytef*>(data.data()), uInt(data.size())));
  return e;
}

inline TestZipEntry deflated(std::string name, const std::string& data) {
  TestZipEntry e{std::move(name), {}, 0, data.size(), true};
  e.crc = std::uint32_t(crc32(0, reinterpret_cast<const Bytef*>(data.data()), uInt(data.size())));
  z_stream z{};
  deflateInit2(&z, 9, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY);
  std::string out(deflateBound(&z, uLong(data.size())), '\0');
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
  z.avail_in = uInt(data.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = uInt(out.size());
  deflate(&z, Z_FINISH);
  out.resize(out.size() - z.avail_out);
  deflateEnd(&z);
  e.data = std::move(out);
  return e;
}

inline std::string make_zip(const std::vector<TestZipEntry>& entries) {
  std::string out, dir;
  for (const TestZipEntry& e : entries) {
    const std::size_t offset = out.size();
    auto header = [&](std::string& to, bool central) {
      to += central ? std::string("PK\x01\x02", 4) : std::string("PK\x03\x04", 4);
      if (central) put_le(to, 20, 2);
      put_le(to, 20, 2);
      put_le(to, 0, 2);
      put_le(to, e.deflate ? 8 : 0, 2);
      put_le(to, 0, 4);  // time, date
      put_le(to, e.crc, 4);
      put_le(to, e.data.size(), 4);
      put_le(to, e.size, 4);
      put_le(to, e.name.size(), 2);
      put_le(to, 0, 2);
      if (central) {
        put_le(to, 0, 2);
        put_le(to, 0, 2);
        put_le(to, 0, 2);
        put_le(to, 0, 4);
        put_le(to, offset, 4);
      }
      to += e.name;
    };
    header(out, false);
    out += e.data;
    header(dir, true);
  }
  const std::size_t dir_offset = out.size();
  out += dir;
  out += std::string("PK\x05\x06", 4);
  put_le(out, 0, 4);
  put_le(out, entries.size(), 2);
  put_le(out, entries.size(), 2);
  put_le(out, dir.size(), 4);
  put_le(out, dir_offset, 4);
  put_le(out, 0, 2);
  return out;
}

}  // namespace rig2d::test
