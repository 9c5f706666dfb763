// SPDX-License-Identifier: Apache-2.0
// Both rig readers on any bytes: the normalizing reader accepts any JSON and its output writes and reads
// back; the strict reader never crashes, and a rig it accepts round-trips losslessly. The deformation
// check runs on whatever the normalizing reader makes of the bytes (mismatched arrays, far-away or
// degenerate vertices) and keeps its fractions in [0, 1].
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "rig2d/quality/deform_check.h"
#include "rig2d/rig/rig_json.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  auto rig = rig2d::read_rig_normalized(text, "fuzz.rig2d.json");
  if (rig) {
    const std::string written = rig2d::write_rig(*rig);
    auto again = rig2d::read_rig_normalized(written, "again.rig2d.json");
    if (!again) std::abort();
    if (again->bones.size() != rig->bones.size() || again->parts.size() != rig->parts.size()) std::abort();
    std::size_t verts = 0;
    for (std::size_t p = 0; p < rig->parts.size(); ++p) {
      if (again->parts[p].mesh.verts.size() != rig->parts[p].mesh.verts.size()) std::abort();
      verts += rig->parts[p].mesh.verts.size();
    }
    if (rig->bones.size() <= 32 && verts <= 4096) {  // keeps one fuzz iteration short
      const rig2d::DeformReport d = rig2d::check_deformation(*rig, {});
      const auto in_unit = [](double f) { return f >= 0 && f <= 1; };
      if (!in_unit(d.stats.flip_fraction) || !in_unit(d.stats.leak_fraction) || !in_unit(d.stats.rigid_fraction)) {
        std::abort();
      }
    }
  }
  auto strict = rig2d::read_rig_strict(text, "fuzz.rig2d.json");
  if (strict.rig) {
    const std::string written = rig2d::write_rig(*strict.rig);
    auto again = rig2d::read_rig_strict(written, "again.rig2d.json");
    if (!again.rig || rig2d::write_rig(*again.rig) != written) std::abort();
  }
  return 0;
}
