// SPDX-License-Identifier: Apache-2.0
// Auto-rig time per sprite as a ratio to decoding the same PNG, for the engine's pipeline and the CLI's
// default one. Usage: bench_autorig [samples_dir] [sidecar_dir] [jobs|files|figures]: the PNGs of samples_dir
// (default ./samples) plus generated 256^2, 1024^2 and 2048^2 sprites. Median of repeated runs. The third
// argument runs one part: jobs, the -j scaling; files, the whole files (generated figures and
// sidecar_dir); figures, only writes the -j folder into sidecar_dir (to profile the CLI on it).
// Then the whole per-file path rig2d-autorig -q runs (autorig_file: read, decode, rig, write the text
// and check it reads back), in memory, per sprite and per folder, as a ratio to the decode floor
// (reading and decoding the same file with the same decoder, nothing else): over generated
// real-art-like figures at 64-1024 px, and over the PNGs of [sidecar_dir] (default: samples_dir; each
// PNG needs its .png.meta.json). Times are thread CPU time (the machine is shared), medians.
// Last, -j scaling over a folder of 48 equal 256 px figures on 1 and 2 threads (wall clock): autorig_file
// in process, then the rig2d-autorig CLI itself, each round next to a control run of the decode floor
// on 1 and 2 threads that says whether the machine was idle during that round.
#include <sys/resource.h>
#include <unistd.h>
#include <time.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <string>
#include <thread>
#include <vector>

#include "rig2d/image/png.h"
#include "rig2d/io/files.h"
#include "rig2d/autorig/autorig.h"
#include "rig2d/autorig/autorig_file.h"
#include "rig2d/rig/rig_json.h"

using namespace rig2d;
namespace fs = std::filesystem;

namespace {

double thread_cpu_ms() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) * 1e3 + static_cast<double>(ts.tv_nsec) * 1e-6;
}

double median_ms(const std::function<void()>& work, int min_runs = 7, double min_total_ms = 200) {
  std::vector<double> times;
  double total = 0;
  while (static_cast<int>(times.size()) < min_runs || total < min_total_ms) {
    const double t0 = thread_cpu_ms();
    work();
    const double ms = thread_cpu_ms() - t0;
    times.push_back(ms);
    total += ms;
    if (times.size() >= 1000) break;
  }
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}

// An antialiased-looking disk with a hole: opaque coverage on roughly half the pixels.
std::string generated_png(int side) {
  Image img;
  img.width = img.height = side;
  img.rgba.assign(std::size_t(side) * std::size_t(side) * 4, 0);
  const double c = side / 2.0, r_out = side * 0.45, r_in = side * 0.15;
  for (int y = 0; y < side; ++y) {
    for (int x = 0; x < side; ++x) {
      const double d = std::hypot(x + 0.5 - c, y + 0.5 - c);
      const std::size_t o = (std::size_t(y) * std::size_t(side) + std::size_t(x)) * 4;
      img.rgba[o] = static_cast<std::uint8_t>(x * 255 / side);
      img.rgba[o + 1] = static_cast<std::uint8_t>(y * 255 / side);
      img.rgba[o + 2] = 128;
      img.rgba[o + 3] = d <= r_out && d >= r_in ? 255 : 0;
    }
  }
  return *encode_png(img);
}

