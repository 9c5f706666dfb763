// SPDX-License-Identifier: Apache-2.0
// rig2d review page: the rig list, the findings, and a viewer that skins each rig in the browser
// exactly as librig2d's skin_rig does (ENGINE-SPEC §2: compose / multiply / invert / removeScale,
// pose matrices through the bone hierarchy, nowByName, 4-slot LBS stored as float32) and plays a
// clip as eval_track does (§1.6). Everything a rig names is shown as text (textContent), never as
// markup. Only the selected rig is parsed and drawn, so a page of thousands of rigs opens at once.
'use strict';
(function () {
  const byId = (id) => document.getElementById(id);
  const readJson = (id) => {
    const el = byId(id);
    return el ? JSON.parse(el.textContent) : null;
  };
  const settings = readJson('rig2d-settings');
  const index = readJson('rig2d-index');

  // ---- Engine math (rig2dMath.ts), same expression order as lib/src/core/affine.cpp ----
  function compose(x, y, rot, sx, sy) {
    const c = Math.cos(rot), s = Math.sin(rot);
    return [c * sx, s * sx, -s * sy, c * sy, x, y];
  }
  function multiply(m1, m2) {
    return [m1[0] * m2[0] + m1[2] * m2[1], m1[1] * m2[0] + m1[3] * m2[1],
      m1[0] * m2[2] + m1[2] * m2[3], m1[1] * m2[2] + m1[3] * m2[3],
      m1[0] * m2[4] + m1[2] * m2[5] + m1[4], m1[1] * m2[4] + m1[3] * m2[5] + m1[5]];
  }
  function invert(m) {
    const det = m[0] * m[3] - m[1] * m[2];
    if (det === 0 || !Number.isFinite(det)) return [1, 0, 0, 1, 0, 0];
    const inv = 1 / det;
    const ia = m[3] * inv, ib = -m[1] * inv, ic = -m[2] * inv, id = m[0] * inv;
    return [ia, ib, ic, id, -(ia * m[4] + ic * m[5]), -(ib * m[4] + id * m[5])];
  }
  function removeScale(m) {
    const sx = Math.hypot(m[0], m[1]) || 1, sy = Math.hypot(m[2], m[3]) || 1;
    return [m[0] / sx, m[1] / sx, m[2] / sy, m[3] / sy, m[4], m[5]];
  }
  // Root-local matrices through parent links in any bone order; a parent out of range or one that
  // would close a cycle makes the bone a root (deriveBindMatrices' resolve(i, seen)).
  function resolveHierarchy(bones, local, combine) {
    const n = bones.length, out = new Array(n), done = new Uint8Array(n), inChain = new Uint8Array(n);
    for (let i = 0; i < n; ++i) {
      if (done[i]) continue;
      const chain = [];
      let cur = i;
      for (;;) {
        chain.push(cur);
        inChain[cur] = 1;
        const p = bones[cur].parent;
        if (!(p >= 0 && p < n) || inChain[p] || done[p]) break;
        cur = p;
      }
      for (let k = chain.length - 1; k >= 0; --k) {
        const b = chain[k], p = bones[b].parent;
        const hasParent = p >= 0 && p < n && (k + 1 < chain.length ? p === chain[k + 1] : done[p] !== 0);
        out[b] = hasParent ? combine(out[p], b) : local(b);
      }
      for (const b of chain) { inChain[b] = 0; done[b] = 1; }
    }
    return out;
  }

  // ---- Clip evaluation (curveEval.ts, as lib/src/anim/curve.cpp) ----
  const clamp = (v, lo, hi) => (v < lo ? lo : v > hi ? hi : v);
  function bezier(p0, p1, p2, p3, u) {
    const m = 1 - u;
    return m * m * m * p0 + 3 * m * m * u * p1 + 3 * m * u * u * p2 + u * u * u * p3;
  }
  function bezierDeriv(p0, p1, p2, p3, u) {
    const m = 1 - u;
    return 3 * (m * m * (p1 - p0) + 2 * m * u * (p2 - p1) + u * u * (p3 - p2));
  }
  // Keys are [t, v, inTangent, outTangent, inWeight|null, outWeight|null]; null tangents are +inf.
  const finite = (v) => typeof v === 'number' && Number.isFinite(v);
  function evalSegment(a, b, time) {
    const dt = b[0] - a[0];
    if (dt <= 0) return b[1];
    const mA = finite(a[3]) ? a[3] : 0, mB = finite(b[2]) ? b[2] : 0;
    let wA = clamp(a[5] === null ? 1 / 3 : a[5], 0, 0.999), wB = clamp(b[4] === null ? 1 / 3 : b[4], 0, 0.999);
    const wSum = wA + wB;
    if (wSum > 1) { const s = 1 / wSum; wA *= s; wB *= s; }
    const x1 = wA * dt, x2 = dt - wB * dt;
    const y0 = a[1], y1 = a[1] + mA * (wA * dt), y2 = b[1] - mB * (wB * dt), y3 = b[1];
    const target = time - a[0];
    let lo = 0, hi = 1, u = clamp(target / dt, 0, 1);
    for (let i = 0; i < 24; ++i) {
      const x = bezier(0, x1, x2, dt, u) - target;
      if (Math.abs(x) < 1e-7) break;
      if (x < 0) lo = u; else hi = u;
      const dx = bezierDeriv(0, x1, x2, dt, u);
      let next = dx > 1e-12 ? u - x / dx : (lo + hi) / 2;
      if (!(next > lo && next < hi)) next = (lo + hi) / 2;
      u = next;
    }
    return bezier(y0, y1, y2, y3, u);
  }
  function findKey(keys, time) {
    let lo = 0, hi = keys.length - 1, res = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (keys[mid][0] <= time) { res = mid; lo = mid + 1; } else hi = mid - 1;
    }
    return res;
  }
  function evalNumber(keys, time) {
    const n = keys.length;
    if (n === 0) return 0;
    if (n === 1 || time <= keys[0][0]) return keys[0][1];
    if (time >= keys[n - 1][0]) return keys[n - 1][1];
    const i = findKey(keys, time), a = keys[i], b = keys[i + 1];
    if (!finite(a[3])) return a[1];
    return b[0] - a[0] <= 0 ? b[1] : evalSegment(a, b, time);
  }
  function evalColor(keys, time) {
    const n = keys.length;
    if (n === 0) return 0xffffff;
    if (n === 1 || time <= keys[0][0]) return keys[0][1] | 0;
    if (time >= keys[n - 1][0]) return keys[n - 1][1] | 0;
    const i = findKey(keys, time), a = keys[i], b = keys[i + 1];
    if (!finite(a[3])) return a[1] | 0;
    const dt = b[0] - a[0], f = dt <= 0 ? 0 : (time - a[0]) / dt;
    const ch = (v, s) => ((v | 0) >> s) & 0xff;
    const mix = (s) => Math.round(ch(a[1], s) + (ch(b[1], s) - ch(a[1], s)) * f) & 0xff;
    return (mix(16) << 16) | (mix(8) << 8) | mix(0);
  }
  function evalStepped(keys, time, truthy) {
    if (keys.length === 0) return 0;
    const k = time < keys[0][0] ? keys[0] : keys[findKey(keys, time)];
    return truthy ? (k[1] ? 1 : 0) : k[1];
  }
  function evalTrack(type, keys, time) {
    if (type === 'color') return evalColor(keys, time);
    if (type === 'boolean') return evalStepped(keys, time, true);
    if (type === 'enum') return evalStepped(keys, time, false);
    return evalNumber(keys, time);
  }
  function evalDeform(keys, time) {
    const n = keys.length;
    if (n === 0) return null;
    const round = (v) => v.map((x) => Math.fround(x === null ? NaN : x));
    if (n === 1 || time <= keys[0].t) return round(keys[0].offsets);
    if (time >= keys[n - 1].t) return round(keys[n - 1].offsets);
    let lo = 0, hi = n - 1, res = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (keys[mid].t <= time) { res = mid; lo = mid + 1; } else hi = mid - 1;
    }
    const a = keys[res], b = keys[res + 1], dt = b.t - a.t, f = dt <= 0 ? 0 : (time - a.t) / dt;
    const len = Math.min(a.offsets.length, b.offsets.length), out = new Array(len);
    for (let k = 0; k < len; ++k) out[k] = Math.fround(a.offsets[k] + (b.offsets[k] - a.offsets[k]) * f);
    return out;
  }
  // advanceClipTime(0, t, duration, loop)
  function clipTime(clip, t) {
    if (!(clip.duration > 0)) return 0;
    if (clip.loop) { let w = t % clip.duration; if (w < 0) w += clip.duration; return w; }
    return clamp(t, 0, clip.duration);
  }
  // Coerced as the engine writes Transform fields: boolean -> 0/1, color -> int32.
  const coerce = (type, v) => (type === 'boolean' ? (v !== 0 ? 1 : 0) : type === 'color' ? v | 0 : v);

  // ---- A rig: parsed on first use ----
  const rigs = new Map();
  // The data of list entry i; .viewable when it is a rig the viewer can draw.
  function loadRig(i) {
    if (rigs.has(i)) return rigs.get(i);
    const entry = index[i];
    const rig = readJson('rig2d-rig-' + i) || {};
    rig.entry = entry;
    rig.findings = rig.findings || [];
    rig.viewable = entry.error === null && entry.kind === 'rig' && Array.isArray(rig.bones) && Array.isArray(rig.parts);
    if (rig.viewable) {
      // Positions, UVs and weights are float32 in the engine; the page stores them as floats again.
      for (const part of rig.parts) {
        part.verts = Float32Array.from(part.verts);
        part.uvs = Float32Array.from(part.uvs);
        part.w = Float32Array.from(part.w);
      }
      rig.bind = resolveHierarchy(rig.bones, (b) => compose(rig.bones[b].x, rig.bones[b].y, rig.bones[b].rot, 1, 1),
        (parent, b) => multiply(parent, compose(rig.bones[b].x, rig.bones[b].y, rig.bones[b].rot, 1, 1)));
      rig.invBind = rig.bind.map(invert);
      rig.lastByName = new Map();
      rig.bones.forEach((b, k) => rig.lastByName.set(b.name, k));
      rig.drawOrder = rig.parts.map((_, k) => k).sort((a, b) => rig.parts[a].order - rig.parts[b].order || a - b);
    }
    rigs.set(i, rig);
    return rig;
  }
  function bindLocals(rig) {
    return rig.bones.map((b) => ({ x: b.x, y: b.y, rot: b.rot, sx: 1, sy: 1 }));
  }
  // Every part's skinned positions (Float32Array, x y per vertex, rig order) and each bone's joint.
  function skin(rig, locals, deform) {
    const bones = rig.bones;
    const local = (b) => compose(locals[b].x, locals[b].y, locals[b].rot, locals[b].sx, locals[b].sy);
    const now = resolveHierarchy(bones, local,
      (parent, b) => multiply(bones[b].noScale ? removeScale(parent) : parent, local(b)));
    const mats = bones.map((b, k) => multiply(now[rig.lastByName.get(b.name)], rig.invBind[k]));
    const nb = mats.length;
    const parts = rig.parts.map((part, p) => {
      const nv = part.verts.length / 2, out = new Float32Array(nv * 2);
      const n = Math.min(nv, Math.floor(part.idx.length / 4), Math.floor(part.w.length / 4));
      const off = deform && deform[p] && deform[p].length ? deform[p] : null;
      for (let v = 0; v < n; ++v) {
        let vx = part.verts[2 * v], vy = part.verts[2 * v + 1];
        if (off && 2 * v + 1 < off.length) { vx = vx + off[2 * v]; vy = vy + off[2 * v + 1]; }
        let ox = 0, oy = 0;
        for (let k = 0; k < 4; ++k) {
          const w = part.w[4 * v + k], b = part.idx[4 * v + k];
          if (w === 0 || !(b < nb)) continue;
          const m = mats[b];
          ox += w * (m[0] * vx + m[2] * vy + m[4]);
          oy += w * (m[1] * vx + m[3] * vy + m[5]);
        }
        out[2 * v] = ox;
        out[2 * v + 1] = oy;
      }
      return out;
    });
    return { parts, now, joints: now.map((m) => [m[4], m[5]]) };
  }

  // ---- Pose state: clip time, then the pinned bone fields (drags, the fragment's pose) ----
  const state = {
    rigIndex: -1, rig: null, time: 0, playing: false, pins: new Map(), selected: -1,
    show: { texture: true, wireframe: false, bones: true, heat: false, dominant: false },
    view: null, result: null, locals: null,
  };
  function posedLocals(rig) {
    const locals = bindLocals(rig);
    let deform = null;
    if (rig.clip) {
      const t = clipTime(rig.clip, state.time);
      for (const ch of rig.clip.bones) {
        if (ch.bone < locals.length) locals[ch.bone][ch.field] = coerce(ch.type, evalTrack(ch.type, ch.keys, t));
      }
      deform = [];
      for (const ch of rig.clip.deform) {
        const off = evalDeform(ch.keys, t);
        if (off) deform[ch.part] = off;
      }
    }
    for (const [bone, fields] of state.pins) {
      if (bone < locals.length) Object.assign(locals[bone], fields);
    }
    return { locals, deform };
  }

  // ---- URL fragment: #rig=NAME&pose=bone.rot=0.5,other.rot=-0.2&time=0.4 ----
  const kFields = { x: 'x', y: 'y', rot: 'rot', rz: 'rot', sx: 'sx', sy: 'sy' };
  function parseFragment() {
    const out = { rig: null, pose: [], time: null };
    for (const item of location.hash.replace(/^#/, '').split('&')) {
      const eq = item.indexOf('=');
      if (eq < 0) continue;
      const key = item.slice(0, eq), raw = item.slice(eq + 1);
      const decode = (s) => { try { return decodeURIComponent(s.replace(/\+/g, ' ')); } catch (e) { return s; } };
      if (key === 'rig') out.rig = decode(raw);
      else if (key === 'time') out.time = Number(decode(raw));
      else if (key === 'pose') {
        for (const one of raw.split(',')) {
          const e = one.indexOf('=');
          const lhs = e < 0 ? '' : decode(one.slice(0, e));
          const dot = lhs.lastIndexOf('.');
          if (dot <= 0) continue;
          const field = kFields[lhs.slice(dot + 1)], value = Number(decode(one.slice(e + 1)));
          if (field && Number.isFinite(value)) out.pose.push({ bone: lhs.slice(0, dot), field, value });
        }
      }
    }
    return out;
  }
  function findRig(name) {
    const tests = [(e) => e.path === name, (e) => e.name === name, (e) => e.name.replace(/\.rig2d\.json$/, '') === name];
    for (const test of tests) {
      const i = index.findIndex(test);
      if (i >= 0) return i;
    }
    return -1;
  }
  function rigKey(entry) {
    return index.filter((e) => e.name === entry.name).length === 1 ? entry.name : entry.path;
  }
  function writeFragment() {
    if (!state.rig) return;
    const parts = ['rig=' + encodeURIComponent(rigKey(state.rig.entry))];
    const pose = [];
    for (const [bone, fields] of state.pins) {
      for (const f of Object.keys(fields)) {
        pose.push(encodeURIComponent(state.rig.bones[bone].name) + '.' + f + '=' + String(fields[f]));
      }
    }
    if (pose.length) parts.push('pose=' + pose.join(','));
    if (state.rig.clip && state.time !== 0) parts.push('time=' + String(state.time));
    history.replaceState(null, '', '#' + parts.join('&'));
  }

  // ---- The vertices element (tests read it): skinned positions per part, rig px, rig order ----
  function writeVertices() {
    const rig = state.rig;
    if (!rig || !state.result) return;
    const out = {
      rig: rig.entry.path, name: rig.entry.name, time: rig.clip ? clipTime(rig.clip, state.time) : null,
      parts: rig.parts.map((part, p) => {
        const pos = state.result.parts[p], positions = [];
        for (let v = 0; v < pos.length; v += 2) positions.push([pos[v], pos[v + 1]]);
        return { name: part.name, positions };
      }),
    };
    byId('rig2d-vertices').textContent = JSON.stringify(out).replace(/</g, '\\u003c');
  }

  // ---- DOM helpers: text only ----
  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (k === 'class') node.className = v;
      else if (k.startsWith('on')) node.addEventListener(k.slice(2), v);
      else node.setAttribute(k, v);
    }
    for (const c of children) node.append(c instanceof Node ? c : document.createTextNode(String(c)));
    return node;
  }
  function docsLink(code, page) {
    if (!page) return el('code', null, code);
    const a = el('a', { href: settings.docs + page, target: '_blank', rel: 'noopener noreferrer' }, el('code', null, code));
    return a;
  }

  // ---- Layout ----
  function buildPage() {
    document.title = settings.title;
    const codes = [...new Set(index.flatMap((e) => e.codes))].sort();
    const codeSelect = el('select', { id: 'filter-code', 'aria-label': 'finding code' }, el('option', { value: '' }, 'any code'));
    for (const c of codes) codeSelect.append(el('option', { value: c }, c));
    const side = el('nav', { id: 'side' },
      el('h1', null, settings.title),
      el('input', { id: 'search', type: 'search', placeholder: 'Search rigs ( / )', 'aria-label': 'search rigs', autocomplete: 'off' }),
      el('div', { class: 'filters' },
        el('select', { id: 'filter-severity', 'aria-label': 'severity' },
          el('option', { value: '' }, 'all rigs'), el('option', { value: 'error' }, 'with errors'),
          el('option', { value: 'warning' }, 'with warnings'), el('option', { value: 'clean' }, 'clean'),
          el('option', { value: 'failed' }, 'failed to load')),
        codeSelect),
      el('div', { id: 'list-count', class: 'quiet' }),
      el('ul', { id: 'rig-list', role: 'listbox', tabindex: '0', 'aria-label': 'rigs' }),
      el('p', { class: 'quiet keys' }, '↑/↓ or j/k: rig · space: play · r: reset · f: fit · [ ]: turn bone · t w b h d: layers'));
    const toggles = el('div', { class: 'toggles' });
    for (const [key, label] of [['texture', 'texture'], ['wireframe', 'wireframe'], ['bones', 'bones'], ['heat', 'weights of'], ['dominant', 'dominant bone']]) {
      const box = el('input', { type: 'checkbox', id: 'show-' + key });
      box.checked = state.show[key];
      box.addEventListener('change', () => { state.show[key] = box.checked; draw(); });
      toggles.append(el('label', null, box, ' ' + label));
      if (key === 'heat') toggles.append(el('select', { id: 'bone-select', 'aria-label': 'bone' }));
    }
    const main = el('main', { id: 'main' },
      el('header', null, el('h2', { id: 'rig-name' }), el('div', { id: 'rig-path', class: 'quiet' })),
      el('div', { id: 'toolbar' }, toggles,
        el('div', { class: 'buttons' },
          el('button', { id: 'reset', type: 'button', onclick: () => { resetPose(); } }, 'Reset'),
          el('button', { id: 'fit', type: 'button', onclick: () => { fitView(); draw(); } }, 'Fit'))),
      el('div', { id: 'clipbar' },
        el('button', { id: 'play', type: 'button', onclick: () => togglePlay() }, '▶'),
        el('input', { id: 'scrub', type: 'range', min: '0', max: '1', step: 'any', value: '0', 'aria-label': 'clip time' }),
        el('span', { id: 'time-label', class: 'quiet' })),
      el('div', { id: 'body' },
        el('div', { id: 'stage' }, el('canvas', { id: 'view', tabindex: '0', 'aria-label': 'rig viewer' }), el('div', { id: 'error-box' })),
        el('aside', { id: 'info' }, el('h3', null, 'Figures'), el('dl', { id: 'figures' }),
          el('h3', null, 'Pose'), el('div', { id: 'pose-readout', class: 'quiet' }),
          el('h3', null, 'Findings'), el('div', { id: 'summary', class: 'quiet' }), el('div', { id: 'findings' }))));
    document.body.append(side, main);
    byId('search').addEventListener('input', renderList);
    byId('filter-severity').addEventListener('change', renderList);
    byId('filter-code').addEventListener('change', renderList);
    byId('bone-select').addEventListener('change', (e) => { state.selected = Number(e.target.value); updateReadout(); draw(); });
    byId('scrub').addEventListener('input', (e) => { state.playing = false; state.time = Number(e.target.value); update(true); });
  }

  let visible = [];
  const listItems = [];
  function matches(entry, query, severity, code) {
    if (query && !(entry.path.toLowerCase().includes(query) || entry.name.toLowerCase().includes(query))) return false;
    if (severity === 'error' && !(entry.errors > 0)) return false;
    if (severity === 'warning' && !(entry.warnings > 0)) return false;
    if (severity === 'clean' && (entry.errors > 0 || entry.warnings > 0)) return false;
    if (severity === 'failed' && entry.error === null) return false;
    if (code && !entry.codes.includes(code)) return false;
    return true;
  }
  function listItem(i) {
    if (listItems[i]) return listItems[i];
    const e = index[i];
    const badges = el('span', { class: 'badges' });
    if (e.error !== null) badges.append(el('span', { class: 'badge failed' }, 'failed'));
    else {
      if (e.errors) badges.append(el('span', { class: 'badge error', title: 'errors' }, String(e.errors)));
      if (e.warnings) badges.append(el('span', { class: 'badge warning', title: 'warnings' }, String(e.warnings)));
      if (!e.errors && !e.warnings) badges.append(el('span', { class: 'badge clean' }, 'ok'));
    }
    const li = el('li', { role: 'option', title: e.path, 'data-index': String(i) }, el('span', { class: 'name' }, e.name), badges);
    li.addEventListener('click', () => selectRig(i));
    return (listItems[i] = li);
  }
  function renderList() {
    const query = byId('search').value.trim().toLowerCase();
    const severity = byId('filter-severity').value, code = byId('filter-code').value;
    visible = [];
    index.forEach((e, i) => { if (matches(e, query, severity, code)) visible.push(i); });
    const list = byId('rig-list');
    list.replaceChildren(...visible.map(listItem));
    const noun = index.every((e) => e.kind === 'rig') ? ' rigs' : ' files';
    byId('list-count').textContent = visible.length + ' of ' + index.length + noun;
    markSelected();
  }
  function markSelected() {
    for (const li of byId('rig-list').children) {
      const on = Number(li.dataset.index) === state.rigIndex;
      li.classList.toggle('selected', on);
      li.setAttribute('aria-selected', on ? 'true' : 'false');
      if (on) li.scrollIntoView({ block: 'nearest' });
    }
  }
  function step(delta) {
    if (!visible.length) return;
    const at = visible.indexOf(state.rigIndex);
    const next = at < 0 ? 0 : clamp(at + delta, 0, visible.length - 1);
    selectRig(visible[next]);
  }

  // ---- Selecting a rig ----
  function selectRig(i, pose) {
    state.rigIndex = i;
    const data = loadRig(i);
    state.rig = data.viewable ? data : null;
    state.pins = new Map();
    state.time = 0;
    state.playing = false;
    const entry = index[i], rig = state.rig;
    byId('rig-name').textContent = entry.name;
    byId('rig-path').textContent = entry.path;
    const errorBox = byId('error-box');
    errorBox.textContent = entry.error !== null ? 'This ' + (entry.kind === 'rig' ? 'rig' : 'file') + ' could not be loaded: ' + entry.error
      : entry.kind !== 'rig' ? 'A ' + entry.kind + ' file: its findings are listed, there is no rig to view.' : '';
    errorBox.hidden = errorBox.textContent === '';
    const boneSelect = byId('bone-select');
    boneSelect.replaceChildren(...(rig ? rig.bones.map((b, k) => el('option', { value: String(k) }, b.name)) : []));
    state.selected = rig && rig.bones.length ? 0 : -1;
    for (const p of pose || []) {
      if (!rig || !rig.lastByName.has(p.bone)) continue;
      const b = rig.lastByName.get(p.bone);
      state.pins.set(b, Object.assign(state.pins.get(b) || {}, { [p.field]: p.value }));
    }
    const clip = rig && rig.clip;
    byId('clipbar').hidden = !clip;
    if (clip) byId('scrub').max = String(clip.duration > 0 ? clip.duration : 0);
    renderInfo(entry, data, rig);
    markSelected();
    state.view = null;
    update(true);
  }
  function renderInfo(entry, data, rig) {
    const figures = byId('figures');
    figures.replaceChildren();
    const add = (k, v) => figures.append(el('dt', null, k), el('dd', null, v));
    if (rig) {
      const f = rig.figures;
      add('mesh', f.vertices + ' vertices, ' + f.triangles + ' triangles');
      add('skeleton', f.bones + ' bones, ' + f.parts + (f.parts === 1 ? ' part' : ' parts') + ' (v' + f.version + ')');
      if (rig.clip) add('clip', rig.clip.name + ', ' + rig.clip.duration + ' s, ' + rig.clip.bones.length + ' channels' + (rig.clip.skipped ? ', ' + rig.clip.skipped + ' tracks unbound' : ''));
      if (rig.deformSummary) add('deform', rig.deformSummary);
    }
    byId('summary').textContent = entry.error !== null && !data.findings.length ? 'not loaded' :
      entry.errors + (entry.errors === 1 ? ' error, ' : ' errors, ') + entry.warnings + (entry.warnings === 1 ? ' warning' : ' warnings');
    const list = el('ul', { class: 'findings' });
    for (const f of data.findings) {
      if (f.code === 'deform.summary') continue;
      list.append(el('li', { class: f.severity },
        el('div', { class: 'head' }, el('span', { class: 'sev' }, f.severity), ' ', docsLink(f.code, f.page),
          f.pointer ? el('span', { class: 'quiet ptr' }, ' ' + f.pointer + (f.line ? ' (line ' + f.line + ')' : '')) : ''),
        el('div', { class: 'msg' }, f.message)));
    }
    byId('findings').replaceChildren(list);
  }

  // ---- Pose updates ----
  function update(writeOut) {
    const rig = state.rig;
    if (!rig) { state.result = null; draw(); return; }
    const { locals, deform } = posedLocals(rig);
    state.locals = locals;
    state.result = skin(rig, locals, deform);
    if (!state.view) fitView();
    if (rig.clip) {
      const t = clipTime(rig.clip, state.time);
      byId('scrub').value = String(t);
      byId('time-label').textContent = 't = ' + t.toFixed(3) + ' s';
      byId('play').textContent = state.playing ? '❚❚' : '▶';
    }
    updateReadout();
    draw();
    if (writeOut) { writeVertices(); writeFragment(); }
  }
  function updateReadout() {
    const rig = state.rig, out = byId('pose-readout');
    if (!rig || state.selected < 0 || !state.locals) { out.textContent = ''; return; }
    const l = state.locals[state.selected];
    out.textContent = rig.bones[state.selected].name + ': x ' + l.x.toFixed(2) + ', y ' + l.y.toFixed(2) + ', rot ' + l.rot.toFixed(4) + ' rad';
    byId('bone-select').value = String(state.selected);
  }
  function resetPose() {
    state.pins = new Map();
    state.time = 0;
    state.playing = false;
    update(true);
  }
  let lastFrame = 0;
  function togglePlay() {
    if (!state.rig || !state.rig.clip) return;
    state.playing = !state.playing;
    lastFrame = performance.now();
    if (state.playing) requestAnimationFrame(tick);
    update(!state.playing);
  }
  function tick(now) {
    if (!state.playing || !state.rig || !state.rig.clip) return;
    state.time = clipTime(state.rig.clip, state.time + (now - lastFrame) / 1000);
    lastFrame = now;
    update(false);
    requestAnimationFrame(tick);
  }

  // ---- View: rig px -> canvas CSS px ----
  const canvas = () => byId('view');
  function boundsOf(rig, result) {
    let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
    const add = (x, y) => {
      if (!Number.isFinite(x) || !Number.isFinite(y)) return;
      minX = Math.min(minX, x); minY = Math.min(minY, y); maxX = Math.max(maxX, x); maxY = Math.max(maxY, y);
    };
    const anyVisible = rig.parts.some((p) => p.visible);
    rig.parts.forEach((part, p) => {
      if (anyVisible && !part.visible) return;
      const pos = result.parts[p];
      for (let v = 0; v < pos.length; v += 2) add(pos[v], pos[v + 1]);
    });
    for (const [x, y] of result.joints) add(x, y);
    return minX <= maxX ? { minX, minY, maxX, maxY } : null;
  }
  function fitView() {
    const c = canvas(), w = c.clientWidth || 640, h = c.clientHeight || 480;
    const b = state.rig && state.result ? boundsOf(state.rig, state.result) : null;
    if (!b) { state.view = { scale: 1, ox: w / 2, oy: h / 2 }; return; }
    const margin = 24, bw = Math.max(b.maxX - b.minX, 1), bh = Math.max(b.maxY - b.minY, 1);
    const scale = Math.max(Math.min((w - 2 * margin) / bw, (h - 2 * margin) / bh), 1e-3);
    state.view = { scale, ox: w / 2 - (b.minX + b.maxX) / 2 * scale, oy: h / 2 - (b.minY + b.maxY) / 2 * scale };
  }
  const toScreen = (x, y) => [x * state.view.scale + state.view.ox, y * state.view.scale + state.view.oy];
  const toRig = (sx, sy) => [(sx - state.view.ox) / state.view.scale, (sy - state.view.oy) / state.view.scale];

  // ---- Drawing ----
  const images = new Map();
  let pendingImages = 0;
  const readyWaiters = [];
  function textureImage(k) {
    if (k < 0) return null;
    if (images.has(k)) return images.get(k);
    const img = new Image();
    ++pendingImages;
    const done = () => { --pendingImages; draw(); settle(); };
    img.onload = done;
    img.onerror = () => { img.failed = true; done(); };
    img.src = readJson('rig2d-tex-' + k);
    images.set(k, img);
    return img;
  }
  function settle() {
    if (pendingImages > 0) return;
    while (readyWaiters.length) readyWaiters.shift()();
  }
  function drawTexturedTriangle(ctx, img, p, uv) {
    const [x0, y0, x1, y1, x2, y2] = p;
    const W = img.naturalWidth, H = img.naturalHeight;
    const u0 = uv[0] * W, v0 = uv[1] * H, u1 = uv[2] * W, v1 = uv[3] * H, u2 = uv[4] * W, v2 = uv[5] * H;
    const du1 = u1 - u0, dv1 = v1 - v0, du2 = u2 - u0, dv2 = v2 - v0, det = du1 * dv2 - du2 * dv1;
    if (det === 0 || !Number.isFinite(det)) return;
    const dx1 = x1 - x0, dy1 = y1 - y0, dx2 = x2 - x0, dy2 = y2 - y0;
    const a = (dx1 * dv2 - dx2 * dv1) / det, b = (dy1 * dv2 - dy2 * dv1) / det;
    const c = (dx2 * du1 - dx1 * du2) / det, d = (dy2 * du1 - dy1 * du2) / det;
    // Grown by a pixel about the centroid so neighbouring triangles leave no seam.
    const cx = (x0 + x1 + x2) / 3, cy = (y0 + y1 + y2) / 3;
    const grow = (x, y) => { const l = Math.hypot(x - cx, y - cy) || 1; return [x + (x - cx) / l, y + (y - cy) / l]; };
    ctx.save();
    ctx.beginPath();
    ctx.moveTo(...grow(x0, y0)); ctx.lineTo(...grow(x1, y1)); ctx.lineTo(...grow(x2, y2));
    ctx.closePath();
    ctx.clip();
    ctx.transform(a, b, c, d, x0 - a * u0 - c * v0, y0 - b * u0 - d * v0);
    ctx.drawImage(img, 0, 0);
    ctx.restore();
  }
  function partTriangles(part, screen, fn) {
    const t = part.tris, n = screen.length / 2;
    for (let i = 0; i + 2 < t.length; i += 3) {
      const a = t[i], b = t[i + 1], c = t[i + 2];
      if (a >= n || b >= n || c >= n) continue;
      fn(a, b, c);
    }
  }
  function dominantBone(part, v) {
    let best = -1, bestW = -Infinity;
    for (let k = 0; k < 4; ++k) {
      const w = part.w[4 * v + k];
      if (w > bestW) { bestW = w; best = part.idx[4 * v + k]; }
    }
    return best;
  }
  let layerCanvas = null;
  function withLayer(ctx, alpha, fn) {
    const c = ctx.canvas;
    if (!layerCanvas) layerCanvas = document.createElement('canvas');
    if (layerCanvas.width !== c.width || layerCanvas.height !== c.height) { layerCanvas.width = c.width; layerCanvas.height = c.height; }
    const layer = layerCanvas.getContext('2d');
    layer.setTransform(1, 0, 0, 1, 0, 0);
    layer.clearRect(0, 0, c.width, c.height);
    layer.setTransform(ctx.getTransform());
    fn(layer);
    ctx.save();
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.globalAlpha = alpha;
    ctx.drawImage(layerCanvas, 0, 0);
    ctx.restore();
  }
  function drawPart(ctx, rig, p, screen) {
    const part = rig.parts[p], s = screen;
    const pt = (i) => [s[2 * i], s[2 * i + 1]];
    if (state.show.dominant) {
      partTriangles(part, s, (a, b, c) => {
        const corners = [a, b, c];
        const cx = (s[2 * a] + s[2 * b] + s[2 * c]) / 3, cy = (s[2 * a + 1] + s[2 * b + 1] + s[2 * c + 1]) / 3;
        for (let k = 0; k < 3; ++k) {
          const v = corners[k], next = corners[(k + 1) % 3], prev = corners[(k + 2) % 3];
          ctx.fillStyle = settings.palette[Math.max(dominantBone(part, v), 0) % 8];
          ctx.beginPath();
          ctx.moveTo(...pt(v));
          ctx.lineTo((s[2 * v] + s[2 * next]) / 2, (s[2 * v + 1] + s[2 * next + 1]) / 2);
          ctx.lineTo(cx, cy);
          ctx.lineTo((s[2 * v] + s[2 * prev]) / 2, (s[2 * v + 1] + s[2 * prev + 1]) / 2);
          ctx.closePath();
          ctx.fill();
          ctx.strokeStyle = ctx.fillStyle;
          ctx.lineWidth = 0.6;
          ctx.stroke();
        }
      });
      return;
    }
    if (state.show.texture) {
      const img = textureImage(part.tex);
      if (img && img.complete && !img.failed && img.naturalWidth > 0) {
        partTriangles(part, s, (a, b, c) => drawTexturedTriangle(ctx, img,
          [s[2 * a], s[2 * a + 1], s[2 * b], s[2 * b + 1], s[2 * c], s[2 * c + 1]],
          [part.uvs[2 * a], part.uvs[2 * a + 1], part.uvs[2 * b], part.uvs[2 * b + 1], part.uvs[2 * c], part.uvs[2 * c + 1]]));
      } else if (!img || img.failed) {
        // The editor's flat fallback, the tint at half opacity: one path, so overlaps do not darken.
        ctx.fillStyle = 'rgba(255,255,255,0.5)';
        ctx.beginPath();
        partTriangles(part, s, (a, b, c) => { ctx.moveTo(...pt(a)); ctx.lineTo(...pt(b)); ctx.lineTo(...pt(c)); ctx.closePath(); });
        ctx.fill('nonzero');
      }
    }
    if (state.show.heat && state.selected >= 0) {
      const weight = (v) => {
        let w = 0;
        for (let k = 0; k < 4; ++k) if (part.idx[4 * v + k] === state.selected) w += part.w[4 * v + k];
        return w;
      };
      // Drawn opaque on a layer, then laid over the texture at 0.55, so shared edges show no seam.
      withLayer(ctx, state.show.texture ? 0.55 : 1, (layer) => {
        partTriangles(part, s, (a, b, c) => {
          const mean = clamp((weight(a) + weight(b) + weight(c)) / 3, 0, 1) || 0;
          layer.fillStyle = layer.strokeStyle = settings.viridis[Math.round(255 * mean)];
          layer.lineWidth = 0.6;
          layer.beginPath(); layer.moveTo(...pt(a)); layer.lineTo(...pt(b)); layer.lineTo(...pt(c)); layer.closePath();
          layer.fill(); layer.stroke();
        });
      });
    }
  }
  function draw() {
    const c = canvas();
    if (!c) return;
    const dpr = window.devicePixelRatio || 1, w = c.clientWidth, h = c.clientHeight;
    if (c.width !== Math.round(w * dpr) || c.height !== Math.round(h * dpr)) { c.width = Math.round(w * dpr); c.height = Math.round(h * dpr); }
    const ctx = c.getContext('2d');
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.clearRect(0, 0, w, h);
    const rig = state.rig, result = state.result;
    if (!rig || !result || !state.view) return;
    const screens = result.parts.map((pos) => {
      const out = new Float64Array(pos.length);
      for (let v = 0; v < pos.length; v += 2) { const q = toScreen(pos[v], pos[v + 1]); out[v] = q[0]; out[v + 1] = q[1]; }
      return out;
    });
    for (const p of rig.drawOrder) if (rig.parts[p].visible) drawPart(ctx, rig, p, screens[p]);
    if (state.show.wireframe) {
      ctx.strokeStyle = 'rgba(255,64,180,0.85)';
      ctx.lineWidth = 1;
      ctx.beginPath();
      rig.parts.forEach((part, p) => {
        if (!part.visible) return;
        const s = screens[p];
        partTriangles(part, s, (a, b, cc) => {
          ctx.moveTo(s[2 * a], s[2 * a + 1]); ctx.lineTo(s[2 * b], s[2 * b + 1]); ctx.lineTo(s[2 * cc], s[2 * cc + 1]); ctx.closePath();
        });
      });
      ctx.stroke();
    }
    if (state.show.bones) drawBones(ctx, rig, result);
  }
  function drawBones(ctx, rig, result) {
    const j = result.joints.map(([x, y]) => toScreen(x, y)), n = j.length;
    ctx.strokeStyle = 'rgba(120,200,255,0.75)';
    ctx.lineWidth = 1.5;
    ctx.beginPath();
    rig.bones.forEach((b, k) => {
      if (b.parent >= 0 && b.parent < n && b.parent !== k) { ctx.moveTo(...j[b.parent]); ctx.lineTo(...j[k]); }
    });
    ctx.stroke();
    j.forEach((q, k) => {
      ctx.beginPath();
      ctx.arc(q[0], q[1], 5, 0, 2 * Math.PI);
      ctx.fillStyle = k === state.selected ? '#f1c40f' : '#4a9eff';
      ctx.fill();
      ctx.lineWidth = 1.5;
      ctx.strokeStyle = '#0a0a0a';
      ctx.stroke();
    });
  }

  // ---- Pointer: drag a joint to swing its parent bone, a bone's line to turn it, empty space to pan ----
  let drag = null;
  function hitBone(sx, sy) {
    const rig = state.rig, result = state.result;
    if (!rig || !result || !state.show.bones) return null;
    const j = result.joints.map(([x, y]) => toScreen(x, y)), n = j.length;
    let best = null, bestD = 9;
    j.forEach((q, k) => {
      const d = Math.hypot(q[0] - sx, q[1] - sy);
      if (d < bestD) {
        const p = rig.bones[k].parent;
        bestD = d;
        best = { select: k, turn: p >= 0 && p < n && p !== k ? p : k };
      }
    });
    if (best) return best;
    bestD = 6;
    rig.bones.forEach((b, k) => {
      const p = b.parent;
      if (!(p >= 0 && p < n) || p === k) return;
      const [ax, ay] = j[p], [bx, by] = j[k], dx = bx - ax, dy = by - ay, len2 = dx * dx + dy * dy;
      const t = len2 > 0 ? clamp(((sx - ax) * dx + (sy - ay) * dy) / len2, 0, 1) : 0;
      const d = Math.hypot(ax + t * dx - sx, ay + t * dy - sy);
      if (d < bestD) { bestD = d; best = { select: p, turn: p }; }
    });
    return best;
  }
  // A bone's rotation turns its children the other way on screen when its parent mirrors.
  function mirrorSign(bone) {
    const rig = state.rig, p = rig.bones[bone].parent;
    if (!(p >= 0 && p < rig.bones.length) || p === bone) return 1;
    const m = state.result.now[p];
    return m[0] * m[3] - m[1] * m[2] < 0 ? -1 : 1;
  }
  function pin(bone, fields) {
    state.pins.set(bone, Object.assign(state.pins.get(bone) || {}, fields));
  }
  function onPointerDown(e) {
    const c = canvas(), r = c.getBoundingClientRect(), sx = e.clientX - r.left, sy = e.clientY - r.top;
    c.focus();
    c.setPointerCapture(e.pointerId);
    const hit = hitBone(sx, sy);
    if (hit) {
      state.selected = hit.select;
      state.playing = false;
      const joint = state.result.joints[hit.turn];
      const [jx, jy] = toScreen(joint[0], joint[1]);
      drag = { kind: 'turn', bone: hit.turn, jx, jy, angle: Math.atan2(sy - jy, sx - jx), rot: state.locals[hit.turn].rot, sign: mirrorSign(hit.turn) };
      updateReadout();
      draw();
    } else {
      drag = { kind: 'pan', sx, sy, ox: state.view.ox, oy: state.view.oy };
    }
  }
  function onPointerMove(e) {
    if (!drag) return;
    const r = canvas().getBoundingClientRect(), sx = e.clientX - r.left, sy = e.clientY - r.top;
    if (drag.kind === 'pan') {
      state.view.ox = drag.ox + sx - drag.sx;
      state.view.oy = drag.oy + sy - drag.sy;
      draw();
      return;
    }
    let delta = Math.atan2(sy - drag.jy, sx - drag.jx) - drag.angle;
    if (delta > Math.PI) delta -= 2 * Math.PI;
    if (delta < -Math.PI) delta += 2 * Math.PI;
    drag.angle += delta;
    drag.rot += drag.sign * delta;
    pin(drag.bone, { rot: drag.rot });
    update(false);
  }
  function onPointerUp() {
    if (drag && drag.kind === 'turn') update(true);
    drag = null;
  }
  function onWheel(e) {
    e.preventDefault();
    const r = canvas().getBoundingClientRect(), sx = e.clientX - r.left, sy = e.clientY - r.top;
    zoomAt(sx, sy, Math.exp(-e.deltaY * 0.0015));
  }
  function zoomAt(sx, sy, factor) {
    const [x, y] = toRig(sx, sy);
    state.view.scale = clamp(state.view.scale * factor, 1e-3, 1e4);
    state.view.ox = sx - x * state.view.scale;
    state.view.oy = sy - y * state.view.scale;
    draw();
  }
  function turnSelected(delta) {
    if (state.selected < 0 || !state.locals) return;
    pin(state.selected, { rot: state.locals[state.selected].rot + delta });
    update(true);
  }

  // ---- Keyboard ----
  function onKey(e) {
    const typing = e.target && (e.target.tagName === 'INPUT' || e.target.tagName === 'SELECT') && e.target.type !== 'checkbox' && e.target.type !== 'range';
    if (typing) {
      if (e.key === 'Escape') e.target.blur();
      else if (e.key === 'ArrowDown' && e.target.id === 'search') { e.preventDefault(); step(1); }
      else if (e.key === 'ArrowUp' && e.target.id === 'search') { e.preventDefault(); step(-1); }
      return;
    }
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const toggle = { t: 'texture', w: 'wireframe', b: 'bones', h: 'heat', d: 'dominant' }[e.key];
    if (toggle) { state.show[toggle] = !state.show[toggle]; byId('show-' + toggle).checked = state.show[toggle]; draw(); return; }
    const c = canvas();
    switch (e.key) {
      case 'ArrowDown': case 'j': step(1); break;
      case 'ArrowUp': case 'k': step(-1); break;
      case 'Home': if (visible.length) selectRig(visible[0]); break;
      case 'End': if (visible.length) selectRig(visible[visible.length - 1]); break;
      case '/': byId('search').focus(); break;
      case ' ': togglePlay(); break;
      case 'r': resetPose(); break;
      case 'f': fitView(); draw(); break;
      case '+': case '=': zoomAt(c.clientWidth / 2, c.clientHeight / 2, 1.25); break;
      case '-': zoomAt(c.clientWidth / 2, c.clientHeight / 2, 0.8); break;
      case '[': turnSelected(-Math.PI / 36); break;
      case ']': turnSelected(Math.PI / 36); break;
      default: return;
    }
    e.preventDefault();
  }

  // ---- Start ----
  buildPage();
  const c = canvas();
  c.addEventListener('pointerdown', onPointerDown);
  c.addEventListener('pointermove', onPointerMove);
  c.addEventListener('pointerup', onPointerUp);
  c.addEventListener('pointercancel', onPointerUp);
  c.addEventListener('wheel', onWheel, { passive: false });
  document.addEventListener('keydown', onKey);
  window.addEventListener('resize', () => draw());
  window.addEventListener('hashchange', () => applyFragment());
  renderList();
  function applyFragment() {
    const f = parseFragment();
    let i = f.rig === null ? -1 : findRig(f.rig);
    if (i < 0) i = visible.length ? visible[0] : 0;
    if (i >= index.length) return;
    selectRig(i, f.pose);
    if (f.time !== null && Number.isFinite(f.time) && state.rig && state.rig.clip) { state.time = f.time; update(true); }
  }
  applyFragment();
  // For scripted checks: resolves once the selected rig's textures are drawn.
  window.rig2dReview = {
    ready: () => new Promise((resolve) => { readyWaiters.push(resolve); settle(); }),
    jointOnScreen: (name) => {
      const rig = state.rig, c2 = canvas().getBoundingClientRect();
      if (!rig || !rig.lastByName.has(name)) return null;
      const [x, y] = state.result.joints[rig.lastByName.get(name)], [sx, sy] = toScreen(x, y);
      return { x: c2.left + sx, y: c2.top + sy };
    },
    rigToPage: (x, y) => { const c2 = canvas().getBoundingClientRect(), [sx, sy] = toScreen(x, y); return { x: c2.left + sx, y: c2.top + sy }; },
    select: (name) => { const i = findRig(name); if (i >= 0) selectRig(i); return i; },
  };
})();
