// SPDX-License-Identifier: Apache-2.0
// Shared plumbing of the rig2d-* tools: exit codes, logging setup, error printing, and the top-level
// guard that turns any escaped exception into a clean message and exit code.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "rig2d/core/error.h"
#include "rig2d/core/exit_codes.h"
#include "rig2d/core/result.h"
#include "rig2d/io/files.h"

namespace rig2d::cli {

struct Verbosity {
  int verbose = 0;  // -v, repeatable
  bool quiet = false;
  std::string color = "auto";  // --color
};

// Adds -v/--verbose (repeatable), -q/--quiet and --color auto|always|never (into v.color).
void add_verbosity(CLI::App& app, Verbosity& v);
// Sets up spdlog: messages to stderr, plain "tool: level: message" lines, coloured as use_color() says.
void setup_logging(const std::string& tool, const Verbosity& v);

// Colour on stderr: --color always/never win; auto colours only a terminal that is not TERM=dumb, and
// never when NO_COLOR is set to anything non-empty (no-color.org).
bool use_color(const std::string& mode);
// True when stderr may get control sequences (a "\r ESC[K" progress line): a terminal, TERM not dumb.
bool stderr_takes_control_sequences();

// Reads an input file, or standard input for "-" (both limited to max_bytes).
Result<std::string> read_input(const std::string& path, std::size_t max_bytes);

// A one-line progress display on stderr ("\r ESC[K" rewrites) where stderr takes control sequences.
// Elsewhere it prints nothing until done(), which prints the final line once, when `always` is set.
class ProgressLine {
 public:
  ProgressLine(bool enabled, bool always) : enabled_(enabled), always_(always) {}
  void update(const std::string& text);  // rate-limited to 10 per second
  void done(const std::string& text);    // the final state, then a newline (or clears the line)
  void clear();                          // removes the line, e.g. before a log message

 private:
  bool enabled_, always_;
  bool shown_ = false;
  long long last_ms_ = -1000;
};

// Prints an error from the library (GNU style, one line).
void print_error(const Error& error);

// --list-inputs: each path followed by a newline, or by a NUL byte with `null` (--null, for xargs -0
// and `read -d ''`). One path a line cannot carry a path holding a newline: that is a list.newline
// error naming it (exit 3), printed before any path, so a consumer never splits one name in two.
int print_input_list(const std::vector<std::string>& paths, bool null);

// Parses argv, then calls run(); maps CLI11 errors to kUsage and exceptions to kInternal.
int run_main(CLI::App& app, int argc, char** argv, const std::function<int()>& run);

// True when stderr is a terminal (progress lines are shown only then).
bool stderr_is_tty();

// The end of a run that writes files: `outputs` (every path the run will write, including any
// written later such as a depfile) are checked against `inputs` and each other, their folders are
// made, then `writes` are written atomically, all or none. Prints the error; returns kOk, kUsage
// (an output would clobber an input) or kWriteFailed.
int write_checked_outputs(const std::vector<std::string>& inputs, const std::vector<std::string>& outputs,
                          std::vector<OutputFile>& writes);

}  // namespace rig2d::cli
