// SPDX-License-Identifier: Apache-2.0
// The few plane-vector helpers a template fit and its colour-edge arm search both use. Internal to the
// skeleton module.
#pragma once

#include "rig2d/core/types.h"

namespace rig2d::detail::plane {

inline constexpr double kPi = 3.14159265358979323846;

inline Vec2 add(Vec2 a, Vec2 b) { return {a.x + b.x, a.y + b.y}; }
inline Vec2 sub(Vec2 a, Vec2 b) { return {a.x - b.x, a.y - b.y}; }
inline Vec2 scale(Vec2 a, double s) { return {a.x * s, a.y * s}; }

}  // namespace rig2d::detail::plane
