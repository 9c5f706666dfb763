// SPDX-License-Identifier: Apache-2.0
#include "rig2d/validate/report.h"

#include <cinttypes>
#include <cstdio>
#include <filesystem>
#include <map>

#include "json/json_util.h"

namespace rig2d {
namespace {

using detail::Json;

const char* severity_name(Severity s) {
  return s == Severity::Error ? "error" : s == Severity::Warning ? "warning" : "note";
}

const char* status_of(const FileReport& r) {
  if (r.unreadable) return "unreadable";
  if (r.count(Severity::Error) > 0) return "errors";
  if (r.count(Severity::Warning) > 0) return "warnings";
  return "ok";
}

std::string valid_utf8(std::string_view s);

// Valid UTF-8 first (a file name may hold any bytes; XML must not), then the XML escapes.
std::string xml_escape(std::string_view text) {
  const std::string s = valid_utf8(text);
  std::string out;
  out.reserve(s.size());
  for (const char raw : s) {
    const auto ch = static_cast<unsigned char>(raw);
    switch (raw) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&apos;";
        break;
      default:
        // XML 1.0 forbids most control characters even as references.
        if (ch < 0x20 && raw != '\n' && raw != '\t' && raw != '\r')
          out += '?';
        else
          out += raw;
    }
  }
  return out;
}

// A relative URI reference for SARIF: forward slashes, everything outside the unreserved set and
// '/' percent-encoded.
std::string to_uri(std::string_view path) {
  static const char* kHex = "0123456789ABCDEF";
  std::string out;
  for (const char raw : path) {
    const auto ch = static_cast<unsigned char>(raw);
    if (raw == '\\') {
      out += '/';
    } else if ((ch >= 'A' && ch <= 'Z') || (ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') || raw == '-' ||
               raw == '.' || raw == '_' || raw == '~' || raw == '/') {
      out += raw;
    } else {
      out += '%';
      out += kHex[ch >> 4];
      out += kHex[ch & 15];
    }
  }
  return out;
}

// "file:///abs/path" for an absolute path (RFC 8089), each segment percent-encoded.
std::string file_uri(const std::filesystem::path& absolute) { return "file://" + to_uri(absolute.generic_string()); }

// A path read from standard input has no URI.
bool is_stdin(const std::string& path) { return path == "<stdin>"; }

// SARIF artifactLocation: a path relative to the base folder stays relative (uriBaseId SRCROOT, so
// GitHub code scanning maps it onto the checkout); anything else becomes an absolute file:// URI.
Json artifact_location(const std::string& path, const std::string& base_dir) {
  namespace fs = std::filesystem;
  if (is_stdin(path)) return Json{{"description", Json{{"text", "standard input"}}}};
  const fs::path p(path);
  if (p.is_absolute()) return Json{{"uri", file_uri(p.lexically_normal())}};
  const fs::path rel = p.lexically_normal();
  const bool escapes = !rel.empty() && *rel.begin() == "..";
  if (base_dir.empty()) return Json{{"uri", to_uri(rel.generic_string())}};
  if (escapes) return Json{{"uri", file_uri((fs::path(base_dir) / rel).lexically_normal())}};
  return Json{{"uri", to_uri(rel.generic_string())}, {"uriBaseId", "SRCROOT"}};
}

std::string dir_uri(const std::string& dir) {
  std::string uri = file_uri(std::filesystem::path(dir).lexically_normal());
  if (uri.empty() || uri.back() != '/') uri += '/';
  return uri;
}

// nlohmann throws on invalid UTF-8 when dumping; our writer passes bytes through, but keep strings
// valid anyway so JSON consumers can parse the report: invalid bytes become U+FFFD.
std::string valid_utf8(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size();) {
    const auto c = static_cast<unsigned char>(s[i]);
    std::size_t len = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
    bool ok = len > 0 && i + len <= s.size();
    for (std::size_t k = 1; ok && k < len; ++k) ok = (static_cast<unsigned char>(s[i + k]) >> 6) == 2;
    if (ok) {
      out.append(s.substr(i, len));
      i += len;
    } else {
      out += "\xEF\xBF\xBD";
      ++i;
    }
  }
  return out;
}

std::string format_text(const std::vector<FileReport>& reports) {
  std::string out;
  for (const FileReport& r : reports) {
    for (const Diagnostic& d : r.diagnostics) {
      std::string line = format_diagnostic(d);
      for (char& ch : line) {
        if (ch == '\n' || ch == '\r') ch = ' ';  // one finding per line, always
      }
      out += line;
      out += '\n';
    }
  }
  return out;
}

std::string format_json(const std::vector<FileReport>& reports, const ReportOptions& options) {
  const ReportTotals t = report_totals(reports);
  Json doc = Json::object();
  doc["tool"] = "rig2d-validate";
  doc["version"] = options.tool_version;
  doc["summary"] = Json{{"files", t.files},
                        {"clean", t.clean},
                        {"errors", t.errors},
                        {"warnings", t.warnings},
                        {"notes", t.notes},
                        {"unreadable", t.unreadable},
                        {"baselined", options.baselined}};
  Json files = Json::array();
  for (const FileReport& r : reports) {
    Json f = Json::object();
    f["path"] = valid_utf8(r.path);
    f["kind"] = file_kind_name(r.kind);
    f["status"] = status_of(r);
    Json diags = Json::array();
    for (const Diagnostic& d : r.diagnostics) {
      diags.push_back(Json{{"severity", severity_name(d.severity)},
                           {"code", d.code},
                           {"message", valid_utf8(d.message)},
                           {"pointer", valid_utf8(d.where.json_pointer)},
                           {"line", d.where.line},
                           {"column", d.where.column}});
    }
    f["diagnostics"] = std::move(diags);
    files.push_back(std::move(f));
  }
  doc["files"] = std::move(files);
  return detail::to_js_json(doc) + "\n";
}

std::string seconds_text(double seconds) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3f", seconds > 0 ? seconds : 0.0);
  return buf;
}

