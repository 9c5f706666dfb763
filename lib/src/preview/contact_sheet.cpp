// SPDX-License-Identifier: Apache-2.0
#include "rig2d/preview/contact_sheet.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <cstdio>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <system_error>

#include "rig2d/asset/asset_index.h"
#include "rig2d/core/limits.h"
#include "rig2d/io/files.h"
#include "rig2d/asset/sprite_meta.h"
#include "rig2d/preview/legend.h"
#include "rig2d/preview/pose.h"
#include "rig2d/raster/draw.h"
#include "rig2d/raster/font.h"
#include "rig2d/rig/rig_json.h"
#include "rig2d/validate/validate.h"

namespace rig2d {
namespace {

constexpr double kCaptionSize = 12;
constexpr double kTitleSize = 15;
constexpr double kFigureSize = 12.5;
constexpr int kPad = 10;
constexpr int kInfoWidth = 300;
constexpr int kTiles = 4;  // without a clip
constexpr int kMaxClipFrames = 8;
constexpr std::size_t kMaxRows = 2000;
constexpr std::size_t kMaxCodeLines = 6;

struct SheetClipFrame {
  RigPose pose;
  std::string caption;
};

// The clip's frames on this rig at t = k * duration / n; tracks the rig cannot take are warnings
// naming the rig (a humanoid clip on a rig without hands).
std::vector<SheetClipFrame> sheet_clip_frames(const Rig& rig, const RigSheetOptions& o, const std::string& path,
                                   std::vector<Diagnostic>& warnings) {
  std::vector<SheetClipFrame> frames;
  if (!o.clip) return frames;
  const ClipBinding binding = bind_clip(*o.clip, rig, o.clip_name);
  for (Diagnostic d : binding.skipped) {
    if (d.severity == Severity::Note) continue;
    d.message = path + ": " + d.message;
    warnings.push_back(std::move(d));
  }
  const double duration = std::isfinite(o.clip->duration) && o.clip->duration > 0 ? o.clip->duration : 0;
  for (int k = 0; k < o.clip_frames; ++k) {
    const double t = duration * k / o.clip_frames;
    SheetClipFrame f{bind_pose(rig), {}};
    apply_clip(*o.clip, binding, t, f.pose);
    char when[48];
    std::snprintf(when, sizeof when, " t=%.3g", t);
    f.caption = o.clip_name + when;
    frames.push_back(std::move(f));
  }
  return frames;
}

struct Bent {
  RigPose pose;
  std::string caption;
};

// The bent tile: every bone hanging from a root bone (the first joint of each limb chain) turns by
// `angle`; a rig with no such bone turns its roots. One bend that shows how every limb deforms.
Bent preview_bend(const Rig& rig, double angle) {
  Bent out{bind_pose(rig), {}};
  const auto n = static_cast<std::int64_t>(rig.bones.size());
  std::vector<std::size_t> picked;
  for (std::size_t b = 0; b < rig.bones.size(); ++b) {
    const std::int64_t parent = rig.bones[b].parent;
    if (parent >= 0 && parent < n && rig.bones[static_cast<std::size_t>(parent)].parent < 0) picked.push_back(b);
  }
  if (picked.empty()) {
    for (std::size_t b = 0; b < rig.bones.size(); ++b) {
      if (rig.bones[b].parent < 0 || rig.bones[b].parent >= n) picked.push_back(b);
    }
  }
  for (const std::size_t b : picked) out.pose.bones[b].rot += angle;
  char amount[32];
  std::snprintf(amount, sizeof amount, "%+.2g rad", angle);
  out.caption = picked.size() == 1 ? "bent: " + rig.bones[picked[0]].name + " " + amount
                                   : "bent: " + std::to_string(picked.size()) + " bones " + amount;
  if (picked.empty()) out.caption = "no bones to bend";
  return out;
}

std::string file_name(const std::string& path) { return std::filesystem::path(path).filename().string(); }

// A file name elided in the middle ("kenney_animal…crocodile.rig2d.json"): names in a batch often
// share a long prefix, and the end is what tells them apart.
std::string elide_middle(const std::string& text, double size, double width) {
  if (label_advance(text, size) <= width) return text;
  std::vector<std::string> points;  // UTF-8 code points (continuation bytes stay with their lead)
  for (const char c : text) {
    if (points.empty() || (static_cast<unsigned char>(c) & 0xC0) != 0x80) points.emplace_back();
    points.back().push_back(c);
  }
  for (std::size_t keep = points.size(); keep-- > 0;) {
    const std::size_t tail = keep / 2, head = keep - tail;
    std::string out;
    for (std::size_t i = 0; i < head; ++i) out += points[i];
    out += "\xE2\x80\xA6";
    for (std::size_t i = points.size() - tail; i < points.size(); ++i) out += points[i];
    if (label_advance(out, size) <= width) return out;
  }
  return {};
}

// The figures of the info panel: mesh and skeleton sizes, then rig2d-validate --deform's verdict.
std::vector<std::string> rig_figures(const Rig& rig, const FileReport* report) {
  std::size_t verts = 0, tris = 0;
  for (const Part& part : rig.parts) {
    verts += part.mesh.verts.size();
    tris += part.mesh.tris.size() / 3;
  }
  std::vector<std::string> lines;
  lines.push_back(std::to_string(verts) + " vertices, " + std::to_string(tris) + " triangles");
  lines.push_back(std::to_string(rig.bones.size()) + " bones, " + std::to_string(rig.parts.size()) +
                  (rig.parts.size() == 1 ? " part" : " parts"));
  if (!report) return lines;
  const std::size_t errors = report->count(Severity::Error), warnings = report->count(Severity::Warning);
  lines.push_back("validate --deform: " + std::to_string(errors) + (errors == 1 ? " error, " : " errors, ") +
                  std::to_string(warnings) + (warnings == 1 ? " warning" : " warnings"));
  std::map<std::string, std::size_t> by_code;  // sorted: a stable list
  for (const Diagnostic& d : report->diagnostics) {
    if (d.severity != Severity::Note) ++by_code[d.code];
  }
  std::size_t shown = 0;
  for (const auto& [code, count] : by_code) {
    if (shown++ == kMaxCodeLines) {
      lines.push_back("  \xE2\x80\xA6 " + std::to_string(by_code.size() - kMaxCodeLines) + " more codes");
      break;
    }
    lines.push_back("  " + code + (count > 1 ? " \xC3\x97" + std::to_string(count) : ""));
  }
  return lines;
}

// A tile: the rig framed to fit, rendered with `overlays` at `pose`.
Result<Image> render_tile(const Rig& rig, const std::vector<PartTexture>& textures, const RigPose& pose,
                          const Overlays& overlays, const View& view, Paint background) {
  RenderOptions options;
  options.view = view;
  options.background = background;
  options.overlays = overlays;
  return render_pose(rig, textures, pose, skin_rig(rig, pose), options);
}

struct RowContent {
  std::vector<Image> tiles;
  RigSheetRow row;
  std::optional<Image> legend;
};

RowContent build_row(const std::string& path, const RigSheetOptions& o, RigSheet& sheet, const Validator* validator) {
  RowContent out;
  out.row.path = path;
  auto fail = [&](const std::string& why) {
    out.row.failed = true;
    out.row.figures = {why};
    sheet.diagnostics.push_back({Severity::Warning, "pose.sheet.rig", why + "; its row shows the error", Location{path}});
    return std::move(out);
  };
  auto text = read_file(path, kMaxJsonFileBytes);
  if (!text) return fail(text.error().message);
  auto rig = read_rig_normalized(*text, path);
  if (!rig) {
    const Location& at = rig.error().where;
    return fail((at.line > 0 ? std::to_string(at.line) + ":" + std::to_string(at.column) + ": " : std::string()) +
                (at.json_pointer.empty() ? "" : at.json_pointer + ": ") + rig.error().message + " [" + rig.error().code + "]");
  }

  const std::string root = o.assets_root.empty() ? default_asset_root(path) : o.assets_root;
  PartTextures textures;
  textures.parts.resize(rig->parts.size());
  auto index = AssetIndex::scan(root);
  if (index) {
    textures = load_part_textures(*rig, *index, path);
    for (const Part& part : rig->parts) {
      if (const auto source = index->resolve_sprite(part.sprite)) {
        sheet.inputs.push_back(source->texture_path);
        sheet.inputs.push_back(sidecar_path(source->texture_path));
      }
    }
    sheet.diagnostics.insert(sheet.diagnostics.end(), textures.warnings.begin(), textures.warnings.end());
  }

  // One framing for the four tiles (bind and bent, with joints), so they compare at a glance.
  const Bent bent = preview_bend(*rig, o.bend);
  const RigPose bind = bind_pose(*rig);
  Bounds bounds;
  add_pose_bounds(bounds, *rig, skin_rig(*rig, bind), bind.sprite, posed_joints(*rig, bind));
  add_pose_bounds(bounds, *rig, skin_rig(*rig, bent.pose), bent.pose.sprite, posed_joints(*rig, bent.pose));
  const std::vector<SheetClipFrame> frames = sheet_clip_frames(*rig, o, path, sheet.diagnostics);
  for (const SheetClipFrame& f : frames)
    add_pose_bounds(bounds, *rig, skin_rig(*rig, f.pose), f.pose.sprite, posed_joints(*rig, f.pose));
  FramingOptions framing;
  framing.width = framing.height = o.tile;
  framing.fit = true;
  framing.margin = 10;
  auto view = frame_view(bounds, framing);
  if (!view) return fail(view.error().message);

  Overlays plain, wire, dominant, folds;
  wire.wireframe = wire.bones = true;
  dominant.dominant = dominant.bones = true;
  folds.folds = folds.bones = true;
  const std::string name = file_name(path);
  const std::pair<const RigPose*, Overlays> tiles[kTiles] = {{&bind, plain}, {&bind, wire}, {&bind, dominant}, {&bent.pose, folds}};
  const char* what[kTiles] = {"bind pose", "wireframe + bones", "dominant bone", nullptr};
  for (int t = 0; t < kTiles; ++t) {
    auto image = render_tile(*rig, textures.parts, *tiles[t].first, tiles[t].second, *view, o.tile_background);
    if (!image) return fail(image.error().message);
    out.tiles.push_back(std::move(*image));
    out.row.captions.push_back(name + "\n" + (what[t] ? std::string(what[t]) : bent.caption));
  }
  for (const SheetClipFrame& f : frames) {
    auto image = render_tile(*rig, textures.parts, f.pose, folds, *view, o.tile_background);
    if (!image) return fail(image.error().message);
    out.tiles.push_back(std::move(*image));
    out.row.captions.push_back(name + "\n" + f.caption);
  }
  std::unique_ptr<FileReport> report;
  if (validator) report = std::make_unique<FileReport>(validator->validate_text(*text, path, FileKind::Rig, index ? &*index : nullptr));
  out.row.figures = rig_figures(*rig, report.get());
  if (report) {
    for (const Diagnostic& d : report->diagnostics) {
      if (d.code == "deform.summary") out.row.deform_summary = d.message;
    }
  }
  LegendStyle style;
  style.background = o.background;
  style.text = o.text;
  style.padding = 0;
  const std::vector<std::uint32_t> shown = dominant_bones_shown(*rig);
  if (auto legend = bone_legend(*rig, shown, kInfoWidth, style)) out.legend = std::move(*legend);
  return out;
}

// Caption lines under a tile, centred, elided to the tile's width.
void draw_caption(Canvas& canvas, const std::string& caption, int x, int y, int width, Paint paint) {
  const FontMetrics m = label_metrics(kCaptionSize);
  std::size_t start = 0;
  for (int line = 0; start <= caption.size(); ++line) {
    const std::size_t end = std::min(caption.find('\n', start), caption.size());
    const std::string text = line == 0 ? elide_middle(caption.substr(start, end - start), kCaptionSize, width)
                                       : elide_label(caption.substr(start, end - start), kCaptionSize, width);
    const double w = label_advance(text, kCaptionSize);
    Paint p = paint;
    if (line > 0) p.alpha *= 0.7;  // what the tile shows, quieter than the file name
    draw_label(canvas, std::round(x + (width - w) / 2), y + m.ascent + line * (m.height + 2), text, kCaptionSize, p);
    start = end + 1;
  }
}

// Greedy word wrap to `width` px; continuation lines are indented. A word wider than a line is
// left for elide_label to cut.
std::vector<std::string> wrap_words(const std::string& text, double size, double width) {
  std::vector<std::string> lines;
  std::string line;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find(' ', start + 1);
    if (end == std::string::npos) end = text.size();
    const std::string word = text.substr(start, end - start);  // with its leading space
    if (!line.empty() && label_advance(line + word, size) > width) {
      lines.push_back(line);
      line = "    " + word.substr(word.find_first_not_of(' ') == std::string::npos ? word.size() : word.find_first_not_of(' '));
    } else {
      line += word;
    }
    start = end;
  }
  if (!line.empty() || lines.empty()) lines.push_back(line);
  return lines;
}

void draw_info(Canvas& canvas, const RowContent& row, int x, int y, int height, Paint paint) {
  const FontMetrics title = label_metrics(kTitleSize), body = label_metrics(kFigureSize);
  draw_label(canvas, x, y + title.ascent, elide_middle(file_name(row.row.path), kTitleSize, kInfoWidth), kTitleSize, paint);
  int line_y = y + title.height + 6;
  for (const std::string& figure : row.row.figures) {
    for (const std::string& line : wrap_words(figure, kFigureSize, kInfoWidth)) {
      if (line_y + body.height > y + height) break;
      draw_label(canvas, x, line_y + body.ascent, elide_label(line, kFigureSize, kInfoWidth), kFigureSize, paint);
      line_y += body.height + 2;
    }
  }
  if (row.legend && line_y + 6 + row.legend->height <= y + height) {
    draw_image(canvas, *row.legend, x, line_y + 6);
    line_y += 6 + row.legend->height + 6;
  }
  Paint quiet = paint;
  quiet.alpha *= 0.7;
  for (const std::string& line : wrap_words(row.row.deform_summary, kFigureSize, kInfoWidth)) {
    if (line.empty() || line_y + body.height > y + height) break;
    draw_label(canvas, x, line_y + body.ascent, elide_label(line, kFigureSize, kInfoWidth), kFigureSize, quiet);
    line_y += body.height + 2;
  }
}

}  // namespace

