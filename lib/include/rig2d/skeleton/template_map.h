// SPDX-License-Identifier: Apache-2.0
// Which template a sprite gets: a template spec ("humanoid", "auto", "none", or a template file) and
// template maps, `*.template-map.json` files of path globs to specs, so a mixed batch (heroes, trees,
// props in folders of their own) is rigged in one run. See docs/templates.md, "Choosing per sprite".
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "rig2d/core/result.h"
#include "rig2d/export.h"
#include "rig2d/skeleton/template.h"

namespace rig2d {

// One --template / map / sidecar value, resolved.
struct TemplateSpec {
  enum class Kind {
    None,      // no template: the shape skeleton (or the chain)
    Auto,      // every bundled template; the best that fits well, else no template
    Template,  // `tmpl`
  };
  Kind kind = Kind::None;
  std::string text;                      // as written
  std::optional<SkeletonTemplate> tmpl;  // Kind::Template
  std::string file;                      // a template file's path as read; "" for a bundled template
  std::string file_sha256;               // that file's bytes' SHA-256 (64 hex digits)

  // What a rig's stamp needs of the choice: "" (none), "auto", "bundled NAME" or "file <sha256>", so
  // another template, or an edited template file, re-rigs.
  RIG2D_EXPORT std::string stamp_key() const;
};

// "none", "auto", a bundled template's name (no '/', '\\' or '.'), else a template file's path,
// relative to `base_dir` unless absolute ("" = as given). Errors: template.unknown (no such bundled
// template), io.* (the file cannot be read), template.* (the file's own located errors).
RIG2D_EXPORT Result<TemplateSpec> read_template_spec(const std::string& text, const std::string& base_dir = "");

inline constexpr std::size_t kMaxTemplateMapRules = 4096;
inline constexpr std::size_t kMaxTemplateGlobChars = 512;

struct TemplateRule {
  std::string glob;  // as written: '/'-separated, relative to the map's folder
  TemplateSpec spec;
};

struct TemplateMap {
  std::string path;                 // the map file
  std::string folder;               // globs are relative to it: the map file's folder
  std::vector<TemplateRule> rules;  // in file order; the first rule that matches a sprite wins
};

// `glob` matches `path` ('/'-separated, relative): `*` any run of characters but '/', `?` one such
// character, `**/` any number of whole folders (none included), a trailing `/**` everything below,
// other characters themselves (case-sensitive). A glob without '/' matches a file name in any folder.
RIG2D_EXPORT bool template_glob_match(std::string_view glob, std::string_view path);

// Reads a template map:
//   {"rules": [{"glob": "heroes/**", "template": "humanoid"}, {"glob": "*.tree.png", "template": "tree"}]}
// Every rule's template is resolved now (template files relative to the map's folder), so a bad one
// fails before anything is rigged. Errors (file, JSON pointer, line:col): json.*, template_map.root (not
// an object), template_map.key (an unknown key), template_map.type (a value of the wrong type, no
// rules, over kMaxTemplateMapRules), template_map.glob (empty, over kMaxTemplateGlobChars, starting with
// '/', or with a '\\', an empty folder or a ".." folder), template.unknown (located at the rule's
// template); a template file's own io.* / template.* errors.
RIG2D_EXPORT Result<TemplateMap> read_template_map(std::string_view text, const std::string& path);
// read_file + read_template_map. Errors: io.*, then as above.
RIG2D_EXPORT Result<TemplateMap> load_template_map(const std::string& path);

// The index of the first rule whose glob matches `png_path` relative to the map's folder; nullopt when
// none does or the PNG lies outside that folder.
RIG2D_EXPORT std::optional<std::size_t> match_template_rule(const TemplateMap& map, const std::string& png_path);

}  // namespace rig2d
