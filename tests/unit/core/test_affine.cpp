// SPDX-License-Identifier: Apache-2.0
// Conformance vectors of ENGINE-SPEC §5.1 (math units) and §0 (Math.hypot / Math.round).
#include <catch2/catch.hpp>
#include <cmath>

#include "rig2d/core/affine.h"
#include "support/test_math.h"

using namespace rig2d;
using Catch::Matchers::WithinAbs;

TEST_CASE("affine: compose * invert is the identity (spec 5.1 #5)", "[core]") {
  const Affine2 m = compose(3, -4, 0.7, 2, 0.5);
  CHECK(m.a == 1.529684374568977);
  CHECK(m.b == 1.288435374475382);
  CHECK(m.c == -0.3221088436188455);
  CHECK(m.d == 0.38242109364224425);
  CHECK(m.e == 3);
  CHECK(m.f == -4);
  const Affine2 inv = invert(m);
  CHECK_THAT(inv.a, WithinAbs(0.38242109364224425, 1e-15));
  CHECK_THAT(inv.b, WithinAbs(-1.288435374475382, 1e-15));
  CHECK_THAT(inv.c, WithinAbs(0.3221088436188455, 1e-15));
  CHECK_THAT(inv.d, WithinAbs(1.529684374568977, 1e-15));
  CHECK_THAT(inv.e, WithinAbs(0.14117209354864935, 1e-14));
  CHECK_THAT(inv.f, WithinAbs(9.984043621702053, 1e-14));
  const Affine2 id = multiply(m, inv);
  CHECK_THAT(id.a, WithinAbs(1, 1e-6));
  CHECK_THAT(id.b, WithinAbs(0, 1e-6));
  CHECK_THAT(id.c, WithinAbs(0, 1e-6));
  CHECK_THAT(id.d, WithinAbs(1, 1e-6));
  CHECK_THAT(id.e, WithinAbs(0, 1e-6));
  CHECK_THAT(id.f, WithinAbs(0, 1e-6));
}

TEST_CASE("affine: removeScale keeps translation and normalizes columns (spec 5.1 #6)", "[core]") {
  const Affine2 m = remove_scale(compose(7, -3, kPi / 6, 4, 4));
  CHECK_THAT(js_hypot(m.a, m.b), WithinAbs(1, 1e-6));
  CHECK_THAT(js_hypot(m.c, m.d), WithinAbs(1, 1e-6));
  CHECK(m.e == 7);
  CHECK(m.f == -3);
  CHECK_THAT(m.a, WithinAbs(0.8660254037844387, 1e-6));
  CHECK_THAT(m.b, WithinAbs(0.49999999999999994, 1e-6));
  // A zero-length column is left alone rather than divided by zero.
  const Affine2 z = remove_scale(Affine2{0, 0, 0, 3, 1, 2});
  CHECK(z == Affine2{0, 0, 0, 1, 1, 2});
}

TEST_CASE("affine: singular inverse is the identity (spec 5.1 #7)", "[core]") {
  CHECK(invert(compose(5, 5, 0, 0, 0)) == Affine2{});
  CHECK(invert(Affine2{INFINITY, 0, 0, 1, 0, 0}) == Affine2{});
}

TEST_CASE("affine: apply of a quarter turn (spec 5.1 #8, rotation sign 2.2)", "[core]") {
  const Vec2 p = apply(compose(1, 2, kPi / 2), {3, 0});
  CHECK_THAT(p.x, WithinAbs(1, 1e-6));
  CHECK_THAT(p.y, WithinAbs(5, 1e-6));
  // +rot turns +x toward +y (clockwise on a y-down screen): (20,0) about (10,0) goes to (10,10).
  const Vec2 q = apply(multiply(compose(10, 0, kPi / 2), compose(-10, 0, 0)), {20, 0});
  CHECK_THAT(q.x, WithinAbs(10, 1e-12));
  CHECK_THAT(q.y, WithinAbs(10, 1e-12));
}

TEST_CASE("affine: js_hypot follows V8's algorithm", "[core]") {
  CHECK(js_hypot(3, 4) == 5);
  CHECK(js_hypot(0, 0) == 0);
  CHECK(js_hypot(-INFINITY, NAN) == INFINITY);
  CHECK(std::isnan(js_hypot(NAN, 1)));
  CHECK(js_hypot(0, -7) == 7);
  // Scaled by the largest magnitude: no overflow for huge inputs.
  CHECK(js_hypot(1e300, 1e300) == std::sqrt(2.0) * 1e300);
}

TEST_CASE("affine: js_round rounds half toward +infinity", "[core]") {
  CHECK(js_round(127.5) == 128);
  CHECK(js_round(-2.5) == -2);
  CHECK(js_round(0.49999999999999994) == 0);
  CHECK(js_round(3.3333) == 3);
}
