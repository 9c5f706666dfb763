// SPDX-License-Identifier: Apache-2.0
// The scene/prefab reader and the validator's scene checks on any bytes. The reader must never crash,
// resolve every parent to an entity in range (or root) with no cycle left, and give every diagnostic
// a code; the reports it feeds must format in every output format.
#include <cstdint>
#include <cstdlib>
#include <string_view>
#include <vector>

#include "rig2d/scene/scene.h"
#include "rig2d/validate/policy.h"
#include "rig2d/validate/report.h"
#include "rig2d/validate/validate.h"

namespace {

void check_scene(const rig2d::SceneRead& read) {
  for (const rig2d::Diagnostic& d : read.diagnostics) {
    if (d.code.empty()) std::abort();
  }
  if (!read.scene) return;
  const auto& entities = read.scene->entities;
  const auto count = static_cast<std::int64_t>(entities.size());
  std::size_t reached = 0;
  for (std::int64_t i = 0; i < count; ++i) {
    const std::int64_t parent = entities[static_cast<std::size_t>(i)].parent;
    if (parent < -1 || parent >= count || parent == i) std::abort();
    // Every walk up ends at a root within `count` steps: the reader broke all cycles.
    std::int64_t cur = i;
    for (std::int64_t steps = 0; cur >= 0; ++steps) {
      if (steps > count) std::abort();
      cur = entities[static_cast<std::size_t>(cur)].parent;
    }
    (void)rig2d::transform_of(entities[static_cast<std::size_t>(i)]);
    (void)rig2d::skinned_sprite_of(entities[static_cast<std::size_t>(i)]);
  }
  // children() partitions the entities: each appears once, under its own parent.
  for (std::int64_t i = -1; i < count; ++i) {
    for (const std::size_t c : read.scene->children(i)) {
      if (c >= entities.size() || entities[c].parent != i) std::abort();
      ++reached;
    }
  }
  if (reached != entities.size()) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  check_scene(rig2d::read_scene(text, "fuzz.scene.json", rig2d::SceneFlavor::Scene));
  check_scene(rig2d::read_scene(text, "fuzz.prefab.json", rig2d::SceneFlavor::Prefab));

  static const rig2d::Validator validator;
  std::vector<rig2d::FileReport> reports;
  reports.push_back(validator.validate_text(text, "fuzz.scene.json", rig2d::FileKind::Scene, nullptr));
  reports.push_back(validator.validate_text(text, "fuzz.prefab.json", rig2d::FileKind::Prefab, nullptr));
  for (const rig2d::FileReport& report : reports) {
    for (const rig2d::Diagnostic& d : report.diagnostics) {
      if (d.code.empty()) std::abort();
    }
  }
  for (rig2d::FileReport& report : reports) rig2d::columns_to_code_points(report, text);
  for (auto format : {rig2d::ReportFormat::Text, rig2d::ReportFormat::Json, rig2d::ReportFormat::Junit,
                      rig2d::ReportFormat::Sarif, rig2d::ReportFormat::Github, rig2d::ReportFormat::CodeClimate}) {
    (void)rig2d::format_report(reports, format, "fuzz");
  }
  // The same bytes as a config file and as a baseline: errors, never crashes.
  if (auto config = rig2d::parse_validate_config(text, "fuzz.cfg")) rig2d::apply_config(reports, *config);
  if (auto baseline = rig2d::parse_baseline(text, "fuzz.baseline")) (void)rig2d::apply_baseline(reports, *baseline, "");
  return 0;
}
