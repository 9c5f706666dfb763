// SPDX-License-Identifier: Apache-2.0
#include "rig2d/core/error.h"

#include <string_view>

namespace rig2d {
namespace {

}  // namespace

std::string printable(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (const char raw : text) {
    const auto ch = static_cast<unsigned char>(raw);
    if (ch >= 0x20 && ch != 0x7f) {
      out += raw;
    } else if (ch == '\n') {
      out += "\\n";
    } else if (ch == '\r') {
      out += "\\r";
    } else if (ch == '\t') {
      out += "\\t";
    } else {
      static const char kHex[] = "0123456789abcdef";
      out += "\\x";
      out += kHex[ch >> 4];
      out += kHex[ch & 15];
    }
  }
  return out;
}

namespace {

std::string prefix(const Location& where) {
  std::string out = where.file.empty() ? std::string("<input>") : where.file;
  if (where.line > 0) {
    out += ':' + std::to_string(where.line);
    if (where.column > 0) out += ':' + std::to_string(where.column);
  }
  return out + ": ";
}

std::string body(const std::string& severity, const std::string& code, const std::string& message,
                 const Location& where) {
  std::string out = prefix(where) + severity + ": ";
  if (!where.json_pointer.empty()) out += where.json_pointer + ": ";
  out += message;
  if (!code.empty()) out += " [" + code + "]";
  return out;
}

}  // namespace

std::string format_error(const Error& error) {
  return printable(body("error", error.code, error.message, error.where));
}

std::string format_diagnostic(const Diagnostic& d) {
  const char* severity = d.severity == Severity::Error ? "error" : d.severity == Severity::Warning ? "warning" : "note";
  return printable(body(severity, d.code, d.message, d.where));
}

}  // namespace rig2d
