// SPDX-License-Identifier: Apache-2.0
// Batch pointer location: one scan of the text finds every requested pointer, so a file with many
// findings costs O(size) instead of O(size x findings).
#include <map>
#include <set>

#include "validate/checks.h"

namespace rig2d::detail {
namespace {

struct BatchScanner {
  std::string_view t;
  const std::set<std::string>& wanted;
  const std::set<std::string>& prefixes;
  std::map<std::string, std::size_t>& found;
  std::size_t i = 0;

  void ws() {
    while (i < t.size() && (t[i] == ' ' || t[i] == '\n' || t[i] == '\r' || t[i] == '\t')) ++i;
  }
  // Decodes a string at '"' (escapes reduced to what pointer tokens need: the raw key bytes for
  // anything but \" and \\, which is exact for the keys our findings name).
  std::string string() {
    std::string s;
    ++i;
    while (i < t.size() && t[i] != '"') {
      if (t[i] == '\\' && i + 1 < t.size()) {
        const char e = t[i + 1];
        s += (e == '"' || e == '\\' || e == '/') ? e : e == 'n' ? '\n' : e == 't' ? '\t' : e;
        i += 2;
        if (e == 'u') i += 4;
      } else {
        s += t[i++];
      }
    }
    ++i;
    return s;
  }
  void skip_string() {
    ++i;
    while (i < t.size() && t[i] != '"') i += t[i] == '\\' ? 2 : 1;
    ++i;
  }
  void skip_container() {
    int depth = 0;
    while (i < t.size()) {
      const char ch = t[i];
      if (ch == '"') {
        skip_string();
        continue;
      }
      if (ch == '{' || ch == '[') ++depth;
      else if ((ch == '}' || ch == ']') && --depth == 0) {
        ++i;
        return;
      }
      ++i;
    }
  }
  void value(const std::string& ptr) {
    ws();
    if (i >= t.size()) return;
    if (wanted.count(ptr)) found[ptr] = i;
    const char ch = t[i];
    const bool descend = prefixes.count(ptr) > 0;
    if (ch == '"') {
      skip_string();
    } else if ((ch == '{' || ch == '[') && !descend) {
      skip_container();
    } else if (ch == '{') {
      ++i;
      while (true) {
        ws();
        if (i >= t.size() || t[i] == '}') break;
        if (t[i] == ',') {
          ++i;
          continue;
        }
        const std::string key = string();
        ws();
        if (i < t.size() && t[i] == ':') ++i;
        value(ptr + "/" + pointer_token(key));
      }
      ++i;
    } else if (ch == '[') {
      ++i;
      for (std::size_t k = 0;; ++k) {
        ws();
        if (i >= t.size() || t[i] == ']') break;
        value(ptr + "/" + std::to_string(k));
        ws();
        if (i < t.size() && t[i] == ',') ++i;
      }
      ++i;
    } else {
      while (i < t.size() && t[i] != ',' && t[i] != '}' && t[i] != ']' && t[i] != ' ' && t[i] != '\n' &&
             t[i] != '\r' && t[i] != '\t')
        ++i;
    }
  }
};

}  // namespace

std::vector<std::pair<int, int>> locate_pointers(std::string_view text, const std::vector<std::string>& pointers) {
  std::set<std::string> wanted(pointers.begin(), pointers.end());
  std::set<std::string> prefixes;
  for (const std::string& p : wanted) {
    for (std::size_t k = 0; k < p.size(); ++k) {
      if (p[k] == '/') prefixes.insert(p.substr(0, k));
    }
  }
  std::map<std::string, std::size_t> found;
  BatchScanner scanner{text, wanted, prefixes, found};
  scanner.value("");
  // Offsets -> line:col in one forward pass.
  std::map<std::size_t, std::pair<int, int>> at;
  for (const auto& [ptr, offset] : found) at[offset] = {0, 0};
  int line = 1, col = 1;
  std::size_t pos = 0;
  for (auto& [offset, lc] : at) {
    for (; pos < offset && pos < text.size(); ++pos) {
      if (text[pos] == '\n') {
        ++line;
        col = 1;
      } else {
        ++col;
      }
    }
    lc = {line, col};
  }
  std::vector<std::pair<int, int>> out;
  out.reserve(pointers.size());
  for (const std::string& p : pointers) {
    const auto f = found.find(p);
    out.push_back(f == found.end() ? std::pair<int, int>{0, 0} : at[f->second]);
  }
  return out;
}

}  // namespace rig2d::detail
