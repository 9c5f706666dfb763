// SPDX-License-Identifier: Apache-2.0
#include "common/cli_common.h"

#include <unistd.h>

#include <cstdio>
#include <exception>

#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

namespace rig2d::cli {

void add_verbosity(CLI::App& app, Verbosity& v) {
  app.add_flag("-v,--verbose", v.verbose, "More detail: stage statistics (-v), debugging (-vv)");
  app.add_flag("-q,--quiet", v.quiet, "Only print errors");
}

void setup_logging(const std::string& tool, const Verbosity& v) {
  auto logger = spdlog::stderr_color_st(tool);
  logger->set_pattern("%n: %^%l%$: %v");
  spdlog::set_default_logger(logger);
  spdlog::set_level(v.quiet ? spdlog::level::err
                            : v.verbose >= 2 ? spdlog::level::trace
                                             : v.verbose == 1 ? spdlog::level::debug : spdlog::level::info);
}

void print_error(const Error& error) { std::fprintf(stderr, "%s\n", format_error(error).c_str()); }

int run_main(CLI::App& app, int argc, char** argv, const std::function<int()>& run) {
  try {
    app.parse(argc, argv);
  } catch (const CLI::Success& e) {
    return app.exit(e);  // --help / --version
  } catch (const CLI::ParseError& e) {
    app.exit(e);
    return kUsage;
  }
  try {
    return run();
  } catch (const std::bad_alloc&) {
    std::fprintf(stderr, "%s: error: out of memory\n", app.get_name().c_str());
    return kInternal;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s: error: internal error: %s (please report this)\n", app.get_name().c_str(), e.what());
    return kInternal;
  }
}

bool stderr_is_tty() { return ::isatty(2) == 1; }

}  // namespace rig2d::cli
