// SPDX-License-Identifier: Apache-2.0
#include "rig2d/asset/guid.h"

#include <array>
#include <cstdint>
#include <vector>

namespace rig2d {
namespace {

bool is_hex(char ch) { return (ch >= '0' && ch <= '9') || (ch >= 'a' && ch <= 'f') || (ch >= 'A' && ch <= 'F'); }

int hex_value(char ch) {
  if (ch >= '0' && ch <= '9') return ch - '0';
  if (ch >= 'a' && ch <= 'f') return ch - 'a' + 10;
  return ch - 'A' + 10;
}

// UTF-8 -> UTF-16 code units, as a JS string holds the same text. Invalid bytes become U+FFFD.
std::vector<std::uint16_t> utf16_units(std::string_view s) {
  std::vector<std::uint16_t> out;
  out.reserve(s.size());
  std::size_t i = 0;
  const auto byte = [&](std::size_t k) { return static_cast<std::uint32_t>(static_cast<unsigned char>(s[i + k])); };
  const auto cont = [&](std::size_t k) { return i + k < s.size() && (byte(k) & 0xC0u) == 0x80u; };
  while (i < s.size()) {
    const std::uint32_t b0 = byte(0);
    std::uint32_t cp = 0xFFFD;
    std::size_t len = 1;
    if (b0 < 0x80) {
      cp = b0;
    } else if ((b0 & 0xE0u) == 0xC0u && cont(1)) {
      cp = ((b0 & 0x1Fu) << 6) | (byte(1) & 0x3Fu);
      len = 2;
      if (cp < 0x80) cp = 0xFFFD;
    } else if ((b0 & 0xF0u) == 0xE0u && cont(1) && cont(2)) {
      cp = ((b0 & 0x0Fu) << 12) | ((byte(1) & 0x3Fu) << 6) | (byte(2) & 0x3Fu);
      len = 3;
      if (cp < 0x800) cp = 0xFFFD;
    } else if ((b0 & 0xF8u) == 0xF0u && cont(1) && cont(2) && cont(3)) {
      cp = ((b0 & 0x07u) << 18) | ((byte(1) & 0x3Fu) << 12) | ((byte(2) & 0x3Fu) << 6) | (byte(3) & 0x3Fu);
      len = 4;
      if (cp < 0x10000 || cp > 0x10FFFF) cp = 0xFFFD;
    }
    if (cp >= 0x10000) {
      cp -= 0x10000;
      out.push_back(static_cast<std::uint16_t>(0xD800 + (cp >> 10)));
      out.push_back(static_cast<std::uint16_t>(0xDC00 + (cp & 0x3FF)));
    } else {
      out.push_back(static_cast<std::uint16_t>(cp));
    }
    i += len;
  }
  return out;
}

// 8-4-4-4-12 lowercase hex, the GUID text every rig2d writer and the engine use.
std::string format_guid(const std::array<std::uint8_t, 16>& bytes) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out(36, '-');
  std::size_t at = 0;
  for (std::size_t i = 0; i < 16; ++i) {
    if (i == 4 || i == 6 || i == 8 || i == 10) ++at;  // over a dash
    out[at++] = kHex[bytes[i] >> 4];
    out[at++] = kHex[bytes[i] & 0x0F];
  }
  return out;
}

std::uint32_t rotl(std::uint32_t x, int n) { return (x << n) | (x >> (32 - n)); }

// SHA-1 (FIPS 180-4), used only for name-based UUIDs.
std::array<std::uint8_t, 20> sha1(std::vector<std::uint8_t> m) {
  std::uint32_t h[5] = {0x67452301u, 0xEFCDAB89u, 0x98BADCFEu, 0x10325476u, 0xC3D2E1F0u};
  const std::uint64_t bit_len = static_cast<std::uint64_t>(m.size()) * 8;
  m.push_back(0x80);
  while (m.size() % 64 != 56) m.push_back(0);
  for (int k = 7; k >= 0; --k) m.push_back(static_cast<std::uint8_t>(bit_len >> (8 * k)));
  for (std::size_t block = 0; block < m.size(); block += 64) {
    std::uint32_t w[80];
    for (std::size_t t = 0; t < 16; ++t) {
      const std::size_t o = block + t * 4;
      w[t] = (std::uint32_t(m[o]) << 24) | (std::uint32_t(m[o + 1]) << 16) | (std::uint32_t(m[o + 2]) << 8) | m[o + 3];
    }
    for (std::size_t t = 16; t < 80; ++t) w[t] = rotl(w[t - 3] ^ w[t - 8] ^ w[t - 14] ^ w[t - 16], 1);
    std::uint32_t a = h[0], b = h[1], c = h[2], d = h[3], e = h[4];
    for (std::size_t t = 0; t < 80; ++t) {
      std::uint32_t f = 0;
      std::uint32_t k = 0;
      if (t < 20) {
        f = (b & c) | (~b & d);
        k = 0x5A827999u;
      } else if (t < 40) {
        f = b ^ c ^ d;
        k = 0x6ED9EBA1u;
      } else if (t < 60) {
        f = (b & c) | (b & d) | (c & d);
        k = 0x8F1BBCDCu;
      } else {
        f = b ^ c ^ d;
        k = 0xCA62C1D6u;
      }
      const std::uint32_t temp = rotl(a, 5) + f + e + k + w[t];
      e = d;
      d = c;
      c = rotl(b, 30);
      b = a;
      a = temp;
    }
    h[0] += a;
    h[1] += b;
    h[2] += c;
    h[3] += d;
    h[4] += e;
  }
  std::array<std::uint8_t, 20> digest{};
  for (std::size_t i = 0; i < 5; ++i) {
    for (std::size_t k = 0; k < 4; ++k) digest[i * 4 + k] = static_cast<std::uint8_t>(h[i] >> (24 - 8 * k));
  }
  return digest;
}

}  // namespace