// A real-art-like figure: an elliptic body, a slanted arm and a leg, antialiased edges, a colour
// gradient (so the PNG compresses like art, not like a flat fill), on a transparent background.
Image figure_image(int side) {
  Image img;
  img.width = side;
  img.height = side + side / 4;
  img.rgba.assign(std::size_t(img.width) * std::size_t(img.height) * 4, 0);
  const double s = side / 96.0;
  auto cover = [](double d) { return d <= 0 ? 1.0 : d >= 1 ? 0.0 : 1 - d; };
  for (int y = 0; y < img.height; ++y) {
    for (int x = 0; x < img.width; ++x) {
      const double px = (x + 0.5) / s, py = (y + 0.5) / s;
      const double body = (std::hypot((px - 48) / 26, (py - 50) / 34) * 26 - 26) * s;
      const double arm = std::max(std::fabs(py - 0.6 * px - 30) / 1.17 - 5, px - 90) * s;
      const double leg = std::max(std::fabs(px - 40) - 7, std::fabs(py - 100) - 16) * s;
      const double a = std::max({cover(body), px > 40 ? cover(arm) : 0.0, cover(leg)});
      const std::size_t o = (std::size_t(y) * std::size_t(img.width) + std::size_t(x)) * 4;
      img.rgba[o] = static_cast<std::uint8_t>(std::lround(120 + 100 * std::sin(px * 0.21)));
      img.rgba[o + 1] = static_cast<std::uint8_t>(std::lround(120 + 100 * std::cos(py * 0.17)));
      img.rgba[o + 2] = static_cast<std::uint8_t>((x * 7 + y * 3) & 63);
      img.rgba[o + 3] = static_cast<std::uint8_t>(std::lround(255 * a));
    }
  }
  return img;
}

// Writes figures of the given sides (and their sidecars) into `dir`; `copies` of each.
void write_figures(const fs::path& dir, const std::vector<int>& sides, int copies) {
  fs::create_directories(dir);
  int n = 0;
  for (const int side : sides) {
    const std::string png = *encode_png(figure_image(side));
    for (int c = 0; c < copies; ++c, ++n) {
      char name[64];
      std::snprintf(name, sizeof name, "figure-%04dpx-%02d.png", side, c);
      (void)write_file_atomic((dir / name).string(), png);
      char meta[160];
      std::snprintf(meta, sizeof meta, "{\"version\": 2, \"id\": \"00000000-0000-4000-8000-%012d\", \"type\": \"2d\"}", n + 1);
      (void)write_file_atomic((dir / name).string() + ".meta.json", meta);
    }
  }
}

}  // namespace

// What rig2d-autorig -q does per sprite (statistics off, as -q leaves them), without writing files.
template <typename Options>
void quiet(Options& o) {
  if constexpr (requires { o.coverage_stats; }) o.coverage_stats = false;
}

