"""The viewer in a real browser (headless Chromium) against `process --realtime --serve` on the
sample: its screenshot must show the video (varied pixels) with the overlay drawn from the anchors
WebSocket (the canvas's pure green face boxes and cyan card outlines).
Usage: check_viewer.py BINARY SAMPLE WORKDIR [SCREENSHOT_COPY]"""
import os
import shutil
import struct
import subprocess
import sys
import zlib

import asyncio
import base64
import json
import re
import time
import urllib.request

import websockets

from common import fail, start, stop, viewer_port

binary, sample, work = sys.argv[1:4]
copy_to = sys.argv[4] if len(sys.argv) > 4 else None


def read_png(path):
    """(width, height, rows of (r, g, b)) for an 8-bit non-interlaced RGB or RGBA PNG."""
    data = open(path, "rb").read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat = 8, b""
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", body)
            assert depth == 8 and colour in (2, 6) and interlace == 0, "unexpected PNG format"
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    channels = 3 if colour == 2 else 4
    raw, stride = zlib.decompress(idat), width * channels
    rows, previous = [], bytearray(stride)
    for y in range(height):
        kind, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - channels] if i >= channels else 0
            b, c = previous[i], previous[i - channels] if i >= channels else 0
            if kind == 1: line[i] = (line[i] + a) & 255
            elif kind == 2: line[i] = (line[i] + b) & 255
            elif kind == 3: line[i] = (line[i] + (a + b) // 2) & 255
            elif kind == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append([tuple(line[x * channels:x * channels + 3]) for x in range(width)])
        previous = line
    return width, height, rows


def wait_for_face_and_card(port, seconds=40):
    """Until the anchors stream shows a face and a card at once (the card is found in the background)."""
    async def watch():
        async with websockets.connect(f"ws://127.0.0.1:{port}/anchors", max_size=2**20) as ws:
            async for m in ws:
                a = json.loads(m)
                if a["faces"] and a["cards"]:
                    return True
    try:
        return asyncio.run(asyncio.wait_for(watch(), seconds))
    except (asyncio.TimeoutError, websockets.ConnectionClosed):
        return False


def screenshot(url, path, seconds=6):
    """Loads `url` in headless Chromium and saves a PNG after `seconds`, through the DevTools
    protocol: the page's load event comes at once (its video is a stream), so --screenshot would
    catch it empty."""
    browser = subprocess.Popen(["chromium", "--headless=new", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                                "--window-size=960,540", "--remote-debugging-port=0", "about:blank"],
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        port = None
        for line in browser.stderr:
            m = re.search(r"DevTools listening on ws://127.0.0.1:(\d+)/", line)
            if m:
                port = int(m.group(1))
                break
        if port is None:
            fail("chromium did not start its DevTools endpoint")
        targets = json.load(urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list"))
        page = next(t for t in targets if t["type"] == "page")

        async def drive():
            async with websockets.connect(page["webSocketDebuggerUrl"], max_size=2**26) as cdp:
                async def call(i, method, params):
                    await cdp.send(json.dumps({"id": i, "method": method, "params": params}))
                    while True:
                        reply = json.loads(await cdp.recv())
                        if reply.get("id") == i:
                            return reply
                await call(0, "Emulation.setDeviceMetricsOverride",
                           {"width": 960, "height": 540, "deviceScaleFactor": 1, "mobile": False})
                await call(1, "Page.navigate", {"url": url})
                await asyncio.sleep(seconds)
                return await call(2, "Page.captureScreenshot", {"format": "png"})

        reply = asyncio.run(drive())
        with open(path, "wb") as f:
            f.write(base64.b64decode(reply["result"]["data"]))
    finally:
        browser.kill()
        browser.wait()


def measure(shot):
    width, height, rows = read_png(shot)
    # The video fills the left part of the page (12 px margin, 260 px stats column on the right).
    region = [rows[y][x] for y in range(20, min(height, 500), 2) for x in range(20, min(width - 290, 660), 2)]
    luma = [0.299 * r + 0.587 * g + 0.114 * b for r, g, b in region]
    mean = sum(luma) / len(luma)
    spread = (sum((v - mean) ** 2 for v in luma) / len(luma)) ** 0.5
    green = sum(1 for r, g, b in region if g > 220 and r < 80 and b < 80)
    cyan = sum(1 for r, g, b in region if b > 220 and g > 180 and r < 80)
    yellow = sum(1 for r, g, b in region if r > 220 and g > 220 and b < 60)
    print(f"viewer: screenshot {width}x{height}, video luma mean {mean:.0f} spread {spread:.0f}; overlay pixels "
          f"(every other pixel): {green} green, {cyan} cyan, {yellow} yellow")
    if spread < 20 or mean < 20:
        return "the video area is blank: no MJPEG frame reached the page"
    if green < 30 or cyan < 30 or yellow < 20:
        return "the anchors overlay is missing: too few pixels of its face box, card outline or landmark colours"
    return None


log = os.path.join(work, "viewer.log")
proc = start(binary, ["process", sample, "--realtime", "--loop", "--frames", "3000", "--serve", "0"], log)
port = viewer_port(proc, log)
shot = os.path.join(work, "viewer.png")
problem = "no screenshot"
try:
    for attempt in range(3):
        if not wait_for_face_and_card(port):
            problem = "the run showed no face and card together within 40 s"
            continue
        screenshot(f"http://127.0.0.1:{port}/", shot)
        problem = measure(shot)
        if problem is None:
            break
finally:
    stop(proc)
if problem:
    fail(problem)
if copy_to:
    shutil.copyfile(shot, copy_to)
    print(f"viewer: screenshot copied to {copy_to}")
