// SPDX-License-Identifier: Apache-2.0
// Both rig readers on any bytes: the normalizing reader accepts any JSON and its output writes and reads
// back; the strict reader never crashes, and a rig it accepts round-trips losslessly. The deformation
// check runs on whatever the normalizing reader makes of the bytes (mismatched arrays, far-away or
// degenerate vertices) and keeps its fractions in [0, 1]. Every rig read also goes through the checked
// write's path: the writer prints rig_to_json's value, and the readers read the same from the RigDoc as
// from that value.
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "json/json_util.h"
#include "rig/rig_doc.h"
#include "rig/rig_json_internal.h"
#include "rig2d/quality/deform_check.h"
#include "rig2d/rig/rig_json.h"
#include "rig2d/validate/fix.h"

namespace {

void check_doc(const rig2d::Rig& rig) {
  namespace detail = rig2d::detail;
  const detail::Json value = detail::rig_to_json(rig);
  const detail::RigDoc doc(rig);
  const std::string text = rig2d::write_rig(rig);
  if (text != detail::to_js_json(value)) std::abort();
  const auto a = detail::read_rig_normalized_parsed(value, "a");
  const auto b = detail::read_rig_normalized_parsed(doc.root(), "a");
  if (a.has_value() != b.has_value()) std::abort();
  if (a && rig2d::write_rig(*a) != rig2d::write_rig(*b)) std::abort();
  if (!a && (a.error().code != b.error().code || a.error().message != b.error().message)) std::abort();
  const rig2d::StrictRig sa = detail::read_rig_strict_parsed(value, text, "a");
  const rig2d::StrictRig sb = detail::read_rig_strict_parsed(doc.root(), text, "a");
  if (sa.diagnostics.size() != sb.diagnostics.size() || sa.rig.has_value() != sb.rig.has_value()) std::abort();
  for (std::size_t k = 0; k < sa.diagnostics.size(); ++k) {
    const rig2d::Diagnostic &x = sa.diagnostics[k], &y = sb.diagnostics[k];
    if (x.code != y.code || x.message != y.message || x.where.json_pointer != y.where.json_pointer ||
        x.where.line != y.where.line || x.where.column != y.where.column) {
      std::abort();
    }
  }
}

// --fix rewrites users' files: it must never change what the engine loads (the same rig within
// float32 rounding of the renormalized weights), write anything the reader refuses, or find more to
// fix in its own output.
void check_fix(std::string_view text) {
  auto fixed = rig2d::fix_rig(text, "fuzz.rig2d.json");
  if (!fixed) {
    if (fixed.error().code.empty()) std::abort();
    return;
  }
  for (const rig2d::Diagnostic& d : fixed->changes) {
    if (d.code.rfind("fix.", 0) != 0) std::abort();
  }
  if (!fixed->changed) {
    if (fixed->text != text) std::abort();
    return;
  }
  auto again = rig2d::fix_rig(fixed->text, "fixed.rig2d.json");
  if (!again || again->changed) std::abort();
  auto before = rig2d::read_rig_normalized(text, "a");
  auto after = rig2d::read_rig_normalized(fixed->text, "b");
  if (before.has_value() != after.has_value()) std::abort();
  if (!before) return;
  if (before->parts.size() != after->parts.size()) std::abort();
  // Weights within rounding; then everything else byte for byte (the writer prints NaN as null).
  for (std::size_t p = 0; p < before->parts.size(); ++p) {
    std::vector<double>&x = before->parts[p].skin_weights, &y = after->parts[p].skin_weights;
    if (x.size() != y.size()) std::abort();
    for (std::size_t k = 0; k < x.size(); ++k) {
      if (x[k] != y[k] && !(std::abs(x[k] - y[k]) <= 1e-6) && !(std::isnan(x[k]) && std::isnan(y[k]))) std::abort();
    }
    x.clear(), y.clear();
  }
  if (rig2d::write_rig(*before) != rig2d::write_rig(*after)) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  check_fix(text);
  auto rig = rig2d::read_rig_normalized(text, "fuzz.rig2d.json");
  if (rig) {
    check_doc(*rig);
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
    check_doc(*strict.rig);
    const std::string written = rig2d::write_rig(*strict.rig);
    auto again = rig2d::read_rig_strict(written, "again.rig2d.json");
    if (!again.rig || rig2d::write_rig(*again.rig) != written) std::abort();
  }
  return 0;
}
