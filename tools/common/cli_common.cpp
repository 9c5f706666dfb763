// SPDX-License-Identifier: Apache-2.0
#include "common/cli_common.h"

#include <malloc.h>
#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <string_view>
#include <thread>
#include <initializer_list>

#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include "rig2d/io/files.h"
#include "rig2d/io/output_safety.h"
#include "rig2d/io/write_journal.h"

namespace rig2d::cli {

void add_verbosity(CLI::App& app, Verbosity& v) {
  app.add_flag("-v,--verbose", v.verbose, "More detail: stage statistics (-v), debugging (-vv)");
  app.add_flag("-q,--quiet", v.quiet, "Only print errors");
  app.add_option("--color", v.color,
                 "Colour on stderr: auto (a terminal, unless NO_COLOR is set or TERM=dumb), always or never")
      ->check(CLI::IsMember({"auto", "always", "never"}))
      ->capture_default_str();
}

bool stderr_takes_control_sequences() {
  const char* term = std::getenv("TERM");
  return stderr_is_tty() && !(term != nullptr && std::string_view(term) == "dumb");
}

bool use_color(const std::string& mode) {
  if (mode == "always") return true;
  if (mode == "never") return false;
  const char* no_color = std::getenv("NO_COLOR");
  if (no_color != nullptr && *no_color != '\0') return false;
  return stderr_takes_control_sequences();
}

void setup_logging(const std::string& tool, const Verbosity& v) {
  const auto mode = use_color(v.color) ? spdlog::color_mode::always : spdlog::color_mode::never;
  auto logger = spdlog::stderr_color_st(tool, mode);
  logger->set_pattern("%n: %^%l%$: %v");
  spdlog::set_default_logger(logger);
  spdlog::set_level(v.quiet ? spdlog::level::err
                            : v.verbose >= 2 ? spdlog::level::trace
                                             : v.verbose == 1 ? spdlog::level::debug : spdlog::level::info);
}

void print_error(const Error& error) { std::fprintf(stderr, "%s\n", format_error(error).c_str()); }

int print_input_list(const std::vector<std::string>& paths, bool null) {
  if (!null) {
    for (const std::string& path : paths) {
      if (path.find('\n') != std::string::npos) {
        print_error(Error{"list.newline", "a file name holding a newline cannot be listed one per line: use --list-inputs --null",
                          Location{path, "", 0, 0}});
        return kBadInput;
      }
    }
  }
  for (const std::string& path : paths) {
    std::fwrite(path.data(), 1, path.size(), stdout);
    std::fputc(null ? '\0' : '\n', stdout);
  }
  return kOk;
}

namespace {

// An interrupted run (Ctrl-C, a CI timeout's SIGTERM) removes its temp files, then dies of the signal
// as it would have: outputs already renamed are complete, old targets are untouched. Every thread
// blocks the signals (threads inherit the mask) and one thread waits for them, so the cleanup runs
// as plain code and can take the lock that orders it with the writers' temp files.
void install_interrupt_cleanup() {
  sigset_t signals;
  sigemptyset(&signals);
  for (const int sig : {SIGINT, SIGTERM, SIGHUP}) sigaddset(&signals, sig);
  if (::pthread_sigmask(SIG_BLOCK, &signals, nullptr) != 0) return;
  std::thread([signals] {
    int sig = 0;
    if (::sigwait(&signals, &sig) != 0) return;
    remove_inflight_temp_files();
    ::signal(sig, SIG_DFL);
    ::pthread_sigmask(SIG_UNBLOCK, &signals, nullptr);
    ::raise(sig);
  }).detach();
}

// Memory a sprite freed stays with the process for the next one. glibc's defaults hand large buffers
// back to the kernel after each use (mmap'd blocks, heap trimming), so the next sprite page-faults
// them in again, at several microseconds a fault on a virtual machine: an engine-mode batch of 48
// figures took 6.7k faults and twice the CPU time it takes with these (bench/README.md, -j scaling).
void keep_freed_memory() {
#ifdef __GLIBC__
  mallopt(M_MMAP_THRESHOLD, 32 << 20);  // glibc's largest; bigger blocks are still mmap'd
  mallopt(M_TRIM_THRESHOLD, 256 << 20);
#endif
}

}  // namespace

int run_main(CLI::App& app, int argc, char** argv, const std::function<int()>& run) {
  keep_freed_memory();
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

Result<std::string> read_input(const std::string& path, std::size_t max_bytes) {
  if (path != "-") return read_file(path, max_bytes);
  std::string text;
  char buf[65536];
  std::size_t n = 0;
  while ((n = std::fread(buf, 1, sizeof buf, stdin)) > 0) {
    if (text.size() + n > max_bytes) {
      return make_error("io.too_large", "standard input is over the " + std::to_string(max_bytes >> 20) + " MiB limit",
                        Location{"<stdin>"});
    }
    text.append(buf, n);
  }
  if (std::ferror(stdin)) return make_error("io.read", "cannot read standard input", Location{"<stdin>"});
  return text;
}

namespace {
long long now_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}
}  // namespace

void ProgressLine::update(const std::string& text) {
  if (!enabled_ || !stderr_takes_control_sequences()) return;
  const long long now = now_ms();
  if (now - last_ms_ < 100) return;
  last_ms_ = now;
  std::fprintf(stderr, "\r\033[K%s", text.c_str());
  std::fflush(stderr);
  shown_ = true;
}

void ProgressLine::clear() {
  if (!shown_) return;
  std::fprintf(stderr, "\r\033[K");
  std::fflush(stderr);
  shown_ = false;
  last_ms_ = -1000;  // the next update redraws at once
}

void ProgressLine::done(const std::string& text) {
  if (!enabled_) return;
  if (stderr_takes_control_sequences()) {
    std::fprintf(stderr, "\r\033[K%s\n", text.c_str());
  } else if (always_) {
    std::fprintf(stderr, "%s\n", text.c_str());  // a log or a dumb terminal: the final line only
  }
  std::fflush(stderr);
  shown_ = false;
}

int write_checked_outputs(const std::vector<std::string>& inputs, const std::vector<std::string>& outputs,
                          std::vector<OutputFile>& writes) {
  if (auto safe = check_output_paths(inputs, outputs); !safe) {
    print_error(safe.error());
    return kUsage;
  }
  // A multi-file write killed between its renames left some of its files new and others old: settle
  // that set before writing (write_journal.h), and say what was found.
  for (const WriteRecovery& r : recover_interrupted_writes(outputs)) {
    std::string files;
    for (const std::string& f : r.files) files += (files.empty() ? "" : ", ") + printable(f);
    if (r.outcome == WriteRecovery::Outcome::Completed)
      spdlog::warn("an interrupted run had written part of {}: completed it (journal {})", files, printable(r.journal));
    else if (r.outcome == WriteRecovery::Outcome::RolledBack)
      spdlog::warn("an interrupted run had written part of {}: rolled it back (journal {})", files, printable(r.journal));
    else
      spdlog::warn("an interrupted run had written part of {}: {} (journal {})", files, printable(r.detail), printable(r.journal));
  }
  if (auto made = create_parent_dirs(outputs); !made) {
    print_error(made.error());
    return kWriteFailed;
  }
  if (auto ok = write_files_atomic(writes); !ok) {
    print_error(ok.error());
    return kWriteFailed;
  }
  return kOk;
}

}  // namespace rig2d::cli
