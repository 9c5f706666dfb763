// SPDX-License-Identifier: Apache-2.0
// Auto-rig time per sprite as a ratio to decoding the same PNG. Usage: bench_autorig [samples_dir]
// (default ./samples) plus generated 256^2, 1024^2 and 2048^2 sprites. Median of repeated runs.
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

  std::printf("%-18s %10s %10s %12s %12s %8s %8s\n", "sprite", "size", "decode ms", "autorig ms", "+write ms",
              "ratio", "+write");
  double sum_ratio = 0;
  for (const auto& [name, bytes] : inputs) {
    auto image = decode_png(bytes, name);
    if (!image) {
      std::printf("%-18s %s\n", name.c_str(), format_error(image.error()).c_str());
      continue;
    }
    AutorigOptions options;
    options.sprite = "00000000-0000-4000-8000-000000000000";
    const double decode = median_ms([&] { (void)decode_png(bytes, name); });
    const double rig = median_ms([&] { (void)autorig_image(*image, options); });
    const double rig_write = median_ms([&] {
      auto r = autorig_image(*image, options);
      if (r) (void)write_rig(*r);
    });
    char size[32];
    std::snprintf(size, sizeof size, "%dx%d", image->width, image->height);
    std::printf("%-18s %10s %10.3f %12.3f %12.3f %8.2f %8.2f\n", name.c_str(), size, decode, rig, rig_write,
                rig / decode, rig_write / decode);
    sum_ratio += rig / decode;
  }
  std::printf("mean autorig/decode ratio: %.2f (autorig = coverage + grid + bones + weights, from a decoded image)\n",
              sum_ratio / static_cast<double>(inputs.size()));
  return 0;
}
