// SPDX-License-Identifier: Apache-2.0
// The shortest decimal that reads back as a given double (the digits std::to_chars' shortest form
// prints), computed without formatting them as text first. Internal.
#pragma once

#include <cstdint>

namespace rig2d::detail {

// A finite x > 0 as digits * 10^exponent, digits with the fewest decimal digits of every decimal that
// rounds to x, the nearest to x of those (ties to an even last digit), no trailing zeros: what
// std::to_chars(first, last, x) prints, as a number.
struct ShortestDecimal {
  std::uint64_t digits = 0;
  int exponent = 0;
};
ShortestDecimal shortest_decimal(double x);

}  // namespace rig2d::detail
