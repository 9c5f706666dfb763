// SPDX-License-Identifier: Apache-2.0
#include "rig2d/autorig/autorig_file.h"

#include <algorithm>
#include <chrono>
#include <filesystem>

#include "autorig/autorig_internal.h"
#include "autorig/slice_source.h"
#include "rig/rig_doc.h"
#include "rig/rig_json_internal.h"
#include "rig2d/asset/asset_index.h"
#include "rig2d/asset/guid.h"
#include "rig2d/core/limits.h"
#include "rig2d/image/png.h"
#include "rig2d/io/files.h"
#include "rig2d/asset/sprite_meta.h"
#include "rig2d/autorig/autorig_inputs.h"
#include "rig2d/rig/rig_json.h"

namespace rig2d {

std::string detail::relative_to_asset_root(const std::string& png_path, const std::string& mint_root) {
  if (auto in_tree = path_under_assets(png_path)) return *in_tree;
  if (!mint_root.empty())
    if (auto in_root = path_under(png_path, mint_root)) return *in_root;
  return std::filesystem::path(png_path).filename().generic_string();
}

namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

// The rig as the engine will load it must be the rig we meant: the same bones, the float32 mesh and
// weights the engine reader makes of it, nothing dropped or clamped, and the strict reader (what
// rig2d-validate runs) must accept it cleanly. One JSON value serves the text and both readers: the
// text is that value printed (write_rig streams exactly to_js_json(rig_to_json(rig)): JSON.stringify
// layout, shortest round-trip numbers, so parsing the text gives the value back;
// tests/unit/rig/test_write.cpp and tests/unit/autorig/test_autorig_file.cpp check both), and
// read_rig_normalized / read_rig_strict are a parse followed by exactly the functions run here. The
// value is a RigDoc, rig_to_json's value laid out flat (tests/unit/rig/test_rig_doc.cpp holds them
// equal, and the readers' results on both), so no DOM is built and freed per rig. The engine's weights
// are compared by count only (it renormalizes them in float32); the strict reader judges their values.
Result<std::string> write_checked(const Rig& rig, const std::string& path) {
  const detail::RigDoc doc(rig);
  const detail::DocValue& value = doc.root();
  std::string text = write_rig(rig);
  auto loaded = detail::read_rig_normalized_parsed(value, path, detail::WeightValues::count_only);
  if (!loaded) return Unexpected{loaded.error()};
  const Rig& got = *loaded;
  if (got.id != rig.id) return detail::verify_failure(path, "id differs");
  if (got.bones.size() != rig.bones.size()) return detail::verify_failure(path, "bone count differs");
  for (std::size_t i = 0; i < got.bones.size(); ++i) {
    const Bone& a = got.bones[i];
    const Bone& b = rig.bones[i];
    if (a.name != b.name || a.parent != b.parent || a.x != b.x || a.y != b.y || a.rot != b.rot) {
      return detail::verify_failure(path, "bone " + std::to_string(i) + " differs");
    }
  }
  if (got.parts.size() != 1 || rig.parts.size() != 1) return detail::verify_failure(path, "part count differs");
  const Part& a = got.parts[0];
  const Part& source = rig.parts[0];
  if (a.sprite != source.sprite) return detail::verify_failure(path, "sprite differs");
  if (a.mesh.verts.size() != source.mesh.verts.size() || a.mesh.uvs.size() != source.mesh.uvs.size() ||
      a.mesh.tris != source.mesh.tris || a.skin_indices != source.skin_indices ||
      a.skin_weights.size() != source.skin_weights.size()) {
    return detail::verify_failure(path, "the loader changed the topology or bone indices");
  }
  for (std::size_t v = 0; v < a.mesh.verts.size(); ++v) {  // the engine keeps float32: nothing else may move
    const Vec2 p = a.mesh.verts[v], q = source.mesh.verts[v];
    if (p.x != static_cast<float>(q.x) || p.y != static_cast<float>(q.y))
      return detail::verify_failure(path, "mesh differs");
  }
  const StrictRig strict = detail::read_rig_strict_parsed(value, text, path);
  for (const Diagnostic& d : strict.diagnostics) {
    if (d.severity == Severity::Error) {
      return detail::verify_failure(path,
                                    "strict reader: " + d.where.json_pointer + ": " + d.message + " [" + d.code + "]");
    }
  }
  if (!strict.rig) return detail::verify_failure(path, "the strict reader rejected the rig");
  return text;
}

// A sheet has no whole-image sprite in the engine (ENGINE-SPEC §1.9), so its whole image is not
// rigged: a slice list that does not parse is reported as such (rather than passed over for a rig the
// engine cannot show), and a sound one asks for its slices.
Unexpected whole_sheet_error(const std::string& meta_path, std::optional<std::string_view> sidecar_text) {
  auto slices = detail::sidecar_slices(meta_path, sidecar_text);
  if (!slices) return Unexpected{slices.error()};
  return make_error("autorig.sheet.whole",
                    "the sidecar lists " + std::to_string(slices->size()) +
                        " slices (\"sprites\"), so the engine makes no whole-image sprite for this texture; rig "
                        "each slice instead (rig2d-autorig does, one rig per slice)",
                    {meta_path, "/sprites"});
}

// The PNG's bytes (the caller's, or read here) and its pixels (decoded here, or the sheet the
// caller decoded for an earlier slice, which a slice only reads).
struct SourcePixels {
  std::string read_bytes;
  std::string_view bytes;
  Image own;
  const Image* image = nullptr;  // &own, or the caller's sheet
};

Result<void> read_source(const AutorigFileRequest& request, SourcePixels& src, AutorigFileResult& out) {
  auto t = Clock::now();
  const bool given = request.png_bytes && request.png_bytes->size() <= kMaxPngFileBytes;
  if (!given) {
    auto file = read_file(request.png_path, kMaxPngFileBytes);
    if (!file) return Unexpected{file.error()};
    src.read_bytes = std::move(*file);
  }
  src.bytes = given ? *request.png_bytes : std::string_view(src.read_bytes);
  out.read_ms = detail::ms_since(t);
  src.image = request.slice ? request.decoded : nullptr;
  if (!src.image) {
    t = Clock::now();
    auto decoded = decode_png(src.bytes, request.png_path);
    if (!decoded) return Unexpected{decoded.error()};
    src.own = std::move(*decoded);
    src.image = &src.own;
    out.decode_ms = detail::ms_since(t);
  }
  return {};
}

// The engine makes no whole-image sprite for a 3d texture (§4.2 rule 6): the rig is still valid
// JSON, but its sprite will not resolve.
Diagnostic texture_type_warning(const SpriteMeta& meta, const std::string& meta_path) {
  Diagnostic d;
  d.severity = Severity::Warning;
  d.code = "meta.type";
  d.where = {meta_path, meta.type_explicit ? "/type" : ""};
  d.message = meta.type_explicit
                  ? "the texture's type is \"3d\": the engine makes no whole-image sprite for it, so the "
                    "rig's sprite will not resolve; set \"type\": \"2d\""
                  : "the sidecar has no \"type\", so the engine treats the texture as 3d and makes no "
                    "whole-image sprite for it; add \"type\": \"2d\" (--write-meta does)";
  return d;
}

// The sheet warning for a whole image, keeping the coverage the sheet guess tests pixel by pixel in
// `coverage` (for autorig_image_covered, which starts the coverage mask and the shape skeleton from it)
// when the image is one coverage_mask takes and the threshold one it would test.
std::optional<Diagnostic> sheet_warning_keeping(const Image& image, int alpha_threshold, const std::string& png_path,
                                                std::vector<std::uint8_t>& coverage) {
  const bool maskable = image.width > 0 && image.height > 0 && image.width <= kMaxImageSide &&
                        image.height <= kMaxImageSide && alpha_threshold >= 0 && alpha_threshold <= 255;
  if (!maskable) return detail::sheet_warning(image, alpha_threshold, png_path);
  return detail::sheet_warning(image, alpha_threshold, png_path, &coverage);
}

// The texture and sprite GUIDs from the sidecar (minted with write_meta when it is missing, its type
// set to 2d when it has none); for a slice, also its own pixels, pivot and name (slice_source.cpp).
// A whole image's sheet guess keeps its per-pixel coverage in `coverage`.
Result<void> resolve_sprite(const AutorigFileRequest& request, SourcePixels& src, AutorigOptions& o,
                            AutorigFileResult& out, std::string& slice_name, std::vector<std::uint8_t>& coverage) {
  const std::string meta_path = sidecar_path(request.png_path);
  // The sidecar text the caller holds, if it may be used; else the sidecar is read from its file.
  const std::optional<std::string_view> sidecar_text =
      request.sidecar_text && request.sidecar_text->size() <= kMaxSidecarBytes ? request.sidecar_text : std::nullopt;
  const ParsedSidecar* parsed = request.slice && sidecar_text ? request.parsed_sidecar : nullptr;
  auto meta = parsed             ? Result<SpriteMeta>(parsed->meta)
              : sidecar_text     ? parse_sprite_meta(*sidecar_text, meta_path)
                                 : read_sprite_meta(meta_path);
  if (request.slice) {
    if (!meta) return Unexpected{meta.error()};
    auto slice = parsed ? detail::pick_slice(meta_path, parsed->slices, *request.slice, *src.image, o)
                        : detail::pick_slice(meta_path, sidecar_text, *request.slice, *src.image, o);
    if (!slice) return Unexpected{slice.error()};
    out.texture_guid = meta->texture_guid;
    out.sprite_guid = std::move(slice->guid);
    slice_name = std::move(slice->name);
    src.own = std::move(slice->pixels);
    src.image = &src.own;
    return {};
  }
  if (!meta && meta.error().code == "meta.missing" && request.write_meta) {
    out.texture_guid =
        mint_texture_guid(detail::relative_to_asset_root(request.png_path, request.mint_root), src.bytes);
    out.meta_text = new_sprite_meta_text(out.texture_guid);
    out.meta_created = true;
  } else if (!meta) {
    return Unexpected{meta.error()};
  } else if (meta->has_slices) {
    return whole_sheet_error(meta_path, sidecar_text);
  } else {
    out.texture_guid = meta->texture_guid;
    if (meta->type == TextureType::ThreeD && request.write_meta && !meta->type_explicit) {
      auto text = read_file(meta_path, kMaxJsonFileBytes);
      if (!text) return Unexpected{text.error()};
      auto retyped = sprite_meta_with_2d_type(*text, meta_path);
      if (!retyped) return Unexpected{retyped.error()};
      out.meta_text = std::move(*retyped);
    } else if (meta->type == TextureType::ThreeD) {
      out.warnings.push_back(texture_type_warning(*meta, meta_path));
    }
  }
  out.sprite_guid = whole_image_sprite_guid(out.texture_guid);
  if (auto sheet = sheet_warning_keeping(*src.image, o.alpha_threshold, request.png_path, coverage))
    out.warnings.push_back(std::move(*sheet));
  return {};
}

// The rig's id (kept from the rig already there, else derived from the sprite) and its bones: kept
// from that rig with keep_bones, else the bones file's, else none (the skeleton finds them).
Result<void> identity_and_bones(const AutorigFileRequest& request, AutorigOptions& o, AutorigFileResult& out) {
  if (auto kept = existing_rig_id(request.rig_path)) {
    out.rig_id = *kept;
    out.id_kept = true;
  } else {
    out.rig_id = uuid_v5(kRigIdNamespace, out.sprite_guid);
  }
  o.sprite = out.sprite_guid;
  o.id = out.rig_id;
  std::error_code ec;
  const bool keep = request.keep_bones && fs::is_regular_file(request.rig_path, ec);
  if (!keep && !request.bones_path) return {};
  auto bones = read_bones_file(keep ? request.rig_path : *request.bones_path);
  if (!bones) return Unexpected{bones.error()};
  o.bones = std::move(*bones);
  out.bones_kept = keep;
  return {};
}

// An autorig_image error, located: a slice says which one, and an error without a file names the
// file it came from (the bones' file for autorig.bones, else the PNG).
Error located_rig_error(Error e, const AutorigFileRequest& request, const AutorigFileResult& out,
                        const std::string& slice_name) {
  if (request.slice)
    e.message = "slice \"" + slice_name + "\" (/sprites/" + std::to_string(*request.slice) + "): " + e.message;
  if (e.where.file.empty()) {
    e.where.file = e.code != "autorig.bones" ? request.png_path
                   : out.bones_kept          ? request.rig_path
                   : request.bones_path      ? *request.bones_path
                                             : request.png_path;
  }
  return e;
}

// Mesh warnings name the PNG; weighting warnings name places in the generated rig. Notes (a tip bone
// with no weight) stay in the stats for -v.
void collect_warnings(const AutorigFileRequest& request, AutorigFileResult& out) {
  for (Diagnostic& d : out.stats.mesh_warnings) {
    d.where.file = request.png_path;
    out.warnings.push_back(std::move(d));
  }
  out.stats.mesh_warnings.clear();
  std::vector<Diagnostic> notes;
  for (Diagnostic& d : out.stats.weight_warnings) {
    d.where.file = request.rig_path;
    (d.severity == Severity::Note ? notes : out.warnings).push_back(std::move(d));
  }
  out.stats.weight_warnings = std::move(notes);
}

}  // namespace

