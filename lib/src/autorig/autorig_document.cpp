// SPDX-License-Identifier: Apache-2.0
// Layered documents to v2 rigs: parts from the document, textures (an atlas, or a PNG per part) with
// their sidecars, GUIDs kept across runs, the rig from autorig_parts, rigid parts made one quad.
#include "rig2d/autorig/autorig_document.h"

#include <filesystem>
#include <map>

#include "autorig/autorig_internal.h"
#include "asset/sidecar_json.h"
#include "core/ascii.h"
#include "json/json_util.h"
#include "rig/rig_json_internal.h"
#include "rig2d/asset/asset_index.h"
#include "rig2d/asset/guid.h"
#include "rig2d/asset/sprite_meta.h"
#include "rig2d/autorig/autorig_inputs.h"
#include "rig2d/core/limits.h"
#include "rig2d/image/png.h"
#include "rig2d/io/files.h"
#include "rig2d/layered/document.h"
#include "rig2d/rig/rig_json.h"

namespace rig2d {
namespace {

namespace fs = std::filesystem;
using detail::Json;

// What an existing sidecar says: its texture GUID and its slices' GUIDs by name.
struct KeptGuids {
  std::optional<std::string> texture;
  std::map<std::string, std::string> slices;
  std::optional<Json> json;  // the whole sidecar, so keys of its own survive a rewrite
};

// The sidecar is an output that is read back for its GUIDs, not an input: a depfile naming it would
// make the rig depend on its own output.
Result<KeptGuids> kept_guids(const std::string& meta_path) {
  KeptGuids kept;
  std::error_code ec;
  if (!fs::exists(meta_path, ec)) return kept;
  auto text = read_file(meta_path, kMaxSidecarBytes);
  if (!text) return Unexpected{text.error()};
  auto json = detail::parse_meta_object(*text, meta_path);
  if (!json) return Unexpected{json.error()};
  if (const auto id = json->find("id"); id != json->end() && id->is_string() && is_guid(id->get<std::string>()))
    kept.texture = id->get<std::string>();
  if (const auto sprites = json->find("sprites"); sprites != json->end() && sprites->is_array())
    for (const Json& s : *sprites)
      if (s.is_object() && s.contains("name") && s["name"].is_string() && s.contains("guid") && s["guid"].is_string() &&
          is_guid(s["guid"].get<std::string>()))
        kept.slices.emplace(s["name"].get<std::string>(), detail::ascii_lower(s["guid"].get<std::string>()));
  kept.json = std::move(*json);
  return kept;
}

std::string texture_guid(const KeptGuids& kept, const std::string& png_path) {
  if (kept.texture) return *kept.texture;
  return uuid_v5(kTextureIdNamespace, detail::relative_to_asset_root(png_path) + "\n");
}

// One texture PNG and its sidecar, whole-image (no slices): a part's own texture.
Result<std::string> add_texture(const Image& image, const std::string& png_path, std::vector<OutputFile>& files) {
  const std::string meta_path = sidecar_path(png_path);
  auto kept = kept_guids(meta_path);
  if (!kept) return Unexpected{kept.error()};
  auto bytes = encode_png(image);
  if (!bytes) return Unexpected{bytes.error()};
  const std::string guid = texture_guid(*kept, png_path);
  Json meta = kept->json ? *kept->json : Json::object();
  meta["version"] = meta.value("version", Json(2));
  meta["id"] = guid;
  if (!meta.contains("type")) meta["type"] = "2d";
  files.push_back({png_path, std::move(*bytes)});
  files.push_back({meta_path, detail::to_js_json(meta)});
  return whole_image_sprite_guid(guid);
}

// The atlas PNG and its sidecar listing one slice per part; returns each part's slice GUID.
Result<std::vector<std::string>> add_atlas(const std::vector<DocumentPart>& parts, const std::string& png_path,
                                           const AtlasOptions& options, std::vector<OutputFile>& files) {
  std::vector<Image> images;
  for (const DocumentPart& p : parts) images.push_back(p.image);
  auto placement = pack_atlas(images, options);
  if (!placement) {
    Error e = placement.error();
    e.where.file = png_path;
    return Unexpected{std::move(e)};
  }
  const std::string meta_path = sidecar_path(png_path);
  auto kept = kept_guids(meta_path);
  if (!kept) return Unexpected{kept.error()};
  const std::string guid = texture_guid(*kept, png_path);
  Json sprites = Json::array();
  std::vector<std::string> slice_guids;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    const auto it = kept->slices.find(parts[i].name);
    SpriteSlice s;
    s.guid = it != kept->slices.end() ? it->second : derive_guid("slice:" + guid + ":" + parts[i].name);
    s.name = parts[i].name;
    s.x = placement->x[i];
    s.y = placement->y[i];
    s.w = parts[i].image.width;
    s.h = parts[i].image.height;
    sprites.push_back(detail::slice_json(s));
    slice_guids.push_back(s.guid);
  }
  Json meta = kept->json ? *kept->json : Json::object();
  meta["version"] = meta.value("version", Json(2));
  meta["id"] = guid;
  if (!meta.contains("type")) meta["type"] = "2d";
  meta["spriteSheet"] = Json{{"width", placement->width}, {"height", placement->height}};
  meta["sprites"] = std::move(sprites);
  auto bytes = encode_png(compose_atlas(images, *placement));
  if (!bytes) return Unexpected{bytes.error()};
  files.push_back({png_path, std::move(*bytes)});
  files.push_back({meta_path, detail::to_js_json(meta)});
  return slice_guids;
}

// A rigid part: one quad over its image, every vertex wholly on the bone that weighs most on the
// part as rigged (lowest index on a tie).
std::uint32_t make_rigid(Part& part, const DocumentPart& source, Vec2 origin) {
  std::map<std::uint32_t, double> total;
  for (std::size_t i = 0; i < part.skin_indices.size(); ++i) total[part.skin_indices[i]] += part.skin_weights[i];
  std::uint32_t bone = 0;
  double best = -1;
  for (const auto& [b, w] : total)
    if (w > best) best = w, bone = b;
  const float x0 = float(source.x - origin.x), y0 = float(source.y - origin.y);
  const float x1 = x0 + float(source.image.width), y1 = y0 + float(source.image.height);
  part.mesh.verts = {{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}};
  part.mesh.uvs = {{0, 0}, {1, 0}, {1, 1}, {0, 1}};
  part.mesh.tris = {0, 3, 1, 1, 3, 2};
  part.skin_indices.assign(16, 0);
  part.skin_weights.assign(16, 0);
  for (std::size_t v = 0; v < 4; ++v) {
    part.skin_indices[v * 4] = bone;
    part.skin_weights[v * 4] = 1;
  }
  return bone;
}

std::string layers_png_path(const std::string& dir, const std::string& name) {
  return (fs::path(dir) / (name + ".png")).lexically_normal().string();
}

Result<LayeredDocument> read_document(const std::string& path, std::uint64_t budget, std::vector<Diagnostic>& warnings) {
  DocumentReadOptions ro;
  ro.max_bytes = budget;
  auto doc = read_layered_document(path, ro);
  if (!doc) return doc;
  warnings.insert(warnings.end(), doc->warnings.begin(), doc->warnings.end());
  return doc;
}

// The read kept its layers within the budget; rigging them adds the canvas, checked before it is made
// (a large canvas with a few small layers reads cheaply and would then take 9 bytes a canvas pixel).
Result<void> check_rigging_budget(const LayeredDocument& doc, std::uint64_t budget, const std::string& path) {
  std::uint64_t held = 0;
  for (const DocumentLayer& layer : doc.layers)
    held += 4 * std::uint64_t(layer.image.width) * std::uint64_t(layer.image.height);
  return detail::check_canvas_budget(doc.width, doc.height, detail::canvas_peak_bytes(doc.width, doc.height) + held,
                                     budget, {path});
}

}  // namespace

