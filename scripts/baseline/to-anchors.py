#!/usr/bin/env python3
# Turns dlib-per-frame.py's output (one JSON line a frame: boxes and 68 points) into an anchors file
# `heritage-lens eval-faces --score-anchors` reads. The per-frame script has no tracks: a face is
# given the id of the last frame's face whose box it overlaps most (intersection over union at least
# 0.3), else a new id, so continuity is scored as a tracker that links boxes frame to frame would be.
#
#   python3 scripts/baseline/to-anchors.py PER_FRAME.jsonl OUT.anchors.jsonl [--width 640 --height 480 --fps 30]
import argparse, json

ap = argparse.ArgumentParser(description="dlib-per-frame.py output -> anchors JSONL")
ap.add_argument("per_frame"); ap.add_argument("out")
ap.add_argument("--width", type=int, default=640); ap.add_argument("--height", type=int, default=480)
ap.add_argument("--fps", type=float, default=30)
args = ap.parse_args()

def iou(a, b):
    x1, y1, x2, y2 = max(a[0], b[0]), max(a[1], b[1]), min(a[2], b[2]), min(a[3], b[3])
    inter = max(0, x2 - x1) * max(0, y2 - y1)
    union = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter
    return inter / union if union > 0 else 0

previous, next_id = [], 0
with open(args.per_frame) as src, open(args.out + ".part", "w") as out:
    for line in src:
        frame = json.loads(line)
        now, used = [], set()
        for face in frame["faces"]:
            best, best_iou = None, 0.3
            for pid, box in previous:
                if pid not in used and iou(face["box"], box) >= best_iou:
                    best, best_iou = pid, iou(face["box"], box)
            if best is None:
                next_id += 1
                best = next_id
            used.add(best)
            now.append((best, face))
        faces = [{"id": i, "bbox": [f["box"][0], f["box"][1], f["box"][2] - f["box"][0], f["box"][3] - f["box"][1]],
                  "landmarks": f["points"]} for i, f in now]
        out.write(json.dumps({"schema": 1, "frame": frame["frame"], "t": frame["frame"] / args.fps,
                              "width": args.width, "height": args.height, "faces": faces, "cards": []}) + "\n")
        previous = [(i, f["box"]) for i, f in now]
import os
os.replace(args.out + ".part", args.out)