Result<AutorigFileResult> autorig_file(const AutorigFileRequest& request, const AutorigOptions& options) {
  AutorigFileResult out;
  SourcePixels src;
  if (auto ok = read_source(request, src, out); !ok) return Unexpected{ok.error()};
  AutorigOptions o = options;
  std::string slice_name;
  std::vector<std::uint8_t> coverage;  // per pixel, kept by the sheet guess
  if (auto ok = resolve_sprite(request, src, o, out, slice_name, coverage); !ok) return Unexpected{ok.error()};
  if (auto ok = identity_and_bones(request, o, out); !ok) return Unexpected{ok.error()};
  auto rig = detail::autorig_image_covered(*src.image, o, &out.stats, &coverage);
  if (!rig) return Unexpected{located_rig_error(rig.error(), request, out, slice_name)};
  collect_warnings(request, out);

  const auto t = Clock::now();
  if (auto ok = verify_rig(*rig); !ok) {
    Error e = ok.error();
    e.where.file = request.rig_path;
    return Unexpected{std::move(e)};
  }
  auto text = write_checked(*rig, request.rig_path);
  if (!text) return Unexpected{text.error()};
  out.rig_text = std::move(*text);
  out.verify_ms = detail::ms_since(t);
  return out;
}

bool autorig_output_up_to_date(const AutorigFileRequest& request) {
  std::error_code ec;
  if (!fs::is_regular_file(request.rig_path, ec)) return false;
  const auto rig_time = fs::last_write_time(request.rig_path, ec);
  if (ec) return false;
  std::vector<std::string> sources{request.png_path, sidecar_path(request.png_path)};
  if (request.bones_path) sources.push_back(*request.bones_path);
  for (const std::string& source : sources) {
    const auto t = fs::last_write_time(source, ec);
    if (ec || t > rig_time) return false;
  }
  return true;
}

}  // namespace rig2d
