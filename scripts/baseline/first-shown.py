#!/usr/bin/env python3
# When a face is first shown, against when it came into view. On eval-faces sequences exported
# as MP4s with their truth (the folders scripts/eval-faces-recorded.sh leaves, OUT/recorded-N,
# with `videos/` and one anchors folder per way run: `inline`, `realtime`), splits each
# condition's missed face frames in two:
#
# - before a face is first shown: from the frame it is wholly in view (at a row's start, after a
#   cut, coming back) until the first frame an anchor matches it;
# - after: frames a face already shown is missed.
#
# and prints, for the faces in view on a row's first frame, on which frame they were first shown.
# Faces are scored as eval-faces scores them: wholly in the frame, each matched by the nearest
# anchor left whose eye midpoint is within half an eye distance of its own.
#
#   python3 scripts/baseline/first-shown.py OUT/recorded-* [--anchors inline|realtime]
#
# Test tooling only: numpy.
import argparse, collections, glob, os, sys
import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from exported import by_truth_frame, eye_midpoint, read_lines  # noqa: E402

ap = argparse.ArgumentParser(description="missed face frames before and after a face is first shown")
ap.add_argument("dirs", nargs="+", help="folders scripts/eval-faces-recorded.sh wrote (videos/ and the anchors folder)")
ap.add_argument("--anchors", default="inline", help="the anchors' folder in each DIR (default inline)")
args = ap.parse_args()


def lines(path):
    return read_lines(path, "first-shown.py", "give folders scripts/eval-faces-recorded.sh wrote and the anchors folder it ran (--anchors inline or realtime)")


def whole(p, t):
    return (p >= 1).all() and (p[:, 0] < t["width"] - 1).all() and (p[:, 1] < t["height"] - 1).all()


totals = collections.defaultdict(lambda: [0, 0, 0])  # condition -> [face frames, before, after]
first_frame = collections.Counter()
rows = 0
for d in args.dirs:
    for truth_path in sorted(glob.glob(f"{d}/videos/*.truth.jsonl")):
        name = os.path.basename(truth_path)[: -len(".truth.jsonl")]
        truth = lines(truth_path)
        anchors = by_truth_frame(lines(f"{d}/{args.anchors}/{name}.anchors.jsonl"), truth)
        rows += 1
        in_view, waiting = set(), set()
        start_faces = {f["id"] for f in truth[0]["faces"] if whole(np.array(f["landmarks"]), truth[0])} if truth else set()
        for i, t in enumerate(truth):
            if i not in anchors:
                continue  # a frame --realtime skipped: eval-faces does not score it either
            free = [eye_midpoint(np.array(f["landmarks"]))[0] for f in anchors[i]["faces"]]
            now = set()
            for face in sorted(t["faces"], key=lambda f: f["id"]):
                p = np.array(face["landmarks"])
                middle, eyes = eye_midpoint(p)
                j = min(range(len(free)), key=lambda j: np.linalg.norm(free[j] - middle)) if free else None
                matched = j is not None and np.linalg.norm(free[j] - middle) < 0.5 * eyes
                if matched:
                    free.pop(j)
                if not whole(p, t):
                    continue
                key = face["id"]
                now.add(key)
                if key not in in_view:
                    waiting.add(key)
                totals[name][0] += 1
                if matched:
                    if key in waiting and key in start_faces:
                        first_frame[i] += 1
                        start_faces.discard(key)
                    waiting.discard(key)
                elif key in waiting:
                    totals[name][1] += 1
                else:
                    totals[name][2] += 1
            in_view = now
        first_frame["never"] += len(start_faces)

if not rows:
    sys.exit("first-shown.py: no exported rows (DIR/videos/*.truth.jsonl) in the folders given")
print(f"{rows} rows, anchors from {args.anchors}/")
print(f"{'condition':14} {'face frames':>11} {'missed before first shown':>26} {'missed after':>13}")
sums = [0, 0, 0]
for name in sorted(totals):
    n, before, after = totals[name]
    if n == 0:
        continue
    sums = [a + b for a, b in zip(sums, (n, before, after))]
    print(f"{name:14} {n:11} {before:17} ({before / n:.3f}) {after:6} ({after / n:.3f})")
n, before, after = sums
print(f"{'all':14} {n:11} {before:17} ({before / n:.3f}) {after:6} ({after / n:.3f})")
shown = sorted((k for k in first_frame if k != "never"))
print("faces in view on a row's first frame, first shown on frame: "
      + ", ".join(f"{k}: {first_frame[k]}" for k in shown)
      + (f", never: {first_frame['never']}" if first_frame["never"] else ""))
