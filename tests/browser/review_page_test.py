# SPDX-License-Identifier: Apache-2.0
"""rig2d-pose --html in a real headless Chromium (one browser for every case, stdlib only):
  vertices    the page's skinned vertices equal rig2d-pose --dump-vertices within 1e-3 px (v1, v2
              multi-part with hidden part and deform clip, clip frames, fragment poses)
  screenshot  a screenshot is not blank and shows the rig where the bind render puts it
  drag        dragging a joint with pointer events turns its bone as the matching --pose does
  network     no request leaves the page (embedded textures), only files beside it when linked
  injection   names with <, ", </script>, newlines and non-ASCII are shown as text: no element
              injected, no script error; a rig that fails to load is listed with its error
  list        keyboard navigation, search, and the severity and finding-code filters
Usage: review_page_test.py RIG2D_POSE CHROMIUM DATA_DIR WORK_DIR"""
import copy
import json
import math
import os
import shutil
import subprocess
import sys
import urllib.parse

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cdp import Browser, BrowserError, screenshot  # noqa: E402

POSE, CHROMIUM, DATA, WORK = sys.argv[1:5]
TOLERANCE = 1e-3
EVIL_BONE = 'ar"m</script><script>window.__pwned=1</script>\n<b>bold</b> Ünï 漢字'
EVIL_FILE = 'evil<img src=x onerror="window.__pwned=2">\n"q" Ünï 漢字.rig2d.json'
BROKEN_FILE = 'broken<svg onload=window.__pwned=3>.rig2d.json'


def fail(message):
    print("FAIL:", message)
    sys.exit(1)


def run_pose(*args):
    p = subprocess.run([POSE, *args], capture_output=True, text=True)
    if p.returncode != 0:
        fail(f"rig2d-pose {' '.join(args)} exited {p.returncode}: {p.stderr[-2000:]}")
    return p


def write_json(path, value):
    with open(path, "w", encoding="utf-8") as f:
        json.dump(value, f, indent=2, ensure_ascii=False)


def make_fixtures(assets):
    """Next to the test data's bar rig: a v2 rig of three parts (one hidden), a clip with weighted and
    stepped keys and a deform track, a rig with hostile names and one that fails to load."""
    rigs = os.path.join(assets, "rigs")
    bar = json.load(open(os.path.join(rigs, "bar.rig2d.json")))
    tris = bar["mesh"]["tris"]
    half = len(tris) // 6 * 3
    parts = []
    for name, part_tris, order, visible in (("lower", tris[:half], 1, True), ("upper", tris[half:], 0, True),
                                            ("ghost", tris[:3], 2, False)):
        parts.append({"name": name, "sprite": bar["sprite"], "mesh": {"verts": bar["mesh"]["verts"],
                      "uvs": bar["mesh"]["uvs"], "tris": part_tris}, "skinIndices": bar["skinIndices"],
                      "skinWeights": bar["skinWeights"], "order": order, "visible": visible})
    multi = {"id": "cccccccc-0000-4000-8000-0000000000b2", "version": 2, "bones": copy.deepcopy(bar["bones"]),
             "parts": parts}
    multi["bones"][1]["rot"] = 0.25
    multi["bones"].append({"name": "side", "parent": 0, "x": 12, "y": -40, "rot": -0.4, "noScale": True})
    write_json(os.path.join(rigs, "multi.rig2d.json"), multi)
    n = len(bar["mesh"]["verts"])
    clip = {"id": "eeeeeeee-0000-4000-8000-0000000000b2", "name": "bend", "duration": 1.5, "frameRate": 60, "loop": True,
            "tracks": [
                {"path": "base/mid", "trait": "Transform", "field": "rz", "type": "number", "keys": [
                    {"t": 0, "v": 0, "inTangent": 0, "outTangent": 2.5, "outWeight": 0.7},
                    {"t": 0.6, "v": 0.9, "inTangent": -1, "outTangent": 0, "inWeight": 0.6},
                    {"t": 1.5, "v": 0}]},
                {"path": "base/mid/tip", "trait": "Transform", "field": "rz", "type": "number", "keys": [
                    {"t": 0, "v": 0.3, "outTangent": None, "tangentMode": "constant"}, {"t": 0.7, "v": -0.5}]},
                {"path": "base", "trait": "Transform", "field": "sx", "type": "number", "keys": [
                    {"t": 0, "v": 1}, {"t": 1, "v": 1.4}]},
                {"path": "base/side", "trait": "Transform", "field": "x", "type": "number", "keys": [
                    {"t": 0, "v": 12}, {"t": 1.2, "v": 30}]}],
            "deformTracks": [{"path": "", "part": "upper", "keys": [
                {"t": 0, "offsets": [0] * (2 * n)},
                {"t": 1, "offsets": [((i * 7) % 5 - 2) * 1.5 for i in range(2 * n)]}]}]}
    write_json(os.path.join(assets, "anims", "bend.anim.json"), clip)
    evil = copy.deepcopy(bar)
    evil["bones"][2]["name"] = EVIL_BONE
    evil["id"] = "cccccccc-0000-4000-8000-0000000000b3"
    write_json(os.path.join(rigs, EVIL_FILE), evil)
    with open(os.path.join(rigs, BROKEN_FILE), "w") as f:
        f.write('{"bones": [ {"name": "</script><script>window.__pwned=4</script>"} ')


