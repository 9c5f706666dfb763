// SPDX-License-Identifier: Apache-2.0
// One rig2d-convert run: the command line, what was read (import_inputs.cpp) and what will be
// written (plan_outputs.cpp). Every step returns an exit code and prints its own errors.
#pragma once

#include <functional>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "common/cli_common.h"
#include "convert_files.h"
#include "rig2d/interop/atlas.h"
#include "rig2d/interop/interop.h"
#include "rig2d/interop/retarget.h"
#include "rig2d/io/files.h"

namespace rig2d::convert {

// OUT with a skin's name before its suffix, for --skin each: hero.rig2d.json -> hero.<skin>.rig2d.json.
std::string skin_output(const std::string& output, const std::string& skin);

struct Options {
  std::string input, output, to, atlas, assets;
  std::string textures;  // Spine export: copy (default) | link | none
  std::string groups = "parts";  // a layered document's groups: parts | flatten
  std::vector<std::string> anims;
  std::string template_spec, bone_map;  // motion onto a skeleton template (motion_run.cpp)
  std::string plane = "front";
  std::vector<std::string> skins;  // Spine skins over the default one, in order; {"each"} = a rig per skin
  cli::Verbosity verbosity;
};

struct Run {
  Options& o;
  Format in = Format::Rig, out = Format::Rig;
  bool bvh = false;  // IN is BVH motion (motion_run.cpp)
  ImportResult imported;
  std::string sheet_folder;  // where the imported texture sheets' images live
  std::vector<std::string> inputs;
  std::vector<OutputFile> writes;
  std::vector<std::pair<std::string, std::string>> sidecar_files;  // image file -> its existing sidecar text
  std::vector<std::string> each_skins;    // --skin each: the skins read_spine imports, one rig each
  std::vector<ImportResult> skin_results;  // what it imported for them, in that order
  std::set<std::string> printed;  // diagnostics already printed (--skin each meets the bones' once per skin)

  int run();
  // A layered document (layered_run.cpp): its layout file and layer PNGs.
  int run_layered();
  // Motion onto a template (motion_run.cpp): a .bvh to a clip; a Spine import's clips renamed.
  int run_bvh();
  int map_clips_to_template();
  int read_motion_template(SkeletonTemplate& tmpl, BoneMap& map);
  // --skin each (skin_run.cpp): one conversion per skin of a Spine IN, all written together.
  int run_each_skin();
  // The text a file will have: an earlier output of this run (a sidecar a previous skin's import
  // planned), else the file on disk; nullopt when neither exists.
  std::optional<std::string> planned_text(const std::string& path) const;
  void print_diagnostics();

  // Error exits: a bad input (printed as the library reports it), or a usage error.
  int fail_input(const Error& e);
  int usage(const std::string& message, const std::string& code);

  // Reading (import_inputs.cpp): detects IN's format and reads it into `imported`.
  int read_input();
  std::string rig_id() const;  // rig_id_of(OUT)
  std::string rig_id_of(const std::string& output) const;
  ImportOptions import_options(const std::vector<std::string>& images,
                               const std::function<std::string(const std::string&)>& file_of);
  int read_rig(const std::string& text);
  int check_atlas_pages(const Atlas& atlas, const std::string& atlas_path);
  int read_spine(const std::string& text);
  std::string godot_file(const std::string& resource) const;
  int read_godot(const std::string& text);

  // Writing (plan_outputs.cpp): the files in OUT's format, then all written together.
  int plan_rig_outputs();
  int plan_export();
  int place_textures(const std::vector<ExportPage>& pages, const std::string& out_folder);
  int write_outputs();
};

}  // namespace rig2d::convert