std::string document_atlas_path(const std::string& rig_path) {
  std::string base = rig_path;
  for (const std::string_view suffix : {std::string_view(".json"), std::string_view(".rig2d")})
    if (base.size() > suffix.size() && base.compare(base.size() - suffix.size(), suffix.size(), suffix) == 0)
      base.resize(base.size() - suffix.size());
  return base + ".atlas.png";
}

Result<DocumentRigResult> autorig_document(const DocumentRigRequest& request, const AutorigOptions& options) {
  DocumentRigResult out;
  out.inputs.push_back(request.document_path);
  auto doc = read_document(request.document_path, request.memory_budget, out.warnings);
  if (!doc) return Unexpected{doc.error()};
  if (auto ok = check_rigging_budget(*doc, request.memory_budget, request.document_path); !ok)
    return Unexpected{ok.error()};
  auto parts = document_parts(*doc, request.groups, request.document_path, out.warnings);
  if (!parts) return Unexpected{parts.error()};
  std::vector<std::string> sprites;
  if (request.layers_dir) {
    for (const DocumentPart& p : *parts) {
      auto sprite = add_texture(p.image, layers_png_path(*request.layers_dir, p.name), out.textures);
      if (!sprite) return Unexpected{sprite.error()};
      sprites.push_back(*sprite);
    }
  } else {
    auto slices = add_atlas(*parts, document_atlas_path(request.rig_path), request.atlas, out.textures);
    if (!slices) return Unexpected{slices.error()};
    sprites = std::move(*slices);
  }
  std::vector<PlacedPart> placed;
  for (std::size_t i = 0; i < parts->size(); ++i) {
    const DocumentPart& p = (*parts)[i];
    placed.push_back({p.name, sprites[i], p.image, p.x, p.y, double(i)});
    out.part_names.push_back(p.name);
  }
  AutorigOptions o = options;
  if (auto bones = detail::read_parts_bones(request.bones_path, out.inputs, o); !bones) {
    return Unexpected{bones.error()};
  }
  detail::PartsRigId id = detail::parts_rig_id(request.rig_path, sprites);
  out.rig_id = std::move(id.id);
  out.id_kept = id.kept;
  o.id = out.rig_id;
  auto rig = autorig_parts(placed, doc->width, doc->height, o, &out.stats);
  if (!rig) {
    Error e = rig.error();
    if (e.where.file.empty()) e.where.file = request.document_path;
    return Unexpected{std::move(e)};
  }
  const Vec2 origin{float(o.pivot_x * doc->width), float(o.pivot_y * doc->height)};
  for (std::size_t i = 0; i < parts->size(); ++i) {
    if (!(*parts)[i].rigid) continue;
    const std::uint32_t bone = make_rigid(rig->parts[i], (*parts)[i], origin);
    out.stats.vertices -= out.stats.parts[i].vertices - 4;
    out.stats.triangles -= out.stats.parts[i].triangles - 2;
    out.stats.parts[i].vertices = 4;
    out.stats.parts[i].triangles = 2;
    out.stats.parts[i].bones = {bone};
  }
  for (Diagnostic& d : out.stats.warnings) d.where.file = request.rig_path;
  out.warnings.insert(out.warnings.end(), out.stats.warnings.begin(), out.stats.warnings.end());
  out.stats.warnings.clear();
  out.rig_text = write_rig(*rig);
  if (auto ok = detail::check_layout_rig(*rig, out.rig_text, request.rig_path); !ok) return Unexpected{ok.error()};
  return out;
}

