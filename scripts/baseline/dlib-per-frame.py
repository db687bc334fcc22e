#!/usr/bin/env python3
# Baseline of issue 18: dlib's HOG face detector and 68-point shape predictor on every frame of a
# video, no tracking at all -- the plain script a user would write. Times the whole run, model load
# included (interpreter start is not, so `time` shows a few tens of ms more).
#
#   taskset -c 1 /usr/bin/time -f '%e s' python3 scripts/baseline/dlib-per-frame.py VIDEO OUT.jsonl [--upsample 0|1]
#
# Dependencies (test tooling only; prebuilt wheels, a few seconds, no compiling; the model is
# Debian's libdlib-data, which scripts/setup.sh installs, or any such .dat file via --model):
#   pip install --break-system-packages dlib-bin opencv-python-headless
# --upsample defaults to 1 as in dlib's own face_landmark_detection.py (`detector(img, 1)`: the image
# is doubled first, so faces down to ~40 px are found); 0 is the faster call (faces >= ~80 px).
import argparse, json, time
t0 = time.perf_counter()                                   # clock starts before the heavy imports
import cv2, dlib

ap = argparse.ArgumentParser(description="dlib HOG + 68 landmarks on every frame")
ap.add_argument("video"); ap.add_argument("out", help="one JSON line per frame")
ap.add_argument("--upsample", type=int, default=1, help="detector upsampling (default 1)")
ap.add_argument("--model", default="/usr/share/dlib/shape_predictor_68_face_landmarks.dat")
args = ap.parse_args()

detector = dlib.get_frontal_face_detector()                # HOG + linear SVM, 5 poses
predictor = dlib.shape_predictor(args.model)               # ~100 MB regression-tree ensemble
cap = cv2.VideoCapture(args.video)
if not cap.isOpened():
    raise SystemExit(f"{args.video}: cannot open")
frames = 0
with open(args.out, "w") as out:
    while True:
        ok, frame = cap.read()                             # BGR, decoded by OpenCV's FFmpeg
        if not ok:
            break
        gray = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
        faces = []
        for r in detector(gray, args.upsample):            # a full search on every frame
            s = predictor(gray, r)
            faces.append({"box": [r.left(), r.top(), r.right(), r.bottom()],
                          "points": [[p.x, p.y] for p in s.parts()]})
        out.write(json.dumps({"frame": frames, "faces": faces}) + "\n")   # the work is kept
        frames += 1
secs = time.perf_counter() - t0
print(f"frames {frames} seconds {secs:.2f} fps {frames / secs:.1f} (upsample {args.upsample})")
