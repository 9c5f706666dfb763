// SPDX-License-Identifier: Apache-2.0
// LBS skinning (skin_vertices, 4 influences) against its memory floor: a memcpy of the same bind-vertex,
// index and weight buffers into buffers of the same size, at 1k-10k vertices. Both run interleaved in
// the same process so a loaded machine slows both alike; the ratio is what counts (goal: <= 2).
// Two skins: influences drawn at random for every vertex (no two neighbours alike: the worst case
// for a SkinPlan), and a rig's (a grid mesh with a chain of bones across it, heat weights, as
// rig2d-autorig weights a sprite: neighbours share their bones).
//
//   cmake -S . -B build/bench -DRIG2D_BUILD_BENCH=ON && cmake --build build/bench --target bench_skin -j2
//   ./build/bench/bench/bench_skin [repeats=31] [bones=20]
//   ./build/bench/bench/bench_skin rigs DIR...   # the game's side: every *.rig2d.json under DIR posed and
//                                                # skinned per frame (ns per rig per frame, with and
//                                                # without a RigSkinPlan; the ratio to skin_vertices is
//                                                # the median of 15 rounds that time both side by side,
//                                                # the median of 3 passes over the folders)
//   ./build/bench/bench/bench_skin clips DIR...  # every rig with clips beside it (<stem>.<clip>.anim.json,
//                                                # as rig2d-convert writes them): its first 3 clips
//                                                # played at 60 fps, frame after frame as a game does
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <string>
#include <vector>

#include "rig2d/anim/clip.h"
#include "rig2d/anim/rig_pose.h"
#include "rig2d/anim/skin_rig.h"
#include "rig2d/geometry/grid_mesh.h"
#include "rig2d/io/files.h"
#include "rig2d/preview/pose.h"
#include "rig2d/rig/rig_json.h"
#include "rig2d/skin/skeleton.h"
#include "rig2d/skin/lbs.h"
#include "rig2d/skin/skin_plan.h"
#include "rig2d/weights/heat_weights.h"

using namespace rig2d;

