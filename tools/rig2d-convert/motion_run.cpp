// SPDX-License-Identifier: Apache-2.0
// Motion onto a skeleton template: rig2d-convert walk.bvh --template humanoid -o walk.anim.json, and
// a Spine import's animations renamed onto a template with --bone-map (interop/retarget.h).
#include <cstdio>
#include <filesystem>

#include "convert_run.h"
#include "rig2d/anim/clip.h"
#include "rig2d/asset/guid.h"
#include "rig2d/core/limits.h"
#include "rig2d/core/sha256.h"
#include "rig2d/interop/retarget.h"

namespace rig2d::convert {
namespace fs = std::filesystem;

int Run::read_motion_template(SkeletonTemplate& tmpl, BoneMap& map) {
  if (o.template_spec.empty()) return usage("motion onto a template needs --template NAME|FILE", "convert.template");
  auto read = resolve_skeleton_template(o.template_spec);
  if (!read) {
    cli::print_error(read.error());
    return read.error().code == "template.unknown" ? kUsage : kBadInput;
  }
  tmpl = std::move(*read);
  if (o.template_spec.find_first_of("/\\.") != std::string::npos) inputs.push_back(o.template_spec);
  if (o.bone_map.empty()) {
    if (tmpl.name != "humanoid" || !bvh)
      return usage(
          "--bone-map FILE names the template's bones for the source's (built in only for BVH onto "
          "humanoid)",
          "convert.template");
    map = humanoid_mocap_bone_map();
    return kOk;
  }
  auto loaded = load_bone_map(o.bone_map, tmpl);
  if (!loaded) return fail_input(loaded.error());
  map = std::move(*loaded);
  inputs.push_back(o.bone_map);
  return kOk;
}

int Run::run_bvh() {
  bvh = true;
  if (o.output.size() < 10 || o.output.compare(o.output.size() - 10, 10, ".anim.json") != 0)
    return usage("BVH motion converts to a clip: -o NAME.anim.json", "convert.output.kind");
  auto text = read_file(o.input, kMaxJsonFileBytes);
  if (!text) return fail_input(text.error());
  inputs.push_back(o.input);
  SkeletonTemplate tmpl;
  BoneMap map;
  if (const int code = read_motion_template(tmpl, map); code != kOk) return code;
  BvhImportOptions options;
  options.plane = o.plane == "side" ? MotionPlane::Side : MotionPlane::Front;
  options.clip_name = fs::path(o.output).filename().string();
  options.clip_name.resize(options.clip_name.size() - 10);
  // The id follows the clip's file name and the motion, so a re-run writes the same bytes.
  options.clip_id = uuid_v5(kRigIdNamespace, "bvh:" + options.clip_name + ":" + sha256_hex(*text));
  std::vector<Diagnostic> warnings;
  auto clip = import_bvh_clip(*text, o.input, map, tmpl, options, &warnings);
  if (!clip) return fail_input(clip.error());
  for (const Diagnostic& d : warnings)
    if (!o.verbosity.quiet) std::fprintf(stderr, "%s\n", format_diagnostic(d).c_str());
  writes.push_back({o.output, write_clip(*clip)});
  const int code = cli::write_checked_outputs(inputs, {o.output}, writes);
  if (code == kOk)
    std::fprintf(stderr, "rig2d-convert: wrote %s (%zu tracks, %zu frames, %s plane)\n", printable(o.output).c_str(),
                 clip->tracks.size(), clip->tracks.empty() ? std::size_t{0} : clip->tracks.front().keys.size(),
                 o.plane.c_str());
  return code;
}

int Run::map_clips_to_template() {
  if (o.bone_map.empty() && o.template_spec.empty()) return kOk;
  if (in != Format::Spine)
    return usage("--template and --bone-map map a Spine skeleton's animations (or a .bvh) onto a template",
                 "convert.template");
  SkeletonTemplate tmpl;
  BoneMap map;
  if (const int code = read_motion_template(tmpl, map); code != kOk) return code;
  std::vector<Diagnostic> warnings;
  for (Clip& clip : imported.clips) clip = map_clip_to_template(clip, imported.rig, map, tmpl, &warnings);
  imported.diagnostics.insert(imported.diagnostics.end(), warnings.begin(), warnings.end());
  return kOk;
}

}  // namespace rig2d::convert