// JUnit as the Jenkins xunit plugin's junit-10 schema accepts it: testcase attributes are name,
// classname and time only (no `file`).
std::string format_junit(const std::vector<FileReport>& reports, const ReportOptions& options) {
  const ReportTotals t = report_totals(reports);
  std::size_t failures = 0;
  double total_seconds = 0;
  for (const FileReport& r : reports) {
    failures += (!r.unreadable && r.count(Severity::Error) > 0) ? 1 : 0;
    total_seconds += options.junit_times ? r.seconds : 0;
  }
  const std::string counts = "tests=\"" + std::to_string(t.files) + "\" failures=\"" + std::to_string(failures) +
                             "\" errors=\"" + std::to_string(t.unreadable) + "\" time=\"" +
                             seconds_text(total_seconds) + "\"";
  std::string out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  out += "<testsuites name=\"rig2d-validate\" " + counts + ">\n";
  out += "  <testsuite name=\"rig2d-validate\" " + counts + " skipped=\"0\">\n";
  if (options.baselined > 0) {
    out += "    <properties>\n      <property name=\"baselined\" value=\"" + std::to_string(options.baselined) +
           "\"/>\n    </properties>\n";
  }
  for (const FileReport& r : reports) {
    out += "    <testcase classname=\"rig2d-validate." + std::string(file_kind_name(r.kind)) + "\" name=\"" +
           xml_escape(r.path) + "\" time=\"" + seconds_text(options.junit_times ? r.seconds : 0) + "\"";
    std::string errors, others;
    std::size_t error_count = 0;
    std::string first_error;
    for (const Diagnostic& d : r.diagnostics) {
      const std::string line = format_diagnostic(d) + "\n";
      if (d.severity == Severity::Error) {
        if (error_count++ == 0) first_error = d.code + ": " + d.message;
        errors += line;
      } else {
        others += line;
      }
    }
    if (error_count == 0 && others.empty()) {
      out += "/>\n";
      continue;
    }
    out += ">\n";
    if (error_count > 0) {
      const char* tag = r.unreadable ? "error" : "failure";
      out += std::string("      <") + tag + " type=\"" + (r.unreadable ? "unreadable" : "findings") + "\" message=\"" +
             xml_escape(std::to_string(error_count) + " error(s); first: " + first_error) + "\">" + xml_escape(errors) +
             "</" + tag + ">\n";
    }
    if (!others.empty()) out += "      <system-out>" + xml_escape(others) + "</system-out>\n";
    out += "    </testcase>\n";
  }
  out += "  </testsuite>\n</testsuites>\n";
  return out;
}

const char* level_of(Severity s) { return severity_name(s); }

