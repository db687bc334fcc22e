#!/usr/bin/env python3
# The 43 annotated faces as black-and-white photos (many public-domain portraits are): every photo
# of a dlib landmark folder written in gray (three equal channels, JPEG quality 95) beside copies
# of its XML files, for `eval-faces --faces DIR`.
#
#   python3 scripts/baseline/gray-faces.py ../shared/data/faces DIR
#   .build/release/heritage-lens eval-faces --faces DIR --seed N
#
# Test tooling only: pip install --break-system-packages opencv-python-headless
import argparse, glob, os, shutil
import cv2

ap = argparse.ArgumentParser(description="a dlib landmark folder's photos in gray")
ap.add_argument("source", help="folder of dlib landmark XML files and their photos")
ap.add_argument("dir", help="folder to write to (created)")
args = ap.parse_args()

os.makedirs(args.dir, exist_ok=True)
xml = glob.glob(os.path.join(args.source, "*.xml"))
if not xml:
    raise SystemExit(f"{args.source}: no landmark XML files")
for path in xml:
    shutil.copy(path, args.dir)
photos = 0
for path in sorted(glob.glob(os.path.join(args.source, "*"))):
    if path.endswith(".xml"):
        continue
    image = cv2.imread(path)
    if image is None:
        continue
    gray = cv2.cvtColor(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR)
    name = os.path.basename(path)
    params = [cv2.IMWRITE_JPEG_QUALITY, 95] if name.lower().endswith((".jpg", ".jpeg")) else []
    if not cv2.imwrite(os.path.join(args.dir, name), gray, params):
        raise SystemExit(f"{args.dir}/{name}: cannot write")
    photos += 1
print(f"{args.dir}: {photos} photos in gray and {len(xml)} XML files")
