// SPDX-License-Identifier: Apache-2.0
#include "rig2d/image/png.h"

#include <zlib.h>

#include <array>
#include <algorithm>
#include <climits>
#include <cstring>
#include <fstream>
#include <memory>

#include "image/adler32.h"
#include "rig2d/core/limits.h"
#include "rig2d/io/files.h"

#define STBI_NO_STDIO
#include <stb_image.h>
#define STBI_WRITE_NO_STDIO
#include <stb_image_write.h>

namespace rig2d {
namespace {

constexpr unsigned char kSignature[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};

std::string decoder_reason() {
  const char* reason = stbi_failure_reason();
  return reason ? std::string(" (decoder: ") + reason + ")" : std::string();
}

std::uint32_t read_be32(std::string_view bytes, std::size_t at) {
  const auto* p = reinterpret_cast<const unsigned char*>(bytes.data() + at);
  return (std::uint32_t(p[0]) << 24) | (std::uint32_t(p[1]) << 16) | (std::uint32_t(p[2]) << 8) | p[3];
}

// CRC-32 as PNG uses it (ISO 3309), zlib's.
std::uint32_t crc32(std::string_view bytes) {
  return static_cast<std::uint32_t>(
      ::crc32_z(::crc32_z(0, nullptr, 0), reinterpret_cast<const Bytef*>(bytes.data()), bytes.size()));
}

// One chunk's CRC, the chunk starting at `at` (its length field) with `length` data bytes.
bool chunk_crc_ok(std::string_view bytes, std::size_t at, std::uint32_t length) {
  return crc32(bytes.substr(at + 4, std::size_t(length) + 4)) == read_be32(bytes, at + 8 + length);
}

struct ChunkWalk {
  bool has_empty_idat = false;  // stb passes a null buffer to memcpy on an empty first IDAT
  bool cgbi = false;            // stb takes the zlib header as raw deflate in Apple's CgBI files
  std::size_t first_idat = 0;   // where the first IDAT chunk starts (0: none)
};

// stb checks neither CRCs nor the zlib checksum, and does not need IEND, so a corrupt or cut-off file
// can decode to garbage. Every chunk must be whole with a correct CRC, up to a complete IEND.
Result<ChunkWalk> walk_chunks(std::string_view bytes, const std::string& path) {
  ChunkWalk walk;
  std::size_t at = sizeof kSignature;
  while (at + 12 <= bytes.size()) {
    const std::uint32_t length = read_be32(bytes, at);
    const std::uint64_t end = std::uint64_t(at) + 12 + length;
    if (end > bytes.size()) break;
    const std::string type(bytes.substr(at + 4, 4));
    if (!chunk_crc_ok(bytes, at, length)) {
      return make_error("png.corrupt", "the " + type + " chunk at byte " + std::to_string(at) +
                                           " has a bad CRC (the file is damaged)", {path});
    }
    const bool idat = type == "IDAT";
    if (idat && length == 0) walk.has_empty_idat = true;
    if (idat && walk.first_idat == 0) walk.first_idat = at;
    if (type == "CgBI") walk.cgbi = true;
    if (type == "IEND") return walk;
    at = static_cast<std::size_t>(end);
  }
  return make_error("png.corrupt", "PNG data is truncated (the chunks do not reach a complete IEND)", {path});
}

// The file without its zero-length IDAT chunks (legal, and meaningless), which stb mishandles.
std::string without_empty_idat(std::string_view bytes) {
  std::string out(bytes.substr(0, sizeof kSignature));
  std::size_t at = sizeof kSignature;
  while (at + 12 <= bytes.size()) {
    const std::uint32_t length = read_be32(bytes, at);
    const std::size_t size = 12 + std::size_t(length);
    if (bytes.compare(at + 4, 4, "IEND") == 0) {
      out.append(bytes.substr(at, size));
      break;
    }
    if (!(length == 0 && bytes.compare(at + 4, 4, "IDAT") == 0)) out.append(bytes.substr(at, size));
    at += size;
  }
  return out;
}

// zlib inflating the concatenated IDAT data on demand: it checks the stream's structure, and the
// Adler-32 checksum is checked here (zlib's own adler32 takes ~4 instructions a byte, a quarter of a
// decode) before stb trusts the image data.
class IdatInflater {
 public:
  explicit IdatInflater(std::string_view bytes) : bytes_(bytes) {
    if (inflateInit(&z_) != Z_OK || inflateValidate(&z_, 0) != Z_OK) status_ = Z_MEM_ERROR;
  }
  ~IdatInflater() { inflateEnd(&z_); }
  IdatInflater(const IdatInflater&) = delete;
  IdatInflater& operator=(const IdatInflater&) = delete;

