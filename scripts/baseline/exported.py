# Shared by the analysis scripts that read eval-faces' exported sequences (`--export DIR`: each
# NAME.mp4 with NAME.truth.jsonl) beside the anchors `process` wrote for them. numpy only, but for
# `gray_frames`, which imports OpenCV when called.
import json, sys
import numpy as np


def read_lines(path, script, hint):
    """A JSON-lines file's objects; a missing or unreadable file ends `script` with one line."""
    try:
        with open(path) as f:
            return [json.loads(line) for line in f]
    except OSError as e:
        sys.exit(f"{script}: {path}: {e.strerror}; {hint}")


def by_truth_frame(anchors, truth):
    """Anchors lines keyed by the truth frame at their timestamp, as eval-faces scores them: under
    `process --realtime` a skipped frame leaves no line, and `frame` counts the frames delivered."""
    fps = 1 / truth[1]["t"] if len(truth) > 1 and truth[1]["t"] > 0 else 30
    return {round(a["t"] * fps): a for a in anchors}


def eye_midpoint(p):
    """The midpoint of the eye centres and their distance."""
    right, left = p[36:42].mean(0), p[42:48].mean(0)
    return (right + left) / 2, np.linalg.norm(left - right)


def gray_frames(path, script):
    """Every frame of the video at `path` in gray (uint8); an unreadable video ends `script` with one line."""
    import cv2
    video = cv2.VideoCapture(path)
    if not video.isOpened():
        sys.exit(f"{script}: {path}: cannot open; export the sequence first (eval-faces --export DIR)")
    frames = []
    while True:
        ok, image = video.read()
        if not ok:
            return frames
        frames.append(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY))


def landmark_error(points, marks):
    """Mean distance of points 17-67 from the truth's, in outer-eye distances, as eval-faces scores it."""
    eyes = np.linalg.norm(np.subtract(marks[45], marks[36]))
    return sum(np.linalg.norm(np.subtract(points[i], marks[i])) for i in range(17, 68)) / 51 / eyes
