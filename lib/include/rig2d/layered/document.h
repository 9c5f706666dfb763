// SPDX-License-Identifier: Apache-2.0
// Layered documents: Photoshop (PSD, PSB) and OpenRaster (ORA) files read into their layers, each
// with its own pixels, place on the canvas, opacity, visibility and enclosing groups, so a character
// drawn in layers becomes the parts of one multi-part rig (layered/document_parts.h). What is read
// and what is only warned about: docs/layered.md.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "rig2d/core/error.h"
#include "rig2d/core/result.h"
#include "rig2d/export.h"
#include "rig2d/image/image.h"

namespace rig2d {

enum class LayeredFormat { Psd, Psb, Ora };

// A group (PSD layer folder, ORA nested stack) as the document holds it.
struct DocumentGroup {
  std::string name;
  double opacity = 1;    // 0..1, the group's own
  bool visible = true;   // the group's own flag
};

struct DocumentLayer {
  std::string name;                 // as in the document, UTF-8 (PSD: the Unicode name when given)
  std::size_t index = 0;            // the layer's record in the file (PSD: record order, bottom = 0;
                                    // ORA: document order in stack.xml, top = 0): what messages cite
  std::vector<std::size_t> groups;  // the enclosing groups (LayeredDocument::groups), outermost first
  int x = 0, y = 0;                 // [Units: px] the layer image's top-left on the canvas (may be negative)
  Image image;                      // the layer's own pixels, straight RGBA8 (an empty image: no pixels)
  double opacity = 1;               // 0..1, the layer's own (groups' not multiplied in)
  bool visible = true;              // the layer's own flag (groups' not applied)
  bool normal_blend = true;         // normal / src-over (a warning was given for anything else)
};

struct LayeredDocument {
  LayeredFormat format = LayeredFormat::Psd;
  int width = 0, height = 0;             // [Units: px] the canvas [Limit: 1..kMaxImageSide]
  std::vector<DocumentGroup> groups;     // every group, in file order
  std::vector<DocumentLayer> layers;     // pixel layers, bottom to top (the drawing order)
  std::optional<Image> composite;        // the flattened image the file carries, when asked for and present
  std::vector<Diagnostic> warnings;      // layers skipped or read approximately, located (layer name and index)
};

struct DocumentReadOptions {
  std::uint64_t max_bytes = 2048ull << 20;  // decoded pixels and inflated entries the read may hold at once
  bool composite = false;                   // also decode the flattened image (PSD image data, ORA mergedimage.png)
};

// PSD (version 1) and PSB (version 2) files: 8-bit RGB or grayscale, raw, RLE or zip channel data,
// layer folders (section dividers), Unicode names. Errors (the message names the layer's index and
// name and the byte offset): psd.signature, psd.version, psd.truncated (a length that points past the
// end), psd.header, psd.too_large (over kMaxImageSide / kMaxImagePixels), psd.depth and psd.mode (a
// document that is not 8-bit RGB or grayscale), psd.layer.bounds, psd.layer.channels,
// psd.compression, psd.rle (a row that decodes to the wrong size), psd.zip, psd.groups (unbalanced
// folders), memory.budget (the pixels would exceed options.max_bytes). The user mask is multiplied
// into alpha. Warnings: psd.layer.blend, psd.layer.clipping, psd.layer.adjustment (skipped),
// psd.layer.smart_object and psd.layer.text (their stored pixels are used). `path` only labels messages.
RIG2D_EXPORT Result<LayeredDocument> read_psd(std::string_view bytes, const std::string& path,
                                              const DocumentReadOptions& options = {});

// OpenRaster: the zip container (stored or deflated entries), stack.xml with nested stacks, PNG
// layers with x, y, opacity, visibility and composite-op. Errors: ora.zip (not a zip, or a broken
// one), ora.zip.path (an entry names "../", an absolute path or a drive), memory.budget (an entry whose
// declared or inflated size is over options.max_bytes: a zip bomb), ora.mimetype, ora.xml (stack.xml
// is not well-formed, with line:col), ora.xml.depth (nested deeper than kMaxOraDepth), ora.stack
// (missing or bad attributes: w, h, x, y, opacity), ora.too_large (a canvas over kMaxImagePixels), ora.layer.src (a layer's PNG is not in the zip),
// png.* (a layer PNG that does not decode; the message names the layer). Warnings: ora.layer.blend,
// ora.layer.format (a layer that is not a PNG: skipped).
inline constexpr int kMaxOraDepth = 64;
RIG2D_EXPORT Result<LayeredDocument> read_ora(std::string_view bytes, const std::string& path,
                                              const DocumentReadOptions& options = {});

// .psd, .psb or .ora by the file name's extension (any case); nullopt for anything else.
RIG2D_EXPORT std::optional<LayeredFormat> layered_format_of(std::string_view path);

// Reads the file (at most 2 GiB) and dispatches on its signature. Errors: io.*, layered.format (a
// file that is neither), and the readers'.
RIG2D_EXPORT Result<LayeredDocument> read_layered_document(const std::string& path,
                                                           const DocumentReadOptions& options = {});

}  // namespace rig2d