  // Inflates up to n bytes into out; fewer only once the stream ended or failed.
  std::size_t take(unsigned char* out, std::size_t n) {
    z_.next_out = out;
    z_.avail_out = static_cast<uInt>(n);
    while (status_ == Z_OK && z_.avail_out > 0) {
      if (!draining_ && z_.avail_in == 0) {
        draining_ = !next_idat();
        continue;
      }
      const Bytef* in = z_.next_in;
      unsigned char* out_before = z_.next_out;
      status_ = inflate(&z_, draining_ ? Z_FINISH : Z_NO_FLUSH);
      adler_ = detail::adler32(adler_, out_before, std::size_t(z_.next_out - out_before));
      for (const Bytef* b = z_.next_in - std::min<std::ptrdiff_t>(4, z_.next_in - in); b < z_.next_in; ++b) {
        last4_ = (last4_ << 8) | *b;
      }
      if (status_ == Z_STREAM_END && adler_ != last4_) {  // the stream ends with its Adler-32
        status_ = Z_DATA_ERROR;
        msg_ = "incorrect data check";  // zlib's words
      }
      // Z_BUF_ERROR: no progress without more input (then more IDAT data comes, or the stream ended
      // early), or, draining, without more room.
      if (status_ == Z_BUF_ERROR && (!draining_ || z_.avail_out == 0)) status_ = Z_OK;
    }
    return n - z_.avail_out;
  }
  // Inflates the rest (kept nowhere) and says whether the whole stream is sound.
  Result<void> finish(const std::string& path) {
    std::array<unsigned char, 1 << 15> scratch;
    while (take(scratch.data(), scratch.size()) == scratch.size()) extra_ = true;
    if (status_ == Z_STREAM_END) return {};
    const char* msg = msg_ ? msg_ : z_.msg;
    const std::string reason = msg ? std::string(" (zlib: ") + msg + ")" : std::string();
    if (status_ == Z_DATA_ERROR) {
      return make_error("png.corrupt", "the image data's zlib stream is damaged" + reason, {path});
    }
    if (status_ == Z_MEM_ERROR) return make_error("png.corrupt", "cannot start the zlib check", {path});
    return make_error("png.corrupt", "the image data's zlib stream is incomplete" + reason, {path});
  }
  // finish() found data past what take() was asked for.
  bool had_extra() const { return extra_; }
  std::uint32_t adler() const { return adler_; }

 private:
  bool next_idat() {
    while (at_ + 12 <= bytes_.size()) {
      const std::size_t chunk = at_;
      const std::uint32_t length = read_be32(bytes_, chunk);
      if (bytes_.compare(chunk + 4, 4, "IEND") == 0) return false;  // walk_chunks saw all up to here whole
      at_ += 12 + std::size_t(length);
      if (bytes_.compare(chunk + 4, 4, "IDAT") == 0) {
        z_.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(bytes_.data() + chunk + 8));
        z_.avail_in = length;
        return true;
      }
    }
    return false;
  }

