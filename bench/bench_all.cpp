// SPDX-License-Identifier: Apache-2.0
// One pass over the whole pipeline on a generated sprite: decode, coverage, meshing (grid and outline),
// bones, weights (joint and heat), skinning, rendering and rig JSON read/write. Each stage is the median
// of several runs, printed in ms and as a ratio to PNG decode of the same sprite, so figures compare
// across machines. Usage: bench_all [side=1024] [repeats=5]
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "rig2d/anim/rig_pose.h"
#include "rig2d/geometry/grid_mesh.h"
#include "rig2d/geometry/outline_mesh.h"
#include "rig2d/image/coverage.h"
#include "rig2d/image/png.h"
#include "rig2d/autorig/autorig.h"
#include "rig2d/preview/pose.h"
#include "rig2d/raster/canvas.h"
#include "rig2d/rig/rig_json.h"
#include "rig2d/skeleton/shape_skeleton.h"
#include "rig2d/skeleton/suggest_bones.h"
#include "rig2d/skeleton/template.h"
#include "rig2d/weights/heat_weights.h"
#include "rig2d/weights/joint_weights.h"

namespace {

using Clock = std::chrono::steady_clock;

double median_ms(int repeats, const std::function<void()>& work) {
  std::vector<double> ms;
  for (int i = 0; i < repeats; ++i) {
    const auto t0 = Clock::now();
    work();
    ms.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
  }
  std::sort(ms.begin(), ms.end());
  return ms[ms.size() / 2];
}

// A figure: a torso over two legs with a gap between them, soft (antialiased) edges.
rig2d::Image make_figure(int side) {
  rig2d::Image img;
  img.width = side;
  img.height = side;
  img.rgba.assign(std::size_t(side) * std::size_t(side) * 4, 0);
  const double s = side;
  auto coverage = [&](double x, double y) {
    auto box = [&](double x0, double y0, double x1, double y1) {
      const double dx = std::max({x0 - x, x - x1, 0.0});
      const double dy = std::max({y0 - y, y - y1, 0.0});
      return std::clamp(1.5 - std::hypot(dx, dy), 0.0, 1.0);
    };
    const double head = std::clamp(s * 0.1 - std::hypot(x - s * 0.5, y - s * 0.15) + 0.5, 0.0, 1.0);
    return std::max({head, box(s * 0.3, s * 0.25, s * 0.7, s * 0.55), box(s * 0.3, s * 0.55, s * 0.45, s * 0.95),
                     box(s * 0.55, s * 0.55, s * 0.7, s * 0.95)});
  };
  for (int y = 0; y < side; ++y) {
    for (int x = 0; x < side; ++x) {
      const double a = coverage(x + 0.5, y + 0.5);
      std::uint8_t* p = &img.rgba[(std::size_t(y) * std::size_t(side) + std::size_t(x)) * 4];
      p[0] = static_cast<std::uint8_t>(80 + (x * 7) % 150);
      p[1] = static_cast<std::uint8_t>(60 + (y * 3) % 180);
      p[2] = 140;
      p[3] = static_cast<std::uint8_t>(std::lround(a * 255));
    }
  }
  return img;
}

template <typename T>
T must(rig2d::Result<T> r, const char* what) {
  if (!r) {
    std::fprintf(stderr, "bench_all: %s failed: %s\n", what, rig2d::format_error(r.error()).c_str());
    std::exit(1);
  }
  return std::move(*r);
}

// bench_all SIDE REPEATS DIR: the shape skeleton against template fitting (humanoid, auto) summed
// over the PNGs of a folder (real sprites: small images, where fixed costs weigh most).
void templates_on_folder(const std::string& dir, int repeats, const std::vector<rig2d::SkeletonTemplate>& bundled) {
  std::vector<std::string> files;
  for (const auto& e : std::filesystem::directory_iterator(dir))
    if (e.path().extension() == ".png") files.push_back(e.path().string());
  std::sort(files.begin(), files.end());
  // Both ways of the colour-edge arm refinement (TemplateFitOptions::colour_edges), whatever the default.
  rig2d::TemplateFitOptions plain, arms;
  plain.colour_edges = false;
  arms.colour_edges = true;
  double shape = 0, humanoid = 0, automatic = 0, humanoid_arms = 0, automatic_arms = 0;
  for (const std::string& f : files) {
    const rig2d::Image image = must(rig2d::load_png(f), "load");
    shape += median_ms(repeats, [&] { (void)must(rig2d::shape_skeleton(image), "skeleton"); });
    humanoid += median_ms(repeats, [&] { (void)must(rig2d::fit_template(image, bundled.front(), plain), "fit"); });
    automatic += median_ms(repeats, [&] { (void)must(rig2d::fit_template_auto(image, bundled, plain), "auto"); });
    humanoid_arms += median_ms(repeats, [&] { (void)must(rig2d::fit_template(image, bundled.front(), arms), "fit"); });
    automatic_arms += median_ms(repeats, [&] { (void)must(rig2d::fit_template_auto(image, bundled, arms), "auto"); });
  }
  std::printf("\n%zu sprites of %s, summed medians of %d runs:\n", files.size(), dir.c_str(), repeats);
  std::printf("  shape skeleton %.3f ms; template fit humanoid %.3f ms = %.2fx; auto %.3f ms = %.2fx\n", shape, humanoid,
              humanoid / shape, automatic, automatic / shape);
  std::printf("  with colour-edge arms: humanoid %.3f ms = %.2fx; auto %.3f ms = %.2fx\n", humanoid_arms,
              humanoid_arms / shape, automatic_arms, automatic_arms / shape);
}

}  // namespace

