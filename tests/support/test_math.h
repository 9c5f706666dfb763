// SPDX-License-Identifier: Apache-2.0
// Constants the unit tests share.
#pragma once

#include <numbers>

inline constexpr double kPi = std::numbers::pi;