namespace {

struct Buffers {
  std::vector<Vec2> bind, out;
  std::vector<std::uint32_t> idx;
  std::vector<double> w;
};

// Scattered influences: every vertex has 2-4 bones drawn at random among `bones` (20 unless asked),
// weights summing to 1.
Buffers scattered_skin(std::size_t n, std::uint32_t bones) {
  Buffers b;
  b.bind.resize(n);
  b.out.resize(n);
  b.idx.resize(4 * n);
  b.w.resize(4 * n);
  std::uint32_t state = 12345;
  auto next = [&] { return state = state * 1664525u + 1013904223u; };
  for (std::size_t v = 0; v < n; ++v) {
    b.bind[v] = {static_cast<double>(next() % 10000) * 0.0371, static_cast<double>(next() % 10000) * 0.0293};
    const int used = 2 + static_cast<int>(next() % 3);
    double left = 1;
    for (int k = 0; k < 4; ++k) {
      b.idx[4 * v + static_cast<std::size_t>(k)] = next() % bones;
      const double wk = k + 1 == used ? left : k < used ? left * 0.6 : 0;
      b.w[4 * v + static_cast<std::size_t>(k)] = wk;
      left -= wk;
    }
  }
  return b;
}

// A rig's skin: a grid of about n vertices over a 2:1 rectangle, a chain of `bones` equal bones
// along its middle, heat weights (rig2d-autorig's default). Empty if the weights fail.
Buffers rig_skin(std::size_t n, std::uint32_t bones) {
  const double cols = std::round(std::sqrt(2.0 * static_cast<double>(n))) - 1, rows = std::round((cols + 1) / 2) - 1;
  auto mesh = generate_grid_mesh({400, 200, cols, rows, 0.5, 0.5});
  std::vector<Bone> chain;
  for (std::uint32_t i = 0; i < bones; ++i)
    chain.push_back({"b" + std::to_string(i), static_cast<std::int64_t>(i) - 1, i == 0 ? -190.0 : 380.0 / bones, 0, 0});
  auto heat = mesh ? compute_heat_weights(*mesh, chain) : Unexpected{Error{}};
  Buffers b;
  if (!heat) return b;
  b.bind = mesh->verts;
  b.out.resize(b.bind.size());
  b.idx = heat->weights.indices;
  b.w = heat->weights.weights;
  return b;
}

std::vector<Affine2> make_matrices(std::uint32_t bones) {
  std::vector<Affine2> m;
  for (std::uint32_t i = 0; i < bones; ++i) {
    const double r = 0.1 * i, s = std::sin(r), c = std::cos(r);
    m.push_back({c, s, -s, c, 3.0 * i, -2.0 * i});
  }
  return m;
}

double thread_cpu_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

// CPU time of this thread: on a loaded machine wall time mostly measures the wait for a core.
template <typename F>
double seconds(F&& f) {
  const double t0 = thread_cpu_seconds();
  f();
  return thread_cpu_seconds() - t0;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

struct Figures {
  double worst = 0, worst_plan = 0;
};

// One row per size: skin_vertices, the same through a SkinPlan, and the memcpy floor.
Figures run_sizes(const char* title, Buffers (*make)(std::size_t, std::uint32_t), std::uint32_t bones,
                  const std::vector<Affine2>& mats, int repeats) {
  std::printf("\n%s\n%8s %12s %12s %12s %10s %8s %8s\n", title, "vertices", "lbs ns/vert", "plan ns/vert",
              "copy ns/vert", "copy GB/s", "ratio", "plan");
  Figures f;
  for (const std::size_t size : {1000u, 2000u, 4000u, 6000u, 10000u}) {
    Buffers b = make(size, bones);
    const std::size_t n = b.bind.size();
    if (n == 0) continue;
    std::vector<Vec2> bind_copy(n);
    std::vector<std::uint32_t> idx_copy(4 * n);
    std::vector<double> w_copy(4 * n);
    const int inner = static_cast<int>(std::max<std::size_t>(1, 4000000 / n));
    auto lbs = [&] {
      for (int i = 0; i < inner; ++i) skin_vertices(b.bind, b.idx, b.w, mats, b.out);
    };
    const SkinPlan plan(b.bind, b.idx, b.w);
    auto planned = [&] {
      for (int i = 0; i < inner; ++i) skin_vertices(plan, mats, b.out);
    };
    auto copy = [&] {
      for (int i = 0; i < inner; ++i) {
        std::memcpy(bind_copy.data(), b.bind.data(), n * sizeof(Vec2));
        std::memcpy(idx_copy.data(), b.idx.data(), 4 * n * sizeof(std::uint32_t));
        std::memcpy(w_copy.data(), b.w.data(), 4 * n * sizeof(double));
        // Keep the copies observable so the compiler cannot drop them.
        b.out[0].x += bind_copy[static_cast<std::size_t>(i) % n].x * 0.0 + w_copy[0] * 0.0 + idx_copy[0] * 0.0;
      }
    };
    std::vector<double> t_lbs, t_plan, t_copy;
    for (int r = 0; r < repeats; ++r) {
      t_copy.push_back(seconds(copy));
      t_lbs.push_back(seconds(lbs));
      t_plan.push_back(seconds(planned));
    }
    const double per = static_cast<double>(inner) * static_cast<double>(n);
    const double lbs_ns = median(t_lbs) / per * 1e9, plan_ns = median(t_plan) / per * 1e9;
    const double copy_ns = median(t_copy) / per * 1e9;
    f.worst = std::max(f.worst, lbs_ns / copy_ns);
    f.worst_plan = std::max(f.worst_plan, plan_ns / copy_ns);
    std::printf("%8zu %12.2f %12.2f %12.2f %10.1f %8.2f %8.2f\n", n, lbs_ns, plan_ns, copy_ns, 64.0 / copy_ns,
                lbs_ns / copy_ns, plan_ns / copy_ns);
  }
  return f;
}

std::string tail(const std::string& s, std::size_t n) { return s.size() > n ? s.substr(s.size() - n) : s; }

// Rounds of each rig's measures, every round a short slice of each ...
constexpr int kRounds = 15;
// ... in this many passes over the whole folder: a rig's figures are those of its median pass, so a
// stretch of the machine running slow (another guest on the core for tens of ms, which slows the
// bone step more than the skinning) spoils one pass of a rig, not its result.
constexpr int kPasses = 3;

// One rig's figures, ns per frame.
struct RigRow {
  std::string name;
  std::size_t vertices = 0, bones = 0, posed = 0, parts = 0;
  double planned = 0, unplanned = 0, lbs = 0, plan_lbs = 0;
  double ratio = 0;       // the median over the rounds of skin_rig / skin_vertices (the goal's ratio)
  bool mismatch = false;  // the planned frame differs from skin_rig without a plan
};

// The game's per-frame cost of one rig: skin_rig with a RigSkinPlan made once (what a game holds per
// rig: bone matrices from the pose, then every part skinned, into buffers kept between frames),
// skin_rig without one (previews: bind matrices and the name lookup per call), skin_vertices alone
// with the matrices made once (the floor the goal is set against) and the plan's skinning alone with
// the matrices made once (the rig's SkinPlan and the copies into the parts' buffers, so the planned
// frame less this is the bone step). Frames cycle through 8 poses, every joint bent by a different
// angle, so nothing is the same from one frame to the next.
RigRow time_rig(const Rig& rig) {
  RigRow row;
  row.bones = rig.bones.size();
  row.parts = rig.parts.size();
  std::vector<RigPose> poses(8, bind_pose(rig));
  for (std::size_t k = 0; k < poses.size(); ++k)
    for (BoneLocal& b : poses[k].bones) b.rot += 0.3 + 0.01 * static_cast<double>(k);
  const BindMatrices bind = derive_bind_matrices(rig.bones);
  std::vector<Affine2> now(rig.bones.size()), skin(rig.bones.size());
  pose_root_local(rig.bones, poses[0].bones, now);
  skinning_matrices(now, bind.inv_bind, skin);
  for (const Part& part : rig.parts) row.vertices += part.mesh.verts.size();
  std::vector<std::vector<Vec2>> out(rig.parts.size());
  for (std::size_t p = 0; p < rig.parts.size(); ++p) out[p].resize(rig.parts[p].mesh.verts.size());
  const int inner = static_cast<int>(std::max<std::size_t>(16, 40000 / std::max<std::size_t>(1, row.vertices)));
  double sink = 0;
  const RigSkinPlan plan = plan_rig_skin(rig);
  row.posed = plan.order.size();
  RigSkinScratch scratch;
  std::vector<std::vector<Vec2>> frame;
  auto planned = [&] {
    for (int i = 0; i < inner; ++i) {
      skin_rig(rig, poses[static_cast<std::size_t>(i) % poses.size()], plan, scratch, frame);
      sink += frame[0].empty() ? 0 : frame[0][0].x;
    }
  };
  auto whole = [&] {
    for (int i = 0; i < inner; ++i) sink += skin_rig(rig, poses[static_cast<std::size_t>(i) % poses.size()])[0][0].x;
  };
  auto lbs = [&] {
    for (int i = 0; i < inner; ++i)
      for (std::size_t p = 0; p < rig.parts.size(); ++p)
        skin_vertices(rig.parts[p].mesh.verts, rig.parts[p].skin_indices, rig.parts[p].skin_weights, skin, out[p]);
  };
  std::vector<Vec2> flat(plan.vertices.vertex_count());
  auto plan_lbs = [&] {
    for (int i = 0; i < inner; ++i) {
      if (rig.parts.size() == 1) {  // as skin_rig skins a lone part: in place
        skin_vertices(plan.vertices, skin, out[0]);
        continue;
      }
      skin_vertices(plan.vertices, skin, flat);
      for (std::size_t p = 0; p < rig.parts.size(); ++p)
        std::copy_n(flat.begin() + static_cast<std::ptrdiff_t>(plan.part_start[p]), out[p].size(), out[p].begin());
    }
  };
  // The planned frame must be the unplanned one, bit for bit.
  for (const RigPose& pose : poses) {
    skin_rig(rig, pose, plan, scratch, frame);
    const std::vector<std::vector<Vec2>> expected = skin_rig(rig, pose);
    for (std::size_t p = 0; p < expected.size(); ++p)
      if (frame[p].size() != expected[p].size() ||
          std::memcmp(frame[p].data(), expected[p].data(), expected[p].size() * sizeof(Vec2)) != 0)
        row.mismatch = true;
  }
  // Short slices in many rounds, every measure's slice beside the others' in each round (skin_rig
  // and skin_vertices in turn first): a load that comes and goes over milliseconds slows a round's
  // slices alike, so each round's skin_rig / skin_vertices compares like with like, and the rig's
  // ratio is the median of the rounds'. (A median of each measure alone paired slices of different
  // moments: a tiny rig read 1.3x in one run and 1.7x in the next.)
  std::vector<double> t_rig, t_plain, t_lbs, t_plan, ratios;
  auto ns = [&](auto& measure) { return seconds(measure) / inner * 1e9; };
  for (int r = 0; r < kRounds; ++r) {
    const bool rig_first = r % 2 == 0;
    const double first = rig_first ? ns(planned) : ns(lbs), second = rig_first ? ns(lbs) : ns(planned);
    t_rig.push_back(rig_first ? first : second);
    t_lbs.push_back(rig_first ? second : first);
    ratios.push_back(t_rig.back() / t_lbs.back());
    t_plain.push_back(ns(whole));
    t_plan.push_back(ns(plan_lbs));
  }
  row.planned = median(t_rig);
  row.unplanned = median(t_plain);
  row.lbs = median(t_lbs);
  row.ratio = median(ratios);
  row.plan_lbs = median(t_plan) + (sink == 12345.678 ? 1 : 0);
  return row;
}

// The .rig2d.json files under the folders given after the mode, in path order.
std::vector<std::filesystem::path> rig_files(int argc, char** argv) {
  std::vector<std::filesystem::path> files;
  for (int a = 2; a < argc; ++a)
    for (const auto& e : std::filesystem::recursive_directory_iterator(argv[a]))
      if (e.is_regular_file() && e.path().string().ends_with(".rig2d.json")) files.push_back(e.path());
  std::sort(files.begin(), files.end());
  return files;
}

// Every rig of the folders: one line each, then the worst rigs and the median by the goal's ratio.
int run_rigs(int argc, char** argv) {
  namespace fs = std::filesystem;
  const std::vector<fs::path> files = rig_files(argc, argv);
  std::printf("ns per rig per frame (medians of %d rounds, the median of %d passes over the folders); 'skin_rig' is "
              "skin_rig with a RigSkinPlan, 'ratio' the median of the rounds' skin_rig / skin_vertices (the goal: <= 1.5x);\n"
              "'skinning' is the plan's skinning alone (matrices made once), 'bone step' skin_rig less it\n",
              kRounds, kPasses);
  std::printf("%-44s %6s %5s %5s %5s %13s %9s %6s %9s %9s %10s\n", "rig", "verts", "parts", "bones", "posed",
              "skin_vertices", "skin_rig", "ratio", "skinning", "bone step", "unplanned");
  std::vector<Rig> rigs;
  std::vector<std::string> names;
  for (const fs::path& path : files) {
    auto text = read_file(path.string(), std::uint64_t{1} << 30);
    if (!text) continue;
    auto rig = read_rig_normalized(*text, path.string());
    if (!rig || rig->bones.empty() || rig->parts.empty()) continue;
    rigs.push_back(std::move(*rig));
    names.push_back(tail(path.parent_path().filename().string() + "/" + path.stem().stem().string(), 44));
  }
  std::vector<std::vector<RigRow>> passes(rigs.size());
  for (int pass = 0; pass < kPasses; ++pass)
    for (std::size_t i = 0; i < rigs.size(); ++i) passes[i].push_back(time_rig(rigs[i]));
  std::vector<RigRow> rows;
  std::size_t mismatches = 0;
  for (std::size_t i = 0; i < rigs.size(); ++i) {
    std::vector<RigRow>& mine = passes[i];
    std::sort(mine.begin(), mine.end(), [](const RigRow& a, const RigRow& b) { return a.ratio < b.ratio; });
    RigRow row = mine[mine.size() / 2];
    for (const RigRow& r : mine) row.mismatch = row.mismatch || r.mismatch;
    row.name = names[i];
    std::printf("%-44s %6zu %5zu %5zu %5zu %13.0f %9.0f %6.2f %9.0f %9.0f %10.0f%s\n", row.name.c_str(), row.vertices,
                row.parts, row.bones, row.posed, row.lbs, row.planned, row.ratio, row.plan_lbs,
                row.planned - row.plan_lbs, row.unplanned, row.mismatch ? "  MISMATCH: planned != unplanned" : "");
    mismatches += row.mismatch ? 1 : 0;
    rows.push_back(row);
  }
  if (rows.empty()) return 1;
  double total_rig = 0, total_plain = 0, total_lbs = 0;
  for (const RigRow& r : rows) {
    total_rig += r.planned;
    total_plain += r.unplanned;
    total_lbs += r.lbs;
  }
  std::sort(rows.begin(), rows.end(),
            [](const RigRow& a, const RigRow& b) { return a.ratio > b.ratio; });
  std::printf("\nworst by skin_rig / skin_vertices:\n");
  for (std::size_t i = 0; i < std::min<std::size_t>(6, rows.size()); ++i)
    std::printf("  %-44s %6zu verts %4zu posed of %4zu bones: %7.0f / %7.0f ns = %.2fx\n", rows[i].name.c_str(),
                rows[i].vertices, rows[i].posed, rows[i].bones, rows[i].planned, rows[i].lbs,
                rows[i].ratio);
  const RigRow& mid = rows[rows.size() / 2];
  const double per = static_cast<double>(rows.size());
  std::printf("median: %s %.0f / %.0f ns = %.2fx\n", mid.name.c_str(), mid.planned, mid.lbs, mid.ratio);
  std::printf("%zu rigs, mean ns per rig per frame: skin_rig %.0f, unplanned %.0f, skin_vertices %.0f; over the "
              "folders skin_rig %.2fx skin_vertices (unplanned %.2fx); worst %.2fx (goal <= 1.5x on every rig)\n",
              rows.size(), total_rig / per, total_plain / per, total_lbs / per, total_rig / total_lbs,
              total_plain / total_lbs, rows[0].ratio);
  if (mismatches > 0) std::printf("%zu rigs skinned differently with a plan\n", mismatches);
  return mismatches > 0 ? 2 : 0;
}

// One clip played on a rig at 60 fps, frame after frame (what a game does, and what lets a frame
// reuse the cos and sin of the bones the clip holds still): skin_rig with a RigSkinPlan against
// skin_vertices alone on the first frame's matrices, ns per frame; and how many of the posed bones'
// rotations change from one frame to the next.
struct ClipRow {
  std::size_t frames = 0;
  double changed = 0, planned = 0, lbs = 0;
};

ClipRow time_clip(const Rig& rig, const Clip& clip, const std::string& clip_path) {
  ClipRow row;
  const ClipBinding binding = bind_clip(clip, rig, clip_path);
  const double duration = std::isfinite(clip.duration) && clip.duration > 0 ? std::min(clip.duration, 10.0) : 0;
  std::vector<RigPose> poses;
  for (std::size_t k = 0; static_cast<double>(k) / 60 <= duration + 1e-9; ++k) {
    poses.push_back(bind_pose(rig));
    apply_clip(clip, binding, static_cast<double>(k) / 60, poses.back());
  }
  row.frames = poses.size();
  const RigSkinPlan plan = plan_rig_skin(rig);
  std::size_t changed = 0, steps = 0;
  for (std::size_t f = 0; f < poses.size(); ++f)
    for (const PoseStep& step : plan.order) {
      const RigPose& before = poses[f == 0 ? poses.size() - 1 : f - 1];  // the clip loops
      changed += std::memcmp(&poses[f].bones[step.bone].rot, &before.bones[step.bone].rot, sizeof(double)) != 0;
      ++steps;
    }
  row.changed = steps ? static_cast<double>(changed) / static_cast<double>(steps) : 0;
  const BindMatrices bind = derive_bind_matrices(rig.bones);
  std::vector<Affine2> now(rig.bones.size()), skin(rig.bones.size());
  pose_root_local(rig.bones, poses[0].bones, now);
  skinning_matrices(now, bind.inv_bind, skin);
  std::vector<std::vector<Vec2>> out(rig.parts.size()), frame;
  for (std::size_t p = 0; p < rig.parts.size(); ++p) out[p].resize(rig.parts[p].mesh.verts.size());
  RigSkinScratch scratch;
  const std::size_t inner = poses.size() * std::max<std::size_t>(1, 20000 / poses.size());
  auto planned = [&] {
    for (std::size_t i = 0; i < inner; ++i) skin_rig(rig, poses[i % poses.size()], plan, scratch, frame);
  };
  auto lbs = [&] {
    for (std::size_t i = 0; i < inner; ++i)
      for (std::size_t p = 0; p < rig.parts.size(); ++p)
        skin_vertices(rig.parts[p].mesh.verts, rig.parts[p].skin_indices, rig.parts[p].skin_weights, skin, out[p]);
  };
  std::vector<double> t_rig, t_lbs;
  for (int r = 0; r < 7; ++r) {
    t_rig.push_back(seconds(planned) / static_cast<double>(inner) * 1e9);
    t_lbs.push_back(seconds(lbs) / static_cast<double>(inner) * 1e9);
  }
  row.planned = median(t_rig);
  row.lbs = median(t_lbs);
  return row;
}

// Every rig of the folders that has clips beside it: its first 3 clips, one line each, then the
// median and worst by skin_rig / skin_vertices.
int run_clips(int argc, char** argv) {
  namespace fs = std::filesystem;
  const std::vector<fs::path> files = rig_files(argc, argv);
  std::printf("clips at 60 fps, ns per frame; 'changed': the posed bones' rotations that change from one frame to "
              "the next\n%-60s %6s %5s %8s %13s %9s %6s\n",
              "rig / clip", "frames", "posed", "changed", "skin_vertices", "skin_rig", "ratio");
  std::vector<double> ratios;
  for (const fs::path& path : files) {
    auto text = read_file(path.string(), std::uint64_t{1} << 30);
    if (!text) continue;
    auto rig = read_rig_normalized(*text, path.string());
    if (!rig || rig->bones.empty() || rig->parts.empty()) continue;
    const std::string stem = path.filename().string().substr(0, path.filename().string().size() - 11);
    std::vector<fs::path> clips;
    for (const auto& e : fs::directory_iterator(path.parent_path())) {
      const std::string name = e.path().filename().string();
      if (name.starts_with(stem + ".") && name.ends_with(".anim.json") &&
          name.find('.', stem.size() + 1) == name.size() - 10)
        clips.push_back(e.path());
    }
    std::sort(clips.begin(), clips.end());
    clips.resize(std::min<std::size_t>(3, clips.size()));
    for (const fs::path& c : clips) {
      auto clip = load_clip(c.string());
      if (!clip) continue;
      const ClipRow row = time_clip(*rig, *clip, c.string());
      if (row.frames == 0) continue;
      const std::string name = tail(path.parent_path().filename().string() + "/" + c.filename().string(), 60);
      std::printf("%-60s %6zu %5zu %7.0f%% %13.0f %9.0f %6.2f\n", name.c_str(), row.frames,
                  plan_rig_skin(*rig).order.size(), 100 * row.changed, row.lbs, row.planned, row.planned / row.lbs);
      ratios.push_back(row.planned / row.lbs);
    }
  }
  if (ratios.empty()) return 1;
  std::sort(ratios.begin(), ratios.end());
  std::size_t above = 0;
  for (const double r : ratios) above += r > 1.5 ? 1 : 0;
  std::printf("%zu clips: skin_rig / skin_vertices median %.2fx, worst %.2fx, %zu above 1.5x\n", ratios.size(),
              ratios[ratios.size() / 2], ratios.back(), above);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc > 2 && std::string(argv[1]) == "rigs") return run_rigs(argc, argv);
  if (argc > 2 && std::string(argv[1]) == "clips") return run_clips(argc, argv);
  const int repeats = argc > 1 ? std::max(3, std::atoi(argv[1])) : 31;
  const auto bones = static_cast<std::uint32_t>(argc > 2 ? std::clamp(std::atoi(argv[2]), 1, 1024) : 20);
  const std::vector<Affine2> mats = make_matrices(bones);
  std::printf(
      "rig2d LBS bench: skin_vertices vs memcpy of the same bind+index+weight buffers (64 B/vertex in),\n"
      "thread CPU time, median of %d interleaved runs of ~4M vertices each, %u bones; 'plan' is\n"
      "skin_vertices(SkinPlan) on a plan of the same buffers, made once (not timed)\n",
      repeats, bones);
  const Figures scattered =
      run_sizes("scattered influences (2-4 random bones per vertex)", scattered_skin, bones, mats, repeats);
  const Figures rig =
      run_sizes("a rig's skin (grid mesh, chain of bones, heat weights)", rig_skin, bones, mats, repeats);
  std::printf(
      "\nworst LBS / memcpy: scattered %.2fx, with a SkinPlan %.2fx; rig %.2fx, with a SkinPlan %.2fx (goal <= 2x)\n",
      scattered.worst, scattered.worst_plan, rig.worst, rig.worst_plan);
  return 0;
}
