// SPDX-License-Identifier: Apache-2.0
// Writes vectors.txt: inputs with Math.sin and Math.cos as the engine's JavaScript VM computes them,
// as exact IEEE-754 bit patterns (hex), one "x sin cos" line each. Run once with Node 20 (V8):
//   node tests/data/js-trig/make-vectors.js > tests/data/js-trig/vectors.txt
// The inputs come from a fixed-seed generator, so a rerun writes the same file.
'use strict';

const f64 = new Float64Array(1);
const u64 = new BigUint64Array(f64.buffer);
const hex = (x) => { f64[0] = x; return u64[0].toString(16).padStart(16, '0'); };
const fromBits = (b) => { u64[0] = b; return f64[0]; };
const bits = (x) => { f64[0] = x; return u64[0]; };
const next = (x, k) => fromBits(bits(x) + BigInt(k));  // k ulps away from 0 for positive x

// xorshift64*: deterministic 53-bit uniforms.
let state = 0x9e3779b97f4a7c15n;
const mask = (1n << 64n) - 1n;
function uniform() {
  state ^= state >> 12n; state ^= (state << 25n) & mask; state ^= state >> 27n;
  const r = (state * 0x2545f4914f6cdd1dn) & mask;
  return Number(r >> 11n) / 2 ** 53;
}
const between = (lo, hi) => lo + (hi - lo) * uniform();

const xs = [];
for (let i = 0; i < 200; ++i) xs.push(between(-2 * Math.PI, 2 * Math.PI));
for (let i = 0; i < 120; ++i) xs.push(between(-1e3, 1e3));
for (let k = -64; k <= 64; ++k) xs.push(k * Math.PI / 4);
for (let k = 1; k <= 40; ++k) {
  const x = k * Math.PI / 2;
  for (const d of [-2, -1, 1, 2]) xs.push(next(x, d), -next(x, d));
}
for (let k = 1; k <= 24; ++k) for (const d of [-1, 1]) xs.push(next(k * Math.PI / 4, d));
for (let i = 0; i < 60; ++i) xs.push((uniform() < 0.5 ? -1 : 1) * 2 ** between(-1022, -27));
for (let i = 0; i < 20; ++i) xs.push((uniform() < 0.5 ? -1 : 1) * fromBits(BigInt(Math.floor(uniform() * 2 ** 52))));
xs.push(5e-324, -5e-324, 2 ** -1022, 2 ** -27, -(2 ** -27), next(2 ** -27, -1), 0.3, next(0.3, 1), 0.78125);
xs.push(1e9, -1e9, 1e22, -1e22, 1e300, -1e300, Number.MAX_VALUE, -Number.MAX_VALUE, 2 ** 19 * Math.PI / 2,
        2 ** 20 * Math.PI / 2, next(2 ** 20 * Math.PI / 2, 1), 2 ** 52, 2 ** 60, 1e15, 6381956970095103 * 2 ** 797);
for (let i = 0; i < 60; ++i) xs.push((uniform() < 0.5 ? -1 : 1) * 2 ** between(10, 1023));
xs.push(0, -0, NaN, Infinity, -Infinity);
// Angles as rigs hold them: whole and fractional degrees times pi/180.
for (let d = -180; d <= 360; ++d) xs.push(d * (Math.PI / 180));
for (let i = 0; i < 80; ++i) xs.push(Math.round(between(-720, 720) * 100) / 100 * (Math.PI / 180));
for (let d = -180; d <= 180; d += 5) xs.push(d * Math.PI / 180);

const lines = xs.map((x) => `${hex(x)} ${hex(Math.sin(x))} ${hex(Math.cos(x))}`);
process.stdout.write(`# x sin(x) cos(x) as IEEE-754 bits, from node ${process.version} (V8 ${process.versions.v8})\n`);
process.stdout.write(lines.join('\n') + '\n');
