// SPDX-License-Identifier: Apache-2.0
// Shortest round-trip digits by Giulietti's Schubfach method ("The Schubfach way to render doubles",
// 2020): the rounding interval of x is scaled by one power of ten, taken from a table of 128-bit
// over-approximations g of 10^e (floor(10^e / 2^b) + 1 for the b that puts it in [2^127, 2^128)), with
// round-to-odd products, so the one candidate with a digit fewer and the two with 16-17 digits around
// x are compared exactly. The table is worked out at compile time with exact big-integer arithmetic.
#include "json/shortest_double.h"

#include <array>
#include <bit>

namespace rig2d::detail {
namespace {

__extension__ typedef unsigned __int128 u128;  // GCC and Clang; -Wpedantic accepts it this way

constexpr int kMinPow10 = -292;  // the e in 10^e the method needs for every finite double
constexpr int kMaxPow10 = 324;

struct Pow10Entry {
  std::uint64_t hi = 0, lo = 0;  // g
  int floor_log2 = 0;            // floor(log2(10^e))
};

// A non-negative integer as 32-bit limbs, least significant first; 40 limbs (1280 bits) hold 10^324
// and the 2^1120 the negative powers are divided from.
struct ShortestBig {
  std::array<std::uint32_t, 40> limb{};
  constexpr int bit_length() const {
    for (int i = 39; i >= 0; --i)
      if (limb[std::size_t(i)] != 0) return 32 * i + (32 - std::countl_zero(limb[std::size_t(i)]));
    return 0;
  }
  constexpr void times10() {
    std::uint64_t carry = 0;
    for (auto& l : limb) {
      const std::uint64_t v = std::uint64_t(l) * 10 + carry;
      l = static_cast<std::uint32_t>(v);
      carry = v >> 32;
    }
  }
  constexpr void divide10() {  // floor
    std::uint64_t rest = 0;
    for (int i = 39; i >= 0; --i) {
      const std::uint64_t v = (rest << 32) | limb[std::size_t(i)];
      limb[std::size_t(i)] = static_cast<std::uint32_t>(v / 10);
      rest = v % 10;
    }
  }
  constexpr bool bit(int i) const {
    return i >= 0 && i < 1280 && ((limb[std::size_t(i / 32)] >> (i % 32)) & 1u) != 0;
  }
  // floor(value * 2^-shift) for a result below 2^128 (shift may be negative).
  constexpr u128 scaled(int shift) const {
    u128 out = 0;
    for (int i = 127; i >= 0; --i) out = (out << 1) | (bit(i + shift) ? 1u : 0u);
    return out;
  }
};

constexpr std::array<Pow10Entry, kMaxPow10 - kMinPow10 + 1> make_pow10_table() {
  std::array<Pow10Entry, kMaxPow10 - kMinPow10 + 1> table{};
  auto put = [&table](int e, u128 g, int floor_log2) {
    table[std::size_t(e - kMinPow10)] = {static_cast<std::uint64_t>(g >> 64), static_cast<std::uint64_t>(g), floor_log2};
  };
  // 10^e, e >= 0: exactly; g = floor(10^e / 2^(L - 128)) + 1 with L its bit length.
  ShortestBig power;
  power.limb[0] = 1;
  for (int e = 0; e <= kMaxPow10; ++e) {
    const int length = power.bit_length();
    put(e, power.scaled(length - 128) + 1, length - 1);
    power.times10();
  }
  // 10^-j: floor(log2(10^-j)) = -L with L the bit length of 10^j (never a power of two), so
  // g = floor(2^(L + 127) / 10^j) + 1, which is floor(2^1120 / 10^j) / 2^(1120 - L - 127) floored,
  // and floor(2^1120 / 10^j) is 2^1120 floor-divided by 10, j times.
  ShortestBig ten_j, quotient;
  ten_j.limb[0] = 1;
  quotient.limb[1120 / 32] = 1;
  for (int j = 1; j <= -kMinPow10; ++j) {
    ten_j.times10();
    quotient.divide10();
    const int length = ten_j.bit_length();
    put(-j, quotient.scaled(1120 - length - 127) + 1, -length);
  }
  return table;
}

constexpr auto kPow10 = make_pow10_table();

// floor(g * cp / 2^128), with its lowest bit set when the exact product has a fraction (round to odd).
inline std::uint64_t round_to_odd(const Pow10Entry& g, std::uint64_t cp) {
  const u128 x = u128(g.lo) * cp;
  const u128 y = u128(g.hi) * cp + (x >> 64);
  return static_cast<std::uint64_t>(y >> 64) | (static_cast<std::uint64_t>(y) > 1 ? 1u : 0u);
}

inline ShortestDecimal without_trailing_zeros(std::uint64_t digits, int exponent) {
  while (digits % 10 == 0) digits /= 10, ++exponent;
  return {digits, exponent};
}

}  // namespace

ShortestDecimal shortest_decimal(double x) {
  const auto bits = std::bit_cast<std::uint64_t>(x);
  const std::uint64_t fraction = bits & ((std::uint64_t{1} << 52) - 1);
  const auto biased = static_cast<int>((bits >> 52) & 0x7ff);
  std::uint64_t c = fraction;
  int q = 1 - 1075;  // x = c * 2^q
  if (biased != 0) {
    c |= std::uint64_t{1} << 52;
    q = biased - 1075;
    if (q <= 0 && q > -53 && (c & ((std::uint64_t{1} << -q) - 1)) == 0)  // an integer below 2^53
      return without_trailing_zeros(c >> -q, 0);
  }
  const bool even = (c & 1) == 0;
  const bool lower_closer = fraction == 0 && biased > 1;  // the gap below x is half the gap above
  const std::uint64_t cbl = 4 * c - 2 + (lower_closer ? 1 : 0), cb = 4 * c, cbr = 4 * c + 2;
  // k = floor(log10(2^q)), or floor(log10(3/4 2^q)) with the closer lower bound (tests/unit/json
  // check both formulas over every q of a double).
  const int k = (q * 1262611 - (lower_closer ? 524031 : 0)) >> 22;
  const Pow10Entry& g = kPow10[std::size_t(-k - kMinPow10)];
  const int h = q + g.floor_log2 + 1;  // 1..4
  const std::uint64_t vbl = round_to_odd(g, cbl << h), vb = round_to_odd(g, cb << h), vbr = round_to_odd(g, cbr << h);
  const std::uint64_t lower = vbl + (even ? 0 : 1), upper = vbr - (even ? 0 : 1);
  const std::uint64_t s = vb / 4;
  if (s >= 10) {  // one digit fewer, when exactly one of its two candidates is inside
    const std::uint64_t sp = s / 10;
    const bool up_inside = lower <= 40 * sp, wp_inside = 40 * sp + 40 <= upper;
    if (up_inside != wp_inside) return without_trailing_zeros(sp + (wp_inside ? 1 : 0), k + 1);
  }
  const bool u_inside = lower <= 4 * s, w_inside = 4 * s + 4 <= upper;
  if (u_inside != w_inside) return without_trailing_zeros(s + (w_inside ? 1 : 0), k);
  const std::uint64_t mid = 4 * s + 2;  // both inside: the nearer, ties to even
  const bool round_up = vb > mid || (vb == mid && (s & 1) != 0);
  return without_trailing_zeros(s + (round_up ? 1 : 0), k);
}

}  // namespace rig2d::detail