Result<DocumentLayoutResult> document_to_layout(const std::string& document_path, const std::string& layout_path,
                                                GroupMode groups, std::uint64_t memory_budget) {
  DocumentLayoutResult out;
  auto doc = read_document(document_path, memory_budget, out.warnings);
  if (!doc) return Unexpected{doc.error()};
  auto parts = document_parts(*doc, groups, document_path, out.warnings);
  if (!parts) return Unexpected{parts.error()};
  std::string stem = fs::path(layout_path).filename().string();
  for (const std::string_view suffix : {std::string_view(".json"), std::string_view(".layout")})
    if (stem.size() > suffix.size() && stem.compare(stem.size() - suffix.size(), suffix.size(), suffix) == 0)
      stem.resize(stem.size() - suffix.size());
  const std::string folder = stem + ".layers";
  const fs::path dir = fs::path(layout_path).parent_path() / folder;
  Json list = Json::array();
  for (const DocumentPart& p : *parts) {
    auto sprite = add_texture(p.image, layers_png_path(dir.string(), p.name), out.files);
    if (!sprite) return Unexpected{sprite.error()};
    list.push_back(Json{{"name", p.name}, {"png", folder + "/" + p.name + ".png"}, {"x", p.x}, {"y", p.y}});
  }
  Json layout{{"canvas", Json{{"width", doc->width}, {"height", doc->height}}}, {"parts", std::move(list)}};
  out.files.push_back({layout_path, detail::to_js_json(layout) + "\n"});
  return out;
}

}  // namespace rig2d
