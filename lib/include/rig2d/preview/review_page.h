// SPDX-License-Identifier: Apache-2.0
// A review page of many rigs: one self-contained HTML file (inline script and style, textures as
// data: URIs unless linked) with a list of every rig, its figures and rig2d-validate --deform
// findings, and an interactive viewer that skins the rig in the browser exactly as skin_rig does
// (bones dragged, a clip played). Built in memory; nothing is written. Deterministic.
#pragma once

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "rig2d/core/error.h"
#include "rig2d/core/result.h"
#include "rig2d/export.h"
#include "rig2d/validate/report.h"
#include "rig2d/validate/validate.h"

namespace rig2d {

struct ReviewPageOptions {
  std::string assets_root;  // "" = default_asset_root of each rig
  // false: textures are embedded as data: URIs (one file, opens anywhere). true: referenced by a
  // path relative to `page_path`'s folder, for big folders whose PNGs travel with the page.
  bool link_assets = false;
  std::string page_path;  // where the page will be written (for linked textures)
  std::string clip_path;  // an engine .anim.json the viewer can play (bound to each rig by name-path); "" = none
  bool validate = true;   // run the rig2d-validate --deform checks when a rig comes without a report
  std::string docs_base_uri = kDefaultDocsBaseUri;  // finding codes link to their docs page here
  std::string title = "rig2d review";
};

// One rig of the page. With `report`, its findings are shown as given (rig2d-validate's own run,
// after config and baseline); without, the page runs the --deform checks itself (options.validate).
struct ReviewInput {
  std::string path;
  std::optional<FileReport> report;
};

struct ReviewPage {
  std::string html;
  std::size_t rigs = 0;                 // rows listed
  std::size_t failed = 0;               // rigs listed with their error instead of a viewer
  std::size_t texture_bytes = 0;        // PNG bytes embedded (0 with link_assets)
  std::vector<Diagnostic> diagnostics;  // rigs that failed, missing textures (warnings)
  std::vector<std::string> inputs;      // every file read (rigs, clip, textures and sidecars)
};

// Builds the page. Each input is one list entry in the given order; a rig that cannot be read or is
// rejected by the reader is listed with its error and a warning, never a failure.
// Errors: pose.review (more than 100000 rigs), the clip's reader errors (clip.*, json.*, io.*).
RIG2D_EXPORT Result<ReviewPage> review_page(std::span<const ReviewInput> inputs, const ReviewPageOptions& options);
RIG2D_EXPORT Result<ReviewPage> review_page(std::span<const std::string> rig_paths, const ReviewPageOptions& options);

// JSON text made safe inside an HTML <script> element: `<`, `>`, `&`, U+2028 and U+2029 become
// \u escapes (valid JSON, so JSON.parse gives the same value), so no string can close the element.
RIG2D_EXPORT std::string script_safe_json(std::string_view json);

}  // namespace rig2d
