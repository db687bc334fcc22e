#!/usr/bin/env python3
# Does averaging a noisy frame with the frames before it lift a face over dlib's detection
# threshold, and bring dlib's 68-point fit closer? Sensor noise is new on every frame while a slow
# face moves a few pixels, so the mean of k frames has 1/sqrt(k) of the noise for a little motion
# blur. On exported eval-faces sequences (`heritage-lens eval-faces --set hard --seed N --only NAME
# --export DIR`), every third frame, each annotated face whole in the frame: the best score of
# dlib's HOG search (kept down to -1) whose box sits on the face, and the error of dlib's fit from
# that box when it scores -0.7 or more, on the frame as it is (k = 1) and on the mean of it and
# the k - 1 frames before. Prints, per sequence and k, the share of faces scored over 0 (dlib's
# threshold) and over -0.3, the median score, and the fits' mean error of points 17-67 in outer-eye
# distances and their share above 8 %, as eval-faces scores them.
#
#   python3 scripts/baseline/temporal-mean-scores.py DIR [DIR ...] [--name noise-defocus] [--k 1 2 3 4 6]
#
# Test tooling only: pip install --break-system-packages dlib-bin opencv-python-headless
import argparse, os, statistics, sys
import dlib
import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from exported import gray_frames, landmark_error, read_lines  # noqa: E402

ap = argparse.ArgumentParser(description="dlib's search and fit on the mean of consecutive noisy frames")
ap.add_argument("dirs", nargs="+", help="folders written by eval-faces --export")
ap.add_argument("--name", default="noise-defocus", help="the sequence's name (default noise-defocus)")
ap.add_argument("--k", type=int, nargs="+", default=[1, 2, 3, 4, 6], help="frames averaged (default 1 2 3 4 6)")
ap.add_argument("--model", default="/usr/share/dlib/shape_predictor_68_face_landmarks.dat")
args = ap.parse_args()

detector = dlib.get_frontal_face_detector()
predictor = dlib.shape_predictor(args.model)


print("sequence".ljust(28), " k", "faces", "  >0 ", "> -0.3", "median", " fits", "error / above 8 %")
for folder in args.dirs:
    truth = read_lines(f"{folder}/{args.name}.truth.jsonl", "temporal-mean-scores.py",
                       "export the sequence first (eval-faces --export DIR)")
    frames = [f.astype(np.float32) for f in gray_frames(f"{folder}/{args.name}.mp4", "temporal-mean-scores.py")]
    for k in args.k:
        scores, errors = [], []
        for index in range(k - 1, min(len(frames), len(truth)), 3):
            gray = np.clip(np.mean(frames[index - k + 1:index + 1], axis=0) + 0.5, 0, 255).astype(np.uint8)
            boxes, found, _ = detector.run(gray, 0, -1.0)
            for face in truth[index]["faces"]:
                points = face["landmarks"]
                xs, ys = [p[0] for p in points], [p[1] for p in points]
                if min(xs) < 0 or max(xs) > gray.shape[1] or min(ys) < 0 or max(ys) > gray.shape[0]:
                    continue
                cx, cy = sum(xs[17:]) / 51, sum(ys[17:]) / 51
                around = [(s, b) for b, s in zip(boxes, found)
                          if abs(b.center().x - cx) < 0.4 * b.width() and abs(b.center().y - cy) < 0.4 * b.height()]
                best = max(around, key=lambda a: a[0]) if around else (-1.0, None)
                scores.append(best[0])
                if best[0] >= -0.7:
                    shape = predictor(gray, best[1])
                    errors.append(landmark_error([(shape.part(i).x, shape.part(i).y) for i in range(68)], points))
        if not scores:
            continue
        fits = f"{100 * sum(errors) / len(errors):5.1f}% / {100 * sum(e > 0.08 for e in errors) / len(errors):3.0f}%" if errors else "-"
        print(f"{folder}/{args.name}"[-28:].ljust(28), f"{k:>2}", f"{len(scores):>5}",
              f"{sum(s > 0 for s in scores) / len(scores):5.2f}", f"{sum(s > -0.3 for s in scores) / len(scores):6.2f}",
              f"{statistics.median(scores):6.2f}", f"{len(errors):>5}", fits)
