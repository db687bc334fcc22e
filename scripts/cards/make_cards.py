#!/usr/bin/python3
"""Draws the six solar-term greeting cards and their printable sheet.

Usage (from the repository root):
    sudo apt-get install python3-pil fonts-noto-cjk
    /usr/bin/python3 scripts/cards/make_cards.py

Writes Samples/cards/<id>.png (A6 portrait, 105 x 148 mm at 300 dpi = 1240 x 1748 px),
Samples/cards/cards.json (ids, names, physical size) and Samples/cards/print-sheet.pdf
(A4 landscape, two cards a page at true size, with cut marks).

Everything is drawn from seeded random numbers, so a run gives the same pixels every time. The
cards are designed to be found by a feature detector: dense, high-contrast, non-repeating detail
over the whole card in grayscale (colour alone is invisible to ORB), no large flat areas, and a
different layout per card; the calligraphy-style name is one feature among many.
"""
import json
import math
import os
import random

from PIL import Image, ImageDraw, ImageFilter, ImageFont

DPI = 300
WIDTH_MM, HEIGHT_MM = 105.0, 148.0
W, H = round(WIDTH_MM / 25.4 * DPI), round(HEIGHT_MM / 25.4 * DPI)  # 1240 x 1748
SERIF = "/usr/share/fonts/opentype/noto/NotoSerifCJK-Bold.ttc"
SANS = "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc"
# Fibres in the paper, ink blots under the scene and over it (chosen with `heritage-lens cards
# check`: these gave the best stars).
FIBRES, BLOTS, OVER = 9000, 420, 300
OUT = os.path.join(os.path.dirname(__file__), "..", "..", "Samples", "cards")

CARDS = [
    # id, characters, pinyin, English, seed, paper colour, ink colour
    ("lichun", "立春", "lì chūn", "Beginning of Spring", 101, (236, 226, 196), (34, 70, 38)),
    ("yushui", "雨水", "yǔ shuǐ", "Rain Water", 202, (214, 228, 236), (22, 48, 92)),
    ("jingzhe", "惊蛰", "jīng zhé", "Awakening of Insects", 303, (232, 220, 236), (70, 28, 86)),
    ("chunfen", "春分", "chūn fēn", "Spring Equinox", 404, (246, 230, 210), (120, 40, 30)),
    ("qingming", "清明", "qīng míng", "Pure Brightness", 505, (222, 236, 222), (30, 76, 70)),
    ("guyu", "谷雨", "gǔ yǔ", "Grain Rain", 606, (238, 234, 206), (86, 66, 20)),
]


def shade(colour, k):
    return tuple(max(0, min(255, int(c * k))) for c in colour)


def paper(rng, base):
    """A fibrous paper: thousands of short strokes of varying tone, so no area is flat."""
    img = Image.new("RGB", (W, H), base)
    d = ImageDraw.Draw(img)
    for _ in range(FIBRES):
        x, y = rng.uniform(0, W), rng.uniform(0, H)
        a = rng.uniform(0, math.pi)
        n = rng.uniform(6, 30)
        d.line([(x, y), (x + n * math.cos(a), y + n * math.sin(a))],
               fill=shade(base, rng.uniform(0.55, 1.1)), width=rng.choice([1, 2, 3]))
    return img


def branch(d, rng, x, y, angle, length, depth, ink, leaf):
    """A recursive branch with leaves: willows, tea bushes, blossoms."""
    if depth == 0 or length < 8:
        r = rng.uniform(5, 11)
        d.ellipse([x - r, y - r * 0.5, x + r, y + r * 0.5], fill=leaf, outline=ink)
        return
    x2, y2 = x + length * math.cos(angle), y + length * math.sin(angle)
    d.line([(x, y), (x2, y2)], fill=ink, width=max(1, depth * 2))
    for _ in range(2 if depth > 1 else 3):
        branch(d, rng, x2, y2, angle + rng.uniform(-0.7, 0.7), length * rng.uniform(0.55, 0.8), depth - 1, ink, leaf)


def willow(d, rng, x, y, ink, leaf):
    """Hanging willow strands with leaf pairs."""
    for _ in range(14):
        sx, sy = x + rng.uniform(-120, 120), y + rng.uniform(-20, 20)
        length = rng.uniform(260, 520)
        sway = rng.uniform(-60, 60)
        pts = [(sx + sway * math.sin(t / 10 * math.pi) * t / 10, sy + length * t / 10) for t in range(11)]
        d.line(pts, fill=ink, width=3)
        for (px, py) in pts[1:]:
            for side in (-1, 1):
                d.polygon([(px, py), (px + side * 16, py + 6), (px + side * 4, py + 20)], fill=leaf, outline=ink)


