// SPDX-License-Identifier: Apache-2.0
// The alpha run sums and counts against plain loops over every length and offset.
#include <catch2/catch.hpp>

#include <cstddef>
#include <cstdint>
#include <vector>

#include "image/alpha_runs.h"

TEST_CASE("alpha runs: sums and counts equal the plain loops", "[image][alpha_runs]") {
  std::vector<std::uint8_t> rgba(4 * 80), flags(80);
  std::uint32_t state = 7;
  auto next = [&] { return state = state * 1664525u + 1013904223u; };
  for (int round = 0; round < 40; ++round) {
    for (std::size_t i = 0; i < rgba.size(); ++i) {  // clear, opaque and soft pixels, colour noise
      const std::uint32_t r = next() >> 24;
      rgba[i] = static_cast<std::uint8_t>(i % 4 == 3 ? (r < 80 ? 0 : r < 160 ? 255 : r) : next() >> 20);
    }
    for (std::uint8_t& f : flags) f = static_cast<std::uint8_t>(next() % 3 == 0 ? 0 : 1 + next() % 255);
    for (std::size_t start = 0; start < 20; ++start)
      for (std::size_t count = 0; start + count <= 80; ++count) {
        const std::uint8_t* px = rgba.data() + 4 * start;
        std::uint64_t sum = 0;
        std::size_t high = 0;
        for (std::size_t i = 0; i < count; ++i) sum += px[4 * i + 3], high += px[4 * i + 3] >= 128;
        CAPTURE(round, start, count);
        REQUIRE(rig2d::detail::alpha_sum(px, count) == sum);
        REQUIRE(rig2d::detail::alpha_high_bit_count(px, count) == high);
        std::uint64_t both_sum = 1, both_high = 2;  // added to what is there
        rig2d::detail::alpha_sum_and_high_count(px, count, both_sum, both_high);
        REQUIRE(both_sum == sum + 1);
        REQUIRE(both_high == high + 2);
        for (const int threshold : {-1, 0, 8, 127, 254, 255}) {
          std::size_t n = 0;
          for (std::size_t i = 0; i < count; ++i) n += flags[start + i] != 0 && px[4 * i + 3] <= threshold;
          CAPTURE(threshold);
          REQUIRE(rig2d::detail::flagged_at_most(px, flags.data() + start, count, threshold) == n);
        }
      }
  }
}
