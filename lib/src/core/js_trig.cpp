// SPDX-License-Identifier: Apache-2.0
// Payne-Hanek reduction for js_trig.h: |x| > 2^19*pi/2. x is cut into three 24-bit pieces and
// multiplied by only the 24-bit digits of 2/pi that matter at x's exponent (the ones that would give
// whole multiples of 4 are skipped), digit products summed exactly in doubles, more digits taken while
// the fraction cancels to zero; the fraction is then multiplied by pi/2 (also in 24-bit pieces).
// This is fdlibm's __kernel_rem_pio2 at two-double precision, as V8 runs it.
#include <cmath>
#include <cstdint>

#include "core/js_trig.h"

namespace rig2d::detail {
namespace {

// floor(2/pi * 2^(24*(i+1))) mod 2^24: the binary digits of 2/pi, 24 at a time (1584 bits).
constexpr std::int32_t kTwoOverPi[66] = {
    0xA2F983, 0x6E4E44, 0x1529FC, 0x2757D1, 0xF534DD, 0xC0DB62, 0x95993C, 0x439041, 0xFE5163, 0xABDEBB,
    0xC561B7, 0x246E3A, 0x424DD2, 0xE00649, 0x2EEA09, 0xD1921C, 0xFE1DEB, 0x1CB129, 0xA73EE8, 0x8235F5,
    0x2EBB44, 0x84E99C, 0x7026B4, 0x5F7E41, 0x3991D6, 0x398353, 0x39F49C, 0x845F8B, 0xBDF928, 0x3B1FF8,
    0x97FFDE, 0x05980F, 0xEF2F11, 0x8B5A0A, 0x6D1F6D, 0x367ECF, 0x27CB09, 0xB74F46, 0x3F669E, 0x5FEA2D,
    0x7527BA, 0xC7EBE5, 0xF17B3D, 0x0739F7, 0x8A5292, 0xEA6BFB, 0x5FB11F, 0x8D5D08, 0x560330, 0x46FC7B,
    0x6BABF0, 0xCFBC20, 0x9AF436, 0x1DA9E3, 0x91615E, 0xE61B08, 0x659985, 0x5F14A0, 0x68408D, 0xFFD880,
    0x4D7327, 0x310606, 0x1556CA, 0x73A8C9, 0x60E27B, 0xC08C6B};

// pi/2 as eight 24-bit pieces: kPiO2[i] = ((floor(pi/2 * 2^(23+24i)) mod 2^24)) * 2^-(23+24i).
constexpr double kPiO2[8] = {0x1.921fb4p+0,    0x1.4442dp-24,   0x1.846988p-48,  0x1.8cc516p-72,
                             0x1.01b838p-96,   0x1.a25204p-120, 0x1.382228p-145, 0x1.9f31dp-169};

constexpr double kTwo24 = 16777216.0, kTwoM24 = 1.0 / 16777216.0;
constexpr int kTerms = 4;  // fdlibm's jk for two-double output: terms of the product beyond the first

// The product sum_j x[j] * f[jx + i - j]: q[i] of the reduction.
double rem_product(const double* x, int jx, const double* f, int i) {
  double fw = 0.0;
  for (int j = 0; j <= jx; ++j) fw += x[j] * f[jx + i - j];
  return fw;
}

// x[0..nx) are the 24-bit pieces of |x| * 2^-e0; returns n mod 8, (y0, y1) the remainder for |x|.
int kernel_rem_pio2(const double* x, int e0, int nx, double& y0, double& y1) {
  const int jk = kTerms, jp = kTerms, jx = nx - 1;
  int jv = (e0 - 3) / 24;
  if (jv < 0) jv = 0;
  int q0 = e0 - 24 * (jv + 1);
  double f[20] = {}, q[20] = {}, fq[20] = {};
  std::int32_t iq[20] = {};
  for (int i = 0, j = jv - jx; i <= jx + jk; ++i, ++j) f[i] = j < 0 ? 0.0 : static_cast<double>(kTwoOverPi[j]);
  for (int i = 0; i <= jk; ++i) q[i] = rem_product(x, jx, f, i);

  int jz = jk, n = 0, ih = 0;
  double z = 0;
  for (;;) {
    // Distill q[] into 24-bit integers iq[], least significant last.
    int i = 0;
    z = q[jz];
    for (int j = jz; j > 0; ++i, --j) {
      const double fw = static_cast<double>(static_cast<std::int32_t>(kTwoM24 * z));
      iq[i] = static_cast<std::int32_t>(z - kTwo24 * fw);
      z = q[j - 1] + fw;
    }
    // The integer part mod 8 is n; z keeps the fraction.
    z = std::scalbn(z, q0);
    z -= 8.0 * std::floor(z * 0.125);
    n = static_cast<int>(z);
    z -= static_cast<double>(n);
    ih = 0;
    if (q0 > 0) {  // the lowest bits of n sit in iq[jz-1]
      const std::int32_t k = iq[jz - 1] >> (24 - q0);
      n += k;
      iq[jz - 1] -= k << (24 - q0);
      ih = iq[jz - 1] >> (23 - q0);
    } else if (q0 == 0) {
      ih = iq[jz - 1] >> 23;
    } else if (z >= 0.5) {
      ih = 2;
    }
    if (ih > 0) {  // fraction above 1/2: take 1 - fraction and n + 1
      n += 1;
      int carry = 0;
      for (int k = 0; k < jz; ++k) {
        const std::int32_t v = iq[k];
        if (carry == 0) {
          if (v != 0) carry = 1, iq[k] = 0x1000000 - v;
        } else {
          iq[k] = 0xffffff - v;
        }
      }
      if (q0 == 1) iq[jz - 1] &= 0x7fffff;
      if (q0 == 2) iq[jz - 1] &= 0x3fffff;
      if (ih == 2) {
        z = 1.0 - z;
        if (carry != 0) z -= std::scalbn(1.0, q0);
      }
    }
    if (z != 0.0) break;
    std::int32_t any = 0;
    for (int k = jz - 1; k >= jk; --k) any |= iq[k];
    if (any != 0) break;
    // Everything beyond the first terms cancelled: take more digits of 2/pi and distill again.
    int more = 1;
    while (iq[jk - more] == 0) ++more;
    for (int k = jz + 1; k <= jz + more; ++k) {
      f[jx + k] = static_cast<double>(kTwoOverPi[jv + k]);
      q[k] = rem_product(x, jx, f, k);
    }
    jz += more;
  }

  // Drop zero chunks at the end, or split a 48-bit fraction head into two chunks.
  if (z == 0.0) {
    jz -= 1, q0 -= 24;
    while (iq[jz] == 0) --jz, q0 -= 24;
  } else {
    z = std::scalbn(z, -q0);
    if (z >= kTwo24) {
      const double fw = static_cast<double>(static_cast<std::int32_t>(kTwoM24 * z));
      iq[jz] = static_cast<std::int32_t>(z - kTwo24 * fw);
      jz += 1, q0 += 24;
      iq[jz] = static_cast<std::int32_t>(fw);
    } else {
      iq[jz] = static_cast<std::int32_t>(z);
    }
  }
  // Chunks back to doubles, then times pi/2.
  double fw = std::scalbn(1.0, q0);
  for (int i = jz; i >= 0; --i) q[i] = fw * static_cast<double>(iq[i]), fw *= kTwoM24;
  for (int i = jz; i >= 0; --i) {
    fw = 0.0;
    for (int k = 0; k <= jp && k <= jz - i; ++k) fw += kPiO2[k] * q[i + k];
    fq[jz - i] = fw;
  }
  // Sum into a head and a tail, smallest terms first.
  fw = 0.0;
  for (int i = jz; i >= 0; --i) fw += fq[i];
  y0 = ih == 0 ? fw : -fw;
  fw = fq[0] - fw;
  for (int i = 1; i <= jz; ++i) fw += fq[i];
  y1 = ih == 0 ? fw : -fw;
  return n & 7;
}

}  // namespace

int js_rem_pio2_large(double x, double& y0, double& y1) {
  const std::uint64_t bits = std::bit_cast<std::uint64_t>(x);
  const std::uint32_t ix = static_cast<std::uint32_t>(bits >> 32) & 0x7fffffffu;
  // z = |x| * 2^-e0 with 2^23 <= z < 2^24, cut into three 24-bit pieces.
  const int e0 = static_cast<int>(ix >> 20) - 1046;
  double z = std::bit_cast<double>((std::uint64_t{ix - (static_cast<std::uint32_t>(e0) << 20)} << 32) |
                                   (bits & 0xffffffffu));
  double tx[3];
  for (int i = 0; i < 2; ++i) {
    tx[i] = static_cast<double>(static_cast<std::int32_t>(z));
    z = (z - tx[i]) * kTwo24;
  }
  tx[2] = z;
  int nx = 3;
  while (nx > 1 && tx[nx - 1] == 0.0) --nx;
  const int n = kernel_rem_pio2(tx, e0, nx, y0, y1);
  if ((bits >> 63) != 0) {
    y0 = -y0, y1 = -y1;
    return -n;
  }
  return n;
}

}  // namespace rig2d::detail
