#!/usr/bin/python3
"""Writes one 640x480 scene per card (the card tilted on a plain table) into the folder given,
for the gallery of card effects. Usage: card_scenes.py OUT_DIR"""
import os
import sys

from PIL import Image

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")


def solve(a, b):
    """Gaussian elimination with partial pivoting (8 x 8)."""
    m = [row[:] + [v] for row, v in zip(a, b)]
    n = len(m)
    for c in range(n):
        p = max(range(c, n), key=lambda r: abs(m[r][c]))
        m[c], m[p] = m[p], m[c]
        for r in range(n):
            if r != c:
                f = m[r][c] / m[c][c]
                m[r] = [x - f * y for x, y in zip(m[r], m[c])]
    return [m[i][n] / m[i][i] for i in range(n)]


out = sys.argv[1]
os.makedirs(out, exist_ok=True)
for k, cid in enumerate(["lichun", "yushui", "jingzhe", "chunfen", "qingming", "guyu"]):
    card = Image.open(os.path.join(ROOT, "Samples", "cards", f"{cid}.png")).convert("RGB")
    w, h = card.size
    scene = Image.new("RGB", (640, 480), (118, 96, 76))
    # Destination quad (TL, TR, BR, BL): a card leaning back, about a third of the frame wide.
    quad = [(230, 90), (420, 100), (445, 400), (205, 395)]
    # PIL wants the inverse map's 8 coefficients: solve them from the four corner pairs.
    A, b = [], []
    for (x, y), (u, v) in zip(quad, [(0, 0), (w, 0), (w, h), (0, h)]):
        A.append([x, y, 1, 0, 0, 0, -u * x, -u * y]); b.append(u)
        A.append([0, 0, 0, x, y, 1, -v * x, -v * y]); b.append(v)
    coeffs = solve(A, b)
    warped = card.transform((640, 480), Image.PERSPECTIVE, tuple(coeffs), Image.BILINEAR)
    mask = Image.new("L", card.size, 255).transform((640, 480), Image.PERSPECTIVE, tuple(coeffs), Image.BILINEAR)
    scene.paste(warped, (0, 0), mask)
    scene.save(os.path.join(out, f"{k}-{cid}.png"))
