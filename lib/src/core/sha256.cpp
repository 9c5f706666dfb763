// SPDX-License-Identifier: Apache-2.0
#include "rig2d/core/sha256.h"

#include <algorithm>
#include <cstdio>

#if defined(__x86_64__) && defined(__GNUC__)
#include <cpuid.h>
#include <immintrin.h>
#define RIG2D_SHA256_X86 1
#endif

namespace rig2d {
namespace {

constexpr std::array<std::uint32_t, 64> kRound = {
    0x428a2f98u, 0x71374491u, 0xb5c0fbcfu, 0xe9b5dba5u, 0x3956c25bu, 0x59f111f1u, 0x923f82a4u, 0xab1c5ed5u,
    0xd807aa98u, 0x12835b01u, 0x243185beu, 0x550c7dc3u, 0x72be5d74u, 0x80deb1feu, 0x9bdc06a7u, 0xc19bf174u,
    0xe49b69c1u, 0xefbe4786u, 0x0fc19dc6u, 0x240ca1ccu, 0x2de92c6fu, 0x4a7484aau, 0x5cb0a9dcu, 0x76f988dau,
    0x983e5152u, 0xa831c66du, 0xb00327c8u, 0xbf597fc7u, 0xc6e00bf3u, 0xd5a79147u, 0x06ca6351u, 0x14292967u,
    0x27b70a85u, 0x2e1b2138u, 0x4d2c6dfcu, 0x53380d13u, 0x650a7354u, 0x766a0abbu, 0x81c2c92eu, 0x92722c85u,
    0xa2bfe8a1u, 0xa81a664bu, 0xc24b8b70u, 0xc76c51a3u, 0xd192e819u, 0xd6990624u, 0xf40e3585u, 0x106aa070u,
    0x19a4c116u, 0x1e376c08u, 0x2748774cu, 0x34b0bcb5u, 0x391c0cb3u, 0x4ed8aa4au, 0x5b9cca4fu, 0x682e6ff3u,
    0x748f82eeu, 0x78a5636fu, 0x84c87814u, 0x8cc70208u, 0x90befffau, 0xa4506cebu, 0xbef9a3f7u, 0xc67178f2u};

constexpr std::array<std::uint32_t, 8> kInitialState = {0x6a09e667u, 0xbb67ae85u, 0x3c6ef372u, 0xa54ff53au,
                                                        0x510e527fu, 0x9b05688cu, 0x1f83d9abu, 0x5be0cd19u};

std::uint32_t rotr(std::uint32_t x, int n) { return (x >> n) | (x << (32 - n)); }

#ifdef RIG2D_SHA256_X86
// The x86 SHA extensions (with SSSE3/SSE4.1 for the shuffles), checked once: the stamps hash every
// rig written, and the instructions run a block ~15x faster than the portable rounds.
bool cpu_has_sha() {
  unsigned a = 0, b = 0, c = 0, d = 0;
  if (!__get_cpuid(1, &a, &b, &c, &d)) return false;
  const bool ssse3_sse41 = (c & bit_SSSE3) != 0 && (c & bit_SSE4_1) != 0;
  if (!__get_cpuid_count(7, 0, &a, &b, &c, &d)) return false;
  return ssse3_sse41 && (b & (1u << 29)) != 0;  // CPUID.7.0:EBX bit 29 = SHA
}

const bool kHardwareSha = cpu_has_sha();

// FIPS 180-4 rounds on `blocks` 64-byte blocks with SHA-NI: four rounds per sha256rnds2 pair, the
// schedule by sha256msg1/msg2. The state lives as ABEF/CDGH, the layout the instructions use.
__attribute__((target("sha,ssse3,sse4.1"))) void compress_sha_ni(std::uint32_t* state, const std::uint8_t* data,
                                                                  std::size_t blocks) {
  const __m128i byte_swap = _mm_set_epi64x(0x0c0d0e0f08090a0bll, 0x0405060700010203ll);
  __m128i tmp = _mm_shuffle_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(state)), 0xB1);  // CDAB
  __m128i state1 = _mm_shuffle_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(state + 4)), 0x1B);  // EFGH
  __m128i state0 = _mm_alignr_epi8(tmp, state1, 8);   // ABEF
  state1 = _mm_blend_epi16(state1, tmp, 0xF0);        // CDGH
  for (; blocks > 0; --blocks, data += 64) {
    const __m128i abef = state0, cdgh = state1;
    __m128i w[4];
    for (int g = 0; g < 16; ++g) {
      __m128i m;
      if (g < 4) {
        m = _mm_shuffle_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(data + 16 * g)), byte_swap);
      } else {  // W[4g..4g+3] from the previous 16 words
        m = _mm_sha256msg1_epu32(w[g & 3], w[(g - 3) & 3]);
        m = _mm_add_epi32(m, _mm_alignr_epi8(w[(g - 1) & 3], w[(g - 2) & 3], 4));
        m = _mm_sha256msg2_epu32(m, w[(g - 1) & 3]);
      }
      w[g & 3] = m;
      const __m128i k = _mm_add_epi32(m, _mm_loadu_si128(reinterpret_cast<const __m128i*>(kRound.data() + 4 * g)));
      state1 = _mm_sha256rnds2_epu32(state1, state0, k);
      state0 = _mm_sha256rnds2_epu32(state0, state1, _mm_shuffle_epi32(k, 0x0E));
    }
    state0 = _mm_add_epi32(state0, abef);
    state1 = _mm_add_epi32(state1, cdgh);
  }
  tmp = _mm_shuffle_epi32(state0, 0x1B);        // FEBA
  state1 = _mm_shuffle_epi32(state1, 0xB1);     // DCHG
  state0 = _mm_blend_epi16(tmp, state1, 0xF0);  // DCBA
  state1 = _mm_alignr_epi8(state1, tmp, 8);     // HGFE
  _mm_storeu_si128(reinterpret_cast<__m128i*>(state), state0);
  _mm_storeu_si128(reinterpret_cast<__m128i*>(state + 4), state1);
}
#endif

}  // namespace

