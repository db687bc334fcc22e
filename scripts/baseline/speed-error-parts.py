#!/usr/bin/env python3
# Where a `speed` row's landmark error comes from. On exported eval-faces sequences
# (`heritage-lens eval-faces --set hard --seed N --only speed --export DIR`) with the anchors
# `process` wrote for them (`heritage-lens process DIR/speed.mp4 --anchors DIR/speed.anchors.jsonl`;
# or the folders scripts/eval-faces-recorded.sh leaves, with `--anchors ../inline`), prints per
# row the mean error of points 17-67 in outer-eye distances, scored as eval-faces scores it (faces
# wholly in the frame, each matched by the nearest anchor within half an eye distance):
#
# - on every frame with a face, where the motion pauses at a turnaround (the blur under 0.6 of
#   the row's median) and in full motion;
# - with the true shape placed where the fit's similarity (position, size, turn) puts it: what
#   is left when only the fit's pose is wrong;
# - after smoothing over frames the fit's shape in its own frame, and its size and turn (one-pole
#   filters, causal): what a steadier fit would give;
# - on the first frame after the face turned back (its step from the frame before points against
#   the step before it), and how far the anchors sit behind the face along its step, in eye
#   distances, over the frames in full motion (negative: ahead of it).
#
#   python3 scripts/baseline/speed-error-parts.py DIR [DIR ...] [--name speed] [--anchors SUBDIR]
#
# Test tooling only: numpy.
import argparse, os, sys
import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from exported import by_truth_frame, eye_midpoint, read_lines  # noqa: E402

ap = argparse.ArgumentParser(description="the parts of a fast face's landmark error")
ap.add_argument("dirs", nargs="+", help="folders written by eval-faces --export, with NAME.anchors.jsonl")
ap.add_argument("--name", default="speed", help="the sequence's name (default speed)")
ap.add_argument("--anchors", default=".", help="the anchors' folder, relative to each DIR (default DIR itself)")
args = ap.parse_args()


def lines(path):
    return read_lines(path, "speed-error-parts.py", "give folders written by eval-faces --export and the anchors process wrote for them (--anchors)")


def complex_points(p):
    return p[:, 0] + 1j * p[:, 1]


def similarity(src, dst):
    """dst ≈ a * (src - src_mean) + dst_mean, least squares, in complex form."""
    s, d = complex_points(src), complex_points(dst)
    s0, d0 = s - s.mean(), d - d.mean()
    return (np.conj(s0) @ d0) / (np.conj(s0) @ s0), s.mean(), d.mean()


def points(c):
    return np.stack([c.real, c.imag], 1)


def error(fit, truth):
    eye = np.linalg.norm(truth[36] - truth[45])
    return np.mean(np.linalg.norm(fit[17:] - truth[17:], axis=1)) / eye


totals = {}
WIDTHS = (6, 7, 7, 10, 8, 10)


def pct(v):
    return f"{100 * np.mean(v):.2f}%" if v else "-"


def signed(v):
    return f"{np.mean(v):+.3f}" if v else "-"


print(f"{'row':28} {'frames':>6} {'all':>6} {'paused':>7} {'moving':>7} {'true shape':>10} {'smoothed':>8} {'first back':>10} {'behind':>7}")
for d in args.dirs:
    truth = lines(f"{d}/{args.name}.truth.jsonl")
    anchors = by_truth_frame(lines(f"{d}/{args.anchors}/{args.name}.anchors.jsonl"), truth)
    faces = [{f["id"]: np.array(f["landmarks"]) for f in t["faces"]} for t in truth]

    def blur_at(i):
        """The frame's blur: a quarter of the two-frame motion of its fastest face."""
        if i == 0 or i + 1 >= len(faces):
            return None
        moves = [np.linalg.norm(faces[i + 1][k].mean(0) - faces[i - 1][k].mean(0))
                 for k in faces[i] if k in faces[i - 1] and k in faces[i + 1]]
        return max(moves) * 0.25 if moves else None

    def steps(i, key):
        """The face's eye-midpoint step onto frame i and the step before it, when both exist."""
        if i < 2 or any(key not in faces[j] for j in (i - 2, i - 1)):
            return None, None
        m = [eye_midpoint(faces[j][key])[0] for j in (i - 2, i - 1, i)]
        return m[2] - m[1], m[1] - m[0]

    tracks = {}  # truth face id -> [(true, fit, blur, step, turned back)]
    for i, t in enumerate(truth):
        a = anchors.get(i)
        if not a:
            continue
        w, h = t["width"], t["height"]
        free = [np.array(f["landmarks"]) for f in a["faces"]]
        # As eval-faces scores: faces in id order, each matched by the nearest anchor left whose
        # eye midpoint is within half an eye distance of its own, and counted when wholly in the
        # frame.
        for key in sorted(faces[i]):
            true = faces[i][key]
            middle, eyes = eye_midpoint(true)
            if not free:
                break
            j = min(range(len(free)), key=lambda j: np.linalg.norm(eye_midpoint(free[j])[0] - middle))
            if np.linalg.norm(eye_midpoint(free[j])[0] - middle) >= 0.5 * eyes:
                continue
            fit = free.pop(j)
            if (true >= 1).all() and (true[:, 0] < w - 1).all() and (true[:, 1] < h - 1).all():
                step, before = steps(i, key)
                turned = step is not None and float(step @ before) < 0
                tracks.setdefault(key, []).append((true, fit, blur_at(i), step, turned))
    rows = [r for key in sorted(tracks) for r in tracks[key]]
    if not rows:
        print(f"{d:28} no face found")
        continue
    blurs = np.array([r[2] for r in rows if r[2] is not None])
    median = np.median(blurs) if len(blurs) else 0
    plain, paused, moving, true_shape, smoothed, turned_back, behind = [], [], [], [], [], [], []
    for true, fit, blur, step, turned, first in ((*r, n == 0) for key in sorted(tracks) for n, r in enumerate(tracks[key])):
        if first:
            reference, shape, log_size = fit, None, None
        e = error(fit, true)
        plain.append(e)
        if blur is not None:
            (paused if blur < 0.6 * median else moving).append(e)
        if turned:
            turned_back.append(e)
        if blur is not None and blur >= 0.6 * median and step is not None and np.linalg.norm(step) > 0:
            middle, eyes = eye_midpoint(true)
            behind.append(float((middle - eye_midpoint(fit)[0]) @ step) / np.linalg.norm(step) / eyes)
        a, s_mean, d_mean = similarity(true, fit)
        true_shape.append(error(points(a * (complex_points(true) - s_mean) + d_mean), true))
        # The fit as a similarity of the first fit times a shape in that first fit's frame.
        a, s_mean, d_mean = similarity(reference, fit)
        own = (complex_points(fit) - d_mean) / a
        shape = own if shape is None else 0.8 * shape + 0.2 * own
        log_size = np.log(a) if log_size is None else 0.85 * log_size + 0.15 * np.log(a)
        smoothed.append(error(points(np.exp(log_size) * shape + d_mean), true))

    parts = (plain, paused, moving, true_shape, smoothed, turned_back, behind)
    for k, part in enumerate(parts):
        totals.setdefault(k, []).extend(part)
    print(f"{d[-28:]:28} {len(plain):6} " + " ".join(f"{pct(v):>{w}}" for v, w in zip(parts, WIDTHS))
          + f" {signed(behind):>7}")
if len(args.dirs) > 1 and totals:
    print(f"{'every frame of these rows':28} {len(totals[0]):6} "
          + " ".join(f"{pct(totals[k]):>{w}}" for k, w in zip(range(6), WIDTHS)) + f" {signed(totals[6]):>7}")
