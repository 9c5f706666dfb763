// SPDX-License-Identifier: Apache-2.0
// Writes a small layered character as a PSD with the npm package ag-psd (an independent PSD writer):
// groups, a half-transparent layer, a hidden layer, a layer hanging over the canvas edge and a
// "#rigid" layer. Usage: node agpsd-figure.js OUT.psd [scale]   (ag-psd resolved from NODE_PATH)
'use strict';
const fs = require('fs');
const { writePsdBuffer } = require('ag-psd');

const out = process.argv[2];
const s = Number(process.argv[3] || 1);  // 1: 96 x 128 test figure; 2: the 192 x 256 sample
const W = 96 * s, H = 128 * s;

// Coverage of a shape at a pixel, 4 x 4 samples, so edges are antialiased as a painter's are.
function cover(inside, x, y) {
  let n = 0;
  for (let j = 0; j < 4; j++) for (let i = 0; i < 4; i++) n += inside(x + (i + 0.5) / 4, y + (j + 0.5) / 4) ? 1 : 0;
  return n / 16;
}
const ellipse = (cx, cy, rx, ry) => (x, y) => ((x - cx * s) / (rx * s)) ** 2 + ((y - cy * s) / (ry * s)) ** 2 <= 1;
const capsule = (ax0, ay0, bx0, by0, r) => (x, y) => {
  const ax = ax0 * s, ay = ay0 * s, bx = bx0 * s, by = by0 * s;
  const dx = bx - ax, dy = by - ay, t = Math.max(0, Math.min(1, ((x - ax) * dx + (y - ay) * dy) / (dx * dx + dy * dy)));
  return (x - ax - t * dx) ** 2 + (y - ay - t * dy) ** 2 <= (r * s) ** 2;
};

// One layer: its shape in a colour ramp over the canvas (a part sampled from the wrong place shows).
function layer(name, inside, rgb, extra = {}) {
  let x0 = W * 2, y0 = H * 2, x1 = -W, y1 = -H;
  const pad = 8 * s;
  for (let y = -pad; y < H + pad; y++) for (let x = -pad; x < W + pad; x++)
    if (cover(inside, x, y) > 0) { x0 = Math.min(x0, x); y0 = Math.min(y0, y); x1 = Math.max(x1, x + 1); y1 = Math.max(y1, y + 1); }
  const w = x1 - x0, h = y1 - y0, data = new Uint8ClampedArray(w * h * 4);
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) {
    const cx = x + x0, cy = y + y0, a = cover(inside, cx, cy), o = (y * w + x) * 4;
    data[o] = rgb[0] + Math.round(60 * cx / W); data[o + 1] = rgb[1] + Math.round(60 * cy / H); data[o + 2] = rgb[2];
    data[o + 3] = Math.round(a * 255);
  }
  return Object.assign({ name, left: x0, top: y0, right: x1, bottom: y1, imageData: { width: w, height: h, data } }, extra);
}

const psd = {
  width: W, height: H,
  children: [
    layer('leg_l', capsule(40, 84, 36, 120, 7), [60, 70, 150]),
    layer('leg_r', capsule(56, 84, 62, 120, 7), [60, 70, 150]),
    layer('body', ellipse(48, 70, 20, 26), [170, 60, 50]),
    { name: 'arm_l', opened: true, children: [
      layer('upper', capsule(30, 54, 18, 74, 6), [200, 150, 90]),
      layer('lower', capsule(18, 74, 8, 96, 5), [210, 160, 100]),
    ] },
    layer('arm_r', capsule(66, 54, 94, 62, 6), [200, 150, 90]),  // reaches past the right edge at s = 1
    layer('head', ellipse(48, 30, 18, 18), [220, 180, 140]),
    layer('shadow', ellipse(48, 30, 14, 6), [20, 20, 40], { opacity: 0.5 }),
    layer('hat#rigid', ellipse(48, 12, 16, 7), [40, 120, 60]),
    layer('sketch', capsule(0, 0, 96, 128, 3), [0, 0, 0], { hidden: true }),
  ],
};
fs.writeFileSync(out, writePsdBuffer(psd, { generateThumbnail: false, noBackground: true }));