def dumped(rig, *args):
    out = os.path.join(WORK, "dump.json")
    run_pose(rig, "--dump-vertices", out, *args)
    return json.load(open(out))["frames"][0]["parts"]


def page_vertices(browser):
    return json.loads(browser.evaluate("document.getElementById('rig2d-vertices').textContent"))


def compare(page, expected, what):
    if [p["name"] for p in page["parts"]] != [p["name"] for p in expected]:
        fail(f"{what}: parts {[p['name'] for p in page['parts']]} != {[p['name'] for p in expected]}")
    worst, count = 0.0, 0
    for got, want in zip(page["parts"], expected):
        if len(got["positions"]) != len(want["positions"]):
            fail(f"{what}: part {want['name']} has {len(got['positions'])} vertices, expected {len(want['positions'])}")
        for a, b in zip(got["positions"], want["positions"]):
            worst = max(worst, abs(a[0] - b[0]), abs(a[1] - b[1]))
            count += 1
    if not worst <= TOLERANCE:
        fail(f"{what}: page vertices differ from rig2d-pose --dump-vertices by {worst} px")
    return worst, count


def url(page, **fragment):
    parts = []
    for key, value in fragment.items():
        parts.append(key + "=" + value)
    return "file://" + urllib.parse.quote(page) + "#" + "&".join(parts)


def case_vertices(browser, page, rigs, clip):
    bar, multi = os.path.join(rigs, "bar.rig2d.json"), os.path.join(rigs, "multi.rig2d.json")
    cases = [
        ("v1 bind pose", bar, {}, []),
        ("v1 posed", bar, {"pose": "mid.rot=0.5,tip.rot=-0.2,base.x=3"}, ["--pose", "mid.rot=0.5", "--pose", "tip.rot=-0.2",
                                                                          "--pose", "base.x=3"]),
        ("v1 clip frame", bar, {"time": "0.4"}, ["--anim", clip, "--time", "0.4"]),
        ("v2 multi-part, noScale bone", multi, {"pose": "base.sx=1.5,side.rot=0.7"},
         ["--pose", "base.sx=1.5", "--pose", "side.rot=0.7"]),
        ("v2 clip frame with deform", multi, {"time": "0.85"}, ["--anim", clip, "--time", "0.85"]),
        ("v2 clip frame past the end (wrapped) and a pinned bone", multi, {"time": "2.2", "pose": "tip.rot=1.1"},
         ["--anim", clip, "--time", "2.2", "--pose", "tip.rot=1.1"]),
    ]
    worst, total = 0.0, 0
    for what, rig, fragment, args in cases:
        browser.open(url(page, rig=os.path.basename(rig).replace(".rig2d.json", ""), **fragment))
        if not args or "--anim" not in args:
            args = args + ["--anim", clip]  # the page always carries the clip; at time 0 it is applied too
            if "time" not in fragment:
                args += ["--time", "0"]
        w, n = compare(page_vertices(browser), dumped(rig, *args), what)
        worst, total = max(worst, w), total + n
    print(f"PASS: review page vertices ({len(cases)} poses, {total} vertices, worst difference {worst:.3g} px)")