// A rule per code used: short and full descriptions from the rule texts, the docs page as helpUri.
Json sarif_rule(const std::string& code, Severity first_seen, const ReportOptions& options) {
  const CodeText* text = find_code_text(code);
  Json rule = Json::object();
  rule["id"] = code;
  if (text != nullptr) {
    rule["shortDescription"] = Json{{"text", text->short_text}};
    rule["fullDescription"] = Json{{"text", text->full_text}};
    rule["helpUri"] = options.docs_base_uri + text->page;
  } else {
    rule["shortDescription"] = Json{{"text", "rig2d-validate finding " + code + "."}};
    rule["fullDescription"] = Json{{"text", "rig2d-validate finding " + code + "; the message says how to fix it."}};
    rule["helpUri"] = options.docs_base_uri + "validate.md";
  }
  Severity level = first_seen;
  for (const CodeInfo& info : validation_codes()) {
    if (code == info.code) level = info.severity;
  }
  rule["defaultConfiguration"] = Json{{"level", level_of(level)}};
  return rule;
}

std::string format_sarif(const std::vector<FileReport>& reports, const ReportOptions& options) {
  std::map<std::string, std::size_t> rule_index;
  Json rules = Json::array();
  for (const FileReport& r : reports) {
    for (const Diagnostic& d : r.diagnostics) {
      if (rule_index.count(d.code)) continue;
      rule_index[d.code] = rules.size();
      rules.push_back(sarif_rule(d.code, d.severity, options));
    }
  }
  Json results = Json::array();
  for (const FileReport& r : reports) {
    for (const Diagnostic& d : r.diagnostics) {
      Json physical = Json::object();
      physical["artifactLocation"] = artifact_location(valid_utf8(r.path), options.base_dir);
      if (d.where.line > 0) {
        Json region = Json::object();
        region["startLine"] = d.where.line;
        if (d.where.column > 0) region["startColumn"] = d.where.column;
        physical["region"] = std::move(region);
      }
      Json location = Json::object();
      location["physicalLocation"] = std::move(physical);
      if (!d.where.json_pointer.empty()) {
        location["logicalLocations"] =
            Json::array({Json{{"fullyQualifiedName", valid_utf8(d.where.json_pointer)}, {"kind", "member"}}});
      }
      Json result = Json::object();
      result["ruleId"] = d.code;
      result["ruleIndex"] = rule_index[d.code];
      result["level"] = level_of(d.severity);
      result["message"] = Json{{"text", valid_utf8(d.message)}};
      result["locations"] = Json::array({std::move(location)});
      results.push_back(std::move(result));
    }
  }
  Json driver = Json::object();
  driver["name"] = "rig2d-validate";
  driver["version"] = std::string(options.tool_version);
  driver["informationUri"] = options.docs_base_uri + "validate.md";
  driver["rules"] = std::move(rules);
  Json run = Json::object();
  run["tool"] = Json{{"driver", std::move(driver)}};
  if (!options.base_dir.empty()) {
    run["originalUriBaseIds"] = Json{{"SRCROOT", Json{{"uri", dir_uri(options.base_dir)}}}};
  }
  run["columnKind"] = "unicodeCodePoints";
  run["results"] = std::move(results);
  if (options.baselined > 0) run["properties"] = Json{{"baselined", options.baselined}};
  Json doc = Json::object();
  doc["$schema"] = "https://json.schemastore.org/sarif-2.1.0.json";
  doc["version"] = "2.1.0";
  doc["runs"] = Json::array({std::move(run)});
  return detail::to_js_json(doc) + "\n";
}

// GitHub workflow command escaping: the message (data) and the key=value properties.
std::string gh_escape(std::string_view s, bool property) {
  std::string out;
  for (const char ch : s) {
    if (ch == '%')
      out += "%25";
    else if (ch == '\r')
      out += "%0D";
    else if (ch == '\n')
      out += "%0A";
    else if (property && ch == ':')
      out += "%3A";
    else if (property && ch == ',')
      out += "%2C";
    else
      out += ch;
  }
  return out;
}

std::string format_github(const std::vector<FileReport>& reports) {
  std::string out;
  for (const FileReport& r : reports) {
    for (const Diagnostic& d : r.diagnostics) {
      const char* command = d.severity == Severity::Error     ? "error"
                            : d.severity == Severity::Warning ? "warning"
                                                              : "notice";
      out += "::" + std::string(command) + " ";
      if (!is_stdin(r.path)) out += "file=" + gh_escape(r.path, true) + ",";
      if (d.where.line > 0) {
        out += "line=" + std::to_string(d.where.line) + ",";
        if (d.where.column > 0) out += "col=" + std::to_string(d.where.column) + ",";
      }
      out += "title=" + gh_escape(d.code, true) + "::";
      const std::string text = d.where.json_pointer.empty() ? d.message : d.where.json_pointer + ": " + d.message;
      out += gh_escape(printable(text), false) + " [" + gh_escape(d.code, false) + "]\n";
    }
  }
  return out;
}

