#!/usr/bin/env python3
# Does smoothing a noisy frame before dlib's 68-point fit bring the fit closer to the face? On
# exported eval-faces sequences (`heritage-lens eval-faces --set hard --seed N --only NAME --export
# DIR`), every third frame: dlib's HOG search kept down to a score of -0.7, each annotated face
# whole in the frame fitted from the best detection around it, on the frame as it is and smoothed
# four ways. Prints, per sequence, the mean error of points 17-67 in outer-eye distances and the
# share of fits above 8 %, as eval-faces scores them.
#
#   python3 scripts/baseline/fit-smoothed-frames.py DIR [DIR ...] [--name noise-defocus]
#
# Test tooling only: pip install --break-system-packages dlib-bin opencv-python-headless
import argparse, json, math
import cv2, dlib

ap = argparse.ArgumentParser(description="dlib's 68-point fit on smoothed noisy frames")
ap.add_argument("dirs", nargs="+", help="folders written by eval-faces --export")
ap.add_argument("--name", default="noise-defocus", help="the sequence's name (default noise-defocus)")
ap.add_argument("--model", default="/usr/share/dlib/shape_predictor_68_face_landmarks.dat")
args = ap.parse_args()

detector = dlib.get_frontal_face_detector()
predictor = dlib.shape_predictor(args.model)
smoothings = {
    "as is": lambda g: g,
    "gauss 1.0": lambda g: cv2.GaussianBlur(g, (0, 0), 1.0),
    "gauss 1.5": lambda g: cv2.GaussianBlur(g, (0, 0), 1.5),
    "gauss 2.0": lambda g: cv2.GaussianBlur(g, (0, 0), 2.0),
    "median 5": lambda g: cv2.medianBlur(g, 5),
    "bilateral": lambda g: cv2.bilateralFilter(g, 7, 40, 5),
}


def error(points, truth):
    eyes = math.dist(truth[36], truth[45])
    return sum(math.dist(points[i], truth[i]) for i in range(17, 68)) / 51 / eyes


print("sequence".ljust(28), "faces found", *(f"{k:>14}" for k in smoothings))
for folder in args.dirs:
    truth = [json.loads(line) for line in open(f"{folder}/{args.name}.truth.jsonl")]
    video = cv2.VideoCapture(f"{folder}/{args.name}.mp4")
    if not video.isOpened():
        raise SystemExit(f"{folder}/{args.name}.mp4: cannot open; export the sequence first")
    errors = {k: [] for k in smoothings}
    faces = found = 0
    for frame in truth:
        ok, image = video.read()
        if not ok:
            break
        if frame["frame"] % 3:
            continue
        gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
        boxes, scores, _ = detector.run(gray, 0, -0.7)
        for face in frame["faces"]:
            points = face["landmarks"]
            xs, ys = [p[0] for p in points], [p[1] for p in points]
            if min(xs) < 0 or max(xs) > gray.shape[1] or min(ys) < 0 or max(ys) > gray.shape[0]:
                continue
            faces += 1
            cx, cy = sum(xs[17:]) / 51, sum(ys[17:]) / 51
            around = [(s, b) for b, s in zip(boxes, scores)
                      if abs(b.center().x - cx) < 0.4 * b.width() and abs(b.center().y - cy) < 0.4 * b.height()]
            if not around:
                continue
            found += 1
            box = max(around, key=lambda a: a[0])[1]
            for name, smooth in smoothings.items():
                shape = predictor(smooth(gray), box)
                errors[name].append(error([(shape.part(i).x, shape.part(i).y) for i in range(68)], points))
    cells = []
    for e in errors.values():
        cells.append(f"{100 * sum(e) / len(e):5.1f}% / {100 * sum(x > 0.08 for x in e) / len(e):3.0f}%" if e else "-")
    print(f"{folder}/{args.name}"[-28:].ljust(28), f"{found:>4} of {faces:<4}", *(f"{c:>14}" for c in cells))
