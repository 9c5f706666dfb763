// SPDX-License-Identifier: Apache-2.0
// Robust geometric predicates after Shewchuk, "Adaptive Precision Floating-Point Arithmetic and Fast
// Robust Geometric Predicates" (1997): a floating-point filter with his error bounds, and when the
// filter cannot decide, an exact evaluation with floating-point expansions. The sign is always exact
// for finite inputs whose products neither overflow nor underflow (|coordinates| <= 1e30 keeps well
// clear of both). Private to the library; exported only for the unit tests.
#pragma once

#include "rig2d/core/types.h"

namespace rig2d::detail {

// Twice the signed area of (a, b, c): > 0 when a -> b -> c turns counter-clockwise in the y-up
// (mathematical) frame, < 0 when clockwise, exactly 0 when collinear. The sign is exact.
double orient2d(Vec2 a, Vec2 b, Vec2 c);

// > 0 when d lies strictly inside the circle through a, b, c (given with orient2d(a, b, c) > 0),
// < 0 outside, exactly 0 on it. The sign is exact.
double incircle(Vec2 a, Vec2 b, Vec2 c, Vec2 d);

// The exact paths alone, without the filter (so tests can check that both agree).
double orient2d_exact(Vec2 a, Vec2 b, Vec2 c);
double incircle_exact(Vec2 a, Vec2 b, Vec2 c, Vec2 d);

}  // namespace rig2d::detail