def ox(d, x, y, s, ink, fill):
    """The spring ox: a blocky silhouette with horns, an eye and a rope."""
    d.rounded_rectangle([x, y, x + 320 * s, y + 150 * s], radius=40 * s, fill=fill, outline=ink, width=6)
    d.ellipse([x + 270 * s, y - 40 * s, x + 400 * s, y + 80 * s], fill=fill, outline=ink, width=6)
    d.arc([x + 290 * s, y - 110 * s, x + 350 * s, y - 20 * s], 180, 330, fill=ink, width=8)
    d.arc([x + 340 * s, y - 110 * s, x + 420 * s, y - 20 * s], 210, 360, fill=ink, width=8)
    d.ellipse([x + 350 * s, y + 0 * s, x + 368 * s, y + 18 * s], fill=ink)
    for lx in (30, 90, 220, 280):
        d.rectangle([x + lx * s, y + 140 * s, x + (lx + 34) * s, y + 230 * s], fill=fill, outline=ink, width=5)
    for i in range(7):
        d.ellipse([x + (40 + i * 34) * s, y + 40 * s, x + (60 + i * 34) * s, y + 60 * s], outline=ink, width=3)


def clouds(d, rng, y0, y1, ink, fill):
    for _ in range(9):
        cx, cy = rng.uniform(0, W), rng.uniform(y0, y1)
        for _ in range(6):
            r = rng.uniform(30, 70)
            ox_, oy = rng.uniform(-90, 90), rng.uniform(-25, 25)
            d.ellipse([cx + ox_ - r, cy + oy - r * 0.6, cx + ox_ + r, cy + oy + r * 0.6], fill=fill, outline=ink, width=3)


def rain(d, rng, ink, count, y0=0, y1=H):
    for _ in range(count):
        x, y = rng.uniform(0, W), rng.uniform(y0, y1)
        n = rng.uniform(20, 70)
        d.line([(x, y), (x - n * 0.35, y + n)], fill=ink, width=rng.choice([2, 3]))


def fields(d, rng, y0, ink, light, dark):
    """Furrowed fields in perspective with alternating tones."""
    for i in range(14):
        ya, yb = y0 + (H - y0) * (i / 14) ** 1.4, y0 + (H - y0) * ((i + 1) / 14) ** 1.4
        d.polygon([(0, ya), (W, ya - 30), (W, yb - 30), (0, yb)], fill=light if i % 2 else dark, outline=ink)
    for k in range(-10, 24):
        d.line([(W / 2 + k * 20, y0), (W / 2 + k * 140, H)], fill=ink, width=2)


def lightning(d, rng, x, y, ink, fill):
    pts, cx, cy = [(x, y)], x, y
    for _ in range(7):
        cx += rng.uniform(-70, 70)
        cy += rng.uniform(60, 110)
        pts.append((cx, cy))
    d.line(pts, fill=ink, width=22)
    d.line(pts, fill=fill, width=10)


def insect(d, rng, x, y, s, ink, fill):
    a = rng.uniform(0, 2 * math.pi)
    c, sn = math.cos(a), math.sin(a)

    def p(u, v):
        return (x + (u * c - v * sn) * s, y + (u * sn + v * c) * s)

    d.polygon([p(-30, -12), p(30, -12), p(38, 0), p(30, 12), p(-30, 12), p(-38, 0)], fill=fill, outline=ink)
    d.ellipse([p(34, -10)[0] - 9 * s, p(34, -10)[1] - 9 * s, p(34, -10)[0] + 9 * s, p(34, -10)[1] + 9 * s], fill=ink)
    for u in (-18, 0, 18):
        for v in (-1, 1):
            d.line([p(u, 10 * v), p(u + 8, 32 * v)], fill=ink, width=3)
    d.line([p(38, -4), p(60, -22)], fill=ink, width=2)
    d.line([p(38, 4), p(60, 22)], fill=ink, width=2)


def swallow(d, x, y, s, a, ink):
    c, sn = math.cos(a), math.sin(a)

    def p(u, v):
        return (x + (u * c - v * sn) * s, y + (u * sn + v * c) * s)

    d.polygon([p(0, 0), p(-60, -30), p(-20, 0), p(-70, 30)], fill=ink)
    d.polygon([p(0, 0), p(-10, -50), p(10, -8), p(40, 0), p(10, 8), p(-10, 50)], fill=ink)
    d.ellipse([p(28, -2)[0] - 3 * s, p(28, -2)[1] - 3 * s, p(28, -2)[0] + 3 * s, p(28, -2)[1] + 3 * s], fill=(240, 240, 240))


