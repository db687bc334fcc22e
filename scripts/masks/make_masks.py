#!/usr/bin/python3
"""Draws the five zodiac masks as RGBA textures on the mean face layout.

Usage (from the repository root):
    sudo apt-get install python3-pil
    /usr/bin/python3 scripts/masks/make_masks.py

Reads Samples/masks/layout.json (68 landmarks in a 512 x 512 texture, from face_layout.py) and writes
Samples/masks/<id>.png for ox, dragon, sheep, monkey and pig. The renderer maps the texture's 68
layout points onto the tracked landmarks; everything drawn beyond the face contour (horns, ears,
wool) follows the head through the mesh's outer points (Sources/HeritageLens/Render/MaskMesh.swift).
Eye and mouth openings are transparent so the wearer's eyes and mouth show through.
"""
import json
import math
import os
import random

from PIL import Image, ImageDraw, ImageFilter

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
OUT = os.path.join(ROOT, "Samples", "masks")
S = 512


def load_layout():
    with open(os.path.join(OUT, "layout.json")) as f:
        return [tuple(p) for p in json.load(f)["landmarks"]]


def face_outline(L, lift=1.0):
    """The jaw (0-16) closed over the forehead by an arc above the brows."""
    jaw = L[0:17]
    brow_top = min(p[1] for p in L[17:27])
    forehead = []
    for k in range(1, 16):
        t = k / 16
        x = L[16][0] + (L[0][0] - L[16][0]) * t
        y = brow_top - lift * 95 * math.sin(math.pi * t) - (L[16][1] - brow_top) * (1 - math.sin(math.pi * t)) * 0.2
        forehead.append((x, y))
    return jaw + forehead


def eye_hole(d, L, idx, grow=1.35):
    pts = [L[i] for i in idx]
    cx = sum(p[0] for p in pts) / len(pts)
    cy = sum(p[1] for p in pts) / len(pts)
    d.polygon([(cx + (x - cx) * grow * 1.1, cy + (y - cy) * grow * 1.6) for x, y in pts], fill=(0, 0, 0, 0))


def mouth_hole(d, L):
    pts = L[48:60]
    cx = sum(p[0] for p in pts) / 12
    cy = sum(p[1] for p in pts) / 12
    d.polygon([(cx + (x - cx) * 1.15, cy + (y - cy) * 1.3) for x, y in pts], fill=(0, 0, 0, 0))


def rims(d, L, colour, width=6):
    for idx in (range(36, 42), range(42, 48)):
        pts = [L[i] for i in idx]
        cx = sum(p[0] for p in pts) / 6
        cy = sum(p[1] for p in pts) / 6
        ring = [(cx + (x - cx) * 1.5 * 1.1, cy + (y - cy) * 1.5 * 1.6) for x, y in pts]
        d.line(ring + [ring[0]], fill=colour, width=width)


def horn(d, base, tip, width, colour, outline):
    bx, by = base
    tx, ty = tip
    nx, ny = -(ty - by), tx - bx
    n = math.hypot(nx, ny) or 1
    nx, ny = nx / n * width / 2, ny / n * width / 2
    mid = ((bx + tx) / 2 + nx * 1.2, (by + ty) / 2 + ny * 1.2)
    d.polygon([(bx - nx, by - ny), (mid[0] - nx * 0.5, mid[1] - ny * 0.5), (tx, ty), (mid[0] + nx * 0.5, mid[1] + ny * 0.5),
               (bx + nx, by + ny)], fill=colour, outline=outline)


