// SPDX-License-Identifier: Apache-2.0
#include "rig/pointer_locate.h"

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <map>

namespace rig2d::detail {
namespace {

constexpr std::size_t kNone = static_cast<std::size_t>(-1);

// The wanted pointers as a trie: one node per reference token.
struct Node {
  std::map<std::string, std::size_t, std::less<>> keys;  // child node per member name
  std::map<std::size_t, std::size_t> indices;            // child node per array index
  std::vector<std::size_t> wanted;                       // pointers that end here
};

std::vector<std::string> split(std::string_view pointer) {
  std::vector<std::string> tokens;
  if (pointer.empty()) return tokens;
  std::size_t pos = pointer.front() == '/' ? 1 : 0;
  while (true) {
    const std::size_t next = pointer.find('/', pos);
    const std::string_view raw = pointer.substr(pos, next == std::string_view::npos ? std::string_view::npos : next - pos);
    std::string token;
    for (std::size_t k = 0; k < raw.size(); ++k) {
      if (raw[k] == '~' && k + 1 < raw.size() && (raw[k + 1] == '0' || raw[k + 1] == '1')) {
        token += raw[k + 1] == '1' ? '/' : '~';
        ++k;
      } else {
        token += raw[k];
      }
    }
    tokens.push_back(std::move(token));
    if (next == std::string_view::npos) break;
    pos = next + 1;
  }
  return tokens;
}

void append_utf8(std::string& out, std::uint32_t cp) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

class Locator {
 public:
  Locator(std::string_view text, const std::vector<Node>& nodes, std::vector<std::size_t>& offsets)
      : t_(text), nodes_(nodes), offsets_(offsets) {}

  void value(std::size_t node_id) {
    ws();
    const Node& node = nodes_[node_id];
    for (const std::size_t w : node.wanted) offsets_[w] = i_;
    if (i_ >= t_.size()) return;
    if (node.keys.empty() && node.indices.empty()) {
      skip();
      return;
    }
    if (t_[i_] == '{') {
      ++i_;
      while (true) {
        ws();
        if (i_ >= t_.size() || t_[i_] == '}') break;
        if (t_[i_] == ',') {
          ++i_;
          continue;
        }
        const std::string key = string();
        ws();
        if (i_ < t_.size() && t_[i_] == ':') ++i_;
        const auto it = node.keys.find(key);
        if (it != node.keys.end()) value(it->second);
        else skip();
      }
      if (i_ < t_.size()) ++i_;
    } else if (t_[i_] == '[') {
      ++i_;
      std::size_t index = 0;
      while (true) {
        ws();
        if (i_ >= t_.size() || t_[i_] == ']') break;
        if (t_[i_] == ',') {
          ++i_;
          ++index;
          continue;
        }
        const auto it = node.indices.find(index);
        if (it != node.indices.end()) value(it->second);
        else skip();
      }
      if (i_ < t_.size()) ++i_;
    } else {
      skip();
    }
  }

 private:
  void ws() {
    while (i_ < t_.size() && (t_[i_] == ' ' || t_[i_] == '\n' || t_[i_] == '\r' || t_[i_] == '\t')) ++i_;
  }

  std::uint32_t hex4() {
    std::uint32_t cp = 0;
    if (i_ + 4 <= t_.size()) std::from_chars(t_.data() + i_, t_.data() + i_ + 4, cp, 16);
    i_ += 4;
    return cp;
  }

  // Decodes the string at '"' (escapes and surrogate pairs included) and moves past it.
  std::string string() {
    std::string s;
    ++i_;
    while (i_ < t_.size() && t_[i_] != '"') {
      if (t_[i_] != '\\' || i_ + 1 >= t_.size()) {
        s += t_[i_++];
        continue;
      }
      const char e = t_[i_ + 1];
      i_ += 2;
      switch (e) {
        case 'n': s += '\n'; break;
        case 't': s += '\t'; break;
        case 'r': s += '\r'; break;
        case 'b': s += '\b'; break;
        case 'f': s += '\f'; break;
        case 'u': {
          std::uint32_t cp = hex4();
          if (cp >= 0xD800 && cp < 0xDC00 && i_ + 1 < t_.size() && t_[i_] == '\\' && t_[i_ + 1] == 'u') {
            i_ += 2;
            const std::uint32_t low = hex4();
            cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
          }
          append_utf8(s, cp);
          break;
        }
        default: s += e;
      }
    }
    ++i_;
    return s;
  }

  // Skips one value without recursion (depth is only counted).
  void skip() {
    ws();
    if (i_ >= t_.size()) return;
    const char first = t_[i_];
    if (first == '"') {
      skip_string();
      return;
    }
    if (first == '{' || first == '[') {
      std::size_t depth = 0;
      while (i_ < t_.size()) {
        const char ch = t_[i_];
        if (ch == '"') {
          skip_string();
          continue;
        }
        ++i_;
        if (ch == '{' || ch == '[') ++depth;
        else if ((ch == '}' || ch == ']') && --depth == 0) return;
      }
      return;
    }
    while (i_ < t_.size() && t_[i_] != ',' && t_[i_] != '}' && t_[i_] != ']' && t_[i_] != ' ' && t_[i_] != '\n' &&
           t_[i_] != '\r' && t_[i_] != '\t')
      ++i_;
  }

  void skip_string() {
    ++i_;
    while (i_ < t_.size() && t_[i_] != '"') i_ += t_[i_] == '\\' ? 2 : 1;
    ++i_;
  }

  std::string_view t_;
  const std::vector<Node>& nodes_;
  std::vector<std::size_t>& offsets_;
  std::size_t i_ = 0;
};

}  // namespace

std::vector<std::pair<int, int>> locate_pointers(std::string_view text, std::span<const std::string> pointers) {
  std::vector<Node> nodes(1);
  for (std::size_t p = 0; p < pointers.size(); ++p) {
    std::size_t at = 0;
    for (const std::string& token : split(pointers[p])) {
      // A token names a member of an object or an element of an array; which one depends on the text,
      // so a numeric token is registered both ways.
      std::size_t child = kNone;
      if (const auto it = nodes[at].keys.find(token); it != nodes[at].keys.end()) child = it->second;
      if (child == kNone) {
        child = nodes.size();
        nodes[at].keys.emplace(token, child);
        std::size_t index = 0;
        const auto res = std::from_chars(token.data(), token.data() + token.size(), index);
        const bool numeric = !token.empty() && res.ec == std::errc() && res.ptr == token.data() + token.size() &&
                             (token.size() == 1 || token[0] != '0');
        if (numeric) nodes[at].indices.emplace(index, child);
        nodes.emplace_back();
      }
      at = child;
    }
    nodes[at].wanted.push_back(p);
  }

  std::vector<std::size_t> offsets(pointers.size(), kNone);
  Locator(text, nodes, offsets).value(0);

  // Offsets -> line:col in one sweep over the text, in offset order.
  std::vector<std::size_t> order(pointers.size());
  for (std::size_t k = 0; k < order.size(); ++k) order[k] = k;
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return offsets[a] < offsets[b]; });
  std::vector<std::pair<int, int>> out(pointers.size(), {0, 0});
  int line = 1, col = 1;
  std::size_t pos = 0;
  for (const std::size_t k : order) {
    if (offsets[k] == kNone || offsets[k] >= text.size()) continue;
    for (; pos < offsets[k]; ++pos) {
      if (text[pos] == '\n') {
        ++line;
        col = 1;
      } else {
        ++col;
      }
    }
    out[k] = {line, col};
  }
  return out;
}

}  // namespace rig2d::detail
