// SPDX-License-Identifier: Apache-2.0
// Template specs and template maps (path globs to templates): every error names the file, the JSON
// pointer and line:col.
#include "rig2d/skeleton/template_map.h"

#include <filesystem>

#include "json/json_util.h"
#include "rig2d/core/limits.h"
#include "rig2d/core/sha256.h"
#include "rig2d/io/files.h"

namespace rig2d {
namespace {

namespace fs = std::filesystem;
using detail::Json;

// Globs are matched with a memo of (glob position, path position) pairs already known to fail, so a
// glob of many stars costs at most |glob| x |path| steps.
struct GlobMatcher {
  std::string_view glob, path;
  std::vector<char> failed;

  bool at(std::size_t g, std::size_t p) {
    char& memo = failed[g * (path.size() + 1) + p];
    if (memo) return false;
    const bool ok = step(g, p);
    if (!ok) memo = 1;
    return ok;
  }

  bool step(std::size_t g, std::size_t p) {
    if (g == glob.size()) return p == path.size();
    if (glob.substr(g, 3) == "**/") {  // zero or more whole folders
      if (at(g + 3, p)) return true;
      for (std::size_t i = p; i < path.size(); ++i)
        if (path[i] == '/' && at(g + 3, i + 1)) return true;
      return false;
    }
    if (glob.substr(g, 2) == "**") {  // a trailing or inner "**": anything, folders included
      for (std::size_t i = p; i <= path.size(); ++i)
        if (at(g + 2, i)) return true;
      return false;
    }
    if (glob[g] == '*') {
      for (std::size_t i = p;; ++i) {
        if (at(g + 1, i)) return true;
        if (i == path.size() || path[i] == '/') return false;
      }
    }
    if (p == path.size()) return false;
    if (glob[g] == '?' ? path[p] == '/' : glob[g] != path[p]) return false;
    return at(g + 1, p + 1);
  }
};

// What is wrong with a glob, or "" when it is fine.
std::string glob_problem(const std::string& glob) {
  if (glob.empty()) return "is empty";
  if (glob.size() > kMaxTemplateGlobChars)
    return "is longer than " + std::to_string(kMaxTemplateGlobChars) + " characters";
  if (glob.front() == '/') return "starts with '/': globs are relative to the map's folder";
  if (glob.find('\\') != std::string::npos) return "has a '\\': folders are separated by '/'";
  std::size_t start = 0;
  while (start <= glob.size()) {
    const std::size_t end = std::min(glob.find('/', start), glob.size());
    const std::string_view folder = std::string_view(glob).substr(start, end - start);
    if (folder.empty()) return "has an empty folder (\"//\" or a trailing '/')";
    if (folder == "..") return "has a \"..\" folder: a map covers the folder it is in";
    start = end + 1;
  }
  return {};
}

fs::path map_absolute(const fs::path& p) {
  std::error_code ec;
  return fs::absolute(p.empty() ? fs::path(".") : p, ec).lexically_normal();
}

Unexpected template_map_error(std::string code, std::string message, std::string_view text, const std::string& path,
                              std::string pointer) {
  return detail::located_error(std::move(code), std::move(message), text, path, std::move(pointer));
}

Result<TemplateRule> read_map_rule(const Json& j, std::size_t index, std::string_view text, const std::string& path,
                                   const std::string& folder) {
  const std::string at = "/rules/" + std::to_string(index);
  if (!j.is_object())
    return template_map_error("template_map.type",
                              std::string("a rule is {\"glob\", \"template\"}, not ") + detail::json_type_name(j), text,
                              path, at);
  for (const auto& [key, value] : j.items())
    if (key != "glob" && key != "template")
      return template_map_error("template_map.key", "unknown key \"" + key + "\" (known: glob, template)", text, path,
                                at + "/" + detail::pointer_token(key));
  TemplateRule rule;
  for (const char* key : {"glob", "template"}) {
    const auto v = j.find(key);
    if (v == j.end() || !v->is_string())
      return template_map_error("template_map.type", std::string("\"") + key + "\" must be a string", text, path,
                                v == j.end() ? at : at + "/" + key);
  }
  rule.glob = j["glob"].get<std::string>();
  if (const std::string problem = glob_problem(rule.glob); !problem.empty())
    return template_map_error("template_map.glob", "the glob \"" + rule.glob + "\" " + problem, text, path,
                              at + "/glob");
  auto spec = read_template_spec(j["template"].get<std::string>(), folder);
  if (!spec) {
    Error e = spec.error();
    if (!e.where.file.empty()) return Unexpected{std::move(e)};  // the template file's own error
    return template_map_error(e.code, e.message, text, path, at + "/template");
  }
  rule.spec = std::move(*spec);
  return rule;
}

}  // namespace

std::string TemplateSpec::stamp_key() const {
  switch (kind) {
    case Kind::None:
      return {};
    case Kind::Auto:
      return "auto";
    case Kind::Template:
      return file.empty() ? "bundled " + (tmpl ? tmpl->name : text) : "file " + file_sha256;
  }
  return {};
}

Result<TemplateSpec> read_template_spec(const std::string& text, const std::string& base_dir) {
  TemplateSpec spec;
  spec.text = text;
  if (text == "none") return spec;
  if (text == "auto") {
    spec.kind = TemplateSpec::Kind::Auto;
    return spec;
  }
  spec.kind = TemplateSpec::Kind::Template;
  if (text.find_first_of("/\\.") == std::string::npos) {
    auto tmpl = bundled_template(text);
    if (!tmpl) return Unexpected{tmpl.error()};
    spec.tmpl = std::move(*tmpl);
    return spec;
  }
  const fs::path given(text);
  spec.file = (base_dir.empty() || given.is_absolute()) ? text : (fs::path(base_dir) / given).string();
  auto bytes = read_file(spec.file, kMaxJsonFileBytes);
  if (!bytes) return Unexpected{bytes.error()};
  auto tmpl = read_skeleton_template(*bytes, spec.file);
  if (!tmpl) return Unexpected{tmpl.error()};
  spec.tmpl = std::move(*tmpl);
  spec.file_sha256 = sha256_hex(*bytes);
  return spec;
}

bool template_glob_match(std::string_view glob, std::string_view path) {
  const bool anywhere = glob.find('/') == std::string_view::npos;
  std::string anchored;
  if (anywhere) anchored = "**/" + std::string(glob);
  GlobMatcher m{anywhere ? std::string_view(anchored) : glob, path, {}};
  m.failed.assign((m.glob.size() + 1) * (path.size() + 1), 0);
  return m.at(0, 0);
}

Result<TemplateMap> read_template_map(std::string_view text, const std::string& path) {
  auto parsed = detail::parse_json(text, path);
  if (!parsed) return Unexpected{parsed.error()};
  const Json& j = *parsed;
  if (!j.is_object())
    return template_map_error("template_map.root",
                              "a template map is an object {\"rules\": [{\"glob\", \"template\"}, ...]}", text, path,
                              "");
  for (const auto& [key, value] : j.items())
    if (key != "rules" && key != "$schema" && key != "description")
      return template_map_error("template_map.key", "unknown key \"" + key + "\" (known: $schema, description, rules)",
                                text, path, "/" + detail::pointer_token(key));
  const auto rules = j.find("rules");
  if (rules == j.end() || !rules->is_array() || rules->empty() || rules->size() > kMaxTemplateMapRules)
    return template_map_error("template_map.type",
                              "\"rules\" must be an array of 1.." + std::to_string(kMaxTemplateMapRules) + " rules",
                              text, path, rules == j.end() ? "" : "/rules");
  TemplateMap map;
  map.path = path;
  map.folder = fs::path(path).parent_path().string();
  for (std::size_t i = 0; i < rules->size(); ++i) {
    auto rule = read_map_rule((*rules)[i], i, text, path, map.folder);
    if (!rule) return Unexpected{rule.error()};
    map.rules.push_back(std::move(*rule));
  }
  return map;
}

Result<TemplateMap> load_template_map(const std::string& path) {
  auto text = read_file(path, kMaxJsonFileBytes);
  if (!text) return Unexpected{text.error()};
  return read_template_map(*text, path);
}

std::optional<std::size_t> match_template_rule(const TemplateMap& map, const std::string& png_path) {
  const fs::path rel = map_absolute(png_path).lexically_relative(map_absolute(map.folder));
  if (rel.empty() || *rel.begin() == "..") return std::nullopt;
  const std::string relative = rel.generic_string();
  for (std::size_t i = 0; i < map.rules.size(); ++i)
    if (template_glob_match(map.rules[i].glob, relative)) return i;
  return std::nullopt;
}

}  // namespace rig2d