def case_screenshot(browser, page, rigs, clip):
    bar = os.path.join(rigs, "bar.rig2d.json")
    browser.send("Emulation.setDeviceMetricsOverride", {"width": 1200, "height": 800, "deviceScaleFactor": 1,
                                                        "mobile": False})
    # The clip's first frame turns the tip; pinned back, the page shows the bind pose.
    browser.open(url(page, rig="bar", pose="tip.rot=0"))
    browser.evaluate("document.getElementById('show-bones').click(); window.rig2dReview.ready()", await_promise=True)
    browser.evaluate("new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))", await_promise=True)
    width, height, shot = screenshot(browser)
    bind_png = os.path.join(WORK, "bind.png")
    run_pose(bar, "--margin", "0", "-o", bind_png)
    from cdp import read_png
    bw, bh, bind = read_png(open(bind_png, "rb").read())
    verts = [v for p in dumped(bar) for v in p["positions"]]
    min_x, min_y = math.floor(min(v[0] for v in verts)), math.floor(min(v[1] for v in verts))
    if (bw, bh) != (math.ceil(max(v[0] for v in verts)) - min_x, math.ceil(max(v[1] for v in verts)) - min_y):
        fail(f"screenshot: the bind render is {bw}x{bh}, not the mesh bounds: the framing assumption broke")
    o = browser.evaluate("window.rig2dReview.rigToPage(0, 0)")
    u = browser.evaluate("window.rig2dReview.rigToPage(1, 0)")
    scale = u["x"] - o["x"]
    background = [(0x2b, 0x2c, 0x30), (0x32, 0x33, 0x38)]
    inside = inside_ok = outside = outside_ok = 0
    for j in range(1, bh - 1, 2):
        for i in range(1, bw - 1, 2):
            alphas = [bind[j + dj][i + di][3] for dj in (-1, 0, 1) for di in (-1, 0, 1)]
            x = int(o["x"] + (min_x + i + 0.5) * scale)
            y = int(o["y"] + (min_y + j + 0.5) * scale)
            if not (0 <= x < width and 0 <= y < height):
                fail(f"screenshot: rig pixel {i},{j} lands outside the {width}x{height} screenshot at {x},{y}")
            got = shot[y][x][:3]
            if min(alphas) == 255:
                inside += 1
                want = bind[j][i][:3]
                inside_ok += max(abs(a - b) for a, b in zip(got, want)) <= 48
    # Outside the sprite: a ring of points just beyond the mesh bounds.
    gap = 6 / scale + 4
    ring = [(min_x - gap + (bw + 2 * gap) * k / 50, min_y - gap + (bh + 2 * gap) * side) for k in range(51) for side in (0, 1)]
    ring += [(min_x - gap + (bw + 2 * gap) * side, min_y - gap + (bh + 2 * gap) * k / 50) for k in range(51) for side in (0, 1)]
    for rx, ry in ring:
        x, y = int(o["x"] + rx * scale), int(o["y"] + ry * scale)
        if 0 <= x < width and 0 <= y < height:
            outside += 1
            got = shot[y][x][:3]
            outside_ok += any(max(abs(a - b) for a, b in zip(got, c)) <= 4 for c in background)
    colours = len({shot[y][x][:3] for y in range(0, height, 4) for x in range(0, width, 4)})
    if colours < 20:
        fail(f"screenshot: only {colours} colours: the page looks blank")
    if inside < 50 or inside_ok < 0.95 * inside:
        fail(f"screenshot: {inside_ok} of {inside} opaque sprite pixels match the bind render's colour")
    if outside < 100 or outside_ok < 0.95 * outside:
        fail(f"screenshot: {outside_ok} of {outside} points around the sprite show the background")
    print(f"PASS: review page screenshot ({width}x{height}, {colours} colours; {inside_ok}/{inside} sprite pixels "
          f"match the bind render at scale {scale:.3f}, {outside_ok}/{outside} points around it are background)")


