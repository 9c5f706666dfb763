// SPDX-License-Identifier: Apache-2.0
// Config rules, finding caps and baselines over finished reports (rig2d/validate/policy.h).
#include "rig2d/validate/policy.h"

#include <algorithm>
#include <filesystem>
#include <map>
#include <tuple>
#include <vector>

#include "json/json_util.h"

namespace rig2d {
namespace fs = std::filesystem;
using detail::Json;

namespace {

Unexpected config_error(std::string_view text, const std::string& path, const char* code, std::string message,
                        const std::string& pointer) {
  const auto [line, col] = detail::locate_pointer(text, pointer);
  return make_error(code, std::move(message), Location{path, pointer, line, col});
}

bool valid_pattern(const std::string& p) {
  const std::size_t star = p.find('*');
  return !p.empty() && (star == std::string::npos || star == p.size() - 1);
}

bool code_matches(const std::string& pattern, const std::string& code) {
  if (!pattern.empty() && pattern.back() == '*')
    return code.starts_with(std::string_view(pattern).substr(0, pattern.size() - 1));
  return pattern == code;
}

// Reads "ignore" (array of patterns) and "severity" (object pattern -> level) of one rule object.
std::optional<Unexpected> read_rules(std::string_view text, const std::string& path, const Json& obj,
                                     const std::string& at, std::vector<SeverityRule>& out) {
  if (const auto it = obj.find("ignore"); it != obj.end()) {
    if (!it->is_array())
      return config_error(text, path, "config.type", "\"ignore\" must be an array of codes", at + "/ignore");
    for (std::size_t i = 0; i < it->size(); ++i) {
      const Json& c = (*it)[i];
      const std::string p = at + "/ignore/" + std::to_string(i);
      if (!c.is_string()) return config_error(text, path, "config.type", "a code must be a string", p);
      if (!valid_pattern(c.get<std::string>())) {
        return config_error(text, path, "config.code", "a code is non-empty and may only end in \"*\"", p);
      }
      out.push_back({c.get<std::string>(), std::nullopt});
    }
  }
  if (const auto it = obj.find("severity"); it != obj.end()) {
    if (!it->is_object()) {
      return config_error(text, path, "config.type", "\"severity\" must map codes to error, warning, note or off",
                          at + "/severity");
    }
    for (const auto& [code, level] : it->items()) {
      const std::string p = at + "/severity/" + detail::pointer_token(code);
      if (!valid_pattern(code))
        return config_error(text, path, "config.code", "a code is non-empty and may only end in \"*\"", p);
      const std::string v = level.is_string() ? level.get<std::string>() : std::string();
      if (v == "error")
        out.push_back({code, Severity::Error});
      else if (v == "warning")
        out.push_back({code, Severity::Warning});
      else if (v == "note")
        out.push_back({code, Severity::Note});
      else if (v == "off")
        out.push_back({code, std::nullopt});
      else
        return config_error(text, path, "config.severity", "a severity is \"error\", \"warning\", \"note\" or \"off\"",
                            p);
    }
  }
  return std::nullopt;
}

std::optional<Unexpected> check_keys(std::string_view text, const std::string& path, const Json& obj,
                                     const std::string& at, std::initializer_list<std::string_view> known) {
  for (auto it = obj.begin(); it != obj.end(); ++it) {
    if (std::find(known.begin(), known.end(), it.key()) == known.end()) {
      return config_error(text, path, "config.key", "unknown key \"" + it.key() + "\"",
                          at + "/" + detail::pointer_token(it.key()));
    }
  }
  return std::nullopt;
}

// `path` relative to `base` with '/' separators ("../x" for a path beside it), so a baseline or config
// still matches when the project is checked out elsewhere; "<stdin>" stays as it is.
std::string relative_path(const std::string& path, const std::string& base) {
  if (path == "<stdin>") return path;
  std::error_code ec;
  const fs::path abs = fs::absolute(fs::path(path), ec).lexically_normal();
  if (base.empty()) return abs.generic_string();
  const fs::path b = fs::absolute(fs::path(base), ec).lexically_normal();
  const fs::path rel = abs.lexically_relative(b);
  return rel.empty() ? abs.generic_string() : rel.generic_string();
}

// Applies a rule list to one finding; false when it is dropped.
bool apply_rules(const std::vector<SeverityRule>& rules, Diagnostic& d) {
  bool keep = true;
  for (const SeverityRule& r : rules) {
    if (!code_matches(r.pattern, d.code)) continue;
    keep = r.severity.has_value();
    if (keep) d.severity = *r.severity;
  }
  return keep;
}

// Matches the glob suffix `g` against the path suffix `p`. `failed` remembers the (glob, path) suffix
// pairs already known not to match, keyed by their lengths: without it a glob with many "**" or "*"
// backtracks exponentially; with it each pair is tried once (at most |glob| x |path| pairs).
class GlobMatcher {
 public:
  GlobMatcher(std::string_view glob, std::string_view path)
      : glob_size_(glob.size()), failed_((glob.size() + 1) * (path.size() + 1), false) {}