std::vector<fs::path> sprites_with_sidecars(const std::string& dir) {
  std::vector<fs::path> files;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    if (entry.path().extension() == ".png" && fs::exists(entry.path().string() + ".meta.json")) files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

// The decode floor: the file read and decoded by the same decoder autorig_file uses, nothing else.
void decode_floor(const std::string& png_path) {
  auto bytes = read_file(png_path, 1u << 30);
  if (bytes) (void)decode_png(*bytes, png_path);
}

// Every file this run writes lives in a folder of its own, so runs started side by side do not
// overwrite each other's sprites and rigs.
const fs::path& scratch_dir() {
  static const fs::path dir = [] {
    fs::path d = fs::temp_directory_path() / ("bench_autorig." + std::to_string(::getpid()));
    fs::create_directories(d);
    return d;
  }();
  return dir;
}

AutorigFileRequest request_for(const fs::path& p) {
  AutorigFileRequest req;
  req.png_path = p.string();
  req.rig_path = (scratch_dir() / "absent.rig2d.json").string();
  return req;
}

// Where default mode's time goes, in thread-CPU ms summed over a folder, split inside the very runs the
// whole-file median comes from: of the run with the median CPU time, autorig_file's own wall-clock
// timings (read + decode, autorig_image's stages, verify + text + read-back check), each scaled by that
// run's CPU / wall so the parts are CPU ms; the rest is what no timer covers (sidecar, ids, between the
// stages). The parts are disjoint intervals inside the run, so they and the rest add up to its CPU time
// and none is negative. write_rig alone is timed apart and reported beside them, not subtracted.
struct Stages {
  double cpu = 0, wall = 0;  // the run's thread CPU and wall-clock ms
  double read_decode = 0, coverage = 0, bones = 0, mesh = 0, weights = 0, checks = 0, rest = 0;
  double text = 0;  // write_rig alone, separate runs
};

Stages& operator+=(Stages& a, const Stages& b) {
  a.cpu += b.cpu, a.wall += b.wall, a.read_decode += b.read_decode, a.coverage += b.coverage;
  a.bones += b.bones, a.mesh += b.mesh, a.weights += b.weights, a.checks += b.checks, a.rest += b.rest;
  a.text += b.text;
  return a;
}

// autorig_file run as median_ms runs it (same counts); returns the split of the median-CPU run, whose
// cpu is exactly the median median_ms would give.
Stages default_file_split(const AutorigFileRequest& req, const AutorigOptions& o) {
  std::vector<Stages> runs;
  double total = 0;
  while (runs.size() < 7 || total < 200) {
    const auto w0 = std::chrono::steady_clock::now();
    const double t0 = thread_cpu_ms();
    auto r = autorig_file(req, o);
    Stages s;
    s.cpu = thread_cpu_ms() - t0;
    s.wall = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - w0).count();
    if (r) {
      const AutorigStats& st = r->stats;
      const double k = s.wall > 0 ? s.cpu / s.wall : 0;  // wall-clock parts to CPU ms
      s.read_decode = k * (r->read_ms + r->decode_ms), s.coverage = k * st.coverage_ms, s.bones = k * st.bones_ms;
      s.mesh = k * st.mesh_ms, s.weights = k * st.weights_ms, s.checks = k * r->verify_ms;
    }
    s.rest = std::max(0.0, s.cpu - s.read_decode - s.coverage - s.bones - s.mesh - s.weights - s.checks);
    runs.push_back(s);
    total += s.cpu;
    if (runs.size() >= 1000) break;
  }
  std::sort(runs.begin(), runs.end(), [](const Stages& a, const Stages& b) { return a.cpu < b.cpu; });
  return runs[runs.size() / 2];
}

void print_stages(const Stages& s, double floor) {
  const double parts = s.read_decode + s.coverage + s.bones + s.mesh + s.weights + s.checks + s.rest;
  std::printf(
      "default x floor, split inside its median runs: read + decode %.2f, and beyond it coverage %.2f, bones %.2f, "
      "outline mesh %.2f, heat weights %.2f, verify + the rig's text + read-back check %.2f, the rest (sidecar, ids, "
      "between stages) %.2f; sum %.2f = the default's x floor (autorig_file's wall-clock timings of those runs x their "
      "CPU/wall, %.2f over the folder); the rig's text alone (write_rig, timed apart) %.2f\n",
      s.read_decode / floor, s.coverage / floor, s.bones / floor, s.mesh / floor, s.weights / floor, s.checks / floor,
      s.rest / floor, parts / floor, s.cpu / s.wall, s.text / floor);
}

void whole_files(const std::string& dir, AutorigOptions engine, AutorigOptions cli_default) {
  quiet(engine);
  quiet(cli_default);
  const std::vector<fs::path> files = sprites_with_sidecars(dir);
  if (files.empty()) return;
  std::printf("\nwhole files (autorig_file, as rig2d-autorig -q) against the decode floor, %s\n", dir.c_str());
  std::printf("%-44s %10s %9s | %9s %6s | %9s %6s\n", "sprite", "size", "floor ms", "engine", "ratio", "default",
              "ratio");
  double floor = 0, sum[2] = {0, 0};
  Stages stages;
  int over = 0;
  for (const fs::path& p : files) {
    const AutorigFileRequest req = request_for(p);
    const double f = median_ms([&] { decode_floor(req.png_path); });
    const double engine_ms = median_ms([&] { (void)autorig_file(req, engine); });
    Stages split = default_file_split(req, cli_default);
    const double t[2] = {engine_ms, split.cpu};
    auto bytes = read_file(req.png_path, 1u << 30);
    auto image = decode_png(*bytes, req.png_path);
    if (auto rig = autorig_image(*image, cli_default)) split.text = median_ms([&] { (void)write_rig(*rig); });
    char size[32];
    std::snprintf(size, sizeof size, "%dx%d", image->width, image->height);
    const bool big = std::max(image->width, image->height) >= 64;
    const bool bad = big && t[1] / f > 3;
    over += bad;
    std::printf("%-44.44s %10s %9.3f | %9.3f %6.2f | %9.3f %6.2f%s\n", p.filename().string().c_str(), size, f, t[0],
                t[0] / f, t[1], t[1] / f, bad ? "  (>= 64 px, above 3x)" : "");
    floor += f;
    sum[0] += t[0];
    sum[1] += t[1];
    stages += split;
  }
  std::printf("folder: %zu sprites, floor %.2f ms; engine (grid+joint, chain) %.2f ms = %.2fx; default (outline+heat, "
              "shape) %.2f ms = %.2fx; %d sprites >= 64 px above 3x their floor (default)\n",
              files.size(), floor, sum[0], sum[0] / floor, sum[1], sum[1] / floor, over);
  print_stages(stages, floor);
}