Result<std::vector<std::string>> collect_rig_paths(std::span<const std::string> inputs) {
  std::vector<std::string> out;
  std::set<std::string> seen;
  auto add = [&](const std::string& p) {
    if (seen.insert(p).second) out.push_back(p);
  };
  for (const std::string& input : inputs) {
    std::error_code ec;
    const auto status = std::filesystem::status(input, ec);
    if (ec || !std::filesystem::exists(status)) {
      Error e{"io.not_found", "no such file or folder", Location{input}};
      return Unexpected{std::move(e)};
    }
    if (!std::filesystem::is_directory(status)) {
      add(input);
      continue;
    }
    std::vector<std::string> found;
    std::filesystem::recursive_directory_iterator it(input, std::filesystem::directory_options::skip_permission_denied, ec);
    for (; !ec && it != std::filesystem::recursive_directory_iterator(); it.increment(ec)) {
      const std::string fname = it->path().filename().string();
      if (it->is_directory(ec) && !fname.empty() && fname[0] == '.') {
        it.disable_recursion_pending();
        continue;
      }
      if (fname.size() > 11 && fname.ends_with(".rig2d.json") && it->is_regular_file(ec)) found.push_back(it->path().string());
    }
    std::sort(found.begin(), found.end());
    for (const std::string& f : found) add(f);
  }
  return out;
}

