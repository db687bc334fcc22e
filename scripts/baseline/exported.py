# Shared by the analysis scripts that read eval-faces' exported sequences (`--export DIR`: each
# NAME.mp4 with NAME.truth.jsonl) beside the anchors `process` wrote for them. numpy only.
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
