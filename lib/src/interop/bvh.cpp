// SPDX-License-Identifier: Apache-2.0
// Reading BVH files: a token stream with line:col for every error, then forward kinematics.
#include "interop/bvh.h"

#include <cmath>
#include <cstdlib>
#include <limits>

namespace rig2d::detail {
namespace {

struct BvhToken {
  std::string_view text;
  int line = 0, column = 0;
};

class BvhLexer {
 public:
  BvhLexer(std::string_view text, const std::string& path) : text_(text), path_(path) {}

  // The next whitespace-separated token; empty text at the end.
  BvhToken next() {
    while (at_ < text_.size() && is_space(text_[at_])) advance();
    BvhToken t{{}, line_, column_};
    const std::size_t start = at_;
    while (at_ < text_.size() && !is_space(text_[at_])) advance();
    t.text = text_.substr(start, at_ - start);
    return t;
  }

  Unexpected fail(const BvhToken& at, std::string code, std::string message) const {
    Error e{std::move(code), std::move(message), Location{path_, "", at.line, at.column}};
    return Unexpected{std::move(e)};
  }

 private:
  static bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }
  void advance() {
    if (text_[at_] == '\n') {
      ++line_;
      column_ = 1;
    } else {
      ++column_;
    }
    ++at_;
  }
  std::string_view text_;
  const std::string& path_;
  std::size_t at_ = 0;
  int line_ = 1, column_ = 1;
};

std::optional<double> bvh_number(std::string_view s) {
  if (s.empty() || s.size() > 64) return std::nullopt;
  const std::string copy(s);
  char* end = nullptr;
  const double v = std::strtod(copy.c_str(), &end);
  if (end != copy.c_str() + copy.size() || !std::isfinite(v)) return std::nullopt;
  return v;
}

std::optional<BvhChannel> bvh_channel_of(std::string_view s) {
  if (s == "Xposition") return BvhChannel::Xposition;
  if (s == "Yposition") return BvhChannel::Yposition;
  if (s == "Zposition") return BvhChannel::Zposition;
  if (s == "Xrotation") return BvhChannel::Xrotation;
  if (s == "Yrotation") return BvhChannel::Yrotation;
  if (s == "Zrotation") return BvhChannel::Zrotation;
  return std::nullopt;
}

struct BvhParser {
  BvhLexer lex;
  BvhFile file;

  Result<BvhToken> expect(std::string_view word) {
    const BvhToken t = lex.next();
    if (t.text != word)
      return lex.fail(t, "bvh.syntax",
                      "expected \"" + std::string(word) + "\", found " +
                          (t.text.empty() ? std::string("the end of the file") : "\"" + std::string(t.text) + "\""));
    return t;
  }

  Result<double> number(const std::string& what) {
    const BvhToken t = lex.next();
    const auto v = bvh_number(t.text);
    if (!v)
      return lex.fail(t, "bvh.syntax", what + ": expected a finite number, found \"" + std::string(t.text) + "\"");
    return *v;
  }

  Result<BvhVec> offset() {
    if (auto ok = expect("OFFSET"); !ok) return Unexpected{ok.error()};
    BvhVec v;
    for (double* c : {&v.x, &v.y, &v.z}) {
      auto n = number("OFFSET");
      if (!n) return Unexpected{n.error()};
      *c = *n;
    }
    return v;
  }

  Result<void> channels(BvhJoint& joint) {
    if (auto ok = expect("CHANNELS"); !ok) return Unexpected{ok.error()};
    const BvhToken count = lex.next();
    const auto n = bvh_number(count.text);
    if (!n || *n < 0 || *n > 6 || *n != std::floor(*n))
      return lex.fail(count, "bvh.channels",
                      "CHANNELS takes a count of 0..6, found \"" + std::string(count.text) + "\"");
    for (int i = 0; i < int(*n); ++i) {
      const BvhToken c = lex.next();
      const auto ch = bvh_channel_of(c.text);
      if (!ch)
        return lex.fail(c, "bvh.channels",
                        "unknown channel \"" + std::string(c.text) + "\" (X/Y/Z position or rotation)");
      joint.channels.push_back(*ch);
    }
    joint.first_value = file.values_per_frame;
    file.values_per_frame += joint.channels.size();
    return {};
  }