// Wall-clock ms to run `work` on every file `passes` times, split over `threads` threads that take the
// next file as they finish one (as rig2d-autorig's batch does).
double folder_wall_ms(const std::vector<fs::path>& files, int threads, int passes,
                      const std::function<void(const fs::path&)>& work) {
  const auto t0 = std::chrono::steady_clock::now();
  std::atomic<std::size_t> next{0};
  const std::size_t total = files.size() * static_cast<std::size_t>(passes);
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t) {
    pool.emplace_back([&] {
      for (std::size_t k = next++; k < total; k = next++) work(files[k % files.size()]);
    });
  }
  for (std::thread& th : pool) th.join();
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

struct Timing {
  double wall_ms = 0;
  double cpu_ms = 0;  // CPU time of the work on all its threads (or child processes)
};

double process_cpu_ms() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) * 1e3 + static_cast<double>(ts.tv_nsec) * 1e-6;
}

double children_cpu_ms() {
  rusage u{};
  getrusage(RUSAGE_CHILDREN, &u);
  auto ms = [](const timeval& t) {
    return static_cast<double>(t.tv_sec) * 1e3 + static_cast<double>(t.tv_usec) * 1e-3;
  };
  return ms(u.ru_utime) + ms(u.ru_stime);
}

double median_of(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v[v.size() / 2];
}

// One -j scaling figure: `run(threads)` timed on 1 and 2 threads, each round next to a control (the
// decode floor on 1 and 2 threads, which scales ~2x on an idle 2-core machine) run just before it, so
// every round says whether the machine was idle while it ran. Prints each round; the verdict is the
// median over the idle rounds, with the median over all rounds beside it. The CPU time of -j2 over
// -j1's says, load or not, whether two at once cost extra work (contention); 1.00 means none.
void scaling_rounds(const char* label, int rounds, const std::function<Timing(int)>& run,
                    const std::function<double(int)>& control) {
  std::vector<double> all, idle, cpu;
  std::printf("\n-j scaling, %s (wall clock):\n", label);
  for (int r = 0; r < rounds; ++r) {
    const double c1 = control(1);
    const Timing r1 = run(1);
    const double c2 = control(2);
    const Timing r2 = run(2);
    const double ratio = r1.wall_ms / r2.wall_ms, control_ratio = c1 / c2;
    const bool was_idle = control_ratio >= 1.8;
    all.push_back(ratio);
    cpu.push_back(r2.cpu_ms / r1.cpu_ms);
    if (was_idle) idle.push_back(ratio);
    std::printf(
        "  round %d: -j1 %8.1f ms, -j2 %8.1f ms = %.2fx (CPU -j2/-j1 %.2f) | control -j1 %7.1f ms, -j2 %7.1f ms "
        "= %.2fx%s\n",
        r + 1, r1.wall_ms, r2.wall_ms, ratio, cpu.back(), c1, c2, control_ratio, was_idle ? "" : "  (not idle)");
  }
  if (idle.empty()) {
    std::printf(
        "  %s: no idle round (control < 1.8x in all %d): -j2 = %.2fx -j1 (median of all rounds) says "
        "nothing about the code; CPU -j2/-j1 %.2f\n",
        label, rounds, median_of(all), median_of(cpu));
  } else {
    std::printf("  %s: -j2 = %.2fx -j1 (median of %zu idle rounds of %d; all rounds: %.2fx); CPU -j2/-j1 %.2f\n", label,
                median_of(idle), idle.size(), rounds, median_of(all), median_of(cpu));
  }
}

