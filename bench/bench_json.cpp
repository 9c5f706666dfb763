// SPDX-License-Identifier: Apache-2.0
// Rig JSON throughput on a large generated rig: the normalizing reader, the strict reader and the
// writer, each against plain nlohmann work on the same text (parse, dump) so the ratios survive a
// change of machine. Usage: bench_json [vertices per part, default 100000] [repeats, default 5].
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>

#include "json/json_util.h"
#include "rig2d/rig/rig_json.h"

using namespace rig2d;

namespace {

// A deterministic rig: a bone chain and 4 parts of grid-like meshes with 2-influence weights.
Rig make_rig(std::size_t verts_per_part) {
  Rig rig;
  rig.id = "0f8fad5b-d9cb-469f-a165-70867728950e";
  rig.version = 2;
  rig.layout = Layout::V2;
  constexpr int kBones = 64;
  for (int b = 0; b < kBones; ++b) {
    rig.bones.push_back({"bone" + std::to_string(b), b - 1, b == 0 ? 0.0 : 7.25, 0.5 * b, 0.01 * b, b % 9 == 0});
  }
  for (int p = 0; p < 4; ++p) {
    Part part;
    part.name = "part" + std::to_string(p);
    part.sprite = "3ab58b97-ab98-26c0-162f-c87db96331fe";
    part.order = p;
    const auto side = static_cast<std::size_t>(std::sqrt(static_cast<double>(verts_per_part))) + 1;
    for (std::size_t v = 0; v < verts_per_part; ++v) {
      const double x = static_cast<double>(v % side), y = static_cast<double>(v / side);
      part.mesh.verts.push_back({x * 1.37 - 64.5, y * 0.93 - 32.25});
      part.mesh.uvs.push_back({x / static_cast<double>(side), y / static_cast<double>(side)});
      const auto b0 = static_cast<std::uint32_t>(v % kBones);
      const double w = 0.25 + 0.5 * static_cast<double>(v % 97) / 97.0;
      part.skin_indices.insert(part.skin_indices.end(), {b0, (b0 + 1) % kBones, 0, 0});
      part.skin_weights.insert(part.skin_weights.end(), {w, 1 - w, 0, 0});
    }
    for (std::size_t v = 0; v + side + 1 < verts_per_part; v += 2) {
      part.mesh.tris.insert(part.mesh.tris.end(), {static_cast<std::uint32_t>(v), static_cast<std::uint32_t>(v + side),
                                                   static_cast<std::uint32_t>(v + 1)});
    }
    rig.parts.push_back(std::move(part));
  }
  return rig;
}

// Best wall time of `repeats` runs, seconds.
double best_of(int repeats, const std::function<void()>& work) {
  double best = 1e300;
  for (int r = 0; r < repeats; ++r) {
    const auto t0 = std::chrono::steady_clock::now();
    work();
    const auto t1 = std::chrono::steady_clock::now();
    best = std::min(best, std::chrono::duration<double>(t1 - t0).count());
  }
  return best;
}

}  // namespace

int main(int argc, char** argv) {
  const std::size_t verts = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 100000;
  const int repeats = argc > 2 ? std::atoi(argv[2]) : 5;
  const Rig rig = make_rig(verts);
  const std::string text = write_rig(rig);
  const double mb = static_cast<double>(text.size()) / (1024.0 * 1024.0);
  std::printf("rig: %zu bones, %zu parts x %zu verts, %.1f MiB of JSON, best of %d\n", rig.bones.size(),
              rig.parts.size(), verts, mb, repeats);

  std::size_t sink = 0;  // keeps the work observable
  const double t_parse = best_of(repeats, [&] { sink += detail::Json::parse(text).size(); });
  const double t_normalized = best_of(repeats, [&] {
    auto r = read_rig_normalized(text, "bench.rig2d.json");
    sink += r ? r->parts.size() : 0;
  });
  const double t_strict = best_of(repeats, [&] {
    const StrictRig r = read_rig_strict(text, "bench.rig2d.json");
    sink += r.rig ? r.rig->parts.size() : 1000 + r.diagnostics.size();
  });
  const detail::Json parsed = detail::Json::parse(text);
  const double t_dump = best_of(repeats, [&] { sink += parsed.dump(2).size(); });
  const double t_write = best_of(repeats, [&] { sink += write_rig(rig).size(); });

  // A strict read that has to report (and locate) many findings: every weight sum is off.
  Rig off = rig;
  for (Part& p : off.parts) {
    for (std::size_t k = 0; k < p.skin_weights.size(); k += kSlotsPerVertex) p.skin_weights[k] += 0.01;
  }
  const std::string off_text = write_rig(off);
  std::size_t findings = 0;
  const double t_findings = best_of(repeats, [&] { findings = read_rig_strict(off_text, "off.rig2d.json").diagnostics.size(); });

  const auto line = [&](const char* what, double t, double base, const char* base_name) {
    std::printf("  %-34s %8.1f ms  %7.1f MiB/s  %5.2fx %s\n", what, t * 1e3, mb / t, t / base, base_name);
  };
  std::printf("read (ratios: time / nlohmann parse of the same text)\n");
  line("nlohmann::ordered_json::parse", t_parse, t_parse, "parse");
  line("read_rig_normalized", t_normalized, t_parse, "parse");
  line("read_rig_strict (clean)", t_strict, t_parse, "parse");
  char label[64];
  std::snprintf(label, sizeof label, "read_rig_strict (%zu findings)", findings);
  line(label, t_findings, t_parse, "parse");
  std::printf("write (ratios: time / nlohmann dump(2) of the parsed text)\n");
  line("nlohmann dump(2)", t_dump, t_dump, "dump");
  line("write_rig", t_write, t_dump, "dump");
  std::printf("(checksum %zu)\n", sink);
  return 0;
}