Sha256::Sha256() { reset(); }

void Sha256::reset() {
  state_ = kInitialState;
  pending_size_ = 0;
  total_bytes_ = 0;
}

void Sha256::compress(const std::uint8_t* block) {
#ifdef RIG2D_SHA256_X86
  if (kHardwareSha) {
    compress_sha_ni(state_.data(), block, 1);
    return;
  }
#endif
  std::uint32_t w[64];
  for (int t = 0; t < 16; ++t) {
    const std::uint8_t* p = block + 4 * t;
    w[t] = (std::uint32_t(p[0]) << 24) | (std::uint32_t(p[1]) << 16) | (std::uint32_t(p[2]) << 8) | p[3];
  }
  for (int t = 16; t < 64; ++t) {
    const std::uint32_t s0 = rotr(w[t - 15], 7) ^ rotr(w[t - 15], 18) ^ (w[t - 15] >> 3);
    const std::uint32_t s1 = rotr(w[t - 2], 17) ^ rotr(w[t - 2], 19) ^ (w[t - 2] >> 10);
    w[t] = w[t - 16] + s0 + w[t - 7] + s1;
  }
  std::uint32_t a = state_[0], b = state_[1], c = state_[2], d = state_[3];
  std::uint32_t e = state_[4], f = state_[5], g = state_[6], h = state_[7];
  for (int t = 0; t < 64; ++t) {
    const std::uint32_t t1 = h + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + kRound[t] + w[t];
    const std::uint32_t t2 = (rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
    h = g;
    g = f;
    f = e;
    e = d + t1;
    d = c;
    c = b;
    b = a;
    a = t1 + t2;
  }
  state_[0] += a;
  state_[1] += b;
  state_[2] += c;
  state_[3] += d;
  state_[4] += e;
  state_[5] += f;
  state_[6] += g;
  state_[7] += h;
}

void Sha256::update(std::string_view bytes) {
  total_bytes_ += bytes.size();
  const auto* p = reinterpret_cast<const std::uint8_t*>(bytes.data());
  std::size_t left = bytes.size();
  while (left > 0) {
    if (pending_size_ == 0 && left >= 64) {  // whole blocks straight from the input, no copy
#ifdef RIG2D_SHA256_X86
      if (kHardwareSha) {
        const std::size_t blocks = left / 64;
        compress_sha_ni(state_.data(), p, blocks);
        p += 64 * blocks;
        left -= 64 * blocks;
        continue;
      }
#endif
      compress(p);
      p += 64;
      left -= 64;
      continue;
    }
    const std::size_t take = std::min(left, 64 - pending_size_);
    std::copy(p, p + take, pending_.begin() + static_cast<std::ptrdiff_t>(pending_size_));
    pending_size_ += take;
    p += take;
    left -= take;
    if (pending_size_ == 64) {
      compress(pending_.data());
      pending_size_ = 0;
    }
  }
}

std::string Sha256::hex_digest() {
  const std::uint64_t bit_length = total_bytes_ * 8;
  // Padding: 0x80, zeros to 56 mod 64, then the message length in bits, big-endian.
  std::array<std::uint8_t, 72> tail = {0x80};
  const std::size_t zeros = (pending_size_ < 56 ? 56 : 120) - pending_size_ - 1;
  std::size_t n = 1 + zeros;
  for (int k = 7; k >= 0; --k) tail[n++] = static_cast<std::uint8_t>(bit_length >> (8 * k));
  update(std::string_view(reinterpret_cast<const char*>(tail.data()), n));
  std::string hex;
  char buf[9];
  for (const std::uint32_t word : state_) {
    std::snprintf(buf, sizeof buf, "%08x", word);
    hex += buf;
  }
  return hex;
}

std::string sha256_hex(std::string_view bytes) {
  Sha256 hash;
  hash.update(bytes);
  return hash.hex_digest();
}

}  // namespace rig2d
