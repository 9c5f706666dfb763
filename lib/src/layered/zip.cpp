// SPDX-License-Identifier: Apache-2.0
#include "layered/zip.h"

#include <zlib.h>

#include <algorithm>

namespace rig2d::layered {
namespace {

constexpr std::size_t kEndRecord = 22;
constexpr std::size_t kMaxComment = 0xFFFF;

// "../x", "/etc/x", "C:x", "a\..\b": a name that would leave the archive's folder if extracted.
bool unsafe_name(std::string_view name) {
  if (name.empty() || name[0] == '/' || name[0] == '\\') return true;
  if (name.size() >= 2 && name[1] == ':') return true;
  std::size_t start = 0;
  while (start <= name.size()) {
    std::size_t end = name.find_first_of("/\\", start);
    if (end == std::string_view::npos) end = name.size();
    if (name.substr(start, end - start) == "..") return true;
    start = end + 1;
  }
  return name.find('\0') != std::string_view::npos;
}

std::size_t find_end_record(std::string_view bytes, const std::string& path) {
  if (bytes.size() < kEndRecord) fail("ora.zip", "not a zip file (too short for its directory)", path);
  const std::size_t lowest = bytes.size() > kEndRecord + kMaxComment ? bytes.size() - kEndRecord - kMaxComment : 0;
  for (std::size_t at = bytes.size() - kEndRecord + 1; at-- > lowest;)
    if (bytes.compare(at, 4, std::string_view("PK\x05\x06", 4)) == 0) return at;
  fail("ora.zip", "not a zip file (no end of central directory record)", path);
}

}  // namespace

ZipArchive::ZipArchive(std::string_view bytes, const std::string& path) : bytes_(bytes), path_(path) {
  ByteReader end(bytes, path, "ora.zip");
  end.seek(find_end_record(bytes, path) + 4, "the end record");
  end.skip(6, "the end record");
  const std::uint64_t count = end.le(2, "the entry count");
  const std::uint64_t dir_size = end.le(4, "the directory size");
  const std::uint64_t dir_offset = end.le(4, "the directory offset");
  if (count == 0xFFFF || dir_offset == 0xFFFFFFFF)
    fail("ora.zip", "a zip64 archive: documents over 4 GiB are not read", path);
  ByteReader dir(bytes, path, "ora.zip");
  dir.seek(static_cast<std::size_t>(std::min<std::uint64_t>(dir_offset, bytes.size() + 1)), "the central directory");
  dir = dir.section(dir_size, "the central directory");
  for (std::uint64_t i = 0; i < count; ++i) {
    const std::size_t at = dir.pos();
    if (dir.take(4, "a directory entry") != std::string_view("PK\x01\x02", 4))
      fail("ora.zip", "directory entry " + std::to_string(i) + " (byte " + std::to_string(at) + ") has no signature", path);
    ZipEntry e;
    dir.skip(4, "a directory entry");
    e.flags = static_cast<std::uint16_t>(dir.le(2, "the entry flags"));
    e.method = static_cast<std::uint16_t>(dir.le(2, "the entry method"));
    dir.skip(4, "the entry time");
    e.crc = static_cast<std::uint32_t>(dir.le(4, "the entry CRC"));
    e.compressed = dir.le(4, "the compressed size");
    e.size = dir.le(4, "the size");
    const std::uint64_t name_len = dir.le(2, "the name length"), extra_len = dir.le(2, "the extra length"),
                        comment_len = dir.le(2, "the comment length");
    dir.skip(8, "the entry attributes");
    e.local_offset = dir.le(4, "the local header offset");
    e.name = std::string(dir.take(name_len, "the entry name"));
    dir.skip(extra_len + comment_len, "the entry's extra data");
    if (unsafe_name(e.name))
      fail("ora.zip.path", "entry " + std::to_string(i) + " is named \"" + e.name +
                               "\": an absolute path or one with \"..\" is refused", path);
    entries_.push_back(std::move(e));
  }
}

const ZipEntry* ZipArchive::find(std::string_view name) const {
  const auto it = std::find_if(entries_.begin(), entries_.end(), [&](const ZipEntry& e) { return e.name == name; });
  return it == entries_.end() ? nullptr : &*it;
}

std::string ZipArchive::read(const ZipEntry& e, DecodeBudget& budget) const {
  const std::string what = "zip entry \"" + e.name + "\"";
  if (e.flags & 1) fail("ora.zip", what + " is encrypted", path_);
  if (e.method != 0 && e.method != 8)
    fail("ora.zip", what + ": compression method " + std::to_string(e.method) + " (stored and deflate are read)", path_);
  ByteReader local(bytes_, path_, "ora.zip");
  local.seek(static_cast<std::size_t>(std::min<std::uint64_t>(e.local_offset, bytes_.size() + 1)), what);
  if (local.take(4, what + "'s local header") != std::string_view("PK\x03\x04", 4))
    fail("ora.zip", what + ": no local header at byte " + std::to_string(e.local_offset), path_);
  local.skip(22, what + "'s local header");
  const std::uint64_t name_len = local.le(2, "the name length"), extra_len = local.le(2, "the extra length");
  local.skip(name_len + extra_len, what + "'s local header");
  const std::string_view data = local.take(e.compressed, what + "'s data");
  budget.take(e.size, what + " (its declared size)");
  std::string out(static_cast<std::size_t>(e.size), '\0');
  if (e.method == 0) {
    if (e.compressed != e.size) fail("ora.zip", what + ": a stored entry whose sizes differ", path_);
    out.assign(data);
  } else {
    z_stream z{};
    if (inflateInit2(&z, -15) != Z_OK) fail("ora.zip", what + ": cannot start zlib", path_);
    z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
    z.avail_in = static_cast<uInt>(data.size());
    z.next_out = reinterpret_cast<Bytef*>(out.data());
    z.avail_out = static_cast<uInt>(out.size());
    int rc = inflate(&z, Z_FINISH);
    if (rc == Z_BUF_ERROR && z.avail_out == 0) {  // more data than declared: a bomb or a lie, never inflated further
      inflateEnd(&z);
      fail("memory.budget", what + " inflates past its declared " + std::to_string(e.size) + " bytes", path_);
    }
    const std::size_t produced = out.size() - z.avail_out;
    inflateEnd(&z);
    if (rc != Z_STREAM_END || produced != out.size())
      fail("ora.zip", what + " is corrupt (its deflate data " +
                          (rc == Z_STREAM_END ? "ends after " + std::to_string(produced) + " bytes)" : std::string("is damaged)")),
           path_);
  }
  const auto crc = static_cast<std::uint32_t>(
      ::crc32_z(::crc32_z(0, nullptr, 0), reinterpret_cast<const Bytef*>(out.data()), out.size()));
  if (crc != e.crc) fail("ora.zip", what + " has a bad CRC (the file is damaged)", path_);
  return out;
}

}  // namespace rig2d::layered
