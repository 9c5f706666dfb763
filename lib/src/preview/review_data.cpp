// SPDX-License-Identifier: Apache-2.0
#include "preview/review_data.h"

#include <charconv>
#include <cmath>
#include <filesystem>
#include <memory>
#include <set>

#include "rig2d/anim/rig_pose.h"
#include "rig2d/asset/asset_index.h"
#include "rig2d/asset/sprite_meta.h"
#include "rig2d/core/limits.h"
#include "rig2d/io/files.h"
#include "rig2d/preview/pose.h"
#include "rig2d/rig/rig_json.h"

namespace rig2d {
namespace {

using nlohmann::json;

const char* severity_name(Severity s) {
  switch (s) {
    case Severity::Error:
      return "error";
    case Severity::Warning:
      return "warning";
    case Severity::Note:
      break;
  }
  return "note";
}

const char* field_name(BoneField f) {
  switch (f) {
    case BoneField::X:
      return "x";
    case BoneField::Y:
      return "y";
    case BoneField::Rot:
      return "rot";
    case BoneField::ScaleX:
      return "sx";
    case BoneField::ScaleY:
      return "sy";
  }
  return "x";
}

const char* track_type_name(TrackType t) {
  switch (t) {
    case TrackType::Color:
      return "color";
    case TrackType::Boolean:
      return "boolean";
    case TrackType::Enum:
      return "enum";
    case TrackType::Number:
      break;
  }
  return "number";
}

std::string where_text(const Error& e) {
  const Location& at = e.where;
  return (at.line > 0 ? std::to_string(at.line) + ":" + std::to_string(at.column) + ": " : std::string()) +
         (at.json_pointer.empty() ? "" : at.json_pointer + ": ") + e.message + " [" + e.code + "]";
}

// A float32-stored value (verts, UVs, weights: ENGINE-SPEC §0) with the fewest digits that read back
// as the same float: the page stores it in a Float32Array, which gives the exact value back, in
// about half the bytes of a double's 17 digits. Values that are not floats are kept as they are.
double shortest_float(double v) {
  if (!std::isfinite(v) || static_cast<double>(static_cast<float>(v)) != v) return v;
  char text[32];
  const auto written = std::to_chars(text, text + sizeof text, static_cast<float>(v));
  double out = v;
  std::from_chars(text, written.ptr, out);
  return out;
}

json flat_points(const std::vector<Vec2>& points) {
  json out = json::array();
  for (const Vec2& p : points) {
    out.push_back(shortest_float(p.x));
    out.push_back(shortest_float(p.y));
  }
  return out;
}

json float32_array(const std::vector<double>& values) {
  json out = json::array();
  for (const double v : values) out.push_back(shortest_float(v));
  return out;
}

json bones_json(const Rig& rig) {
  json out = json::array();
  for (const Bone& b : rig.bones) {
    out.push_back(
        {{"name", b.name}, {"parent", b.parent}, {"x", b.x}, {"y", b.y}, {"rot", b.rot}, {"noScale", b.no_scale}});
  }
  return out;
}

// Parts in rig order, with their UVs already mapped into the texture (frame_uvs) and the texture's
// number in the page (-1: drawn with the flat tint, as the previews do).
json parts_json(const Rig& rig, const PartTextures& loaded, const AssetIndex* index, ReviewTextures& textures,
                ReviewPage& page) {
  json out = json::array();
  for (std::size_t p = 0; p < rig.parts.size(); ++p) {
    const Part& part = rig.parts[p];
    const PartTexture* tex = p < loaded.parts.size() ? &loaded.parts[p] : nullptr;
    int number = -1;
    if (tex && tex->texture && index) {
      if (const auto source = index->resolve_sprite(part.sprite)) {
        number = textures.add(source->texture_path);
        page.inputs.push_back(source->texture_path);
        page.inputs.push_back(sidecar_path(source->texture_path));
      }
    }
    const std::vector<Vec2> uvs = frame_uvs(part.mesh.uvs, tex ? tex->uv_rect : std::nullopt);
    json entry = {{"name", part.name.value_or("part" + std::to_string(p))},
                  {"order", part.order.value_or(static_cast<double>(p))},
                  {"visible", part.visible.value_or(true)},
                  {"verts", flat_points(part.mesh.verts)},
                  {"uvs", flat_points(uvs)},
                  {"tris", part.mesh.tris},
                  {"idx", part.skin_indices},
                  {"w", float32_array(part.skin_weights)},
                  {"tex", number}};
    out.push_back(std::move(entry));
  }
  return out;
}

// The clip's tracks bound to this rig: bone channels with their keys (the viewer evaluates them as
// eval_track does) and deform tracks per part. Sprite tracks are not played by the viewer.
json clip_json(const Clip& clip, const Rig& rig, const std::string& clip_path) {
  const ClipBinding binding = bind_clip(clip, rig, clip_path);
  json bones = json::array();
  for (const auto& ch : binding.bones) {
    const Track& track = clip.tracks[ch.track];
    json keys = json::array();
    for (const Keyframe& k : track.keys) {
      keys.push_back({k.t, k.v, k.in_tangent, k.out_tangent, k.in_weight ? json(*k.in_weight) : json(nullptr),
                      k.out_weight ? json(*k.out_weight) : json(nullptr)});
    }
    bones.push_back(
        {{"bone", ch.bone}, {"field", field_name(ch.field)}, {"type", track_type_name(track.type)}, {"keys", keys}});
  }
  json deform = json::array();
  for (const auto& ch : binding.deform) {
    json keys = json::array();
    for (const DeformKey& k : clip.deform_tracks[ch.track].keys) keys.push_back({{"t", k.t}, {"offsets", k.offsets}});
    deform.push_back({{"part", ch.part}, {"keys", keys}});
  }
  return {{"name", clip.name}, {"duration", clip.duration}, {"loop", clip.loop},
          {"bones", bones},    {"deform", deform},          {"skipped", binding.skipped.size()}};
}

json findings_json(const FileReport& report, json& summary, std::string& deform_summary) {
  json out = json::array();
  std::size_t counts[3] = {0, 0, 0};
  std::set<std::string> codes;
  for (const Diagnostic& d : report.diagnostics) {
    ++counts[static_cast<int>(d.severity)];
    if (d.code == "deform.summary") deform_summary = d.message;
    if (d.severity != Severity::Note) codes.insert(d.code);
    const CodeText* text = find_code_text(d.code);
    out.push_back({{"severity", severity_name(d.severity)},
                   {"code", d.code},
                   {"pointer", d.where.json_pointer},
                   {"line", d.where.line},
                   {"message", d.message},
                   {"page", text ? json(text->page) : json(nullptr)}});
  }
  summary["errors"] = counts[0];
  summary["warnings"] = counts[1];
  summary["notes"] = counts[2];
  summary["codes"] = codes;
  return out;
}

json figures_json(const Rig& rig) {
  std::size_t verts = 0, tris = 0;
  for (const Part& part : rig.parts) {
    verts += part.mesh.verts.size();
    tris += part.mesh.tris.size() / 3;
  }
  return {{"vertices", verts},
          {"triangles", tris},
          {"bones", rig.bones.size()},
          {"parts", rig.parts.size()},
          {"version", rig.layout == Layout::V2 ? 2 : 1}};
}

}  // namespace

int ReviewTextures::add(const std::string& path) {
  if (const auto it = numbers_.find(path); it != numbers_.end()) return it->second;
  std::string uri;
  if (link_) {
    std::error_code ec;
    const auto base = std::filesystem::absolute(std::filesystem::path(page_path_).parent_path(), ec);
    const auto target = std::filesystem::absolute(path, ec);
    const auto rel = target.lexically_relative(base.lexically_normal());
    uri = url_path((rel.empty() ? target : rel).generic_string());
  } else {
    auto bytes = read_file(path, kMaxPngFileBytes);
    if (!bytes) return numbers_[path] = -1;
    bytes_ += bytes->size();
    uri = "data:image/png;base64," + base64(*bytes);
  }
  const int number = static_cast<int>(uris_.size());
  uris_.push_back(script_safe_json(json(uri).dump(-1, ' ', false, json::error_handler_t::replace)));
  return numbers_[path] = number;
}

ReviewRig review_rig(const ReviewInput& input, const ReviewPageOptions& o, const Clip* clip, const Validator* validator,
                     ReviewTextures& textures, ReviewPage& page) {
  ReviewRig out;
  const std::string& path = input.path;
  out.summary = {
      {"name", std::filesystem::path(path).filename().string()}, {"path", path}, {"error", nullptr}, {"kind", "rig"}};
  out.detail = json::object();
  page.inputs.push_back(path);
  auto fail = [&](const std::string& why) {
    out.summary["error"] = why;
    out.summary["errors"] = 1;
    out.summary["warnings"] = 0;
    out.summary["notes"] = 0;
    out.summary["codes"] = json::array();
    ++page.failed;
    page.diagnostics.push_back(
        {Severity::Warning, "pose.review.rig", why + "; the page lists it with its error", Location{path}});
    return std::move(out);
  };
  // rig2d-validate's reports of other files (sidecars, scenes) and of standard input: listed with
  // their findings, without a viewer.
  if (input.report && (input.report->kind != FileKind::Rig || input.report->unreadable || input.report->path == "-")) {
    std::string unused;
    out.summary["kind"] = file_kind_name(input.report->kind);
    out.detail["findings"] = findings_json(*input.report, out.summary, unused);
    if (input.report->unreadable) out.summary["error"] = "unreadable (see its findings)";
    return out;
  }
  auto text = read_file(path, kMaxJsonFileBytes);
  if (!text) return fail(text.error().message + " [" + text.error().code + "]");
  auto rig = read_rig_normalized(*text, path);
  if (!rig) return fail(where_text(rig.error()));

  const std::string root = o.assets_root.empty() ? default_asset_root(path) : o.assets_root;
  auto index = AssetIndex::scan(root);
  PartTextures loaded;
  if (index) {
    loaded = load_part_textures(*rig, *index, path);
    page.diagnostics.insert(page.diagnostics.end(), loaded.warnings.begin(), loaded.warnings.end());
  }
  std::unique_ptr<FileReport> own;
  const FileReport* report = input.report ? &*input.report : nullptr;
  if (!report && validator) {
    own = std::make_unique<FileReport>(validator->validate_text(*text, path, FileKind::Rig, index ? &*index : nullptr));
    report = own.get();
  }
  std::string deform_summary;
  out.detail["findings"] = report ? findings_json(*report, out.summary, deform_summary) : json::array();
  if (!report) {
    out.summary["errors"] = out.summary["warnings"] = out.summary["notes"] = 0;
    out.summary["codes"] = json::array();
  }
  out.detail["deformSummary"] = deform_summary;
  out.detail["figures"] = figures_json(*rig);
  out.detail["bones"] = bones_json(*rig);
  out.detail["parts"] = parts_json(*rig, loaded, index ? &*index : nullptr, textures, page);
  out.detail["clip"] = clip ? clip_json(*clip, *rig, o.clip_path) : json(nullptr);
  return out;
}

std::string base64(std::string_view bytes) {
  static constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4);
  std::size_t i = 0;
  for (; i + 2 < bytes.size(); i += 3) {
    const auto n = static_cast<std::uint32_t>(static_cast<unsigned char>(bytes[i])) << 16 |
                   static_cast<std::uint32_t>(static_cast<unsigned char>(bytes[i + 1])) << 8 |
                   static_cast<unsigned char>(bytes[i + 2]);
    for (int s = 18; s >= 0; s -= 6) out += kAlphabet[(n >> s) & 63];
  }
  if (i < bytes.size()) {
    std::uint32_t n = static_cast<std::uint32_t>(static_cast<unsigned char>(bytes[i])) << 16;
    if (i + 1 < bytes.size()) n |= static_cast<std::uint32_t>(static_cast<unsigned char>(bytes[i + 1])) << 8;
    out += kAlphabet[(n >> 18) & 63];
    out += kAlphabet[(n >> 12) & 63];
    out += i + 1 < bytes.size() ? kAlphabet[(n >> 6) & 63] : '=';
    out += '=';
  }
  return out;
}

std::string url_path(const std::string& path) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  for (const char ch : path) {
    const auto c = static_cast<unsigned char>(ch);
    if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_' ||
        c == '.' || c == '~' || c == '/') {
      out += ch;
    } else {
      out += '%';
      out += kHex[c >> 4];
      out += kHex[c & 15];
    }
  }
  return out;
}

}  // namespace rig2d