bool is_guid(std::string_view s) {
  if (s.size() != 36) return false;
  for (std::size_t i = 0; i < 36; ++i) {
    const bool dash = i == 8 || i == 13 || i == 18 || i == 23;
    if (dash ? s[i] != '-' : !is_hex(s[i])) return false;
  }
  return true;
}

std::string derive_guid(std::string_view seed) {
  const std::vector<std::uint16_t> units = utf16_units(seed);
  std::array<std::uint8_t, 16> bytes{};
  for (int n = 0; n < 4; ++n) {
    std::uint32_t h = 0x811c9dc5u;
    const auto feed = [&](std::uint32_t unit) {
      h ^= unit;
      h *= 0x01000193u;  // unsigned wrap-around is the engine's mod 2^32
    };
    feed(static_cast<std::uint32_t>('0' + n));
    feed(':');
    for (const std::uint16_t u : units) feed(u);
    for (int b = 0; b < 4; ++b) bytes[std::size_t(4 * n + b)] = static_cast<std::uint8_t>(h >> (24 - 8 * b));
  }
  return format_guid(bytes);  // the four hashes' hex, most significant digit first
}

std::string uuid_v5(std::string_view namespace_guid, std::string_view name) {
  std::vector<std::uint8_t> message;
  message.reserve(16 + name.size());
  if (is_guid(namespace_guid)) {
    for (std::size_t i = 0; i < namespace_guid.size(); ++i) {
      if (namespace_guid[i] == '-') continue;
      const int hi = hex_value(namespace_guid[i]);
      const int lo = hex_value(namespace_guid[++i]);
      message.push_back(static_cast<std::uint8_t>(hi * 16 + lo));
    }
  } else {
    message.resize(16, 0);
  }
  message.insert(message.end(), name.begin(), name.end());
  const auto digest = sha1(std::move(message));
  std::array<std::uint8_t, 16> bytes{};
  for (std::size_t i = 0; i < 16; ++i) bytes[i] = digest[i];
  bytes[6] = static_cast<std::uint8_t>((bytes[6] & 0x0F) | 0x50);  // version 5
  bytes[8] = static_cast<std::uint8_t>((bytes[8] & 0x3F) | 0x80);  // RFC 4122 variant
  return format_guid(bytes);
}

}  // namespace rig2d
