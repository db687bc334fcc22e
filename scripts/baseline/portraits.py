#!/usr/bin/env python3
# Faces no eval-faces seed has drawn: two public-domain portraits that PyPI packages ship as sample
# data (Grace Hopper's US Navy portrait in matplotlib, NASA's astronaut Eileen Collins in
# scikit-image), written with their 68 landmarks to a folder `eval-faces --faces DIR` reads.
# The landmarks are dlib's 68-point fit in dlib's detector box on the full-size photo, as the 43
# faces of shared/data/faces were made. Nothing is copied into the repository: the packages'
# wheels are downloaded (pip download, no install) into a temporary folder.
#
#   python3 scripts/baseline/portraits.py DIR
#   .build/release/heritage-lens eval-faces --faces DIR --seed N
#
# Test tooling only: pip install --break-system-packages dlib-bin opencv-python-headless
import argparse, os, subprocess, sys, tempfile, zipfile
import cv2, dlib

ap = argparse.ArgumentParser(description="two public-domain portraits with dlib's 68 landmarks, for eval-faces --faces")
ap.add_argument("dir", help="folder to write the photos and faces.xml to (created)")
ap.add_argument("--model", default="/usr/share/dlib/shape_predictor_68_face_landmarks.dat")
args = ap.parse_args()

PORTRAITS = [("matplotlib", "matplotlib/mpl-data/sample_data/grace_hopper.jpg"),
             ("scikit-image", "skimage/data/astronaut.png")]

os.makedirs(args.dir, exist_ok=True)
with tempfile.TemporaryDirectory() as wheels:
    for package, member in PORTRAITS:
        got = subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps", "-q", "-d", wheels, package])
        if got.returncode != 0:
            sys.exit(f"portraits.py: pip could not download {package}; check the network or pip's index")
        wheel = next((w for w in os.listdir(wheels) if w.replace("_", "-").lower().startswith(package) and w.endswith(".whl")), None)
        if wheel is None:
            sys.exit(f"portraits.py: no wheel of {package} in {wheels}")
        with zipfile.ZipFile(os.path.join(wheels, wheel)) as z, open(os.path.join(args.dir, os.path.basename(member)), "wb") as out:
            out.write(z.read(member))

detector = dlib.get_frontal_face_detector()
predictor = dlib.shape_predictor(args.model)
lines = ["<?xml version='1.0' encoding='ISO-8859-1'?>", "<dataset>",
         "<name>Public-domain portraits, landmarks by dlib's 68-point model</name>", "<images>"]
for _, member in PORTRAITS:
    name = os.path.basename(member)
    image = cv2.imread(os.path.join(args.dir, name))
    if image is None:
        sys.exit(f"portraits.py: {name}: cannot read the photo")
    gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    boxes, scores, _ = detector.run(gray, 1, 0)
    if not boxes:
        sys.exit(f"portraits.py: {name}: dlib's detector finds no face")
    box = boxes[max(range(len(boxes)), key=lambda i: scores[i])]
    shape = predictor(gray, box)
    lines.append(f"  <image file='{name}' width='{image.shape[1]}' height='{image.shape[0]}'>")
    lines.append(f"    <box top='{box.top()}' left='{box.left()}' width='{box.width()}' height='{box.height()}'>")
    lines += [f"      <part name='{i:02d}' x='{shape.part(i).x}' y='{shape.part(i).y}'/>" for i in range(68)]
    lines += ["    </box>", "  </image>"]
lines += ["</images>", "</dataset>"]
with open(os.path.join(args.dir, "faces.xml"), "w") as out:
    out.write("\n".join(lines) + "\n")
print(f"{args.dir}: {len(PORTRAITS)} portraits and faces.xml; run eval-faces --faces {args.dir}")