def case_drag(browser, page, rigs, clip):
    bar = os.path.join(rigs, "bar.rig2d.json")
    browser.open(url(page, rig="bar"))
    before = page_vertices(browser)
    tip = browser.evaluate("window.rig2dReview.jointOnScreen('tip')")
    mid = browser.evaluate("window.rig2dReview.jointOnScreen('mid')")
    start = (round(tip["x"]), round(tip["y"]))
    radius = math.hypot(start[0] - mid["x"], start[1] - mid["y"])
    a0 = math.atan2(start[1] - mid["y"], start[0] - mid["x"])
    points = [start] + [(round(mid["x"] + radius * math.cos(a0 + 0.09 * k)),
                         round(mid["y"] + radius * math.sin(a0 + 0.09 * k))) for k in range(1, 9)]

    def mouse(kind, p, buttons):
        browser.send("Input.dispatchMouseEvent", {"type": kind, "x": p[0], "y": p[1], "button": "left",
                                                  "buttons": buttons, "clickCount": 1 if kind != "mouseMoved" else 0})
    mouse("mouseMoved", start, 0)
    mouse("mousePressed", start, 1)
    for p in points[1:]:
        mouse("mouseMoved", p, 1)
    mouse("mouseReleased", points[-1], 0)
    browser.wait_for("location.hash.includes('pose=')")
    fragment = urllib.parse.unquote(browser.evaluate("location.hash"))
    pose = dict(item.split("=", 1) for item in fragment.split("pose=", 1)[1].split("&")[0].split(","))
    if list(pose) != ["mid.rot"]:
        fail(f"drag: expected the drag to turn 'mid' only, the page's pose is {pose}")
    rot = float(pose["mid.rot"])
    # The angle the pointer swept about mid's joint, in the page's own pixel coordinates.
    swept = math.atan2(points[-1][1] - mid["y"], points[-1][0] - mid["x"]) - a0
    if abs(rot - swept) > 1e-6:
        fail(f"drag: mid.rot is {rot}, but the pointer swept {swept} rad about mid's joint")
    after = page_vertices(browser)
    moved = max(abs(a[k] - b[k]) for p, q in zip(before["parts"], after["parts"])
                for a, b in zip(p["positions"], q["positions"]) for k in (0, 1))
    if moved < 5:
        fail(f"drag: the vertices moved only {moved} px")
    worst, _ = compare(after, dumped(bar, "--anim", clip, "--time", "0", "--pose", f"mid.rot={rot!r}"), "drag")
    print(f"PASS: review page drag (mid.rot={rot:.6f} after a {swept:.6f} rad swing, vertices moved up to "
          f"{moved:.1f} px, within {worst:.3g} px of rig2d-pose --pose)")


def case_network(browser, page, linked_page):
    for what, target, allowed in (("embedded", page, ()), ("linked", linked_page, ("file:",))):
        browser.send("Network.enable")
        start = len(browser.events)
        browser.open(url(target, rig="multi"))
        browser.evaluate("document.getElementById('show-dominant').click(); document.getElementById('show-wireframe')"
                         ".click(); window.rig2dReview.ready()", await_promise=True)
        browser.send("Network.disable")
        requests = [e["params"]["request"]["url"] for e in browser.events[start:]
                    if e.get("method") == "Network.requestWillBeSent"]
        page_url = "file://" + urllib.parse.quote(target)
        leaving = [u for u in requests if not u.startswith("data:") and u.split("#")[0] != page_url
                   and u != "about:blank" and not u.startswith(allowed or ("\0",))]
        if leaving:
            fail(f"network ({what}): the page made requests: {leaving[:5]}")
        if what == "linked" and not any(u.startswith("file:") and u.endswith(".png") for u in requests):
            fail(f"network (linked): no texture was loaded from beside the page: {requests[:5]}")
        print(f"PASS: review page network ({what}: {len(requests)} requests seen, none leaves the page)")


