// SPDX-License-Identifier: Apache-2.0
// Auto-rig time per sprite as a ratio to decoding the same PNG, for the engine's pipeline and the CLI's
// default one. Usage: bench_autorig [samples_dir] [sidecar_dir]
// (default ./samples) plus generated 256^2, 1024^2 and 2048^2 sprites. Median of repeated runs.
// Then the whole per-file path rig2d-autorig -q runs (autorig_file: read, decode, rig, write the text
// and check it reads back), in memory, over the PNGs of [sidecar_dir] (default: samples_dir; each PNG
// needs its .png.meta.json), as a ratio to reading and decoding the same files.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "rig2d/image/png.h"
#include "rig2d/io/files.h"
#include "rig2d/pipeline/autorig_file.h"
#include "rig2d/pipeline/autorig.h"
#include "rig2d/rig/rig_json.h"

using namespace rig2d;
namespace fs = std::filesystem;

namespace {

double median_ms(const std::function<void()>& work, int min_runs = 7, double min_total_ms = 200) {
  std::vector<double> times;
  double total = 0;
  while (static_cast<int>(times.size()) < min_runs || total < min_total_ms) {
    const auto t0 = std::chrono::steady_clock::now();
    work();
    const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
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

}  // namespace

// What rig2d-autorig -q does per sprite (statistics off, as -q leaves them), without writing files.
template <typename Options>
void quiet(Options& o) {
  if constexpr (requires { o.coverage_stats; }) o.coverage_stats = false;
}

void whole_files(const std::string& dir, AutorigOptions engine, AutorigOptions cli_default) {
  quiet(engine);
  quiet(cli_default);
  std::vector<fs::path> files;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    if (entry.path().extension() == ".png" && fs::exists(entry.path().string() + ".meta.json")) files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  if (files.empty()) return;
  double floor = 0, sum[2] = {0, 0};
  for (const fs::path& p : files) {
    AutorigFileRequest req;
    req.png_path = p.string();
    req.rig_path = (fs::temp_directory_path() / "bench_autorig_absent.rig2d.json").string();
    floor += median_ms([&] {
      auto bytes = read_file(req.png_path, 1u << 30);
      if (bytes) (void)decode_png(*bytes, req.png_path);
    });
    int k = 0;
    for (const AutorigOptions* o : {&engine, &cli_default}) sum[k++] += median_ms([&] { (void)autorig_file(req, *o); });
  }
  std::printf("\nwhole files, %zu sprites in %s: read+decode %.2f ms; autorig_file grid+joint %.2f ms = %.2fx, "
              "outline+heat %.2f ms = %.2fx\n",
              files.size(), dir.c_str(), floor, sum[0], sum[0] / floor, sum[1], sum[1] / floor);
}

int main(int argc, char** argv) {
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
  for (AutorigOptions* o : {&engine, &cli_default}) o->sprite = "00000000-0000-4000-8000-000000000000";

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
  whole_files(argc > 2 ? argv[2] : dir, engine, cli_default);
  return 0;
}
