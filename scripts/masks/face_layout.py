#!/usr/bin/python3
"""Computes the mean 68-point face layout the masks are drawn on.

Reads the annotated faces in ../shared/data/faces (dlib XML), brings each to a frame where the eye
centres sit at (-0.5, 0) and (0.5, 0), averages, and writes Samples/masks/layout.json in texture
pixels: 512 x 512, eye distance 128 px, eye midpoint at (256, 220). Run once; the result is
committed so that drawing the masks needs no shared data.
"""
import json
import math
import os
import xml.etree.ElementTree as ET

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "..")
FACES = os.path.join(ROOT, "..", "shared", "data", "faces")

shapes = []
for name in sorted(os.listdir(FACES)):
    if not name.endswith(".xml"):
        continue
    for box in ET.parse(os.path.join(FACES, name)).getroot().iter("box"):
        pts = {int(p.get("name")): (float(p.get("x")), float(p.get("y"))) for p in box.iter("part")}
        if len(pts) != 68:
            continue
        r = [sum(pts[i][k] for i in range(36, 42)) / 6 for k in (0, 1)]
        l = [sum(pts[i][k] for i in range(42, 48)) / 6 for k in (0, 1)]
        dx, dy = l[0] - r[0], l[1] - r[1]
        s, a = math.hypot(dx, dy), math.atan2(dy, dx)
        mx, my = (l[0] + r[0]) / 2, (l[1] + r[1]) / 2
        c, sn = math.cos(-a), math.sin(-a)
        shapes.append([(((x - mx) * c - (y - my) * sn) / s, ((x - mx) * sn + (y - my) * c) / s)
                       for x, y in (pts[i] for i in range(68))])
mean = [(sum(sh[i][0] for sh in shapes) / len(shapes), sum(sh[i][1] for sh in shapes) / len(shapes)) for i in range(68)]
# Left-right symmetric: average each point with its mirror partner.
mirror = list(range(16, -1, -1)) + list(range(26, 16, -1)) + [27, 28, 29, 30] + [35, 34, 33, 32, 31] + \
    [45, 44, 43, 42, 47, 46] + [39, 38, 37, 36, 41, 40] + [54, 53, 52, 51, 50, 49, 48] + [59, 58, 57, 56, 55] + \
    [64, 63, 62, 61, 60] + [67, 66, 65]
sym = [((mean[i][0] - mean[mirror[i]][0]) / 2, (mean[i][1] + mean[mirror[i]][1]) / 2) for i in range(68)]
layout = [[round(256 + 128 * x, 2), round(220 + 128 * y, 2)] for x, y in sym]
with open(os.path.join(ROOT, "Samples", "masks", "layout.json"), "w") as f:
    json.dump({"size": [512, 512], "eye_distance": 128, "faces_averaged": len(shapes), "landmarks": layout}, f)
    f.write("\n")
print(f"averaged {len(shapes)} faces")