Result<RigSheet> rig_contact_sheet(std::span<const std::string> rig_paths, const RigSheetOptions& o) {
  if (rig_paths.empty()) return make_error("pose.sheet", "a contact sheet needs at least one rig");
  if (rig_paths.size() > kMaxRows) return make_error("pose.sheet", "more than " + std::to_string(kMaxRows) + " rigs for one sheet");
  if (o.tile < 64 || o.tile > 1024) return make_error("pose.sheet", "the tile size must be 64..1024 px");
  if (o.clip && (o.clip_frames < 1 || o.clip_frames > kMaxClipFrames))
    return make_error("pose.sheet", "a clip's frames per rig must be 1.." + std::to_string(kMaxClipFrames));
  const int tiles = kTiles + (o.clip ? o.clip_frames : 0);
  // The sheet's size follows from the rig count and the tiles alone: checked before any rig is read
  // or rendered, so a sheet too large to make fails at once instead of after rendering every row.
  const FontMetrics caption = label_metrics(kCaptionSize);
  const int caption_h = 2 * caption.height + 2 + 4;
  const long long row_h = o.tile + caption_h + kPad;
  const long long width = kPad + tiles * static_cast<long long>(o.tile + kPad) + kInfoWidth + kPad;
  const long long height = kPad + static_cast<long long>(rig_paths.size()) * row_h;
  if (width > kMaxImageSide || height > kMaxImageSide || width * height > static_cast<long long>(kMaxImagePixels)) {
    return make_error("raster.size", "a contact sheet of " + std::to_string(rig_paths.size()) + " rigs would be " +
                                         std::to_string(width) + "x" + std::to_string(height) + " px; use a smaller tile or fewer rigs");
  }
  RigSheet sheet;
  ValidateOptions vo;
  vo.deform = true;
  const Validator validator(vo);
  std::vector<RowContent> rows;
  for (const std::string& path : rig_paths) {
    sheet.inputs.push_back(path);
    rows.push_back(build_row(path, o, sheet, o.validate ? &validator : nullptr));
  }
  auto canvas = make_canvas(static_cast<int>(width), static_cast<int>(height), o.background);
  if (!canvas) return Unexpected{canvas.error()};
  for (std::size_t r = 0; r < rows.size(); ++r) {
    const int y = kPad + static_cast<int>(r * static_cast<std::size_t>(row_h));
    const RowContent& row = rows[r];
    for (std::size_t t = 0; t < row.tiles.size(); ++t) {
      const int x = kPad + static_cast<int>(t) * (o.tile + kPad);
      draw_image(*canvas, row.tiles[t], x, y);
      draw_caption(*canvas, row.row.captions[t], x, y + o.tile + 4, o.tile, o.text);
    }
    const int info_x = row.row.failed ? kPad : kPad + tiles * (o.tile + kPad);
    if (row.row.failed) {
      // The error where the tiles would be, so a broken rig stands out in the batch.
      draw_label(*canvas, kPad, y + label_metrics(kTitleSize).ascent, elide_label(row.row.path, kTitleSize, width - 2 * kPad),
                 kTitleSize, o.text);
      draw_label(*canvas, kPad, y + 2 * label_metrics(kTitleSize).height + 4, elide_label(row.row.figures[0], kFigureSize, width - 2 * kPad),
                 kFigureSize, {255, 110, 100, 1});
    } else {
      draw_info(*canvas, row, info_x, y, static_cast<int>(row_h) - kPad, o.text);
    }
    sheet.rows.push_back(row.row);
  }
  sheet.image = canvas_to_image(*canvas);
  return sheet;
}

}  // namespace rig2d
