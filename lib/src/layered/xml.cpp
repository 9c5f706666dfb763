// SPDX-License-Identifier: Apache-2.0
#include "layered/xml.h"

#include "layered/byte_reader.h"

namespace rig2d::layered {
namespace {

class XmlParser {
 public:
  XmlParser(std::string_view text, const std::string& path, int max_depth)
      : text_(text), path_(path), max_depth_(max_depth) {}

  XmlElement document() {
    if (text_.substr(0, 3) == "\xEF\xBB\xBF") pos_ = 3;
    skip_misc();
    if (!at('<')) error("the document has no root element");
    XmlElement root = element(1);
    skip_misc();
    if (pos_ != text_.size()) error("content after the root element");
    return root;
  }

 private:
  [[noreturn]] void error(const std::string& message, const char* code = "ora.xml") const {
    const auto [line, column] = xml_line_column(text_, pos_);
    throw ReadFailure{Error{code, "stack.xml: " + message, Location{path_, "", line, column}}};
  }
  bool at(char c) const { return pos_ < text_.size() && text_[pos_] == c; }
  bool starts(std::string_view s) const { return text_.substr(pos_, s.size()) == s; }
  void skip_space() {
    while (pos_ < text_.size() && (text_[pos_] == ' ' || text_[pos_] == '\t' || text_[pos_] == '\n' || text_[pos_] == '\r'))
      ++pos_;
  }
  void skip_past(std::string_view end, const char* what) {
    const std::size_t found = text_.find(end, pos_);
    if (found == std::string_view::npos) error(std::string("an unterminated ") + what);
    pos_ = found + end.size();
  }
  // Comments, processing instructions, a doctype and whitespace between elements.
  void skip_misc() {
    for (;;) {
      skip_space();
      if (starts("<!--")) skip_past("-->", "comment");
      else if (starts("<?")) skip_past("?>", "processing instruction");
      else if (starts("<!DOCTYPE")) skip_past(">", "doctype");
      else return;
    }
  }
  static bool name_char(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-' ||
           c == '.' || c == ':' || static_cast<unsigned char>(c) >= 0x80;
  }
  std::string name() {
    const std::size_t start = pos_;
    while (pos_ < text_.size() && name_char(text_[pos_])) ++pos_;
    if (pos_ == start) error("a name is expected here");
    return std::string(text_.substr(start, pos_ - start));
  }
  std::string decode(std::string_view raw) {
    std::string out;
    for (std::size_t i = 0; i < raw.size(); ++i) {
      if (raw[i] == '<') error("'<' inside an attribute value");
      if (raw[i] != '&') {
        out += raw[i];
        continue;
      }
      const std::size_t semi = raw.find(';', i);
      if (semi == std::string_view::npos || semi - i > 10) error("an unterminated entity in an attribute value");
      const std::string_view ent = raw.substr(i + 1, semi - i - 1);
      if (ent == "amp") out += '&';
      else if (ent == "lt") out += '<';
      else if (ent == "gt") out += '>';
      else if (ent == "quot") out += '"';
      else if (ent == "apos") out += '\'';
      else if (ent.size() > 1 && ent[0] == '#') {
        std::uint32_t cp = 0;
        const bool hex = ent[1] == 'x';
        for (char c : ent.substr(hex ? 2 : 1)) {
          const int d = (c >= '0' && c <= '9') ? c - '0' : hex && (c | 32) >= 'a' && (c | 32) <= 'f' ? (c | 32) - 'a' + 10 : -1;
          if (d < 0) error("a bad character reference");
          cp = cp * (hex ? 16 : 10) + std::uint32_t(d);
          if (cp > 0x10FFFF) error("a character reference past U+10FFFF");
        }
        if (cp == 0) error("a character reference to U+0000");
        append_utf8(out, cp);
      } else {
        error("an unknown entity &" + std::string(ent) + ";");
      }
      i = semi;
    }
    return out;
  }
  XmlElement element(int depth) {
    if (depth > max_depth_) error("elements nest deeper than " + std::to_string(max_depth_) + " levels", "ora.xml.depth");
    XmlElement e;
    e.offset = pos_;
    ++pos_;  // '<'
    e.name = name();
    for (;;) {
      skip_space();
      if (starts("/>")) {
        pos_ += 2;
        return e;
      }
      if (at('>')) {
        ++pos_;
        break;
      }
      std::string key = name();
      skip_space();
      if (!at('=')) error("'=' expected after attribute " + key);
      ++pos_;
      skip_space();
      if (!at('"') && !at('\'')) error("a quoted value expected for attribute " + key);
      const char quote = text_[pos_++];
      const std::size_t close = text_.find(quote, pos_);
      if (close == std::string_view::npos) error("an unterminated attribute value");
      std::string value = decode(text_.substr(pos_, close - pos_));
      pos_ = close + 1;
      for (const auto& kv : e.attributes)
        if (kv.first == key) error("attribute " + key + " is given twice");
      e.attributes.emplace_back(std::move(key), std::move(value));
    }
    for (;;) {  // content: text is skipped, child elements read
      const std::size_t lt = text_.find('<', pos_);
      if (lt == std::string_view::npos) error("element <" + e.name + "> is never closed");
      pos_ = lt;
      if (starts("</")) {
        pos_ += 2;
        if (name() != e.name) error("the closing tag does not match <" + e.name + ">");
        skip_space();
        if (!at('>')) error("'>' expected");
        ++pos_;
        return e;
      }
      if (starts("<!--")) skip_past("-->", "comment");
      else if (starts("<![CDATA[")) skip_past("]]>", "CDATA section");
      else if (starts("<?")) skip_past("?>", "processing instruction");
      else {
        e.children.push_back(element(depth + 1));
      }
    }
  }

  std::string_view text_;
  std::string path_;
  int max_depth_;
  std::size_t pos_ = 0;
};

}  // namespace

std::pair<int, int> xml_line_column(std::string_view text, std::size_t offset) {
  int line = 1, column = 1;
  for (std::size_t i = 0; i < offset && i < text.size(); ++i) {
    if (text[i] == '\n') {
      ++line;
      column = 1;
    } else {
      ++column;
    }
  }
  return {line, column};
}

XmlElement parse_xml(std::string_view text, const std::string& path, int max_depth) {
  return XmlParser(text, path, max_depth).document();
}

}  // namespace rig2d::layered