def kite(d, rng, x, y, s, ink, fill, accent):
    pts = [(x, y - 90 * s), (x + 60 * s, y), (x, y + 110 * s), (x - 60 * s, y)]
    d.polygon(pts, fill=fill, outline=ink)
    d.line([pts[0], pts[2]], fill=ink, width=4)
    d.line([pts[1], pts[3]], fill=ink, width=4)
    d.polygon([(x, y - 50 * s), (x + 25 * s, y), (x, y + 50 * s), (x - 25 * s, y)], fill=accent, outline=ink)
    tail = [(x, y + 110 * s)]
    for k in range(1, 9):
        tail.append((x + 30 * s * math.sin(k * 1.1), y + (110 + k * 40) * s))
    d.line(tail, fill=ink, width=3)
    for (tx, ty) in tail[1:]:
        d.polygon([(tx - 10, ty), (tx, ty - 10), (tx + 10, ty), (tx, ty + 10)], fill=accent, outline=ink)
    d.line([(x, y), (x + rng.uniform(-200, 200), H)], fill=shade(ink, 1.5), width=1)


def hills(d, rng, y, ink, fills):
    for k, fill in enumerate(fills):
        pts = [(0, H)]
        phase = rng.uniform(0, 6)
        for i in range(41):
            xx = W * i / 40
            pts.append((xx, y + k * 90 - 80 * math.sin(xx / W * 5 + phase) - 40 * math.sin(xx / W * 13 + k)))
        pts.append((W, H))
        d.polygon(pts, fill=fill, outline=ink)


def grain(d, rng, x, y, ink, fill):
    top = y - rng.uniform(120, 260)
    d.line([(x, y), (x + rng.uniform(-20, 20), top)], fill=ink, width=4)
    for k in range(7):
        gy = top + k * 16
        for side in (-1, 1):
            d.ellipse([x + side * 10 - 8, gy - 12, x + side * 10 + 8, gy + 12], fill=fill, outline=ink, width=2)
    for side in (-1, 1):
        d.arc([x - 60 if side < 0 else x, y - 150, x if side < 0 else x + 60, y], 200 if side < 0 else 270,
              340 if side < 0 else 20, fill=ink, width=3)


def ink_blots(d, rng, ink, paper_colour, count, size=1.0, ink_share=0.7):
    """Irregular blots and splinters of ink and paper tone everywhere, no two alike: corners for
    the detector that do not repeat (identical marks would match each other and the other cards)."""
    for _ in range(count):
        x, y = rng.uniform(0, W), rng.uniform(0, H)
        r = rng.uniform(6, 34) * rng.choice([1, 1, 1, 1.8]) * size
        n = rng.randrange(4, 9)
        start = rng.uniform(0, 2 * math.pi)
        pts = []
        for k in range(n):
            a = start + 2 * math.pi * k / n + rng.uniform(-0.4, 0.4)
            rr = r * rng.uniform(0.35, 1.25)
            pts.append((x + rr * math.cos(a), y + rr * math.sin(a) * rng.uniform(0.5, 1.2)))
        tone = shade(ink, rng.uniform(0.4, 1.3)) if rng.random() < ink_share else shade(paper_colour, rng.uniform(0.45, 0.8))
        if rng.random() < 0.25:
            d.line(pts + pts[:1], fill=tone, width=rng.choice([2, 3, 4]))
        else:
            d.polygon(pts, fill=tone)


