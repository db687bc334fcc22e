#!/usr/bin/env python3
# Makes issue 18's one-face video: 640x480, 360 frames, one moving face, no card. eval-faces'
# `motion` sequence (150 frames, one face with roll and scale changes) is played forward, backward,
# forward... (ping-pong, no frame repeated at a turn) to 360 frames and written as MPEG-4 (mp4v).
#
#   python3 scripts/baseline/make-one-face-video.py [OUT.mp4] [--source motion.mp4] [--frames 360]
#
# Without --source the sequence is exported first (seed 11, as in docs) into a temporary folder:
#   heritage-lens eval-faces --seed 11 --only motion --export DIR
# Dependencies: pip install --break-system-packages opencv-python-headless
import argparse, os, subprocess, sys, tempfile
import cv2

ap = argparse.ArgumentParser()
ap.add_argument("out", nargs="?", default="/tmp/base/one-face-360.mp4")
ap.add_argument("--source", help="an exported motion.mp4 (default: export one now)")
ap.add_argument("--frames", type=int, default=360)
ap.add_argument("--bin", default=".build/release/heritage-lens")
args = ap.parse_args()

source = args.source
if source is None:
    folder = tempfile.mkdtemp(prefix="heritage-motion.")
    subprocess.run([args.bin, "eval-faces", "--seed", "11", "--only", "motion", "--export", folder],
                   check=True)
    source = os.path.join(folder, "motion.mp4")

cap = cv2.VideoCapture(source)
clip = []
while True:
    ok, frame = cap.read()
    if not ok:
        break
    clip.append(frame)
if len(clip) < 2:
    sys.exit(f"{source}: no frames")
h, w = clip[0].shape[:2]
fps = cap.get(cv2.CAP_PROP_FPS) or 30.0
period = 2 * len(clip) - 2                          # 0, 1, ..., n-1, n-2, ..., 1, then again
os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
writer = cv2.VideoWriter(args.out, cv2.VideoWriter_fourcc(*"mp4v"), fps, (w, h))
for k in range(args.frames):
    p = k % period
    writer.write(clip[p if p < len(clip) else period - p])
writer.release()
print(f"{args.out}: {args.frames} frames {w}x{h} at {fps:g} fps from {source} ({len(clip)} frames)")
