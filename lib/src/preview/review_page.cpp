// SPDX-License-Identifier: Apache-2.0
// The review page: the rigs as data (bind pose, meshes, skin arrays, framed UVs, bound clip tracks,
// findings) in JSON script elements, and the viewer's script and style (lib/src/preview/review/,
// embedded at build time) that skins and draws them in the browser.
#include "rig2d/preview/review_page.h"

#include <cstdio>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "preview/review_data.h"
#include "rig2d/anim/clip.h"
#include "rig2d/preview/pose.h"
#include "rig2d/raster/color_ramp.h"

extern const unsigned char rig2d_review_js[];
extern const std::size_t rig2d_review_js_size;
extern const unsigned char rig2d_review_css[];
extern const std::size_t rig2d_review_css_size;

namespace rig2d {
namespace {

using nlohmann::json;

constexpr std::size_t kMaxReviewRigs = 100000;

std::string_view embedded(const unsigned char* bytes, std::size_t size) {
  return {reinterpret_cast<const char*>(bytes), size};
}

std::string hex_color(Paint p) {
  char text[8];
  std::snprintf(text, sizeof text, "#%02x%02x%02x", static_cast<unsigned>(p.r), static_cast<unsigned>(p.g),
                static_cast<unsigned>(p.b));
  return text;
}

// Settings every rig shares: the weight ramp, the bone palette, where codes link to.
json page_settings(const ReviewPageOptions& o, const std::optional<Clip>& clip) {
  json viridis = json::array();
  for (int i = 0; i < 256; ++i) viridis.push_back(hex_color(ramp_color(Ramp::Viridis, i / 255.0)));
  json palette = json::array();
  for (std::size_t b = 0; b < 8; ++b) palette.push_back(hex_color(bone_color(b)));
  json out = {{"title", o.title}, {"docs", o.docs_base_uri}, {"viridis", viridis}, {"palette", palette}};
  out["clip"] = clip ? json(clip->name) : json(nullptr);
  out["clipPath"] = o.clip_path.empty() ? json(nullptr) : json(o.clip_path);
  return out;
}

// The page as text: the fixed skeleton, the data elements, the viewer's style and script.
std::string assemble(const json& settings, const json& index, const std::vector<std::string>& rig_data,
                     const std::vector<std::string>& textures) {
  std::string html;
  html += "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n";
  html += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n";
  // Nothing may leave the page: no network, only inline script and style, images from data: URIs
  // or (linked textures) files beside the page.
  html +=
      "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; script-src 'unsafe-inline'; "
      "style-src 'unsafe-inline'; img-src data: file: blob:\">\n";
  html += "<title>rig2d review</title>\n<style>\n";
  html += embedded(rig2d_review_css, rig2d_review_css_size);
  html += "</style>\n</head>\n<body>\n<noscript>This review page needs JavaScript.</noscript>\n";
  html +=
      "<script type=\"application/json\" id=\"rig2d-settings\">" + script_safe_json(settings.dump()) + "</script>\n";
  html += "<script type=\"application/json\" id=\"rig2d-index\">" +
          script_safe_json(index.dump(-1, ' ', false, json::error_handler_t::replace)) + "</script>\n";
  for (std::size_t i = 0; i < rig_data.size(); ++i) {
    html +=
        "<script type=\"application/json\" id=\"rig2d-rig-" + std::to_string(i) + "\">" + rig_data[i] + "</script>\n";
  }
  for (std::size_t i = 0; i < textures.size(); ++i) {
    html +=
        "<script type=\"application/json\" id=\"rig2d-tex-" + std::to_string(i) + "\">" + textures[i] + "</script>\n";
  }
  html += "<script type=\"application/json\" id=\"rig2d-vertices\">null</script>\n<script>\n";
  html += embedded(rig2d_review_js, rig2d_review_js_size);
  html += "</script>\n</body>\n</html>\n";
  return html;
}

}  // namespace

std::string script_safe_json(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '<')
      out += "\\u003c";
    else if (c == '>')
      out += "\\u003e";
    else if (c == '&')
      out += "\\u0026";
    else if (c == '\xE2' && i + 2 < text.size() && text[i + 1] == '\x80' &&
             (text[i + 2] == '\xA8' || text[i + 2] == '\xA9')) {
      out += text[i + 2] == '\xA8' ? "\\u2028" : "\\u2029";
      i += 2;
    } else {
      out += c;
    }
  }
  return out;
}

Result<ReviewPage> review_page(std::span<const ReviewInput> inputs, const ReviewPageOptions& o) {
  if (inputs.size() > kMaxReviewRigs) {
    return make_error("pose.review", "more than " + std::to_string(kMaxReviewRigs) + " rigs for one review page");
  }
  ReviewPage page;
  std::optional<Clip> clip;
  if (!o.clip_path.empty()) {
    auto loaded = load_clip(o.clip_path);
    if (!loaded) return Unexpected{loaded.error()};
    clip = std::move(*loaded);
    page.inputs.push_back(o.clip_path);
  }
  ValidateOptions vo;
  vo.deform = true;
  const Validator validator(vo);
  ReviewTextures textures(o.link_assets, o.page_path);
  json index = json::array();
  std::vector<std::string> rig_data;
  for (const ReviewInput& input : inputs) {
    ReviewRig rig = review_rig(input, o, clip ? &*clip : nullptr, o.validate ? &validator : nullptr, textures, page);
    index.push_back(std::move(rig.summary));
    rig_data.push_back(script_safe_json(rig.detail.dump(-1, ' ', false, json::error_handler_t::replace)));
  }
  page.rigs = inputs.size();
  page.texture_bytes = textures.embedded_bytes();
  page.html = assemble(page_settings(o, clip), index, rig_data, textures.take_uris());
  return page;
}

Result<ReviewPage> review_page(std::span<const std::string> rig_paths, const ReviewPageOptions& options) {
  std::vector<ReviewInput> inputs;
  inputs.reserve(rig_paths.size());
  for (const std::string& path : rig_paths) inputs.push_back({path, std::nullopt});
  return review_page(inputs, options);
}

}  // namespace rig2d