def ox(L):
    img = Image.new("RGBA", (S, S), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    brown, dark, horn_c = (122, 74, 40, 255), (50, 28, 12, 255), (235, 220, 180, 255)
    horn(d, (L[17][0] + 10, L[19][1] - 40), (24, 40), 50, horn_c, dark)
    horn(d, (L[26][0] - 10, L[24][1] - 40), (S - 24, 40), 50, horn_c, dark)
    for side in (-1, 1):
        ex = L[0][0] - 40 if side < 0 else L[16][0] + 40
        d.ellipse([ex - 45, L[0][1] - 30, ex + 45, L[0][1] + 20], fill=brown, outline=dark, width=4)
    d.polygon(face_outline(L), fill=brown, outline=dark)
    # Muzzle: a pale band over nose and mouth with nostrils.
    d.ellipse([L[31][0] - 60, L[29][1] - 10, L[35][0] + 60, L[57][1] + 25], fill=(214, 170, 130, 255), outline=dark, width=4)
    for i in (31, 35):
        d.ellipse([L[i][0] - 9, L[33][1] - 12, L[i][0] + 9, L[33][1] + 4], fill=dark)
    d.line([(L[27][0], L[19][1] - 60), (L[27][0], L[27][1])], fill=(240, 240, 240, 255), width=18)
    rims(d, L, dark)
    return img


def dragon(L):
    img = Image.new("RGBA", (S, S), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    red, gold, dark = (196, 32, 30, 255), (246, 196, 60, 255), (70, 10, 10, 255)
    for side in (-1, 1):  # antlers with tines
        bx = L[19][0] if side < 0 else L[24][0]
        base = (bx, L[19][1] - 70)
        tip = (bx + side * 120, 10)
        d.line([base, tip], fill=gold, width=16)
        for t in (0.35, 0.65):
            px, py = base[0] + (tip[0] - base[0]) * t, base[1] + (tip[1] - base[1]) * t
            d.line([(px, py), (px - side * 40, py - 50)], fill=gold, width=10)
    d.polygon(face_outline(L, 1.1), fill=red, outline=dark)
    rng = random.Random(5)
    outline = face_outline(L, 1.1)
    xs, ys = [p[0] for p in outline], [p[1] for p in outline]
    for _ in range(160):  # scales
        x, y = rng.uniform(min(xs) + 20, max(xs) - 20), rng.uniform(min(ys) + 20, max(ys) - 20)
        d.arc([x - 14, y - 10, x + 14, y + 10], 0, 180, fill=(240, 110, 40, 255), width=3)
    for i, side in ((31, -1), (35, 1)):  # whiskers
        pts = [(L[i][0] + side * 10 * k + side * 8 * k * k / 3, L[33][1] + 10 * math.sin(k)) for k in range(0, 9)]
        pts = [(L[i][0] + side * (12 * k + k * k), L[33][1] + 6 * k * math.sin(k / 2)) for k in range(12)]
        d.line(pts, fill=gold, width=7)
    for side in (-1, 1):  # flame brows
        bi = range(17, 22) if side < 0 else range(22, 27)
        for j, i in enumerate(bi):
            x, y = L[i]
            d.polygon([(x - 12, y + 4), (x + side * 10, y - 40 - 8 * j), (x + 12, y + 4)], fill=gold, outline=dark)
    for i in (48, 54):  # fangs
        d.polygon([(L[i][0] - 8, L[i][1] - 6), (L[i][0] + 8, L[i][1] - 6), (L[i][0], L[i][1] + 26)], fill=(255, 255, 240, 255),
                  outline=dark)
    rims(d, L, gold, 8)
    return img


def sheep(L):
    img = Image.new("RGBA", (S, S), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    wool, face, dark, horn_c = (246, 242, 230, 255), (236, 214, 190, 255), (90, 70, 50, 255), (170, 140, 100, 255)
    for side in (-1, 1):  # curled horns
        cx = L[0][0] - 20 if side < 0 else L[16][0] + 20
        cy = L[0][1] - 10
        pts = [(cx + side * (60 - 4 * k) * math.cos(k * 0.55) * 0.9, cy + (60 - 4 * k) * math.sin(k * 0.55)) for k in range(14)]
        d.line(pts, fill=horn_c, width=26)
        d.line(pts, fill=dark, width=3)
    for side in (-1, 1):  # drooping ears
        ex = L[0][0] if side < 0 else L[16][0]
        d.polygon([(ex, L[0][1] - 10), (ex + side * 80, L[2][1] + 10), (ex + side * 30, L[2][1] + 30)], fill=face, outline=dark)
    d.polygon(face_outline(L), fill=face, outline=dark)
    rng = random.Random(9)
    top = min(p[1] for p in L[17:27])
    for _ in range(70):  # wool cap
        x = rng.uniform(L[0][0], L[16][0])
        y = rng.uniform(top - 120, top - 10)
        r = rng.uniform(16, 30)
        d.ellipse([x - r, y - r, x + r, y + r], fill=wool, outline=(200, 190, 170, 255), width=3)
    d.polygon([(L[31][0] - 6, L[30][1]), (L[35][0] + 6, L[30][1]), (L[33][0], L[33][1] + 8)], fill=(120, 80, 70, 255))
    rims(d, L, dark, 4)
    return img


def monkey(L):
    img = Image.new("RGBA", (S, S), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    fur, skin, dark = (140, 84, 44, 255), (238, 196, 156, 255), (60, 34, 16, 255)
    for side in (-1, 1):  # round ears
        ex = L[0][0] - 30 if side < 0 else L[16][0] + 30
        d.ellipse([ex - 46, L[1][1] - 50, ex + 46, L[1][1] + 40], fill=fur, outline=dark, width=4)
        d.ellipse([ex - 24, L[1][1] - 28, ex + 24, L[1][1] + 18], fill=skin)
    d.polygon(face_outline(L, 1.15), fill=fur, outline=dark)
    # The pale heart-shaped face around eyes, nose and mouth.
    d.ellipse([L[36][0] - 40, L[19][1] - 20, L[27][0] + 10, L[30][1] + 20], fill=skin)
    d.ellipse([L[27][0] - 10, L[24][1] - 20, L[45][0] + 40, L[30][1] + 20], fill=skin)
    d.ellipse([L[48][0] - 40, L[30][1] - 10, L[54][0] + 40, L[8][1] - 5], fill=skin)
    for k in range(9):  # fur tufts on the crown
        x = L[17][0] + (L[26][0] - L[17][0]) * k / 8
        y = min(p[1] for p in L[17:27]) - 95
        d.polygon([(x - 14, y + 24), (x, y - 16 - 10 * (k % 2)), (x + 14, y + 24)], fill=fur, outline=dark)
    for i in (31, 35):
        d.ellipse([L[i][0] - 6, L[33][1] - 8, L[i][0] + 6, L[33][1] + 2], fill=dark)
    rims(d, L, dark, 4)
    return img


def pig(L):
    img = Image.new("RGBA", (S, S), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    pink, deep, dark = (246, 172, 186, 255), (226, 120, 144, 255), (120, 40, 60, 255)
    for side in (-1, 1):  # triangular ears
        bx = L[18][0] if side < 0 else L[25][0]
        by = min(p[1] for p in L[17:27]) - 60
        d.polygon([(bx - side * 50, by + 20), (bx + side * 50, by - 110), (bx + side * 70, by + 30)], fill=pink, outline=dark)
        d.polygon([(bx - side * 20, by + 10), (bx + side * 45, by - 70), (bx + side * 50, by + 20)], fill=deep)
    d.polygon(face_outline(L), fill=pink, outline=dark)
    # Snout over the nose: a disc with two nostrils.
    cx, cy = L[30][0], (L[30][1] + L[33][1]) / 2
    d.ellipse([cx - 56, cy - 38, cx + 56, cy + 38], fill=deep, outline=dark, width=5)
    for side in (-1, 1):
        d.ellipse([cx + side * 22 - 10, cy - 14, cx + side * 22 + 10, cy + 14], fill=dark)
    for side, i in ((-1, 2), (1, 14)):  # cheeks
        d.ellipse([L[i][0] - side * 10 - 26, L[i][1] - 16, L[i][0] - side * 10 + 26, L[i][1] + 16], fill=(250, 140, 160, 255))
    rims(d, L, dark, 4)
    return img


def main():
    L = load_layout()
    for name, draw in (("ox", ox), ("dragon", dragon), ("sheep", sheep), ("monkey", monkey), ("pig", pig)):
        img = draw(L)
        d = ImageDraw.Draw(img)
        # Openings last, so that nothing drawn above covers the wearer's eyes and mouth.
        eye_hole(d, L, range(36, 42))
        eye_hole(d, L, range(42, 48))
        mouth_hole(d, L)
        img.save(os.path.join(OUT, f"{name}.png"), optimize=True)


if __name__ == "__main__":
    main()
