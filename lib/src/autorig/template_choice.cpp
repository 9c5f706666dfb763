// SPDX-License-Identifier: Apache-2.0
// choose_template: sidecar key > template map > --template.
#include "rig2d/autorig/template_choice.h"

#include <filesystem>

#include "json/json_util.h"
#include "rig2d/asset/sprite_meta.h"
#include "rig2d/core/limits.h"
#include "rig2d/io/files.h"

namespace rig2d {
namespace {

namespace fs = std::filesystem;
using detail::Json;

Unexpected rig2d_key_error(std::string message, std::string_view text, const std::string& path, std::string pointer) {
  return detail::located_error("meta.rig2d", std::move(message), text, path, std::move(pointer));
}

}  // namespace

std::string TemplateChoice::reason() const {
  switch (from) {
    case From::Sidecar:
      return "the sidecar " + where.file;
    case From::Map:
      return "the map " + where.file + " at " + where.json_pointer.substr(0, where.json_pointer.rfind('/')) + " (" +
             glob + ")";
    case From::Option:
      break;
  }
  return "--template";
}

namespace {

Result<std::optional<std::string>> read_sidecar_template_text(std::string_view sidecar_text, const std::string& path) {
  auto parsed = detail::parse_json(sidecar_text, path);
  if (!parsed) return Unexpected{parsed.error()};
  if (!parsed->is_object()) return std::optional<std::string>{};  // parse_sprite_meta says why
  const auto own = parsed->find("rig2d");
  if (own == parsed->end()) return std::optional<std::string>{};
  if (!own->is_object())
    return rig2d_key_error(std::string("\"rig2d\" must be an object {\"template\": NAME|FILE|auto|none}, not ") +
                               detail::json_type_name(*own),
                           sidecar_text, path, "/rig2d");
  for (const auto& [key, value] : own->items())
    if (key != "template")
      return rig2d_key_error("unknown key \"" + key + "\" in \"rig2d\" (known: template)", sidecar_text, path,
                             "/rig2d/" + detail::pointer_token(key));
  const auto t = own->find("template");
  if (t == own->end()) return std::optional<std::string>{};
  if (!t->is_string())
    return rig2d_key_error(
        std::string("\"template\" must be a string (a bundled name, a template file, auto or none), not ") +
            detail::json_type_name(*t),
        sidecar_text, path, "/rig2d/template");
  return std::optional<std::string>{t->get<std::string>()};
}

// The slices of a sheet share its sidecar, often thousands of entries long: its key is read once per
// sidecar (per thread), not once per slice, which made a 2000-slice sheet quadratic.
struct SidecarKeyMemo {
  std::string path;
  std::string text;
  Result<std::optional<std::string>> key = std::optional<std::string>{};
};
thread_local std::optional<SidecarKeyMemo> t_sidecar_key;

}  // namespace

Result<std::optional<std::string>> sidecar_template_text(std::string_view sidecar_text, const std::string& path) {
  if (t_sidecar_key && t_sidecar_key->path == path && t_sidecar_key->text == sidecar_text) return t_sidecar_key->key;
  t_sidecar_key = SidecarKeyMemo{path, std::string(sidecar_text), read_sidecar_template_text(sidecar_text, path)};
  return t_sidecar_key->key;
}

Result<TemplateChoice> choose_template(const std::string& png_path, std::optional<std::string_view> sidecar_text,
                                       const TemplateSources& sources) {
  const std::string meta = sidecar_path(png_path);
  std::optional<std::string> read;
  if (!sidecar_text) {
    if (auto bytes = read_file(meta, kMaxJsonFileBytes)) read = std::move(*bytes);
    if (read) sidecar_text = *read;
  }
  if (sidecar_text) {
    auto key = sidecar_template_text(*sidecar_text, meta);
    if (!key) return Unexpected{key.error()};
    if (*key) {
      auto spec = read_template_spec(**key, fs::path(meta).parent_path().string());
      if (!spec) {
        Error e = spec.error();
        if (e.where.file.empty())
          return detail::located_error(e.code, e.message, *sidecar_text, meta, "/rig2d/template");
        return Unexpected{std::move(e)};
      }
      TemplateChoice choice;
      choice.spec = std::move(*spec);
      choice.from = TemplateChoice::From::Sidecar;
      choice.where = {meta, "/rig2d/template"};
      return choice;
    }
  }
  TemplateChoice choice;
  if (sources.map) {
    if (const auto rule = match_template_rule(*sources.map, png_path)) {
      choice.spec = sources.map->rules[*rule].spec;
      choice.from = TemplateChoice::From::Map;
      choice.where = {sources.map->path, "/rules/" + std::to_string(*rule) + "/template"};
      choice.glob = sources.map->rules[*rule].glob;
      return choice;
    }
  }
  choice.spec = sources.fallback;
  return choice;
}

std::vector<std::string> template_choice_inputs(const TemplateChoice& choice, const TemplateSources& sources) {
  std::vector<std::string> files;
  if (sources.map) files.push_back(sources.map->path);
  if (!choice.spec.file.empty()) files.push_back(choice.spec.file);
  return files;
}

void apply_template_spec(const TemplateSpec& spec, AutorigOptions& options) {
  options.template_auto = spec.kind == TemplateSpec::Kind::Auto;
  options.skeleton_template.reset();
  if (spec.kind == TemplateSpec::Kind::Template) options.skeleton_template = spec.tmpl;
}

}  // namespace rig2d