  // ROOT/JOINT name { OFFSET CHANNELS (JOINT ...)* (End Site {OFFSET})? }, the keyword already read.
  Result<void> joint(const BvhToken& keyword, std::int64_t parent) {
    if (file.joints.size() == kMaxBvhJoints)
      return lex.fail(keyword, "bvh.limits", "more than " + std::to_string(kMaxBvhJoints) + " joints");
    const BvhToken name = lex.next();
    if (name.text.empty() || name.text == "{") return lex.fail(name, "bvh.syntax", "a joint needs a name");
    const std::size_t index = file.joints.size();
    file.joints.push_back({std::string(name.text), parent, {}, {}, 0, std::nullopt, {}});
    if (parent >= 0) file.joints[static_cast<std::size_t>(parent)].children.push_back(index);
    if (auto ok = expect("{"); !ok) return Unexpected{ok.error()};
    auto off = offset();
    if (!off) return Unexpected{off.error()};
    file.joints[index].offset = *off;
    if (auto ok = channels(file.joints[index]); !ok) return Unexpected{ok.error()};
    for (;;) {
      const BvhToken t = lex.next();
      if (t.text == "}") return {};
      if (t.text == "JOINT") {
        if (auto ok = joint(t, static_cast<std::int64_t>(index)); !ok) return ok;
      } else if (t.text == "End") {
        if (auto ok = expect("Site"); !ok) return Unexpected{ok.error()};
        if (auto ok = expect("{"); !ok) return Unexpected{ok.error()};
        auto end = offset();
        if (!end) return Unexpected{end.error()};
        file.joints[index].end_site = *end;
        if (auto ok = expect("}"); !ok) return Unexpected{ok.error()};
      } else {
        return lex.fail(t, "bvh.syntax",
                        "expected JOINT, End Site or \"}\", found " +
                            (t.text.empty() ? std::string("the end of the file") : "\"" + std::string(t.text) + "\""));
      }
    }
  }

  Result<void> motion() {
    if (auto ok = expect("MOTION"); !ok) return Unexpected{ok.error()};
    if (auto ok = expect("Frames:"); !ok) return Unexpected{ok.error()};
    const BvhToken count = lex.next();
    const auto frames = bvh_number(count.text);
    if (!frames || *frames < 1 || *frames != std::floor(*frames) || *frames > double(kMaxBvhValues))
      return lex.fail(count, "bvh.frames",
                      "Frames: expected a whole number of at least 1, found \"" + std::string(count.text) + "\"");
    file.frames = static_cast<std::size_t>(*frames);
    if (auto ok = expect("Frame"); !ok) return Unexpected{ok.error()};
    if (auto ok = expect("Time:"); !ok) return Unexpected{ok.error()};
    const BvhToken time = lex.next();
    const auto dt = bvh_number(time.text);
    if (!dt || *dt <= 0 || *dt > 3600)
      return lex.fail(time, "bvh.frames",
                      "Frame Time: expected seconds in (0, 3600], found \"" + std::string(time.text) + "\"");
    file.frame_time = *dt;
    if (file.values_per_frame != 0 && file.frames > kMaxBvhValues / file.values_per_frame)
      return lex.fail(count, "bvh.limits", "more than " + std::to_string(kMaxBvhValues) + " channel values");
    const std::size_t total = file.frames * file.values_per_frame;
    file.values.reserve(total);
    for (std::size_t i = 0; i < total; ++i) {
      const BvhToken t = lex.next();
      if (t.text.empty())
        return lex.fail(t, "bvh.frames",
                        std::to_string(file.frames) + " frames of " + std::to_string(file.values_per_frame) +
                            " values need " + std::to_string(total) + " numbers; the file ends after " +
                            std::to_string(i));
      const auto v = bvh_number(t.text);
      if (!v)
        return lex.fail(t, "bvh.syntax",
                        "a frame value: expected a finite number, found \"" + std::string(t.text) + "\"");
      file.values.push_back(*v);
    }
    const BvhToken extra = lex.next();
    if (!extra.text.empty())
      return lex.fail(
          extra, "bvh.frames",
          "more values than " + std::to_string(file.frames) + " frames of " + std::to_string(file.values_per_frame));
    return {};
  }
};

using BvhMat3 = std::array<double, 9>;  // row-major

BvhMat3 bvh_multiply(const BvhMat3& a, const BvhMat3& b) {
  BvhMat3 m{};
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c) m[r * 3 + c] = a[r * 3] * b[c] + a[r * 3 + 1] * b[3 + c] + a[r * 3 + 2] * b[6 + c];
  return m;
}

