// SPDX-License-Identifier: Apache-2.0
// Shared plumbing of the rig2d-* tools: exit codes, logging setup, error printing, and the top-level
// guard that turns any escaped exception into a clean message and exit code.
#pragma once

#include <functional>
#include <string>

#include <CLI/CLI.hpp>

#include "rig2d/core/error.h"

namespace rig2d::cli {

// Exit codes shared by every tool.
enum Exit : int {
  kOk = 0,
  kFindings = 1,     // validation findings, or some inputs of a batch failed
  kUsage = 2,        // bad command line
  kBadInput = 3,     // an input is unreadable or malformed
  kWriteFailed = 4,  // an output could not be written
  kInternal = 70,    // an internal error (a bug): please report it
};

struct Verbosity {
  int verbose = 0;  // -v, repeatable
  bool quiet = false;
};

// Adds -v/--verbose (repeatable) and -q/--quiet.
void add_verbosity(CLI::App& app, Verbosity& v);
// Sets up spdlog: messages to stderr, plain "tool: level: message" lines.
void setup_logging(const std::string& tool, const Verbosity& v);

// Prints an error from the library (GNU style, one line).
void print_error(const Error& error);

// Parses argv, then calls run(); maps CLI11 errors to kUsage and exceptions to kInternal.
int run_main(CLI::App& app, int argc, char** argv, const std::function<int()>& run);

// True when stderr is a terminal (progress lines are shown only then).
bool stderr_is_tty();

}  // namespace rig2d::cli
