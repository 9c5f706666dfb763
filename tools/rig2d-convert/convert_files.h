// SPDX-License-Identifier: Apache-2.0
// rig2d-convert's file plumbing: which format a path holds, where the sidecars and clips of an
// import go, and how an exporter finds the texture behind a sprite GUID.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "rig2d/core/result.h"
#include "rig2d/interop/interop.h"

namespace rig2d::convert {

enum class Format { Rig, Spine, Godot };

const char* format_name(Format f);
// By name: *.rig2d.json = rig, *.tscn = Godot, another *.json = Spine (checked by content on read).
std::optional<Format> format_of_path(const std::string& path);
std::optional<Format> format_of_name(const std::string& name);  // "spine", "godot", "rig2d"

// OUT minus its .rig2d.json / .json / .tscn suffix.
std::string output_stem(const std::string& path);
// The folder of `path` ("." for a bare name).
std::string folder_of(const std::string& path);
// `target` relative to `folder`, with forward slashes (as it is written into atlases and scenes).
std::string relative_to(const std::string& target, const std::string& folder);

// Width and height of a PNG, from its header (the whole file when the header alone does not tell,
// as for palette images). nullopt when it is not a readable PNG.
std::optional<std::pair<int, int>> png_size(const std::string& path);

// A sprite resolver for exporters: GUIDs through the .meta.json sidecars under `assets_root`, image
// paths written relative to `out_folder`.
std::function<std::optional<ExportSprite>(const std::string&)> sprites_from_assets(const std::string& assets_root,
                                                                                   const std::string& out_folder,
                                                                                   std::vector<std::string>* read_files);
// A sprite resolver over what an import produced (`file_of` gives a sheet image's file).
std::function<std::optional<ExportSprite>(const std::string&)> sprites_from_sheets(
    const std::vector<TextureSheet>& sheets, const std::function<std::string(const std::string&)>& file_of,
    const std::string& out_folder);

}  // namespace rig2d::convert