BvhVec bvh_apply(const BvhMat3& m, const BvhVec& v) {
  return {m[0] * v.x + m[1] * v.y + m[2] * v.z, m[3] * v.x + m[4] * v.y + m[5] * v.z,
          m[6] * v.x + m[7] * v.y + m[8] * v.z};
}

BvhMat3 bvh_rotation(BvhChannel axis, double degrees) {
  const double a = degrees * (3.14159265358979323846 / 180.0), c = std::cos(a), s = std::sin(a);
  switch (axis) {
    case BvhChannel::Xrotation:
      return {1, 0, 0, 0, c, -s, 0, s, c};
    case BvhChannel::Yrotation:
      return {c, 0, s, 0, 1, 0, -s, 0, c};
    default:
      return {c, -s, 0, s, c, 0, 0, 0, 1};
  }
}

}  // namespace

Result<BvhFile> read_bvh(std::string_view text, const std::string& path) {
  BvhParser p{BvhLexer(text, path), {}};
  if (auto ok = p.expect("HIERARCHY"); !ok) return Unexpected{ok.error()};
  auto root = p.expect("ROOT");
  if (!root) return Unexpected{root.error()};
  if (auto ok = p.joint(*root, -1); !ok) return Unexpected{ok.error()};
  if (auto ok = p.motion(); !ok) return Unexpected{ok.error()};
  return std::move(p.file);
}

BvhPose bvh_pose(const BvhFile& file, std::size_t frame) {
  BvhPose pose;
  pose.joints.resize(file.joints.size());
  pose.end_sites.resize(file.joints.size());
  std::vector<BvhMat3> world(file.joints.size());
  const double* values = frame < file.frames ? file.values.data() + frame * file.values_per_frame : nullptr;
  for (std::size_t j = 0; j < file.joints.size(); ++j) {
    const BvhJoint& joint = file.joints[j];
    BvhVec local = joint.offset;
    BvhMat3 rot{1, 0, 0, 0, 1, 0, 0, 0, 1};
    for (std::size_t c = 0; c < joint.channels.size(); ++c) {
      const double v = values ? values[joint.first_value + c] : 0;
      switch (joint.channels[c]) {
        case BvhChannel::Xposition:
          local.x += v;
          break;
        case BvhChannel::Yposition:
          local.y += v;
          break;
        case BvhChannel::Zposition:
          local.z += v;
          break;
        default:
          rot = bvh_multiply(rot, bvh_rotation(joint.channels[c], v));  // applied in the listed order
      }
    }
    if (joint.parent < 0) {
      pose.joints[j] = local;
      world[j] = rot;
    } else {
      const auto p = static_cast<std::size_t>(joint.parent);
      const BvhVec d = bvh_apply(world[p], local);
      pose.joints[j] = {pose.joints[p].x + d.x, pose.joints[p].y + d.y, pose.joints[p].z + d.z};
      world[j] = bvh_multiply(world[p], rot);
    }
    if (joint.end_site) {
      const BvhVec d = bvh_apply(world[j], *joint.end_site);
      pose.end_sites[j] = BvhVec{pose.joints[j].x + d.x, pose.joints[j].y + d.y, pose.joints[j].z + d.z};
    }
  }
  return pose;
}

}  // namespace rig2d::detail