// -j2 against -j1 over a folder of equal sprites: in process (autorig_file, as the batch calls it)
// and the whole rig2d-autorig CLI (process start, planning, stamps, writes). Each run is a few hundred
// ms of work, so thread and process start-up do not dominate it.
void jobs_scaling(const std::string& dir, const AutorigOptions& options, const char* label, const char* cli_flags) {
  const std::vector<fs::path> files = sprites_with_sidecars(dir);
  if (files.empty()) return;
  AutorigOptions o = options;
  quiet(o);
  auto rig = [&](const fs::path& p) { (void)autorig_file(request_for(p), o); };
  auto floor = [&](const fs::path& p) { decode_floor(p.string()); };
  // Passes of the folder so a -j1 run takes >= ~300 ms (the floor's passes likewise).
  auto passes_for = [&](const std::function<void(const fs::path&)>& work) {
    const double once = folder_wall_ms(files, 1, 1, work);
    return std::max(1, static_cast<int>(std::ceil(300.0 / std::max(once, 1e-3))));
  };
  const int rig_passes = passes_for(rig), floor_passes = passes_for(floor);
  auto control = [&](int threads) { return folder_wall_ms(files, threads, floor_passes, floor); };
  char what[160];
  std::snprintf(what, sizeof what, "%s, in process, %zu equal sprites x %d passes", label, files.size(), rig_passes);
  scaling_rounds(
      what, 5,
      [&](int threads) {
        const double cpu0 = process_cpu_ms();
        const double wall = folder_wall_ms(files, threads, rig_passes, rig);
        return Timing{wall, process_cpu_ms() - cpu0};
      },
      control);
#ifdef RIG2D_AUTORIG_CLI
  const fs::path out = fs::path(dir).parent_path() / "bench_autorig_cli_out";
  auto cli = [&](int threads) {
    const std::string cmd = std::string("'") + RIG2D_AUTORIG_CLI + "' -q --force " + cli_flags + " -j" +
                            std::to_string(threads) + " '" + dir + "' -o '" + out.string() + "'";
    const double cpu0 = children_cpu_ms();
    const auto t0 = std::chrono::steady_clock::now();
    if (std::system(cmd.c_str()) != 0) std::printf("  (%s failed)\n", cmd.c_str());
    const double wall = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    return Timing{wall, children_cpu_ms() - cpu0};
  };
  std::snprintf(what, sizeof what, "%s, rig2d-autorig -q --force %s, %zu equal sprites", label, cli_flags,
                files.size());
  scaling_rounds(what, 5, cli, control);
  fs::remove_all(out);
#else
  (void)cli_flags;
#endif
}

