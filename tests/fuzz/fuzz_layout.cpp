// SPDX-License-Identifier: Apache-2.0
// Layout rigs (rig2d-autorig --layout) on any bytes: the bytes draw up to four parts (size, place on
// a small canvas, alpha) and pick the options, then autorig_parts rigs them. Whatever the parts (off
// the canvas, overlapping, empty, one pixel), it returns an error with a code or a v2 rig with one
// part per input part, each passing verify_rig.
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "rig2d/autorig/autorig.h"
#include "rig2d/autorig/layout.h"

namespace {

// Reads the fuzzer's bytes in order; zeros once they run out.
struct Bytes {
  const std::uint8_t* data;
  std::size_t size;
  std::size_t at = 0;
  std::uint8_t next() { return at < size ? data[at++] : 0; }
};

// A part of 1..32 x 1..32 px: its pixels' alpha from the bytes (a run-length pattern, so a few
// bytes draw solid shapes as well as noise).
rig2d::PlacedPart draw_part(Bytes& in, int index) {
  rig2d::PlacedPart part;
  part.name = "part" + std::to_string(index);
  part.sprite = "00000000-0000-0000-0000-00000000000" + std::to_string(index);
  part.image.width = 1 + in.next() % 32;
  part.image.height = 1 + in.next() % 32;
  part.x = static_cast<int>(in.next() % 80) - 16;  // may lie partly or wholly off the canvas
  part.y = static_cast<int>(in.next() % 80) - 16;
  part.order = static_cast<double>(in.next() % 5);
  const std::size_t pixels = static_cast<std::size_t>(part.image.width) * static_cast<std::size_t>(part.image.height);
  part.image.rgba.assign(4 * pixels, 255);
  std::size_t p = 0;
  while (p < pixels) {
    const std::uint8_t run = in.next();
    const std::size_t length = 1 + (run & 0x3f);
    const std::uint8_t alpha = (run & 0x80) ? 255 : (run & 0x40) ? 0 : in.next();
    for (std::size_t k = 0; k < length && p < pixels; ++k, ++p) part.image.rgba[4 * p + 3] = alpha;
    if (in.at >= in.size) break;  // the rest stays opaque
  }
  return part;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 2) return 0;
  Bytes in{data, size};
  const std::uint8_t knobs = in.next();
  const int count = 1 + (knobs & 3);
  const int width = 1 + in.next() % 64, height = 1 + in.next() % 64;
  std::vector<rig2d::PlacedPart> parts;
  for (int i = 0; i < count; ++i) parts.push_back(draw_part(in, i));

  rig2d::AutorigOptions options;
  options.mesh = rig2d::MeshMode::Outline;  // the only mesher for layouts
  options.alpha_threshold = (knobs & 4) ? 8 : 128;
  options.weights = (knobs & 8) ? rig2d::WeightsMode::Joint : rig2d::WeightsMode::Heat;
  if (knobs & 16) {
    options.skeleton = rig2d::SkeletonMode::Chain;
    options.bone_count = 2 + (knobs >> 5) % 4;
  } else {
    options.skeleton = rig2d::SkeletonMode::Shape;
  }
  rig2d::LayoutStats stats;
  auto rig = rig2d::autorig_parts(parts, width, height, options, &stats);
  if (!rig) {
    if (rig.error().code.empty()) std::abort();
    return 0;
  }
  // Each part passes verify_rig as a rig of its own (as rig2d-autorig checks it before writing).
  for (const rig2d::Part& part : rig->parts) {
    rig2d::Rig one;
    one.bones = rig->bones;
    one.parts.push_back(part);
    if (!rig2d::verify_rig(one)) std::abort();
  }
  if (rig->layout != rig2d::Layout::V2 || rig->parts.size() != parts.size()) std::abort();
  if (stats.parts.size() != parts.size()) std::abort();
  for (const rig2d::Diagnostic& d : stats.warnings) {
    if (d.code.empty()) std::abort();
  }
  return 0;
}