  bool at(std::string_view g, std::string_view p) {
    const std::size_t key = p.size() * (glob_size_ + 1) + g.size();
    if (failed_[key]) return false;
    const bool ok = step(g, p);
    if (!ok) failed_[key] = true;
    return ok;
  }

 private:
  bool step(std::string_view g, std::string_view p) {
    while (!g.empty()) {
      if (g.starts_with("**")) {
        std::string_view rest = g.substr(2);
        if (rest.empty()) return true;  // a trailing "**" takes everything below
        if (rest.starts_with("/")) rest.remove_prefix(1);
        // "**" spans any number of whole segments (zero included).
        for (std::size_t i = 0; i <= p.size(); ++i) {
          if ((i == 0 || p[i - 1] == '/') && at(rest, p.substr(i))) return true;
        }
        return false;
      }
      if (g[0] == '*') {
        for (std::size_t i = 0; i <= p.size(); ++i) {
          if (at(g.substr(1), p.substr(i))) return true;
          if (i < p.size() && p[i] == '/') break;
        }
        return false;
      }
      if (p.empty() || (g[0] != '?' && g[0] != p[0]) || (g[0] == '?' && p[0] == '/')) return false;
      g.remove_prefix(1);
      p.remove_prefix(1);
    }
    return p.empty();
  }