def scene(cid, d, rng, ink, paper_colour):
    light, mid = shade(paper_colour, 0.85), shade(paper_colour, 0.6)
    if cid == "lichun":
        hills(d, rng, 1150, ink, [shade(ink, 3.2), shade(ink, 2.4), shade(ink, 1.6)])
        willow(d, rng, 900, 60, ink, (110, 170, 80))
        ox(d, 560, 1200, 1.2, ink, (150, 96, 52))
        for _ in range(5):
            branch(d, rng, rng.uniform(60, 500), rng.uniform(500, 800), -math.pi / 2 + rng.uniform(-0.5, 0.5), 110, 4,
                   ink, (230, 170, 190))
    elif cid == "yushui":
        clouds(d, rng, 60, 420, ink, (170, 180, 196))
        fields(d, rng, 1000, ink, (120, 170, 100), (70, 110, 60))
        rain(d, rng, ink, 900, 300, 1200)
        for _ in range(30):
            x, y = rng.uniform(0, W), rng.uniform(1050, H)
            for r in (10, 22, 34):
                d.ellipse([x - r, y - r * 0.4, x + r, y + r * 0.4], outline=(230, 240, 250), width=2)
    elif cid == "jingzhe":
        clouds(d, rng, 40, 360, ink, (90, 80, 110))
        lightning(d, rng, 420, 150, ink, (255, 240, 120))
        lightning(d, rng, 880, 260, ink, (255, 240, 120))
        for _ in range(40):
            x, y = rng.uniform(0, W), rng.uniform(900, H)
            d.line([(x, y), (x + rng.uniform(-80, 80), y + rng.uniform(-40, 40))], fill=ink, width=4)
        for _ in range(16):
            insect(d, rng, rng.uniform(60, W - 60), rng.uniform(820, H - 60), rng.uniform(1.0, 1.8), ink,
                   (rng.randrange(60, 200), rng.randrange(120, 220), rng.randrange(40, 120)))
    elif cid == "chunfen":
        cx, cy, r = W / 2, 520, 230
        d.pieslice([cx - r, cy - r, cx + r, cy + r], 90, 270, fill=(240, 180, 60), outline=ink, width=6)
        d.pieslice([cx - r, cy - r, cx + r, cy + r], 270, 90, fill=(60, 60, 100), outline=ink, width=6)
        for k in range(24):
            a = k / 24 * 2 * math.pi
            d.line([(cx + (r + 20) * math.cos(a), cy + (r + 20) * math.sin(a)),
                    (cx + (r + 70 + 30 * (k % 2)) * math.cos(a), cy + (r + 70 + 30 * (k % 2)) * math.sin(a))],
                   fill=ink, width=5)
        for _ in range(11):
            swallow(d, rng.uniform(80, W - 80), rng.uniform(850, 1500), rng.uniform(0.9, 1.7), rng.uniform(-0.6, 0.6), ink)
        for _ in range(24):
            x, y = rng.uniform(0, W), rng.uniform(1450, H - 40)
            for k in range(5):
                a = k / 5 * 2 * math.pi
                d.ellipse([x + 18 * math.cos(a) - 12, y + 18 * math.sin(a) - 12, x + 18 * math.cos(a) + 12,
                           y + 18 * math.sin(a) + 12], fill=(240, 200, 210), outline=ink)
    elif cid == "qingming":
        hills(d, rng, 1000, ink, [(150, 190, 170), (110, 160, 140), (70, 120, 100)])
        willow(d, rng, 200, 40, ink, (130, 190, 120))
        kite(d, rng, 760, 300, 1.6, ink, (220, 70, 60), (250, 220, 90))
        kite(d, rng, 1020, 620, 1.0, ink, (60, 110, 200), (250, 250, 250))
        kite(d, rng, 520, 760, 0.8, ink, (240, 160, 40), (40, 40, 40))
    elif cid == "guyu":
        rain(d, rng, ink, 300, 0, 700)
        for row in range(5):
            y = 850 + row * 120
            for k in range(7):
                branch(d, rng, 90 + k * 180 + rng.uniform(-30, 30), y + 60, -math.pi / 2 + rng.uniform(-0.3, 0.3), 70, 3,
                       ink, (70, 140, 60))
        for _ in range(26):
            grain(d, rng, rng.uniform(40, W - 40), rng.uniform(1550, H - 10), ink, (220, 190, 90))