def case_injection(browser, page, rigs):
    browser.open(url(page, rig=urllib.parse.quote(EVIL_FILE.replace(".rig2d.json", ""), safe="")))
    scripts = browser.evaluate("document.scripts.length")
    expect = browser.evaluate("document.querySelectorAll('script[id^=\"rig2d-rig-\"]').length") + \
        browser.evaluate("document.querySelectorAll('script[id^=\"rig2d-tex-\"]').length") + 4
    checks = {
        "pwned": browser.evaluate("typeof window.__pwned"),
        "injected": browser.evaluate("document.querySelectorAll('img, svg, b, iframe, object, embed').length"),
        "scripts": scripts,
        "names": browser.evaluate("[...document.querySelectorAll('#rig-list .name')].map(e => e.textContent)"),
        "bones": browser.evaluate("[...document.querySelectorAll('#bone-select option')].map(e => e.textContent)"),
        "title": browser.evaluate("document.getElementById('rig-name').textContent"),
    }
    if checks["pwned"] != "undefined" or checks["injected"] != 0 or scripts != expect:
        fail(f"injection: markup from a name was interpreted: {checks}")
    if EVIL_FILE not in checks["names"] or BROKEN_FILE not in checks["names"]:
        fail(f"injection: the list does not show the file names as text: {checks['names']}")
    if checks["title"] != EVIL_FILE or EVIL_BONE not in checks["bones"]:
        fail(f"injection: the rig's name or bone name is not shown verbatim: {checks['title']!r} {checks['bones']!r}")
    # The vertices element stays one script element: its JSON escapes '<'.
    vertices_text = browser.evaluate("document.getElementById('rig2d-vertices').textContent")
    if "<" in vertices_text or json.loads(vertices_text)["name"] != EVIL_FILE:
        fail("injection: the vertices element holds a raw '<' or the wrong name")
    browser.open(url(page, rig=urllib.parse.quote(BROKEN_FILE, safe="")))
    error = browser.evaluate("document.getElementById('error-box').textContent")
    badge = browser.evaluate("document.querySelector('#rig-list li.selected .badge').textContent")
    if "could not be loaded" not in error or "json" not in error or badge != "failed":
        fail(f"injection: the broken rig is not listed with its error: {error!r} badge {badge!r}")
    if browser.evaluate("typeof window.__pwned") != "undefined":
        fail("injection: the broken rig's text ran as script")
    print("PASS: review page injection (hostile file and bone names shown as text, broken rig listed with its error)")


