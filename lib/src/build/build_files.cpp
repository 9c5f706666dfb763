// SPDX-License-Identifier: Apache-2.0
#include "rig2d/build/build_files.h"

#include <algorithm>
#include <filesystem>
#include <set>
#include <string_view>

#include "rig2d/core/limits.h"
#include "rig2d/io/files.h"

namespace rig2d {
namespace {

// Bytes GNU Make and Ninja (1.11) both read as part of a depfile path once escaped: a space, '#' and
// ':' get a backslash and '$' is doubled. Everything else here is taken as it is. Outside this set
// one of them misreads the path, with no escape that works for both (checked against make 4.3 and
// ninja 1.11.1): Make takes '=' as a variable assignment, ';' as a recipe and '|' as order-only
// prerequisites; Ninja splits a path at * ? " ' & < > ^ ` and other punctuation; neither has an
// escape for a newline, a tab or another control byte.
bool depfile_byte(unsigned char c) {
  if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c >= 0x80) return true;
  return std::string_view("+,/_.~(){}%@[]!-\\ #$:").find(static_cast<char>(c)) != std::string_view::npos;
}

std::string describe_byte(unsigned char c) {
  if (c == '\n') return "a newline";
  if (c == '\t') return "a tab";
  if (c < 0x20 || c == 0x7f) {
    static const char* const kHex = "0123456789abcdef";
    return std::string("the control byte 0x") + kHex[c >> 4] + kHex[c & 15];
  }
  if (c == '\\') return "a backslash before a space, '#' or ':' (or at the end)";
  return std::string("'") + static_cast<char>(c) + "'";
}

Result<std::string> escape_make_path(std::string_view path) {
  std::string out;
  for (std::size_t i = 0; i < path.size(); ++i) {
    const auto c = static_cast<unsigned char>(path[i]);
    // Make and Ninja disagree on how many backslashes a following escape takes.
    const bool bad_backslash =
        c == '\\' && (i + 1 == path.size() || path[i + 1] == ' ' || path[i + 1] == '#' || path[i + 1] == ':');
    if (!depfile_byte(c) || bad_backslash) {
      return make_error("depfile.path",
                        "cannot be written into a depfile that Make and Ninja both read: the name holds " +
                            describe_byte(c) + "; rename the file",
                        {std::string(path)});
    }
    if (c == ' ' || c == '#' || c == ':') out += '\\';
    else if (c == '$') out += '$';
    out += static_cast<char>(c);
  }
  return out;
}

}  // namespace

Result<std::string> depfile_text(const std::vector<DepRule>& rules) {
  std::string text;
  for (const DepRule& rule : rules) {
    auto target = escape_make_path(rule.target);
    if (!target) return Unexpected{target.error()};
    text += *target + ":";
    for (const std::string& p : rule.prerequisites) {
      auto prerequisite = escape_make_path(p);
      if (!prerequisite) return Unexpected{prerequisite.error()};
      text += " \\\n  " + *prerequisite;
    }
    text += "\n";
  }
  return text;
}

void append_unique(std::vector<std::string>& list, const std::vector<std::string>& paths) {
  std::set<std::string> seen(list.begin(), list.end());
  for (const std::string& p : paths) {
    if (seen.insert(p).second) list.push_back(p);
  }
}

bool file_has_bytes(const std::string& path, std::string_view bytes) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) return false;
  const auto size = std::filesystem::file_size(path, ec);
  if (ec || size != bytes.size()) return false;  // most changed files differ in size: no read needed
  auto current = read_file(path, kMaxJsonFileBytes);
  return current && *current == bytes;
}

Result<bool> write_if_changed(const std::string& path, std::string_view bytes, const WriteOptions& options) {
  if (file_has_bytes(path, bytes)) return false;
  if (auto made = create_parent_dirs({path}); !made) return Unexpected{made.error()};
  if (auto ok = write_file_atomic(path, bytes, options); !ok) return Unexpected{ok.error()};
  return true;
}

}  // namespace rig2d
