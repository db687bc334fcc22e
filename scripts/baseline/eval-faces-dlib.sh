#!/bin/sh
# Scores the plain per-frame dlib script (dlib-per-frame.py: HOG detector and 68-point predictor on
# every frame, no tracking) on eval-faces' sequences with eval-faces' own metrics: the yardstick the
# face issue measured held-out footage with. Each sequence is exported as an MP4, run through the
# script, its output turned into an anchors file, and the folder scored.
#
#   scripts/baseline/eval-faces-dlib.sh [--seed N] [--set gentle|hard|all] [--upsample 0|1]
#
# Environment: BIN (default .build/release/heritage-lens), OUT (default a temporary folder, kept).
# Needs the script's Python modules: pip install --break-system-packages dlib-bin opencv-python-headless
set -eu
BIN=${BIN:-.build/release/heritage-lens}
SEED=11
SET=hard
UPSAMPLE=0
while [ $# -gt 0 ]; do
    case "$1" in
        --seed) SEED=$2; shift 2 ;;
        --set) SET=$2; shift 2 ;;
        --upsample) UPSAMPLE=$2; shift 2 ;;
        *) echo "eval-faces-dlib.sh: unknown option $1 (see the script's header)" >&2; exit 2 ;;
    esac
done
[ -x "$BIN" ] || { echo "$BIN: not built; run swift build -c release first" >&2; exit 1; }
python3 -c 'import dlib, cv2' 2>/dev/null || {
    echo "eval-faces-dlib.sh: python3 cannot import dlib and cv2; pip install --break-system-packages dlib-bin opencv-python-headless" >&2; exit 1; }
HERE=$(dirname "$0")
OUT=${OUT:-$(mktemp -d /tmp/heritage-faces-dlib.XXXXXX)}
mkdir -p "$OUT/videos" "$OUT/anchors"
echo "exporting seed $SEED ($SET) to $OUT/videos" >&2
"$BIN" eval-faces --seed "$SEED" --set "$SET" --export "$OUT/videos" >&2
for video in "$OUT"/videos/*.mp4; do
    name=$(basename "$video" .mp4)
    python3 "$HERE/dlib-per-frame.py" "$video" "$OUT/anchors/$name.per-frame.jsonl" --upsample "$UPSAMPLE" >/dev/null \
        || { echo "dlib-per-frame.py failed on $video" >&2; exit 1; }
    python3 "$HERE/to-anchors.py" "$OUT/anchors/$name.per-frame.jsonl" "$OUT/anchors/$name.anchors.jsonl"
done
echo "== per-frame dlib, upsample $UPSAMPLE (seed $SEED, $SET) =="
"$BIN" eval-faces --seed "$SEED" --set "$SET" --score-anchors "$OUT/anchors"
