#!/usr/bin/env python3
# Does a tracked face's fit grow when each frame's fit starts in the box the last one gives? dlib's
# 68-point predictor alone, chained from frame to frame as the tracker chains it (no check, no
# verification, no smoothing): the first frame fitted in dlib's detection box, each next one in the
# box FaceFrame predicts from the last fit (2.63 box units wide, its centre 0.54 units below the
# eyes; the unit is the eye distance, or 0.8 of the eyes-to-mouth distance when that is larger),
# scaled by each SHARE given. On exported eval-faces sequences of one face (`heritage-lens
# eval-faces --set hard --seed N --only NAME --export DIR`); prints the mean error of points
# 17-67 in outer-eye distances and the share of frames above 8 %, as eval-faces scores them, and
# every eighth frame's error. A face that moves fast is lost by a chain with nothing to call it
# back; read the rows of slow faces.
#
#   python3 scripts/baseline/chained-fit.py DIR/NAME [SHARE ...]     (default shares 1.0 0.95 0.9)
#
# Test tooling only: pip install --break-system-packages dlib-bin opencv-python-headless
import argparse, math, os, sys
import dlib
import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from exported import eye_midpoint, gray_frames, landmark_error, read_lines  # noqa: E402

ap = argparse.ArgumentParser(description="dlib's 68-point fit chained from frame to frame")
ap.add_argument("sequence", help="an exported sequence without its extension: DIR/NAME (DIR/NAME.mp4, DIR/NAME.truth.jsonl)")
ap.add_argument("shares", nargs="*", type=float, default=[1.0, 0.95, 0.9], help="shares of the predicted box to start in")
ap.add_argument("--model", default="/usr/share/dlib/shape_predictor_68_face_landmarks.dat")
args = ap.parse_args()

detector = dlib.get_frontal_face_detector()
predictor = dlib.shape_predictor(args.model)
truth = read_lines(args.sequence + ".truth.jsonl", "chained-fit.py", "export the sequence first (eval-faces --export DIR)")
frames = gray_frames(args.sequence + ".mp4", "chained-fit.py")


def fit(gray, cx, cy, side):
    box = dlib.rectangle(int(round(cx - side / 2)), int(round(cy - side / 2)), int(round(cx + side / 2)), int(round(cy + side / 2)))
    shape = predictor(gray, box)
    return np.array([(shape.part(k).x, shape.part(k).y) for k in range(68)], float)


def predicted_box(points):
    right, left = points[36:42].mean(0), points[42:48].mean(0)
    middle, eyes = eye_midpoint(points)
    unit = max(eyes, 0.8 * np.linalg.norm(points[48:68].mean(0) - middle))
    roll = math.atan2(*(left - right)[::-1])
    offset = np.array([0.02, 0.54]) * unit
    c, s = math.cos(roll), math.sin(roll)
    return middle + np.array([c * offset[0] - s * offset[1], s * offset[0] + c * offset[1]]), 2.63 * unit


def error(points, index):
    faces = truth[index]["faces"]
    return landmark_error(points, faces[0]["landmarks"]) if faces else None


start = next((i for i, g in enumerate(frames) if detector.run(g, 0, -0.7)[0]), None)
if start is None:
    raise SystemExit(f"{args.sequence}: dlib's detector finds no face on any frame")
boxes, scores, _ = detector.run(frames[start], 0, -0.7)
first = boxes[max(range(len(boxes)), key=lambda i: scores[i])]
for share in args.shares:
    points = fit(frames[start], first.center().x, first.center().y, first.width())
    errors = []
    for index in range(start + 1, min(len(frames), len(truth))):
        centre, side = predicted_box(points)
        points = fit(frames[index], centre[0], centre[1], side * share)
        e = error(points, index)
        if e is not None:
            errors.append(e)
    e = np.array(errors)
    print(f"{args.sequence[-32:]:32} share {share:.2f}: {100 * e.mean():5.1f} % error, {100 * (e > 0.08).mean():3.0f} % above 8 %;",
          "every eighth frame:", " ".join(f"{100 * x:.0f}" for x in e[::8]))