  std::size_t glob_size_;
  std::vector<bool> failed_;
};

}  // namespace

bool glob_match(std::string_view glob, std::string_view path) {
  // Globs and paths are short; a pathological pair still costs at most |glob| x |path| memo entries.
  return GlobMatcher(glob, path).at(glob, path);
}

Result<ValidateConfig> parse_validate_config(std::string_view text, const std::string& path) {
  auto json = detail::parse_json(text, path);
  if (!json) {
    Error e = json.error();
    e.code = "config.syntax";
    return Unexpected{e};
  }
  if (!json->is_object()) return config_error(text, path, "config.root", "the config must be a JSON object", "");
  if (auto bad = check_keys(text, path, *json, "", {"$schema", "ignore", "severity", "paths", "maxFindings"}))
    return *bad;
  ValidateConfig config;
  config.path = path;
  config.base_dir = fs::path(path).has_parent_path() ? fs::path(path).parent_path().string() : ".";
  if (auto bad = read_rules(text, path, *json, "", config.rules)) return *bad;
  if (const auto it = json->find("maxFindings"); it != json->end()) {
    // An integer >= 0; 5.0 counts, as in JSON Schema.
    const double v = it->is_number() ? it->get<double>() : -1;
    if (!(v >= 0 && v <= 1e15 && v == static_cast<double>(static_cast<long long>(v)))) {
      return config_error(text, path, "config.type", "\"maxFindings\" must be an integer >= 0", "/maxFindings");
    }
    config.max_findings = static_cast<std::size_t>(v);
  }
  if (const auto it = json->find("paths"); it != json->end()) {
    if (!it->is_array())
      return config_error(text, path, "config.type", "\"paths\" must be an array of rules", "/paths");
    for (std::size_t i = 0; i < it->size(); ++i) {
      const Json& r = (*it)[i];
      const std::string at = "/paths/" + std::to_string(i);
      if (!r.is_object()) return config_error(text, path, "config.type", "a path rule must be an object", at);
      if (auto bad = check_keys(text, path, r, at, {"files", "exclude", "ignore", "severity"})) return *bad;
      const auto files = r.find("files");
      if (files == r.end() || !files->is_string() || files->get<std::string>().empty()) {
        return config_error(text, path, "config.type", "a path rule needs \"files\": a glob such as \"legacy/**\"", at);
      }
      PathRule rule;
      rule.glob = files->get<std::string>();
      if (const auto ex = r.find("exclude"); ex != r.end()) {
        if (!ex->is_boolean())
          return config_error(text, path, "config.type", "\"exclude\" must be true or false", at + "/exclude");
        rule.exclude = ex->get<bool>();
      }
      if (auto bad = read_rules(text, path, r, at, rule.rules)) return *bad;
      config.paths.push_back(std::move(rule));
    }
  }
  return config;
}

void apply_config(std::vector<FileReport>& reports, const ValidateConfig& config) {
  for (FileReport& r : reports) {
    const std::string rel = relative_path(r.path, config.base_dir);
    std::vector<const PathRule*> matching;
    bool excluded = false;
    for (const PathRule& p : config.paths) {
      if (!glob_match(p.glob, rel)) continue;
      matching.push_back(&p);
      excluded = excluded || p.exclude;
    }
    if (excluded) {
      r.diagnostics.clear();
      continue;
    }
    std::vector<Diagnostic> kept;
    for (Diagnostic& d : r.diagnostics) {
      bool keep = apply_rules(config.rules, d);
      for (const PathRule* p : matching) {
        bool path_keep = keep;
        for (const SeverityRule& rule : p->rules) {
          if (!code_matches(rule.pattern, d.code)) continue;
          path_keep = rule.severity.has_value();
          if (path_keep) d.severity = *rule.severity;
        }
        keep = path_keep;
      }
      if (keep) kept.push_back(std::move(d));
    }
    r.diagnostics = std::move(kept);
  }
}

bool cap_findings(std::vector<FileReport>& reports, std::size_t max) {
  std::size_t listed = 0;
  bool dropped_error = false;
  for (FileReport& r : reports) {
    if (listed + r.diagnostics.size() <= max) {
      listed += r.diagnostics.size();
      continue;
    }
    const std::size_t keep = max - listed;
    const std::size_t dropped = r.diagnostics.size() - keep;
    for (std::size_t i = keep; i < r.diagnostics.size(); ++i)
      dropped_error = dropped_error || r.diagnostics[i].severity == Severity::Error;
    r.diagnostics.resize(keep);
    listed = max;
    r.diagnostics.push_back(Diagnostic{Severity::Note, "validate.findings.truncated",
                                       std::to_string(dropped) +
                                           " more findings in this file are not listed (maxFindings " +
                                           std::to_string(max) + ")",
                                       Location{r.path, "", 1, 1}});
  }
  return dropped_error;
}

std::string write_baseline(const std::vector<FileReport>& reports, const std::string& base_dir) {
  std::vector<std::tuple<std::string, std::string, std::string>> rows;
  for (const FileReport& r : reports) {
    const std::string file = relative_path(r.path, base_dir);
    for (const Diagnostic& d : r.diagnostics) rows.emplace_back(file, d.where.json_pointer, d.code);
  }
  std::sort(rows.begin(), rows.end());
  Json findings = Json::array();
  for (const auto& [file, pointer, code] : rows)
    findings.push_back(Json{{"code", code}, {"file", file}, {"pointer", pointer}});
  Json doc = Json::object();
  doc["version"] = 1;
  doc["tool"] = "rig2d-validate";
  doc["findings"] = std::move(findings);
  return detail::to_js_json(doc) + "\n";
}

Result<Baseline> parse_baseline(std::string_view text, const std::string& path) {
  auto json = detail::parse_json(text, path);
  if (!json) {
    Error e = json.error();
    e.code = "baseline.syntax";
    return Unexpected{e};
  }
  const auto bad = [&](std::string message, const std::string& pointer) {
    return config_error(text, path, "baseline.format", std::move(message), pointer);
  };
  if (!json->is_object() || !json->contains("findings") || !(*json)["findings"].is_array()) {
    return bad(
        "a baseline is {\"version\": 1, \"findings\": [{code, file, pointer}]} (write one with --write-baseline)", "");
  }
  if (const auto v = json->find("version"); v == json->end() || *v != 1)
    return bad("unknown baseline version (expected 1)", "/version");
  Baseline baseline;
  const Json& findings = (*json)["findings"];
  for (std::size_t i = 0; i < findings.size(); ++i) {
    const Json& f = findings[i];
    const std::string at = "/findings/" + std::to_string(i);
    const auto str = [&](const char* key) { return f.is_object() && f.contains(key) && f[key].is_string(); };
    if (!str("code") || !str("file") || !str("pointer"))
      return bad("a finding is {\"code\", \"file\", \"pointer\"}, all strings", at);
    baseline.entries.push_back(
        {f["code"].get<std::string>(), f["file"].get<std::string>(), f["pointer"].get<std::string>()});
  }
  return baseline;
}

BaselineMatch apply_baseline(std::vector<FileReport>& reports, const Baseline& baseline, const std::string& base_dir) {
  std::map<std::tuple<std::string, std::string, std::string>, std::size_t> known;
  for (const BaselineEntry& e : baseline.entries) ++known[{e.file, e.pointer, e.code}];
  BaselineMatch match;
  for (FileReport& r : reports) {
    const std::string file = relative_path(r.path, base_dir);
    std::vector<Diagnostic> kept;
    for (Diagnostic& d : r.diagnostics) {
      const auto it = known.find({file, d.where.json_pointer, d.code});
      if (it != known.end() && it->second > 0) {
        --it->second;
        ++match.matched;
      } else {
        kept.push_back(std::move(d));
      }
    }
    r.diagnostics = std::move(kept);
  }
  for (const auto& [key, left] : known) match.stale += left;
  return match;
}

std::optional<std::string> find_validate_config(const std::string& dir) {
  std::error_code ec;
  for (fs::path d = fs::path(dir).lexically_normal(); !d.empty(); d = d.parent_path()) {
    const fs::path candidate = d / kValidateConfigName;
    if (fs::is_regular_file(candidate, ec)) return candidate.string();
    if (d == d.parent_path()) break;
  }
  return std::nullopt;
}

}  // namespace rig2d