def draw_card(spec):
    cid, chars, pinyin, english, seed, base, ink = spec
    rng = random.Random(seed)
    img = paper(rng, base)
    d = ImageDraw.Draw(img)
    ink_blots(d, rng, ink, base, BLOTS)
    scene(cid, d, rng, ink, base)
    # A second, sparser layer over the scene itself, so that its flat fills (sky, hills, the sun)
    # carry features too and they spread over the whole card.
    ink_blots(d, rng, ink, base, OVER, size=0.6, ink_share=0.5)
    # The name: a calligraphy-style serif on a seal panel, placed differently on each card.
    font = ImageFont.truetype(SERIF, 300, index=0)
    small = ImageFont.truetype(SANS, 54, index=0)
    panel_x = 90 if seed % 2 else W - 90 - 380
    d.rectangle([panel_x, 700, panel_x + 380, 700 + 760], fill=shade(base, 1.02), outline=ink, width=10)
    d.rectangle([panel_x + 18, 718, panel_x + 362, 1442], outline=(170, 40, 30), width=6)
    for k, ch in enumerate(chars):
        d.text((panel_x + 40, 730 + k * 340), ch, font=font, fill=ink)
    # Dry-brush streaks through the characters, different on every card: 春 and 雨 appear on two
    # cards each, and the same glyph drawn the same way would make those cards look alike.
    panel = shade(base, 1.02)
    for _ in range(35):
        x, y = rng.uniform(panel_x + 30, panel_x + 350), rng.uniform(730, 1430)
        a = rng.uniform(-0.5, 0.5) + (math.pi / 2 if rng.random() < 0.3 else 0)
        n = rng.uniform(30, 110)
        d.line([(x, y), (x + n * math.cos(a), y + n * math.sin(a))], fill=panel, width=rng.choice([3, 4, 6]))
    d.text((60, H - 120), f"{pinyin} · {english}", font=small, fill=ink)
    # A border of irregular dashes, unique per card: a regular pattern would repeat along the edge
    # and across the set.
    d.rectangle([14, 14, W - 15, H - 15], outline=ink, width=12)
    for edge in range(4):
        t = 40.0
        length = W if edge < 2 else H
        while t < length - 60:
            u = rng.uniform(12, 50)
            depth = rng.uniform(14, 40)
            tilt = rng.uniform(-12, 12)
            if edge == 0:
                seg = [(t, 14), (t + tilt, 14 + depth)]
            elif edge == 1:
                seg = [(t, H - 15), (t + tilt, H - 15 - depth)]
            elif edge == 2:
                seg = [(14, t), (14 + depth, t + tilt)]
            else:
                seg = [(W - 15, t), (W - 15 - depth, t + tilt)]
            d.line(seg, fill=ink, width=rng.choice([3, 5, 7]))
            t += u
    return img.filter(ImageFilter.SMOOTH)


def print_sheet(cards, path):
    """A4 landscape pages, two cards each at true size, with cut marks at every corner."""
    pw, ph = round(297 / 25.4 * DPI), round(210 / 25.4 * DPI)
    pages = []
    for i in range(0, len(cards), 2):
        page = Image.new("RGB", (pw, ph), (255, 255, 255))
        d = ImageDraw.Draw(page)
        gap = round(10 / 25.4 * DPI)
        x0, y0 = (pw - 2 * W - gap) // 2, (ph - H) // 2
        for k, card in enumerate(cards[i:i + 2]):
            x = x0 + k * (W + gap)
            page.paste(card, (x, y0))
            mark, off = round(5 / 25.4 * DPI), round(1.5 / 25.4 * DPI)
            for cx, cy in ((x, y0), (x + W, y0), (x, y0 + H), (x + W, y0 + H)):
                sx = -1 if cx == x else 1
                sy = -1 if cy == y0 else 1
                d.line([(cx + sx * off, cy), (cx + sx * (off + mark), cy)], fill=(0, 0, 0), width=3)
                d.line([(cx, cy + sy * off), (cx, cy + sy * (off + mark))], fill=(0, 0, 0), width=3)
        d.text((x0, ph - 90), "HeritageLens solar-term cards: print at 100 % (no scaling); cut on the marks; "
                               "each card is 105 x 148 mm.", font=ImageFont.truetype(SANS, 36, index=0), fill=(0, 0, 0))
        pages.append(page)
    pages[0].save(path, save_all=True, append_images=pages[1:], resolution=DPI)


def main():
    os.makedirs(OUT, exist_ok=True)
    cards = []
    for spec in CARDS:
        img = draw_card(spec)
        img.save(os.path.join(OUT, f"{spec[0]}.png"), optimize=True)
        cards.append(img)
    print_sheet(cards, os.path.join(OUT, "print-sheet.pdf"))
    meta = {"width_mm": WIDTH_MM, "height_mm": HEIGHT_MM, "dpi": DPI,
            "cards": [{"id": s[0], "name": s[1], "pinyin": s[2], "english": s[3], "image": f"{s[0]}.png",
                       "width_m": WIDTH_MM / 1000} for s in CARDS]}
    with open(os.path.join(OUT, "cards.json"), "w", encoding="utf-8") as f:
        json.dump(meta, f, ensure_ascii=False, indent=2)
        f.write("\n")


if __name__ == "__main__":
    main()
