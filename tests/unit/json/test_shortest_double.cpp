// SPDX-License-Identifier: Apache-2.0
// shortest_decimal against std::to_chars' shortest form: the same digits for every exponent of a
// double, at the boundaries where the gap below x halves, for subnormals, and over random doubles.
#include <catch2/catch.hpp>
#include <bit>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>

#include "json/shortest_double.h"

using rig2d::detail::shortest_decimal;

namespace {

// to_chars' shortest scientific text as "digits e exponent" with no trailing zeros.
std::string shortest_ref_text(double x) {
  char buf[64];
  char* end = std::to_chars(buf, buf + sizeof buf, x, std::chars_format::scientific).ptr;
  *end = '\0';
  const char* e_at = std::strchr(buf, 'e');
  std::string digits;
  for (const char* p = buf; p < e_at; ++p)
    if (*p != '.') digits += *p;
  while (digits.size() > 1 && digits.back() == '0') digits.pop_back();
  const int exponent = std::atoi(e_at + 1) - static_cast<int>(digits.size()) + 1;
  return digits + "e" + std::to_string(exponent);
}

std::string shortest_mine_text(double x) {
  const auto d = shortest_decimal(x);
  return std::to_string(d.digits) + "e" + std::to_string(d.exponent);
}

}  // namespace

TEST_CASE("shortest_decimal: hand-checked values", "[json]") {
  CHECK(shortest_mine_text(0.1) == "1e-1");
  CHECK(shortest_mine_text(1.0) == "1e0");
  CHECK(shortest_mine_text(123000.0) == "123e3");
  CHECK(shortest_mine_text(0.30000000000000004) == "30000000000000004e-17");
  CHECK(shortest_mine_text(5e-324) == "5e-324");  // the smallest subnormal
  CHECK(shortest_mine_text(1.7976931348623157e308) == "17976931348623157e292");
  CHECK(shortest_mine_text(2.2250738585072014e-308) == "22250738585072014e-324");  // the smallest normal
  CHECK(shortest_mine_text(9007199254740993.0) == "9007199254740992e0");  // 2^53 + 1 rounds to 2^53
  CHECK(shortest_mine_text(-38.33288585224554 * -1) == "3833288585224554e-14");
}

TEST_CASE("shortest_decimal: every exponent, its boundary significands, and subnormals match to_chars",
          "[json]") {
  int mismatches = 0;
  auto check = [&](double x) {
    if (shortest_mine_text(x) != shortest_ref_text(x) && ++mismatches <= 5)
      FAIL_CHECK(x << ": " << shortest_mine_text(x) << " against " << shortest_ref_text(x));
  };
  for (std::uint64_t biased = 1; biased < 2047; ++biased) {  // both formulas for k, over every q
    for (const std::uint64_t fraction : {std::uint64_t{0}, std::uint64_t{1}, std::uint64_t{2}, std::uint64_t{3},
                                         (std::uint64_t{1} << 52) - 1, (std::uint64_t{1} << 52) - 2,
                                         std::uint64_t{1} << 51, std::uint64_t{0x5555555555555}})
      check(std::bit_cast<double>((biased << 52) | fraction));
  }
  for (std::uint64_t f = 1; f < 20000; ++f) check(std::bit_cast<double>(f));
  for (int p = -323; p <= 308; ++p) {
    const double x = std::pow(10.0, p);
    check(x);
    check(std::nextafter(x, 0.0));
    check(std::nextafter(x, 1e308));
  }
  CHECK(mismatches == 0);
}

TEST_CASE("shortest_decimal: random doubles match to_chars", "[json]") {
  std::mt19937_64 rng(20261207);
  std::uniform_real_distribution<double> coordinate(0, 4096), unit(0, 1);
  int mismatches = 0;
  auto check = [&](double x) {
    if (!(std::isfinite(x) && x > 0)) return;
    if (shortest_mine_text(x) != shortest_ref_text(x) && ++mismatches <= 5)
      FAIL_CHECK(x << ": " << shortest_mine_text(x) << " against " << shortest_ref_text(x));
  };
  for (int i = 0; i < 200000; ++i) {
    check(std::bit_cast<double>(rng() & 0x7fffffffffffffffull));  // any finite bits
    check(coordinate(rng));                                      // mesh coordinates
    check(unit(rng));                                            // uvs and weights
    check(static_cast<double>(static_cast<float>(coordinate(rng))));
  }
  CHECK(mismatches == 0);
}
