// SPDX-License-Identifier: Apache-2.0
// MemoryBudget: leases sum to at most the budget, a lease waits for room, one larger than the whole
// budget fails at once; png_decode_peak_bytes on hand-computed sizes.
#include <catch2/catch.hpp>

#include <atomic>
#include <chrono>
#include <thread>

#include "rig2d/core/memory_budget.h"
#include "rig2d/image/png.h"

using namespace rig2d;

TEST_CASE("memory budget: leases sum within the budget, waiting for room", "[core]") {
  MemoryBudget budget(100);
  auto too_big = budget.acquire(101, "huge.png");
  REQUIRE_FALSE(too_big);
  CHECK(too_big.error().code == "memory.budget");
  CHECK(too_big.error().where.file == "huge.png");

  auto a = budget.acquire(60, "a.png");
  REQUIRE(a);
  CHECK(budget.in_use() == 60);
  std::atomic<bool> got_b{false};
  std::thread second([&] {
    auto b = budget.acquire(60, "b.png");
    REQUIRE(b);
    got_b = true;
    CHECK(budget.in_use() == 60);  // a was returned before b could be taken
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  CHECK_FALSE(got_b);  // 60 + 60 > 100: b waits
  {
    MemoryBudget::Lease released = std::move(*a);
    CHECK(released.bytes() == 60);
  }
  second.join();
  CHECK(got_b);
  CHECK(budget.in_use() == 0);
}

TEST_CASE("memory budget: decode peaks of PNGs, hand-computed", "[core][image]") {
  // 16384 x 4096 RGBA, 16 bits: inflated rows 4096 * (1 + 16384*8), twice (stb's IDAT data, fed to it
  // uncompressed, and its copy), just beat the rows + the 16-bit image (2^26 px * 8).
  PngInfo big{16384, 4096, 4, 16, 4};
  CHECK(png_decode_peak_bytes(big) == 2 * 4096ull * (1 + 131072));
  // 100 x 10 RGBA8: the rows twice (2 * 10 * 401) just beat the rows + the image (4010 + 4000).
  PngInfo small{100, 10, 4, 8, 4};
  CHECK(png_decode_peak_bytes(small) == 8020);
  // 1-bit grey 64 x 64: rows of 8 bytes + 1 filter byte, then the RGBA8 copies dominate.
  PngInfo bits{64, 64, 1, 1, 1};
  CHECK(png_decode_peak_bytes(bits) == 64 * 64 * 8);
}