  std::string_view bytes_;
  z_stream z_{};
  int status_ = Z_OK;
  std::size_t at_ = sizeof kSignature;
  bool draining_ = false;
  bool extra_ = false;
  std::uint32_t adler_ = 1;
  std::uint32_t last4_ = 0;      // the last 4 bytes zlib consumed
  const char* msg_ = nullptr;  // set when the checksum differs
};

void put_be32(unsigned char* p, std::uint32_t v) {
  p[0] = static_cast<unsigned char>(v >> 24);
  p[1] = static_cast<unsigned char>(v >> 16);
  p[2] = static_cast<unsigned char>(v >> 8);
  p[3] = static_cast<unsigned char>(v);
}

// The bytes stb's PNG reader inflates to (filter byte + packed row per row, per Adam7 pass), 0 for a
// header stb will refuse anyway.
std::uint64_t inflated_size(std::string_view bytes, const PngInfo& info) {
  const std::uint64_t bits = std::uint64_t(info.samples) * std::uint64_t(info.bit_depth);
  auto pass = [&](std::uint64_t w, std::uint64_t h) { return w && h ? h * (1 + (w * bits + 7) / 8) : 0; };
  const int interlace = static_cast<unsigned char>(bytes[28]);
  if (interlace == 0) return pass(std::uint64_t(info.width), std::uint64_t(info.height));
  if (interlace != 1) return 0;
  constexpr int x0[7] = {0, 4, 0, 2, 0, 1, 0}, y0[7] = {0, 0, 4, 0, 2, 0, 1};
  constexpr int dx[7] = {8, 8, 4, 4, 2, 2, 1}, dy[7] = {8, 8, 8, 4, 4, 2, 2};
  std::uint64_t total = 0;
  for (int p = 0; p < 7; ++p) {
    total += pass((std::uint64_t(info.width) - x0[p] + dx[p] - 1) / dx[p],
                  (std::uint64_t(info.height) - y0[p] + dy[p] - 1) / dy[p]);
  }
  return total;
}

// stb inflates the IDAT data itself, and zlib must inflate it to check it. To inflate once, stb reads
// the file through callbacks as if its image data were stored (uncompressed) deflate blocks, which it
// only copies: every chunk but IDAT in its place, one IDAT where the first was, whose data zlib
// inflates straight into stb's buffer as stb reads it. The chunks after that IDAT (IEND, which makes
// stb decode) come only once zlib found the whole stream sound and exactly the size stb needs. stb
// reads neither chunk CRCs nor the Adler-32, so the new IDAT's CRC is 0.
class StoredFeed {
 public:
  static constexpr std::uint64_t kBlock = 65535;
  static constexpr std::uint64_t kHeader = 5;

  // The new IDAT's size: zlib header, the blocks with their headers, Adler-32.
  static std::uint64_t stream_bytes(std::uint64_t raw) { return 2 + raw + (raw + kBlock - 1) / kBlock * kHeader + 4; }

  StoredFeed(std::string_view bytes, const ChunkWalk& walk, std::uint64_t raw, IdatInflater& inflater)
      : inflater_(inflater), raw_(raw) {
    blocks_ = (raw + kBlock - 1) / kBlock;
    const std::uint64_t stream = stream_bytes(raw);
    head_.assign(bytes.substr(0, walk.first_idat));
    head_.resize(walk.first_idat + 10);
    auto* p = reinterpret_cast<unsigned char*>(head_.data()) + walk.first_idat;
    put_be32(p, static_cast<std::uint32_t>(stream));
    std::memcpy(p + 4, "IDAT", 4);
    p[8] = 0x78;  // deflate, 32 KiB window, no dictionary (0x7801 is a multiple of 31)
    p[9] = 0x01;
    tail_.assign(8, '\0');  // the Adler-32, then the CRC
    for (std::size_t at = walk.first_idat; at + 12 <= bytes.size();) {  // the chunks after the first IDAT
      const std::size_t chunk = 12 + std::size_t(read_be32(bytes, at));
      if (bytes.compare(at + 4, 4, "IDAT") != 0) tail_.append(bytes.substr(at, chunk));
      if (bytes.compare(at + 4, 4, "IEND") == 0) break;
      at += chunk;
    }
    blocks_end_ = head_.size() + raw + blocks_ * kHeader;
  }

  // stb's read callback: n bytes from the current position, fewer at the end or once refused.
  int read(char* out, int n) {
    int done = 0;
    while (done < n && !refused_) {
      const std::size_t got = next(reinterpret_cast<unsigned char*>(out) + done, std::size_t(n - done));
      if (got == 0) break;
      done += static_cast<int>(got);
    }
    return done;
  }
  void skip(int n) {
    std::array<char, 4096> sink;
    while (n > 0 && !refused_) {
      const int got = read(sink.data(), std::min(n, int(sink.size())));
      if (got == 0) break;
      n -= got;
    }
  }
  bool at_end() const { return refused_ || pos_ >= blocks_end_ + tail_.size(); }
  // stb got IEND: the stream was checked whole and fed to stb exactly.
  bool fed_whole() const { return tail_open_; }