int main(int argc, char** argv) {
  const int side = argc > 1 ? std::atoi(argv[1]) : 1024;
  const int repeats = argc > 2 ? std::max(1, std::atoi(argv[2])) : 5;
  const rig2d::Image source = make_figure(side);
  const std::string png = must(rig2d::encode_png(source), "encode");

  struct Row {
    std::string stage, detail;
    double ms;
  };
  std::vector<Row> rows;
  rig2d::Image image;
  rows.push_back({"decode PNG", std::to_string(png.size() / 1024) + " KiB",
                  median_ms(repeats, [&] { image = must(rig2d::decode_png(png, "bench.png"), "decode"); })});

  rig2d::CoverageMask mask;
  rows.push_back({"coverage mask", "", median_ms(repeats, [&] { mask = must(rig2d::coverage_mask(image), "mask"); })});

  rig2d::SuggestBonesOptions bone_options;
  bone_options.width = side;
  bone_options.height = side;
  const auto inside = [&](double u, double v) { return rig2d::is_inside(mask, u, v); };
  std::vector<rig2d::Bone> bones;
  rows.push_back({"suggest bones (chain)", "", median_ms(repeats, [&] { bones = rig2d::suggest_bones(bone_options, inside); })});
  rows.back().detail = std::to_string(bones.size()) + " bones";
  rig2d::ShapeSkeletonStats skeleton;
  rows.push_back({"shape skeleton", "", median_ms(repeats, [&] {
                    bones = must(rig2d::shape_skeleton(image, {}, &skeleton), "skeleton");
                  })});
  rows.back().detail = std::to_string(bones.size()) + " bones, " + std::to_string(skeleton.limbs) + " limbs";
  // Template fitting against the shape skeleton's time (docs/templates.md: at most 3x for auto).
  const double shape_ms = rows.back().ms;
  const auto ratio = [&](double ms) {
    char text[32];
    std::snprintf(text, sizeof text, "%.2fx the shape skeleton", shape_ms > 0 ? ms / shape_ms : 0.0);
    return std::string(text);
  };
  const rig2d::SkeletonTemplate humanoid = must(rig2d::bundled_template("humanoid"), "template");
  rows.push_back({"template fit (humanoid)", "", median_ms(repeats, [&] {
                    bones = must(rig2d::fit_template(image, humanoid), "fit").bones;
                  })});
  rows.back().detail = std::to_string(bones.size()) + " bones, " + ratio(rows.back().ms);
  std::vector<rig2d::SkeletonTemplate> bundled;
  for (const std::string& name : rig2d::bundled_template_names()) bundled.push_back(must(rig2d::bundled_template(name), "template"));
  std::string chosen;
  rows.push_back({"template fit (auto)", "", median_ms(repeats, [&] {
                    auto fit = must(rig2d::fit_template_auto(image, bundled), "auto");
                    chosen = fit.best ? fit.best->template_name : "none";
                    bones = fit.best ? fit.best->bones : std::vector<rig2d::Bone>{};
                  })});
  rows.back().detail = chosen + ", " + std::to_string(bones.size()) + " bones, " + ratio(rows.back().ms);

  rig2d::GridMeshOptions grid_options;
  grid_options.width = side;
  grid_options.height = side;
  grid_options.cols = 24;
  grid_options.rows = 24;
  rig2d::Mesh grid;
  rows.push_back({"grid mesh 24x24", "",
                  median_ms(repeats, [&] { grid = must(rig2d::generate_grid_mesh(grid_options, inside), "grid"); })});
  rows.back().detail = std::to_string(grid.verts.size()) + " verts";

  rig2d::Mesh outline;
  rows.push_back({"outline mesh", "", median_ms(repeats, [&] { outline = must(rig2d::outline_mesh(image), "outline"); })});
  rows.back().detail = std::to_string(outline.verts.size()) + " verts, " + std::to_string(outline.tris.size() / 3) + " tris";

  rig2d::SkinWeights weights;
  rows.push_back({"joint weights (outline)", std::to_string(bones.size()) + " bones",
                  median_ms(repeats, [&] { weights = rig2d::compute_joint_weights(outline.verts, bones); })});
  rows.push_back({"heat weights (outline)", std::to_string(bones.size()) + " bones", median_ms(repeats, [&] {
                    weights = must(rig2d::compute_heat_weights(outline, bones), "heat").weights;
                  })});

  rig2d::Rig rig;
  rig.id = "00000000-0000-5000-8000-000000000000";
  rig.bones = bones;
  rig2d::Part part;
  part.sprite = "00000000-0000-5000-8000-000000000001";
  part.mesh = outline;
  part.skin_indices = weights.indices;
  part.skin_weights = weights.weights;
  rig.parts.push_back(part);

  rig2d::RigPose pose = rig2d::bind_pose(rig);
  for (std::size_t b = 1; b < pose.bones.size(); ++b) pose.bones[b].rot = 0.3;
  std::vector<std::vector<rig2d::Vec2>> skinned;
  const int skin_loops = 100;
  rows.push_back({"skin (x100)", std::to_string(outline.verts.size()) + " verts", median_ms(repeats, [&] {
                    for (int i = 0; i < skin_loops; ++i) skinned = rig2d::skin_rig(rig, pose);
                  })});

  rig2d::Bounds bounds;
  rig2d::add_pose_bounds(bounds, rig, skinned, pose.sprite);
  rig2d::FramingOptions framing;
  framing.width = side;
  framing.height = side;
  framing.fit = true;
  rig2d::RenderOptions render;
  render.view = must(rig2d::frame_view(bounds, framing), "frame");
  std::vector<rig2d::PartTexture> textures(1);
  textures[0].texture = std::make_shared<const rig2d::Texture>(rig2d::make_texture(image));
  rig2d::Image rendered;
  rows.push_back({"render", std::to_string(side) + "^2", median_ms(repeats, [&] {
                    rendered = must(rig2d::render_pose(rig, textures, pose, skinned, render), "render");
                  })});

  std::string json;
  rows.push_back({"write rig JSON", "", median_ms(repeats, [&] { json = rig2d::write_rig(rig); })});
  rows.back().detail = std::to_string(json.size() / 1024) + " KiB";
  rows.push_back({"read rig (normalized)", "",
                  median_ms(repeats, [&] { (void)must(rig2d::read_rig_normalized(json, "b.rig2d.json"), "read"); })});
  rows.push_back({"read rig (strict)", "", median_ms(repeats, [&] {
                    if (!rig2d::read_rig_strict(json, "b.rig2d.json").rig) std::exit(1);
                  })});

  const double decode_ms = rows.front().ms;
  std::printf("bench_all: %dx%d sprite, median of %d runs\n\n", side, side, repeats);
  std::printf("%-26s %12s %14s  %s\n", "stage", "ms", "x PNG decode", "");
  for (const Row& r : rows) {
    std::printf("%-26s %12.3f %14.3f  %s\n", r.stage.c_str(), r.ms, r.ms / decode_ms, r.detail.c_str());
  }
  if (argc > 3) templates_on_folder(argv[3], repeats, bundled);
  return 0;
}
