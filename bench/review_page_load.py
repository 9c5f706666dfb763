# SPDX-License-Identifier: Apache-2.0
"""How long the review page (rig2d-pose --html) takes to open in headless Chromium: the samples'
page (6 rigs) against one of N copies of them (each copy with its own textures, so nothing is
shared), from navigation until the list is built and the first rig is drawn with its textures.
Prints medians over 5 loads, the page size per rig, and the ratio of the big page to the small one.
Usage: python3 bench/review_page_load.py BUILD_DIR [N_COPIES=84] [CHROMIUM=/usr/bin/chromium]"""
import os
import shutil
import statistics
import subprocess
import sys
import tempfile

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "browser"))
from cdp import Browser  # noqa: E402

build, copies = sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 84
chromium = sys.argv[3] if len(sys.argv) > 3 else "/usr/bin/chromium"
pose = os.path.join(build, "tools", "rig2d-pose", "rig2d-pose")
samples = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "samples")
work = tempfile.mkdtemp(prefix="rig2d-review-bench-")
try:
    for k in range(copies):
        shutil.copytree(samples, os.path.join(work, "rigs", f"set{k:03d}"),
                        ignore=shutil.ignore_patterns("*.scene.json"))
    pages = {}
    for name, source in (("small", samples), ("big", os.path.join(work, "rigs"))):
        pages[name] = os.path.join(work, name + ".html")
        subprocess.run([pose, source, "--html", pages[name], "-q"], check=True)
    browser = Browser(chromium, os.path.join(work, "chromium.log"))
    try:
        browser.attach_page()
        browser.send("Page.enable")
        browser.send("Emulation.setDeviceMetricsOverride", {"width": 1280, "height": 760, "deviceScaleFactor": 1,
                                                            "mobile": False})
        medians = {}
        browser.open("file://" + pages["small"])  # warm-up: the browser's first page load is slower
        for name, page in pages.items():
            times = []
            for _ in range(5):
                browser.open("file://" + page + "#rig=hero")
                # From the start of navigation to the first rig drawn, as the page measures it.
                times.append(browser.evaluate("window.rig2dReview.ready().then(() => performance.now())",
                                              await_promise=True) / 1000)
            rigs = browser.evaluate("document.querySelectorAll('#rig-list li').length")
            medians[name] = statistics.median(times)
            size = os.path.getsize(page)
            print(f"{name}: {rigs} rigs, {size / 1024:.0f} KiB ({size / 1024 / rigs:.1f} KiB per rig), "
                  f"open to first rig drawn: median {medians[name] * 1000:.0f} ms")
        print(f"big / small: {medians['big'] / medians['small']:.2f}x the time for {copies}x the rigs")
    finally:
        browser.close()
finally:
    shutil.rmtree(work, ignore_errors=True)
