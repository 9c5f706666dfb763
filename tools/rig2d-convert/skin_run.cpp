// SPDX-License-Identifier: Apache-2.0
// rig2d-convert --skin each: a Spine skeleton converted once per skin (the default skin underneath
// each), every rig named after its skin and all of them written together, or none.
#include <algorithm>
#include <cctype>
#include <cstdio>
#include <filesystem>
#include <map>
#include <set>

#include "convert_run.h"
#include "rig2d/core/limits.h"
#include "rig2d/interop/spine.h"

namespace rig2d::convert {
namespace {

// A skin name as part of a file name: ASCII letters, digits, '-', '_', '.' and bytes beyond ASCII
// (UTF-8) stay; every other byte, '%' included, becomes %XX. Distinct names stay distinct:
// "full-skins/boy" -> "full-skins%2Fboy".
std::string file_safe(const std::string& skin) {
  static const char* const kHex = "0123456789ABCDEF";
  std::string out;
  for (const char c : skin) {
    const auto u = static_cast<unsigned char>(c);
    if (std::isalnum(u) || c == '-' || c == '_' || c == '.' || u >= 0x80) {
      out += c;
    } else {
      out += '%';
      out += kHex[u >> 4];
      out += kHex[u & 15];
    }
  }
  return out;
}

std::string lower_ascii(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// The skins --skin each converts: every skin but "default" (which lies under each of them), each
// name once; the default skin alone when it is the only one.
std::vector<std::string> skins_to_convert(const std::vector<std::string>& names) {
  std::vector<std::string> chosen;
  std::set<std::string> seen;
  for (const std::string& name : names) {
    if (name != "default" && seen.insert(name).second) chosen.push_back(name);
  }
  if (chosen.empty()) chosen.push_back("default");
  return chosen;
}

}  // namespace

std::string skin_output(const std::string& output, const std::string& skin) {
  const std::string stem = convert::output_stem(output);
  return stem + "." + file_safe(skin) + output.substr(stem.size());
}

int Run::run_each_skin() {
  const auto in_format = convert::format_of_path(o.input);
  if (!in_format || *in_format != Format::Spine) return usage("--skin goes with a Spine skeleton input", "convert.skin");
  auto text = read_file(o.input, kMaxJsonFileBytes);
  if (!text) return fail_input(text.error());
  auto names = spine_skin_names(*text, o.input);
  if (!names) return fail_input(names.error());
  const std::vector<std::string> skins = skins_to_convert(*names);
  // Two skins whose files differ only in case are one file on Windows and macOS.
  std::map<std::string, std::string> files;  // lower-cased file name -> skin
  for (const std::string& skin : skins) {
    const auto [other, fresh] = files.try_emplace(lower_ascii(skin_output(o.output, skin)), skin);
    if (!fresh) {
      return fail_input(Error{"convert.skin.collision",
                              "skins \"" + other->second + "\" and \"" + skin + "\" would be written to files whose names differ "
                              "only in case (" + skin_output(o.output, skin) + "); convert them one at a time with --skin NAME -o",
                              Location{o.input, "/skins", 0, 0}});
    }
  }
  each_skins = skins;
  if (const int read = read_input(); read != kOk) return read;
  std::vector<ImportResult> results = std::move(skin_results);
  const Options given = o;
  std::set<std::string> sidecars;  // rewritten by every skin's import: the last text holds all their slices
  for (std::size_t i = 0; i < skins.size(); ++i) {
    o.output = skin_output(given.output, skins[i]);
    o.skins = {skins[i]};
    imported = std::move(results[i]);
    sidecar_files.clear();
    for (const TextureSheet& sheet : imported.sheets) {
      sidecar_files.push_back({(std::filesystem::path(sheet_folder) / sheet.image).string(), ""});
    }
    if (const int mapped = map_clips_to_template(); mapped != kOk) return mapped;
    const int planned = out == Format::Rig ? plan_rig_outputs() : plan_export();
    if (planned != kOk) return planned;
    for (const auto& file : sidecar_files) sidecars.insert(file.first + ".meta.json");
    print_diagnostics();
  }
  o = given;
  std::vector<OutputFile> merged;
  std::map<std::string, std::size_t> sidecar_at;  // a sidecar's place in `merged`: its first write, its last text
  for (OutputFile& w : writes) {
    const auto earlier = sidecars.count(w.path) ? sidecar_at.find(w.path) : sidecar_at.end();
    if (earlier != sidecar_at.end()) {
      merged[earlier->second].bytes = std::move(w.bytes);
      continue;
    }
    if (sidecars.count(w.path)) sidecar_at[w.path] = merged.size();
    merged.push_back(std::move(w));
  }
  writes = std::move(merged);
  return write_outputs();
}

}  // namespace rig2d::convert