// 64-bit FNV-1a; two seeds make the 32-hex-digit fingerprint GitLab keys findings by.
std::uint64_t fnv1a(std::string_view s, std::uint64_t hash) {
  for (const char ch : s) {
    hash ^= static_cast<unsigned char>(ch);
    hash *= 0x100000001b3ULL;
  }
  return hash;
}

std::string fingerprint(const std::string& key) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%016" PRIx64 "%016" PRIx64, fnv1a(key, 0xcbf29ce484222325ULL),
                fnv1a(key, 0x84222325cbf29ce4ULL));
  return buf;
}

// GitLab Code Quality: fingerprints use code, file, pointer and the occurrence count of that triple, not
// line numbers, so they survive edits elsewhere in the file.
std::string format_codeclimate(const std::vector<FileReport>& reports) {
  Json issues = Json::array();
  std::map<std::string, int> seen;
  for (const FileReport& r : reports) {
    for (const Diagnostic& d : r.diagnostics) {
      std::string key = d.code + '\n' + r.path + '\n' + d.where.json_pointer;
      key += '\n' + std::to_string(seen[key]++);
      Json issue = Json::object();
      issue["type"] = "issue";
      issue["check_name"] = d.code;
      issue["description"] =
          valid_utf8(d.where.json_pointer.empty() ? d.message : d.where.json_pointer + ": " + d.message);
      issue["categories"] = Json::array({"Bug Risk"});
      issue["fingerprint"] = fingerprint(key);
      issue["severity"] = d.severity == Severity::Error ? "major" : d.severity == Severity::Warning ? "minor" : "info";
      issue["location"] = Json{{"path", valid_utf8(r.path)}, {"lines", Json{{"begin", std::max(d.where.line, 1)}}}};
      issues.push_back(std::move(issue));
    }
  }
  return detail::to_js_json(issues) + "\n";
}

}  // namespace

std::optional<ReportFormat> parse_report_format(std::string_view name) {
  if (name == "text") return ReportFormat::Text;
  if (name == "json") return ReportFormat::Json;
  if (name == "junit") return ReportFormat::Junit;
  if (name == "sarif") return ReportFormat::Sarif;
  if (name == "github") return ReportFormat::Github;
  if (name == "codeclimate") return ReportFormat::CodeClimate;
  return std::nullopt;
}

ReportTotals report_totals(const std::vector<FileReport>& reports) {
  ReportTotals t;
  for (const FileReport& r : reports) {
    ++t.files;
    const std::size_t e = r.count(Severity::Error), w = r.count(Severity::Warning);
    t.errors += e;
    t.warnings += w;
    t.notes += r.count(Severity::Note);
    t.unreadable += r.unreadable ? 1 : 0;
    t.clean += (e == 0 && w == 0) ? 1 : 0;
  }
  return t;
}

std::string format_report(const std::vector<FileReport>& reports, ReportFormat format, const ReportOptions& options) {
  switch (format) {
    case ReportFormat::Json:
      return format_json(reports, options);
    case ReportFormat::Junit:
      return format_junit(reports, options);
    case ReportFormat::Sarif:
      return format_sarif(reports, options);
    case ReportFormat::Github:
      return format_github(reports);
    case ReportFormat::CodeClimate:
      return format_codeclimate(reports);
    default:
      return format_text(reports);
  }
}

std::string format_report(const std::vector<FileReport>& reports, ReportFormat format, std::string_view tool_version) {
  ReportOptions options;
  options.tool_version = std::string(tool_version);
  return format_report(reports, format, options);
}

void columns_to_code_points(FileReport& report, std::string_view text) {
  // Byte offset of each line start (1-based lines), found once.
  std::vector<std::size_t> starts{0, 0};
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\n') starts.push_back(i + 1);
  }
  const std::size_t bom = text.starts_with("\xEF\xBB\xBF") ? 3 : 0;  // not a column (locate_pointers skips it)
  for (Diagnostic& d : report.diagnostics) {
    if (d.where.line <= 0 || d.where.column <= 1 || static_cast<std::size_t>(d.where.line) >= starts.size()) continue;
    std::size_t begin = starts[static_cast<std::size_t>(d.where.line)];
    if (d.where.line == 1) begin += bom;
    const std::size_t end = std::min(text.size(), begin + static_cast<std::size_t>(d.where.column - 1));
    int column = 1;
    for (std::size_t i = begin; i < end; ++i) {
      column += (static_cast<unsigned char>(text[i]) & 0xC0) != 0x80 ? 1 : 0;  // continuation bytes add none
    }
    d.where.column = column;
  }
}

}  // namespace rig2d
