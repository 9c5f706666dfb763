// SPDX-License-Identifier: Apache-2.0
// A bounds-checked reader over a file held in memory: every read names what it reads, and a read
// past the end (or past the end of the section being read) stops the whole decode with a located
// error instead of reading out of bounds.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>

#include "rig2d/core/error.h"

namespace rig2d::layered {

// Thrown inside a reader, caught at its public entry and returned as its Error.
struct ReadFailure {
  Error error;
};

[[noreturn]] inline void fail(std::string code, std::string message, const std::string& path) {
  throw ReadFailure{Error{std::move(code), std::move(message), Location{path, "", 0, 0}}};
}

class ByteReader {
 public:
  ByteReader(std::string_view bytes, const std::string& path, std::string truncated_code)
      : bytes_(bytes), end_(bytes.size()), path_(path), code_(std::move(truncated_code)) {}

  std::size_t pos() const { return pos_; }
  std::size_t end() const { return end_; }
  std::size_t left() const { return end_ - pos_; }
  const std::string& path() const { return path_; }

  // `n` more bytes must be there; `what` says what they are.
  void need(std::uint64_t n, std::string_view what) const {
    if (n > left())
      fail(code_, std::string(what) + " at byte " + std::to_string(pos_) + " needs " + std::to_string(n) +
                      " bytes; " + std::to_string(left()) + " are left", path_);
  }
  std::string_view take(std::uint64_t n, std::string_view what) {
    need(n, what);
    const std::string_view out = bytes_.substr(pos_, static_cast<std::size_t>(n));
    pos_ += static_cast<std::size_t>(n);
    return out;
  }
  void skip(std::uint64_t n, std::string_view what) { take(n, what); }
  void seek(std::size_t at, std::string_view what) {
    if (at > end_) fail(code_, std::string(what) + ": offset " + std::to_string(at) + " is past the end", path_);
    pos_ = at;
  }
  std::uint64_t be(int bytes, std::string_view what) {
    const std::string_view b = take(std::uint64_t(bytes), what);
    std::uint64_t v = 0;
    for (char c : b) v = (v << 8) | std::uint8_t(c);
    return v;
  }
  std::uint64_t le(int bytes, std::string_view what) {
    const std::string_view b = take(std::uint64_t(bytes), what);
    std::uint64_t v = 0;
    for (int i = bytes - 1; i >= 0; --i) v = (v << 8) | std::uint8_t(b[std::size_t(i)]);
    return v;
  }
  std::uint8_t u8(std::string_view what) { return static_cast<std::uint8_t>(be(1, what)); }
  std::uint16_t u16(std::string_view what) { return static_cast<std::uint16_t>(be(2, what)); }
  std::uint32_t u32(std::string_view what) { return static_cast<std::uint32_t>(be(4, what)); }
  std::int32_t i32(std::string_view what) { return static_cast<std::int32_t>(u32(what)); }
  std::int16_t i16(std::string_view what) { return static_cast<std::int16_t>(u16(what)); }

  // A section of `length` bytes from here: reads inside it stop at its end.
  ByteReader section(std::uint64_t length, std::string_view what) {
    need(length, what);
    ByteReader sub = *this;
    sub.end_ = pos_ + static_cast<std::size_t>(length);
    pos_ = sub.end_;
    return sub;
  }

 private:
  std::string_view bytes_;
  std::size_t pos_ = 0, end_ = 0;
  std::string path_;
  std::string code_;
};

}  // namespace rig2d::layered

namespace rig2d::layered {

// What a decode may allocate in all (options.max_bytes); each big buffer is taken from it before it
// is allocated, so a header that claims a huge layer fails before any memory is spent.
class DecodeBudget {
 public:
  DecodeBudget(std::uint64_t max, const std::string& path) : max_(max), path_(path) {}
  void take(std::uint64_t bytes, std::string_view what) {
    if (bytes > max_ - used_)
      fail("memory.budget",
           std::string(what) + " needs " + std::to_string(bytes >> 20) + " MiB more; the memory budget is " +
               std::to_string(max_ >> 20) + " MiB (" + std::to_string(used_ >> 20) + " MiB in use); raise --memory-budget",
           path_);
    used_ += bytes;
  }

 private:
  std::uint64_t max_ = 0, used_ = 0;
  std::string path_;
};

// "layer 3 \"arm\"": how messages name a layer.
std::string layer_label(std::size_t index, std::string_view name);

// Latin-1 (a PSD's Pascal name) and UTF-16BE (its Unicode name) as UTF-8.
std::string latin1_to_utf8(std::string_view bytes);
void append_utf8(std::string& out, std::uint32_t code_point);

}  // namespace rig2d::layered