 private:
  std::size_t next(unsigned char* out, std::size_t n) {
    if (pos_ < head_.size()) return copy(head_, pos_, out, n);
    if (pos_ >= blocks_end_) return open_tail() ? copy(tail_, pos_ - blocks_end_, out, n) : 0;
    const std::uint64_t in_blocks = pos_ - head_.size();
    const std::uint64_t block = in_blocks / (kBlock + kHeader);
    const std::uint64_t k = in_blocks % (kBlock + kHeader);
    const std::uint64_t len = std::min(kBlock, raw_ - block * kBlock);
    if (k < kHeader) {  // BFINAL and BTYPE 00 (stored), LEN, NLEN
      const auto l = static_cast<std::uint32_t>(len);
      const unsigned char header[5] = {static_cast<unsigned char>(block + 1 == blocks_ ? 1 : 0),
                                       static_cast<unsigned char>(l), static_cast<unsigned char>(l >> 8),
                                       static_cast<unsigned char>(~l), static_cast<unsigned char>(~l >> 8)};
      const std::size_t m = std::min<std::size_t>(n, kHeader - k);
      std::memcpy(out, header + k, m);
      pos_ += m;
      return m;
    }
    const std::size_t want = std::min<std::size_t>(n, len - (k - kHeader));
    const std::size_t got = inflater_.take(out, want);
    pos_ += got;
    if (got < want) refused_ = true;  // the stream ended or failed early
    return got;
  }
  std::size_t copy(const std::string& from, std::size_t at, unsigned char* out, std::size_t n) {
    const std::size_t m = std::min(n, from.size() - at);
    std::memcpy(out, from.data() + at, m);
    pos_ += m;
    return m;
  }
  bool open_tail() {
    if (!tail_open_ && !refused_) {
      const bool sound = inflater_.finish("") && !inflater_.had_extra();
      refused_ = !sound;
      tail_open_ = sound;
      if (sound) put_be32(reinterpret_cast<unsigned char*>(tail_.data()), inflater_.adler());
    }
    return tail_open_;
  }

  IdatInflater& inflater_;
  std::uint64_t raw_;
  std::uint64_t blocks_ = 0;
  std::string head_;  // the chunks before the first IDAT, that IDAT's header and the zlib header
  std::string tail_;  // the Adler-32 and CRC of that IDAT, then the chunks after it but IDATs, to IEND
  std::uint64_t blocks_end_ = 0;
  std::uint64_t pos_ = 0;
  bool refused_ = false;
  bool tail_open_ = false;
};

using StbPixels = std::unique_ptr<stbi_uc, void (*)(void*)>;

StbPixels stb_decode(std::string_view bytes, int& w, int& h) {
  int channels = 0;
  return StbPixels(stbi_load_from_memory(reinterpret_cast<const stbi_uc*>(bytes.data()),
                                         static_cast<int>(bytes.size()), &w, &h, &channels, 4),
                   stbi_image_free);
}

StbPixels stb_decode(StoredFeed& feed, int& w, int& h) {
  stbi_io_callbacks io;
  io.read = [](void* user, char* out, int n) { return static_cast<StoredFeed*>(user)->read(out, n); };
  io.skip = [](void* user, int n) { static_cast<StoredFeed*>(user)->skip(n); };
  io.eof = [](void* user) { return static_cast<StoredFeed*>(user)->at_end() ? 1 : 0; };
  int channels = 0;
  return StbPixels(stbi_load_from_callbacks(&io, &feed, &w, &h, &channels, 4), stbi_image_free);
}

// stb's pixels of a file whose every chunk is whole with a good CRC, after zlib checked its image data.
Result<StbPixels> checked_stb_decode(std::string_view bytes, const PngInfo& info, const ChunkWalk& walk, int& w,
                                     int& h, const std::string& path) {
  IdatInflater inflater(bytes);
  const std::uint64_t raw = inflated_size(bytes, info);
  const bool feedable = raw > 0 && !walk.cgbi && walk.first_idat != 0 &&
                        StoredFeed::stream_bytes(raw) <= (std::uint64_t{1} << 30);  // stb keeps sizes in ints
  if (feedable) {
    StoredFeed feed(bytes, walk, raw, inflater);
    StbPixels pixels = stb_decode(feed, w, h);
    if (pixels && feed.fed_whole()) return pixels;
  }
  // Not fed whole (the stream is damaged, inflates to other than stb needs, or stb refused the file
  // first): zlib's verdict on the rest of the stream, then stb's on the original file, as before.
  if (auto sound = inflater.finish(path); !sound) return Unexpected{sound.error()};
  std::string cleaned;
  if (walk.has_empty_idat) {
    cleaned = without_empty_idat(bytes);
    bytes = cleaned;
  }
  return stb_decode(bytes, w, h);
}

}  // namespace

