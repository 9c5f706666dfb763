// SPDX-License-Identifier: Apache-2.0
// JS truthiness of a number, as the engine's clip evaluation tests flags (bool tracks, flipX).
#pragma once

#include <cmath>

namespace rig2d::detail {

// 0, -0 and NaN are falsy; every other number, infinities included, is truthy.
inline bool js_number_truthy(double v) { return v != 0 && !std::isnan(v); }

}  // namespace rig2d::detail