int main(int argc, char** argv) {
  struct RemoveScratch {
    ~RemoveScratch() {
      std::error_code ignored;
      fs::remove_all(scratch_dir(), ignored);
    }
  } remove_scratch;
  const std::string dir = argc > 1 ? argv[1] : "samples";
  std::vector<std::pair<std::string, std::string>> inputs;  // name, PNG bytes
  std::error_code ec;
  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    if (entry.path().extension() == ".png") files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  for (const fs::path& p : files) {
    auto bytes = read_file(p.string(), 1u << 30);
    if (bytes) inputs.emplace_back(p.filename().string(), std::move(*bytes));
  }
  for (const int side : {256, 1024, 2048}) {
    inputs.emplace_back("ring-" + std::to_string(side) + "px", generated_png(side));
  }

  // Two pipelines: the engine's (grid + nearest-joint, what --mesh grid --weights joint runs) and
  // rig2d-autorig's default (outline mesh + heat weights).
  AutorigOptions engine;
  engine.mesh = MeshMode::Grid;
  engine.weights = WeightsMode::Joint;
  AutorigOptions cli_default;
  cli_default.mesh = MeshMode::Outline;
  cli_default.weights = WeightsMode::Heat;
  cli_default.skeleton = SkeletonMode::Shape;
  cli_default.detail = MeshDetail::Medium;
  engine.skeleton = SkeletonMode::Chain;
  for (AutorigOptions* o : {&engine, &cli_default}) o->sprite = "00000000-0000-4000-8000-000000000000";

  const fs::path equal = scratch_dir() / "equal";
  auto scaling = [&] {
    fs::remove_all(equal);
    write_figures(equal, {256}, 48);
    jobs_scaling(equal.string(), engine, "engine", "--mesh grid --weights joint --skeleton chain");
    jobs_scaling(equal.string(), cli_default, "default", "");
    fs::remove_all(equal);
  };
  if (argc > 3 && std::string(argv[3]) == "jobs") {  // only the -j scaling
    scaling();
    return 0;
  }
  if (argc > 3 && std::string(argv[3]) == "figures") {  // only write the -j folder into sidecar_dir (for profiling)
    write_figures(argv[2], {256}, 48);
    return 0;
  }
  if (argc > 3 && std::string(argv[3]) == "files") {  // only the whole files: generated figures, sidecar_dir
    const fs::path figures = scratch_dir() / "figures";
    fs::remove_all(figures);
    write_figures(figures, {64, 128, 256, 512, 1024}, 1);
    whole_files(figures.string(), engine, cli_default);
    fs::remove_all(figures);
    whole_files(argv[2], engine, cli_default);
    return 0;
  }

  std::printf("%-16s %10s %10s | %10s %7s %7s | %10s %7s %7s\n", "sprite", "size", "decode ms", "grid+joint",
              "ratio", "+write", "outl+heat", "ratio", "+write");
  double sum_engine = 0, sum_default = 0;
  int n = 0;
  for (const auto& [name, bytes] : inputs) {
    auto image = decode_png(bytes, name);
    if (!image) {
      std::printf("%-16s %s\n", name.c_str(), format_error(image.error()).c_str());
      continue;
    }
    const double decode = median_ms([&] { (void)decode_png(bytes, name); });
    double rig[2], rig_write[2];
    int k = 0;
    for (const AutorigOptions* o : {&engine, &cli_default}) {
      rig[k] = median_ms([&] { (void)autorig_image(*image, *o); });
      rig_write[k] = median_ms([&] {
        auto r = autorig_image(*image, *o);
        if (r) (void)write_rig(*r);
      });
      ++k;
    }
    char size[32];
    std::snprintf(size, sizeof size, "%dx%d", image->width, image->height);
    std::printf("%-16s %10s %10.3f | %10.3f %7.2f %7.2f | %10.3f %7.2f %7.2f\n", name.c_str(), size, decode, rig[0],
                rig[0] / decode, rig_write[0] / decode, rig[1], rig[1] / decode, rig_write[1] / decode);
    sum_engine += rig[0] / decode;
    sum_default += rig[1] / decode;
    ++n;
  }
  std::printf("mean ratio to decode: grid+joint %.2f, outline+heat %.2f (autorig from a decoded image; "
              "+write adds write_rig)\n",
              sum_engine / n, sum_default / n);
  const fs::path generated = scratch_dir() / "figures";
  fs::remove_all(generated);
  write_figures(generated, {64, 128, 256, 512, 1024}, 1);
  whole_files(generated.string(), engine, cli_default);
  whole_files(argc > 2 ? argv[2] : dir, engine, cli_default);
  scaling();
  fs::remove_all(generated);
  return 0;
}