Result<PngInfo> png_info(std::string_view bytes, const std::string& path) {
  if (bytes.size() < sizeof kSignature || std::memcmp(bytes.data(), kSignature, sizeof kSignature) != 0) {
    return make_error("png.signature", "not a PNG file (missing PNG signature)", {path});
  }
  if (bytes.size() > kMaxPngFileBytes || bytes.size() > static_cast<std::size_t>(INT_MAX)) {
    return make_error("png.too_large", "PNG file is larger than " + std::to_string(kMaxPngFileBytes) + " bytes",
                      {path});
  }
  // The IHDR chunk must follow the signature: 4 length + "IHDR" + 4 width + 4 height.
  if (bytes.size() < 24 || std::memcmp(bytes.data() + 12, "IHDR", 4) != 0) {
    return make_error("png.corrupt", "PNG header (IHDR) is missing or truncated", {path});
  }
  auto be32 = [&](std::size_t at) {
    const auto* p = reinterpret_cast<const unsigned char*>(bytes.data() + at);
    return (std::uint32_t(p[0]) << 24) | (std::uint32_t(p[1]) << 16) | (std::uint32_t(p[2]) << 8) | p[3];
  };
  const std::uint32_t w = be32(16);
  const std::uint32_t h = be32(20);
  if (w == 0 || h == 0) return make_error("png.corrupt", "PNG header gives a zero width or height", {path});
  if (w > static_cast<std::uint32_t>(kMaxImageSide) || h > static_cast<std::uint32_t>(kMaxImageSide) ||
      std::uint64_t(w) * h > kMaxImagePixels) {
    return make_error("png.too_large",
                      "image is " + std::to_string(w) + "x" + std::to_string(h) + "; the limit is " +
                          std::to_string(kMaxImageSide) + " px a side and " + std::to_string(kMaxImagePixels) +
                          " pixels",
                      {path});
  }
  if (bytes.size() < 33 || be32(8) != 13 || !chunk_crc_ok(bytes, 8, 13)) {
    return make_error("png.corrupt", "PNG header (IHDR) has a bad CRC or length (the file is damaged)", {path});
  }
  int x = 0, y = 0, channels = 0;
  if (!stbi_info_from_memory(reinterpret_cast<const stbi_uc*>(bytes.data()), static_cast<int>(bytes.size()), &x,
                             &y, &channels)) {
    return make_error("png.corrupt", "PNG header is invalid" + decoder_reason(), {path});
  }
  const int depth = static_cast<unsigned char>(bytes[24]);
  const int color_type = static_cast<unsigned char>(bytes[25]);
  const int samples = color_type == 2 ? 3 : color_type == 4 ? 2 : color_type == 6 ? 4 : 1;
  return PngInfo{x, y, channels, depth, samples};
}

