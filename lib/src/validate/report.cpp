// SPDX-License-Identifier: Apache-2.0
#include "rig2d/validate/report.h"

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

std::string xml_escape(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (const char raw : s) {
    const auto ch = static_cast<unsigned char>(raw);
    switch (raw) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&apos;"; break;
      default:
        // XML 1.0 forbids most control characters even as references.
        if (ch < 0x20 && raw != '\n' && raw != '\t' && raw != '\r') out += '?';
        else out += raw;
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

const char* summary_of(const std::string& code) {
  for (const CodeInfo& info : validation_codes()) {
    if (code == info.code) return info.summary;
  }
  for (const DeformCodeInfo& info : deform_codes()) {  // opt-in (--deform), not in the registry
    if (code == info.code) return info.summary;
  }
  return nullptr;
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

std::string format_json(const std::vector<FileReport>& reports, std::string_view version) {
  const ReportTotals t = report_totals(reports);
  Json doc = Json::object();
  doc["tool"] = "rig2d-validate";
  doc["version"] = std::string(version);
  doc["summary"] = Json{{"files", t.files}, {"clean", t.clean},       {"errors", t.errors},
                        {"warnings", t.warnings}, {"notes", t.notes}, {"unreadable", t.unreadable}};
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

std::string format_junit(const std::vector<FileReport>& reports) {
  const ReportTotals t = report_totals(reports);
  std::size_t failures = 0;
  for (const FileReport& r : reports) failures += (!r.unreadable && r.count(Severity::Error) > 0) ? 1 : 0;
  const std::string counts = "tests=\"" + std::to_string(t.files) + "\" failures=\"" + std::to_string(failures) +
                             "\" errors=\"" + std::to_string(t.unreadable) + "\"";
  std::string out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  out += "<testsuites name=\"rig2d-validate\" " + counts + ">\n";
  out += "  <testsuite name=\"rig2d-validate\" " + counts + " skipped=\"0\">\n";
  for (const FileReport& r : reports) {
    out += "    <testcase classname=\"rig2d-validate." + std::string(file_kind_name(r.kind)) + "\" name=\"" +
           xml_escape(r.path) + "\" file=\"" + xml_escape(r.path) + "\"";
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

std::string format_sarif(const std::vector<FileReport>& reports, std::string_view version) {
  std::map<std::string, std::size_t> rule_index;
  Json rules = Json::array();
  for (const FileReport& r : reports) {
    for (const Diagnostic& d : r.diagnostics) {
      if (rule_index.count(d.code)) continue;
      rule_index[d.code] = rules.size();
      const char* summary = summary_of(d.code);
      Json rule = Json::object();
      rule["id"] = d.code;
      rule["shortDescription"] = Json{{"text", summary ? summary : d.code.c_str()}};
      rule["helpUri"] = "docs/validate.md";
      rules.push_back(std::move(rule));
    }
  }
  Json results = Json::array();
  for (const FileReport& r : reports) {
    for (const Diagnostic& d : r.diagnostics) {
      Json physical = Json::object();
      physical["artifactLocation"] = Json{{"uri", to_uri(r.path)}};
      if (d.where.line > 0) {
        Json region = Json::object();
        region["startLine"] = d.where.line;
        if (d.where.column > 0) region["startColumn"] = d.where.column;
        physical["region"] = std::move(region);
      }
      Json location = Json::object();
      location["physicalLocation"] = std::move(physical);
      if (!d.where.json_pointer.empty()) {
        location["logicalLocations"] = Json::array({Json{{"fullyQualifiedName", valid_utf8(d.where.json_pointer)}, {"kind", "member"}}});
      }
      Json result = Json::object();
      result["ruleId"] = d.code;
      result["ruleIndex"] = rule_index[d.code];
      result["level"] = severity_name(d.severity);
      result["message"] = Json{{"text", valid_utf8(d.message)}};
      result["locations"] = Json::array({std::move(location)});
      results.push_back(std::move(result));
    }
  }
  Json driver = Json::object();
  driver["name"] = "rig2d-validate";
  driver["version"] = std::string(version);
  driver["informationUri"] = "https://github.com/rig2d/rig2d/blob/main/docs/validate.md";
  driver["rules"] = std::move(rules);
  Json run = Json::object();
  run["tool"] = Json{{"driver", std::move(driver)}};
  run["results"] = std::move(results);
  Json doc = Json::object();
  doc["$schema"] = "https://json.schemastore.org/sarif-2.1.0.json";
  doc["version"] = "2.1.0";
  doc["runs"] = Json::array({std::move(run)});
  return detail::to_js_json(doc) + "\n";
}

}  // namespace

std::optional<ReportFormat> parse_report_format(std::string_view name) {
  if (name == "text") return ReportFormat::Text;
  if (name == "json") return ReportFormat::Json;
  if (name == "junit") return ReportFormat::Junit;
  if (name == "sarif") return ReportFormat::Sarif;
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

std::string format_report(const std::vector<FileReport>& reports, ReportFormat format, std::string_view tool_version) {
  switch (format) {
    case ReportFormat::Json: return format_json(reports, tool_version);
    case ReportFormat::Junit: return format_junit(reports);
    case ReportFormat::Sarif: return format_sarif(reports, tool_version);
    default: return format_text(reports);
  }
}

}  // namespace rig2d
