// SPDX-License-Identifier: Apache-2.0
// .meta.json sidecar checks (ENGINE-SPEC §1.4): version 2, a GUID id, a known texture type, and
// well-formed sprites[] slices that the sprite resolver can turn into a uvRect (§1.9).
#include <cmath>
#include <filesystem>
#include <map>

#include "rig2d/asset/guid.h"
#include "rig2d/skeleton/template_map.h"
#include "validate/checks.h"

namespace rig2d::detail {
namespace {

bool finite_number(const Json& v) { return v.is_number() && std::isfinite(v.get<double>()); }

// A slice's guid (owned by this file) and name (unique within the sidecar).
void check_slice_ids(Checker& c, const Json& slice, const std::string& ptr, std::map<std::string, std::string>& names) {
  const auto guid = slice.find("guid");
  if (guid == slice.end() || !guid->is_string() || !is_guid(guid->get_ref<const std::string&>())) {
    c.add(Severity::Error, "meta.slice.guid",
          guid == slice.end() ? std::string("slice has no \"guid\": rigs reference slices by GUID; add one")
                              : "slice guid " + (guid->is_string() ? quote(guid->get<std::string>()) : std::string(json_type_name(*guid))) +
                                    " is not a GUID (8-4-4-4-12 hex digits)",
          guid == slice.end() ? ptr : ptr + "/guid");
  } else {
    c.own(guid->get<std::string>(), ptr + "/guid");
  }
  const auto name = slice.find("name");
  if (name == slice.end() || !name->is_string()) {
    c.add(Severity::Warning, "meta.slice.name",
          "slice has no string \"name\": the editor lists slices by name; add one",
          name == slice.end() ? ptr : ptr + "/name");
  } else if (auto [it, fresh] = names.emplace(name->get<std::string>(), ptr); !fresh) {
    c.add(Severity::Warning, "meta.slice.name",
          "slice name " + quote(name->get<std::string>()) + " is also used by " + it->second + ": names should be unique",
          ptr + "/name");
  }
}

// A slice's rect: finite, positive, and inside the spriteSheet when there is one.
void check_slice_rect(Checker& c, const Json& slice, const std::string& ptr, const Json* sheet) {
  const auto rect = slice.find("rect");
  const bool rect_ok = rect != slice.end() && rect->is_object() && rect->contains("x") && rect->contains("y") &&
                       rect->contains("w") && rect->contains("h") && finite_number((*rect)["x"]) &&
                       finite_number((*rect)["y"]) && finite_number((*rect)["w"]) && finite_number((*rect)["h"]);
  if (!rect_ok) {
    c.add(Severity::Error, "meta.slice.rect",
          "slice needs \"rect\": {x, y, w, h} with finite numbers (source pixels, top-left origin)",
          rect == slice.end() ? ptr : ptr + "/rect");
  } else {
    const double x = (*rect)["x"].get<double>(), y = (*rect)["y"].get<double>();
    const double w = (*rect)["w"].get<double>(), h = (*rect)["h"].get<double>();
    if (x < 0 || y < 0 || !(w > 0) || !(h > 0)) {
      c.add(Severity::Error, "meta.slice.rect",
            "slice rect must have x, y >= 0 and w, h > 0 (source pixels); got x " + js_number(x) + ", y " +
                js_number(y) + ", w " + js_number(w) + ", h " + js_number(h),
            ptr + "/rect");
    } else if (sheet) {
      const double sw = (*sheet)["width"].get<double>(), sh = (*sheet)["height"].get<double>();
      if (x + w > sw || y + h > sh) {
        c.add(Severity::Error, "meta.slice.bounds",
              "slice rect (" + js_number(x) + ", " + js_number(y) + ", " + js_number(w) + " x " + js_number(h) +
                  ") reaches outside the " + js_number(sw) + " x " + js_number(sh) +
                  " spriteSheet: its UVs would sample beyond the texture",
              ptr + "/rect");
      }
    }
  }
}

// A slice's optional pivot: {x, y} in 0..1.
void check_slice_pivot(Checker& c, const Json& slice, const std::string& ptr) {
  if (const auto pivot = slice.find("pivot"); pivot != slice.end()) {
    const bool ok = pivot->is_object() && pivot->contains("x") && pivot->contains("y") &&
                    finite_number((*pivot)["x"]) && finite_number((*pivot)["y"]) &&
                    (*pivot)["x"].get<double>() >= 0 && (*pivot)["x"].get<double>() <= 1 &&
                    (*pivot)["y"].get<double>() >= 0 && (*pivot)["y"].get<double>() <= 1;
    if (!ok) {
      c.add(Severity::Error, "meta.slice.pivot",
            "slice pivot must be {x, y} with each in 0..1 within the rect ((0,0) top-left, default 0.5, 0.5)",
            ptr + "/pivot");
    }
  }
}

void check_slice(Checker& c, const Json& slice, const std::string& ptr, const Json* sheet,
                 std::map<std::string, std::string>& names) {
  if (!slice.is_object()) {
    c.add(Severity::Error, "meta.slice",
          std::string("a sprite slice must be an object {guid, name, rect, pivot}, not ") + json_type_name(slice), ptr);
    return;
  }
  check_slice_ids(c, slice, ptr, names);
  check_slice_rect(c, slice, ptr, sheet);
  check_slice_pivot(c, slice, ptr);
}

// version 2 and a GUID id (owned by this file).
void check_version_and_id(const Json& root, Checker& c) {
  const auto version = root.find("version");
  if (version == root.end() || !version->is_number() || version->get<double>() != 2) {
    c.add(Severity::Error, "meta.version",
          version == root.end() ? std::string("sidecar has no \"version\": add \"version\": 2")
                                : "sidecar version must be 2, not " +
                                      (version->is_number() ? js_number(version->get<double>()) : std::string(json_type_name(*version))),
          version == root.end() ? "" : "/version");
  }
  const auto id = root.find("id");
  if (id == root.end()) {
    c.add(Severity::Error, "meta.id.missing",
          "sidecar has no \"id\": the asset has no GUID, so nothing can reference it; add \"id\": \"<guid>\"", "");
  } else if (!id->is_string() || !is_guid(id->get_ref<const std::string&>())) {
    c.add(Severity::Error, "meta.id.guid",
          "sidecar id " + (id->is_string() ? quote(id->get<std::string>()) : std::string(json_type_name(*id))) +
              " is not a GUID (8-4-4-4-12 hex digits): replace it with one",
          "/id");
  } else {
    c.own(id->get<std::string>(), "/id");
  }
}

// The texture usage type and import settings.
void check_texture_settings(const Json& root, Checker& c) {
  if (const auto type = root.find("type"); type != root.end()) {
    const std::string t = type->is_string() ? type->get<std::string>() : std::string();
    if (t != "3d" && t != "2d" && t != "ui") {
      c.add(Severity::Error, "meta.type",
            "texture type must be \"2d\", \"ui\" or \"3d\" (sprites exist only for 2d/ui), not " +
                (type->is_string() ? quote(t) : std::string(json_type_name(*type))),
            "/type");
    }
  }
  if (const auto tex = root.find("texture"); tex != root.end()) {
    if (!tex->is_object()) {
      c.add(Severity::Error, "meta.texture", std::string("\"texture\" must be an object of import settings, not ") +
                                                 json_type_name(*tex),
            "/texture");
    } else if (const auto fmt = tex->find("format"); fmt != tex->end()) {
      static const char* kFormats[] = {"ktx2-uastc", "ktx2-etc1s", "ktx2-astc", "webp", "png"};
      bool known = false;
      if (fmt->is_string()) {
        for (const char* f : kFormats) known = known || fmt->get<std::string>() == f;
      }
      if (!known) {
        c.add(Severity::Warning, "meta.texture.format",
              "unknown texture format " + (fmt->is_string() ? quote(fmt->get<std::string>()) : std::string(json_type_name(*fmt))) +
                  ": the engine knows ktx2-uastc, ktx2-etc1s, ktx2-astc, webp and png",
              "/texture/format");
      }
    }
  }
}

// spriteSheet {width, height}: the dims slice rects were authored against; null when absent or bad
// (reported).
const Json* sprite_sheet(const Json& root, Checker& c) {
  const auto sheet_it = root.find("spriteSheet");
  if (sheet_it == root.end()) return nullptr;
  const Json& s = *sheet_it;
  if (s.is_object() && s.contains("width") && s.contains("height") && finite_number(s["width"]) &&
      finite_number(s["height"]) && s["width"].get<double>() > 0 && s["height"].get<double>() > 0) {
    return &s;
  }
  c.add(Severity::Error, "meta.sprite_sheet", "\"spriteSheet\" must be {width, height} with positive numbers (source pixels)",
        "/spriteSheet");
  return nullptr;
}

// sprites[]: every slice, and a warning when slices have no spriteSheet to get a uvRect from.
void check_sprites(const Json& root, const Json* sheet, Checker& c) {
  if (const auto sprites = root.find("sprites"); sprites != root.end()) {
    if (!sprites->is_array()) {
      c.add(Severity::Error, "meta.sprites",
            std::string("\"sprites\" must be an array of slices, not ") + json_type_name(*sprites), "/sprites");
    } else {
      std::map<std::string, std::string> names;
      for (std::size_t i = 0; i < sprites->size(); ++i) {
        check_slice(c, (*sprites)[i], "/sprites/" + std::to_string(i), sheet, names);
      }
      if (!sprites->empty() && root.find("spriteSheet") == root.end()) {
        c.add(Severity::Warning, "meta.sprite_sheet.missing",
              "slices without \"spriteSheet\": {width, height} get no uvRect, so rigs using them sample the whole "
              "texture; add the source image size",
              "/sprites");
      }
    }
  }
}

// The sidecar describes the file beside it: bar.png.meta.json -> bar.png.
void check_asset_beside(Checker& c) {
  namespace fs = std::filesystem;
  const std::string asset = c.path.substr(0, c.path.size() - std::string_view(".meta.json").size());
  std::error_code ec;
  if (!asset.empty() && !fs::exists(fs::path(asset), ec)) {
    c.add(Severity::Warning, "meta.asset.missing",
          "no asset file " + quote(fs::path(asset).filename().string()) +
              " beside this sidecar: delete the stale sidecar or restore the file",
          "");
  }
}

// {"rig2d": {"template": NAME|FILE|auto|none}}: rig2d-autorig's per-sprite template choice, checked
// as autorig reads it, so a misspelt name fails here rather than midway through a batch.
void check_rig2d_key(const Json& root, Checker& c) {
  const auto own = root.find("rig2d");
  if (own == root.end()) return;
  if (!own->is_object()) {
    c.add(Severity::Error, "meta.rig2d",
          std::string("\"rig2d\" must be an object {\"template\": NAME|FILE|auto|none}, not ") + json_type_name(*own),
          "/rig2d");
    return;
  }
  for (const auto& [key, value] : own->items())
    if (key != "template")
      c.add(Severity::Error, "meta.rig2d", "unknown key " + quote(key) + " in \"rig2d\" (known: template)",
            "/rig2d/" + pointer_token(key));
  const auto name = own->find("template");
  if (name == own->end()) return;
  if (!name->is_string()) {
    c.add(Severity::Error, "meta.rig2d",
          std::string("\"template\" must be a string (a bundled name, a template file, auto or none), not ") +
              json_type_name(*name),
          "/rig2d/template");
    return;
  }
  // A template file is relative to the sidecar's folder, as rig2d-autorig reads it.
  const std::string folder = std::filesystem::path(c.path).parent_path().string();
  if (auto spec = read_template_spec(name->get<std::string>(), folder); !spec) {
    const Error& e = spec.error();
    std::string where = e.where.file.empty() ? std::string() : " (" + e.where.file;
    if (!where.empty()) where += e.where.json_pointer.empty() ? ")" : " at " + e.where.json_pointer + ")";
    c.add(Severity::Error, "meta.rig2d.template",
          "template " + quote(name->get<std::string>()) + ": " + e.message + where + " [" + e.code + "]",
          "/rig2d/template");
  }
}

}  // namespace

void check_sidecar(const Json& root, Checker& c) {
  if (!root.is_object()) {
    c.add(Severity::Error, "meta.root",
          std::string("a .meta.json sidecar must be a JSON object {\"version\": 2, \"id\": \"<guid>\"}, not ") +
              json_type_name(root),
          "");
    return;
  }
  check_version_and_id(root, c);
  check_texture_settings(root, c);
  const Json* sheet = sprite_sheet(root, c);
  check_sprites(root, sheet, c);
  check_rig2d_key(root, c);
  check_asset_beside(c);
}

}  // namespace rig2d::detail
