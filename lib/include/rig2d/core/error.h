// SPDX-License-Identifier: Apache-2.0
// Errors and findings with a location. Codes are stable, dotted strings ("json.syntax",
// "png.truncated", "rig.weights.sum"); they are part of the public contract and documented in
// docs/error-codes.md.
#pragma once

#include <string>
#include <string_view>

#include "rig2d/export.h"

namespace rig2d {

struct Location {
  std::string file;          // path as given by the caller; may be empty for in-memory data
  std::string json_pointer;  // RFC 6901 pointer ("" = whole document) when the input is JSON
  int line = 0;              // 1-based; 0 = unknown
  int column = 0;            // 1-based; 0 = unknown
};

struct Error {
  std::string code;
  std::string message;
  Location where;
};

enum class Severity { Error, Warning, Note };

struct Diagnostic {
  Severity severity = Severity::Error;
  std::string code;
  std::string message;  // says what is wrong and how to fix it
  Location where;
};

// `text` with control characters escaped (\n, \r, \t, else \xHH; a NUL from "\u0000" included), so
// a file name or a quoted value can neither cut a message short nor forge another line or a terminal
// escape sequence. Other bytes, UTF-8 included, are kept.
RIG2D_EXPORT std::string printable(std::string_view text);

// Printed through printable(): "file:line:col: " / "file: " prefix plus "error: [pointer: ]message [code]", GNU style.
RIG2D_EXPORT std::string format_error(const Error& error);
RIG2D_EXPORT std::string format_diagnostic(const Diagnostic& diagnostic);

}  // namespace rig2d
