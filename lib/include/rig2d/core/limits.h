// SPDX-License-Identifier: Apache-2.0
// Every hard input limit in one place. Input over a limit is rejected with a clear error before
// anything is allocated for it.
#pragma once

#include <cstddef>
#include <cstdint>

namespace rig2d {

inline constexpr int kMaxImageSide = 16384;                          // px, either side
inline constexpr std::uint64_t kMaxImagePixels = 64ull << 20;        // 64 Mpx = 256 MiB of RGBA8
inline constexpr std::uint64_t kMaxPngFileBytes = 256ull << 20;      // bytes
inline constexpr std::uint64_t kMaxJsonFileBytes = 256ull << 20;     // bytes, rigs, scenes, clips
inline constexpr std::uint64_t kMaxSidecarBytes = 16ull << 20;       // bytes, a .png.meta.json or slices sidecar
inline constexpr int kMaxJsonDepth = 64;                             // nesting levels
inline constexpr std::size_t kMaxBones = 1024;
inline constexpr std::size_t kMaxParts = 256;
inline constexpr std::size_t kMaxVertices = 1u << 20;                // per part
inline constexpr std::size_t kMaxTriangleIndices = 3u << 21;         // per part
inline constexpr int kMaxInfluences = 4;                             // the engine's fixed 4 slots

}  // namespace rig2d
