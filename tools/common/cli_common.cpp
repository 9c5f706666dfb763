// SPDX-License-Identifier: Apache-2.0
#include "common/cli_common.h"

#include <signal.h>
#include <unistd.h>

#include <cstdio>
#include <exception>
#include <initializer_list>

#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include "rig2d/io/files.h"

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

namespace {

// An interrupted run (Ctrl-C, a CI timeout's SIGTERM) removes its temp files, then dies of the signal
// as it would have: outputs already renamed are complete, old targets are untouched.
void on_interrupt(int sig) {
  remove_inflight_temp_files();
  ::signal(sig, SIG_DFL);
  ::raise(sig);
}

void install_interrupt_cleanup() {
  struct sigaction action = {};
  action.sa_handler = on_interrupt;
  sigemptyset(&action.sa_mask);
  for (const int sig : {SIGINT, SIGTERM, SIGHUP}) ::sigaction(sig, &action, nullptr);
}

}  // namespace

int run_main(CLI::App& app, int argc, char** argv, const std::function<int()>& run) {
  install_interrupt_cleanup();
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
