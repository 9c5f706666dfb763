#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# Regenerates the rig2d-pose CLI fixtures (run from this folder). Plain Python: PNGs via zlib.
import json, struct, zlib

def png(path, w, h, pixel):
    raw = b''.join(b'\0' + b''.join(bytes(pixel(x, y)) for x in range(w)) for y in range(h))
    def chunk(t, d):
        return struct.pack('>I', len(d)) + t + d + struct.pack('>I', zlib.crc32(t + d) & 0xffffffff)
    data = b'\x89PNG\r\n\x1a\n' + chunk(b'IHDR', struct.pack('>IIBBBBB', w, h, 8, 6, 0, 0, 0)) + \
        chunk(b'IDAT', zlib.compress(raw, 9)) + chunk(b'IEND', b'')
    open(path, 'wb').write(data)

def derive_guid(seed):  # ENGINE-SPEC 1.5 (ASCII seeds)
    hexes = ''
    for n in range(4):
        h = 0x811c9dc5
        for ch in f'{n}:{seed}':
            h = ((h ^ ord(ch)) * 0x01000193) & 0xffffffff
        hexes += f'{h:08x}'
    return f'{hexes[0:8]}-{hexes[8:12]}-{hexes[12:16]}-{hexes[16:20]}-{hexes[20:32]}'

def write(path, obj):
    open(path, 'w').write(json.dumps(obj, indent=2))

BAR_TEX = 'aaaaaaaa-0000-4000-8000-00000000000b'
ATLAS_TEX = 'aaaaaaaa-0000-4000-8000-0000000000a7'
LEFT = 'bbbbbbbb-0000-4000-8000-000000000001'
RIGHT = 'bbbbbbbb-0000-4000-8000-000000000002'

bands = [(200, 40, 40), (240, 240, 240), (40, 160, 60), (240, 240, 240),
         (40, 80, 200), (240, 240, 240), (220, 180, 30), (240, 240, 240)]
png('assets/textures/bar.png', 64, 256, lambda x, y: (*bands[y // 32], 255))
write('assets/textures/bar.png.meta.json', {'version': 2, 'id': BAR_TEX, 'type': '2d'})
png('assets/textures/atlas.png', 32, 16, lambda x, y: (255, 0, 0, 255) if x < 16 else (0, 0, 255, 255))
write('assets/textures/atlas.png.meta.json', {
    'version': 2, 'id': ATLAS_TEX, 'type': '2d', 'spriteSheet': {'width': 32, 'height': 16},
    'sprites': [{'guid': LEFT, 'name': 'left', 'rect': {'x': 0, 'y': 0, 'w': 16, 'h': 16}, 'pivot': {'x': .5, 'y': .5}},
                {'guid': RIGHT, 'name': 'right', 'rect': {'x': 16, 'y': 0, 'w': 16, 'h': 16}, 'pivot': {'x': .5, 'y': .5}}]})

# The striped bar: 2x8 grid, base -> mid -> tip, each vertex bound to its nearest joint.
bones = [{'name': 'base', 'parent': -1, 'x': 0, 'y': 128, 'rot': 0},
         {'name': 'mid', 'parent': 0, 'x': 0, 'y': -96, 'rot': 0},
         {'name': 'tip', 'parent': 1, 'x': 0, 'y': -96, 'rot': 0}]
joints = [128, 32, -64]
verts, uvs, idx, wts = [], [], [], []
for r in range(9):
    for c in range(3):
        x, y = -32 + 32 * c, -128 + 32 * r
        verts.append([x, y]); uvs.append([c / 2, r / 8])
        b = min(range(3), key=lambda i: abs(joints[i] - y))
        idx += [b, 0, 0, 0]; wts += [1, 0, 0, 0]
tris = []
for r in range(8):
    for c in range(2):
        a = r * 3 + c
        tris += [a, a + 3, a + 4, a, a + 4, a + 1]
bar = {'id': 'cccccccc-0000-4000-8000-00000000000b', 'sprite': derive_guid('sprite:' + BAR_TEX), 'bones': bones,
       'mesh': {'verts': verts, 'uvs': uvs, 'tris': tris}, 'skinIndices': idx, 'skinWeights': wts}
write('assets/rigs/bar.rig2d.json', bar)
missing = dict(bar, id='cccccccc-0000-4000-8000-0000000000ff', sprite='dddddddd-0000-4000-8000-000000000000')
write('assets/rigs/missing.rig2d.json', missing)

def quad_part(name, sprite, x0, y0, order):
    return {'name': name, 'sprite': sprite,
            'mesh': {'verts': [[x0, y0], [x0 + 16, y0], [x0 + 16, y0 + 16], [x0, y0 + 16]],
                     'uvs': [[0, 0], [1, 0], [1, 1], [0, 1]], 'tris': [0, 1, 2, 0, 2, 3]},
            'skinIndices': [0] * 16, 'skinWeights': [1, 0, 0, 0] * 4, 'order': order}
write('assets/rigs/atlas.rig2d.json', {'id': 'cccccccc-0000-4000-8000-0000000000a7', 'version': 2,
      'bones': [{'name': 'root', 'parent': -1, 'x': 0, 'y': 0, 'rot': 0}],
      'parts': [quad_part('front', RIGHT, 8, 0, 1), quad_part('back', LEFT, 0, 0, 0)]})

key = lambda t, v: {'t': t, 'v': v, 'inTangent': 0, 'outTangent': 0}
write('assets/anims/wave.anim.json', {
    'id': 'eeeeeeee-0000-4000-8000-000000000001', 'name': 'wave', 'duration': 1, 'frameRate': 60, 'loop': True,
    'tracks': [{'path': 'base/mid', 'trait': 'Transform', 'field': 'rz', 'type': 'number',
                'keys': [key(0, 0), key(0.5, 0.8), key(1, 0)]},
               {'path': 'base/mid/tip', 'trait': 'Transform', 'field': 'rz', 'type': 'number',
                'keys': [key(0, 0), key(0.5, 0.6), key(1, 0)]},
               {'path': 'base/elbow', 'trait': 'Transform', 'field': 'rz', 'type': 'number', 'keys': [key(0, 1)]}]})
write('assets/anims/bad.anim.json', {'duration': 1, 'tracks': [
    {'path': 'base/mid', 'trait': 'Transform', 'field': 'rz', 'keys': [{'t': 'soon', 'v': 1}]}]})
write('bend.pose.json', {'bones': {'mid': {'rot': 1.5707963267948966}}, 'sprite': {'color': '#ffffff'}})
write('badbone.pose.json', {'bones': {'elbow': {'rot': 1}}})
