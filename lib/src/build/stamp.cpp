// SPDX-License-Identifier: Apache-2.0
#include "rig2d/build/stamp.h"

#include "rig2d/core/limits.h"
#include "rig2d/core/sha256.h"
#include "rig2d/io/files.h"
#include "rig2d/asset/sprite_meta.h"

namespace rig2d {
namespace {

constexpr std::string_view kStampHeader = "rig2d-autorig stamp 1\n";
constexpr std::uint64_t kMaxStampBytes = 4096;

// Each field is tagged and length-prefixed, so no two different input sets hash the same text.
void add_field(Sha256& hash, std::string_view tag, std::string_view bytes) {
  hash.update(tag);
  hash.update(" " + std::to_string(bytes.size()) + "\n");
  hash.update(bytes);
  hash.update("\n");
}

// The value of "key <value>" on its own line of a stamp, or "".
std::string stamp_field(const std::string& text, const std::string& key) {
  const std::string prefix = "\n" + key + " ";
  const auto at = text.find(prefix);
  if (at == std::string::npos) return {};
  const auto start = at + prefix.size();
  const auto end = text.find('\n', start);
  return text.substr(start, end == std::string::npos ? std::string::npos : end - start);
}

}  // namespace

std::vector<std::string> job_input_files(const AutorigFileRequest& request) {
  std::vector<std::string> files{request.png_path, sidecar_path(request.png_path)};
  if (request.bones_path) files.push_back(*request.bones_path);
  if (request.keep_bones) files.push_back(request.rig_path);
  return files;
}

std::string stamp_path(const std::string& rig_path) { return rig_path + ".stamp"; }

std::optional<InputBytes> read_input_bytes(const AutorigFileRequest& request) {
  InputBytes in;
  auto png = read_file(request.png_path, kMaxPngFileBytes);
  if (!png) return std::nullopt;
  in.png = std::move(*png);
  if (auto sidecar = read_file(sidecar_path(request.png_path), kMaxJsonFileBytes)) in.sidecar = std::move(*sidecar);
  if (request.bones_path) {
    auto bones = read_file(*request.bones_path, kMaxJsonFileBytes);
    if (!bones) return std::nullopt;
    in.bones = std::move(*bones);
  }
  return in;
}

std::string input_digest(const InputBytes& inputs, const std::string& options_key, const std::string& version) {
  Sha256 hash;
  hash.update(kStampHeader);
  add_field(hash, "version", version);
  add_field(hash, "options", options_key);
  add_field(hash, "png", inputs.png);
  add_field(hash, inputs.sidecar ? "sidecar" : "sidecar-missing", inputs.sidecar.value_or(""));
  if (inputs.bones) add_field(hash, "bones", *inputs.bones);
  // Only a rig made with a template hashes one, so stamps of rigs without one stay as they were.
  if (!inputs.template_key.empty()) add_field(hash, "template", inputs.template_key);
  return hash.hex_digest();
}

std::string stamp_text(const std::string& digest, const std::string& rig_text, std::optional<bool> looks_like_sheet) {
  std::string text = std::string(kStampHeader) + "inputs " + digest + "\nrig " + sha256_hex(rig_text) + "\n";
  if (looks_like_sheet) text += std::string("sheet ") + (*looks_like_sheet ? "yes" : "no") + "\n";
  return text;
}

namespace {

// The stamp's fields after its header line (each "\n<key> <value>"), when it is current; else nullopt.
std::optional<std::string> current_stamp(const AutorigFileRequest& request, const std::string& digest) {
  auto stamp = read_file(stamp_path(request.rig_path), kMaxStampBytes);
  if (!stamp || stamp->rfind(kStampHeader, 0) != 0) return std::nullopt;
  std::string text = "\n" + stamp->substr(kStampHeader.size());
  if (stamp_field(text, "inputs") != digest) return std::nullopt;
  auto rig = read_file(request.rig_path, kMaxJsonFileBytes);
  if (!rig || stamp_field(text, "rig") != sha256_hex(*rig)) return std::nullopt;
  return text;
}

}  // namespace

bool stamp_is_current(const AutorigFileRequest& request, const std::string& digest) {
  return current_stamp(request, digest).has_value();
}

bool stamp_says_no_sheet(const AutorigFileRequest& request, const std::string& digest) {
  const auto text = current_stamp(request, digest);
  return text && stamp_field(*text, "sheet") == "no";
}

}  // namespace rig2d