namespace {

// A palette image's channel count (3, or 4 with a tRNS chunk) is only known once the decoder reaches
// the first IDAT, so the chunks before it are read too (bounded: ancillary chunks can be large).
void append_chunks_before_idat(std::istream& in, std::string& head) {
  constexpr std::size_t kMaxHead = std::size_t{16} << 20;
  while (head.size() < kMaxHead) {
    char header[8];
    in.read(header, 8);
    if (in.gcount() != 8) return;
    head.append(header, 8);
    if (std::memcmp(header + 4, "IDAT", 4) == 0) return;
    const auto* p = reinterpret_cast<const unsigned char*>(header);
    const std::uint64_t length = (std::uint64_t(p[0]) << 24) | (std::uint64_t(p[1]) << 16) | (std::uint64_t(p[2]) << 8) | p[3];
    if (length + 4 > kMaxHead - head.size()) return;
    std::string body(static_cast<std::size_t>(length) + 4, '\0');
    in.read(body.data(), static_cast<std::streamsize>(body.size()));
    head.append(body.data(), static_cast<std::size_t>(in.gcount()));
    if (static_cast<std::size_t>(in.gcount()) != body.size()) return;
  }
}

}  // namespace

Result<PngInfo> read_png_info(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return make_error("io.not_found", "cannot open the file", {path});
  std::string head(33, '\0');
  in.read(head.data(), static_cast<std::streamsize>(head.size()));
  head.resize(static_cast<std::size_t>(in.gcount()));
  constexpr int kPaletteColorType = 3;
  if (head.size() == 33 && static_cast<unsigned char>(head[25]) == kPaletteColorType) append_chunks_before_idat(in, head);
  return png_info(head, path);
}

std::uint64_t png_decode_peak_bytes(const PngInfo& info) {
  const std::uint64_t px = std::uint64_t(info.width) * std::uint64_t(info.height);
  const std::uint64_t bytes_per_sample = info.bit_depth == 16 ? 2 : 1;
  const std::uint64_t row = (std::uint64_t(info.width) * std::uint64_t(info.samples) * std::uint64_t(info.bit_depth) + 7) / 8;
  // stb's phases (it frees each buffer once the next exists): its IDAT data, which decode_png feeds it
  // as stored deflate blocks (the inflated rows) + the rows it copies them to; those rows + image at
  // file depth (up to 4 samples); 16-bit image + its 8-bit copy; 8-bit image + RGBA8; its RGBA8 + our copy.
  const std::uint64_t rows = std::uint64_t(info.height) * (1 + row);
  const std::uint64_t inflate = 2 * rows;
  const std::uint64_t unfilter = rows + px * 4 * bytes_per_sample;
  const std::uint64_t narrow = bytes_per_sample == 2 ? px * 4 * 3 : 0;
  const std::uint64_t rgba = px * 4 * 2;
  return std::max({inflate, unfilter, narrow, rgba});
}

Result<Image> decode_png(std::string_view bytes, const std::string& path) {
  auto info = png_info(bytes, path);
  if (!info) return Unexpected{info.error()};
  auto walk = walk_chunks(bytes, path);
  if (!walk) return Unexpected{walk.error()};
  int w = 0, h = 0;
  auto pixels = checked_stb_decode(bytes, *info, *walk, w, h, path);
  if (!pixels) return Unexpected{pixels.error()};
  if (!*pixels) return make_error("png.corrupt", "cannot decode PNG (truncated or corrupt)" + decoder_reason(), {path});
  if (w != info->width || h != info->height) {
    return make_error("png.corrupt", "PNG dimensions changed while decoding", {path});
  }
  Image image;
  image.width = w;
  image.height = h;
  image.rgba.assign(pixels->get(), pixels->get() + std::size_t(w) * std::size_t(h) * 4);
  return image;
}

Result<Image> load_png(const std::string& path) {
  auto bytes = read_file(path, kMaxPngFileBytes);
  if (!bytes) return Unexpected{bytes.error()};
  return decode_png(*bytes, path);
}

Result<std::string> encode_png(const Image& image) {
  if (image.width <= 0 || image.height <= 0 || image.width > kMaxImageSide || image.height > kMaxImageSide ||
      image.rgba.size() != std::size_t(image.width) * std::size_t(image.height) * 4) {
    return make_error("png.encode", "image size is invalid for PNG encoding");
  }
  std::string out;
  auto sink = [](void* context, void* data, int size) {
    static_cast<std::string*>(context)->append(static_cast<const char*>(data), static_cast<std::size_t>(size));
  };
  if (!stbi_write_png_to_func(sink, &out, image.width, image.height, 4, image.rgba.data(), image.width * 4)) {
    return make_error("png.encode", "PNG encoder failed");
  }
  return out;
}

}  // namespace rig2d