def case_list(browser, page):
    browser.open(url(page, rig="atlas"))
    listed = browser.evaluate("[...document.querySelectorAll('#rig-list li')].map(e => e.querySelector('.name').textContent)")
    selected = lambda: browser.evaluate("document.querySelector('#rig-list li.selected .name').textContent")

    def key(k, code):
        for kind in ("keyDown", "keyUp"):
            browser.send("Input.dispatchKeyEvent", {"type": kind, "key": k, "code": code, "text": k if kind == "keyDown" and len(k) == 1 else ""})
    browser.evaluate("document.getElementById('view').focus()")
    start = listed.index(selected())
    key("j", "KeyJ")
    key("ArrowDown", "ArrowDown")
    if selected() != listed[start + 2]:
        fail(f"list: j and ArrowDown from {listed[start]!r} selected {selected()!r}, not {listed[start + 2]!r}")
    key("k", "KeyK")
    if selected() != listed[start + 1] or not browser.evaluate("location.hash.includes('rig=')"):
        fail(f"list: k went to {selected()!r}, not {listed[start + 1]!r}")
    key("/", "Slash")
    if browser.evaluate("document.activeElement.id") != "search":
        fail("list: / does not focus the search field")
    browser.send("Input.insertText", {"text": "multi"})
    shown = browser.evaluate("[...document.querySelectorAll('#rig-list li')].map(e => e.querySelector('.name').textContent)")
    if shown != ["multi.rig2d.json"]:
        fail(f"list: searching 'multi' lists {shown}")
    browser.evaluate("document.getElementById('search').value = ''; document.getElementById('search').dispatchEvent(new Event('input'))")
    browser.evaluate("{ const s = document.getElementById('filter-severity'); s.value = 'failed'; s.dispatchEvent(new Event('change')); }")
    shown = browser.evaluate("[...document.querySelectorAll('#rig-list li .name')].map(e => e.textContent)")
    if shown != [BROKEN_FILE]:
        fail(f"list: 'failed to load' lists {shown}")
    browser.evaluate("{ const s = document.getElementById('filter-severity'); s.value = ''; s.dispatchEvent(new Event('change')); }")
    codes = browser.evaluate("[...document.querySelectorAll('#filter-code option')].map(o => o.value).filter(Boolean)")
    index = json.loads(browser.evaluate("document.getElementById('rig2d-index').textContent"))
    for code in codes:
        browser.evaluate(f"{{ const c = document.getElementById('filter-code'); c.value = {json.dumps(code)}; c.dispatchEvent(new Event('change')); }}")
        shown = browser.evaluate("[...document.querySelectorAll('#rig-list li .name')].map(e => e.textContent)")
        want = [e["name"] for e in index if code in e["codes"]]
        if shown != want or not shown:
            fail(f"list: code {code} lists {shown}, expected {want}")
    print(f"PASS: review page list (keyboard j/k/ArrowDown and /, search, severity and {len(codes)} code filters)")


def main():
    shutil.rmtree(WORK, ignore_errors=True)
    os.makedirs(WORK)
    if not os.access(CHROMIUM, os.X_OK):
        fail(f"no Chromium at {CHROMIUM}: install it (scripts/install-deps.sh installs Debian's chromium)")
    assets = os.path.join(WORK, "assets")
    shutil.copytree(os.path.join(DATA, "pose", "assets"), assets)
    os.remove(os.path.join(assets, "anims", "bad.anim.json"))
    make_fixtures(assets)
    rigs, clip = os.path.join(assets, "rigs"), os.path.join(assets, "anims", "bend.anim.json")
    page, linked = os.path.join(WORK, "review.html"), os.path.join(WORK, "linked", "review.html")
    p = subprocess.run([POSE, rigs, "--anim", clip, "--html", page], capture_output=True, text=True)
    if p.returncode != 0 or "1 failed to load" not in p.stderr or "pose.review.rig" not in p.stderr:
        fail(f"rig2d-pose --html: exit {p.returncode}, expected 0 with the broken rig reported: {p.stderr[-2000:]}")
    run_pose(rigs, "--anim", clip, "--html", linked, "--html-assets", "link")
    with open(linked, encoding="utf-8") as f:
        if "data:image/png" in f.read():
            fail("--html-assets link still embeds the textures")
    browser = Browser(CHROMIUM, os.path.join(WORK, "chromium.log"))
    try:
        browser.attach_page()
        for domain in ("Page.enable", "Runtime.enable"):
            browser.send(domain)
        case_vertices(browser, page, rigs, clip)
        case_drag(browser, page, rigs, clip)
        case_screenshot(browser, page, rigs, clip)
        case_network(browser, page, linked)
        case_injection(browser, page, rigs)
        case_list(browser, page)
        errors = [e["params"] for e in browser.events if e.get("method") == "Runtime.exceptionThrown"]
        if errors:
            fail(f"the page threw: {errors[:3]}")
    except BrowserError as e:
        fail(f"browser: {e}")
    finally:
        browser.close()
    print("PASS: review page in Chromium")


main()
