#!/bin/sh
# Scores `heritage-lens process` itself on recorded video: eval-faces' sequences are exported as
# H.264 MP4 files, each is processed as a user would (inline, and with --realtime as a live camera
# runs), and the anchors files are scored with the same metrics as eval-faces.
#
#   scripts/eval-faces-recorded.sh [--seed N] [--set gentle|hard|all] [--realtime-only|--inline-only]
#
# Environment: BIN (default .build/release/heritage-lens), OUT (default a temporary folder, kept),
# PIN (default "taskset -c 1": one core, as the figures in docs/faces.md), PROCESS_ARGS (extra
# options for process, e.g. --no-cards), FACES (a folder of annotated faces for eval-faces
# --faces, e.g. one scripts/baseline/portraits.py wrote; the same for the export and the scoring).
set -eu
BIN=${BIN:-.build/release/heritage-lens}
PIN=${PIN-taskset -c 1}
SEED=11
SET=all
MODES="inline realtime"
while [ $# -gt 0 ]; do
    case "$1" in
        --seed) SEED=$2; shift 2 ;;
        --set) SET=$2; shift 2 ;;
        --realtime-only) MODES=realtime; shift ;;
        --inline-only) MODES=inline; shift ;;
        *) echo "eval-faces-recorded.sh: unknown option $1 (see the script's header)" >&2; exit 2 ;;
    esac
done
[ -x "$BIN" ] || { echo "$BIN: not built; run swift build -c release first" >&2; exit 1; }
OUT=${OUT:-$(mktemp -d /tmp/heritage-faces-recorded.XXXXXX)}
mkdir -p "$OUT/videos"
echo "exporting seed $SEED ($SET) to $OUT/videos" >&2
"$BIN" eval-faces --seed "$SEED" --set "$SET" ${FACES:+--faces "$FACES"} --export "$OUT/videos"
for mode in $MODES; do
    mkdir -p "$OUT/$mode"
    for video in "$OUT"/videos/*.mp4; do
        name=$(basename "$video" .mp4)
        extra=""
        [ "$mode" = realtime ] && extra="--realtime"
        # shellcheck disable=SC2086
        $PIN "$BIN" process "$video" --anchors "$OUT/$mode/$name.anchors.jsonl" --no-render $extra ${PROCESS_ARGS:-} \
            2>"$OUT/$mode/$name.log" || { echo "process $video failed: see $OUT/$mode/$name.log" >&2; exit 1; }
    done
    echo "== process $mode (seed $SEED, $SET) ==" 
    "$BIN" eval-faces --seed "$SEED" --set "$SET" ${FACES:+--faces "$FACES"} --score-anchors "$OUT/$mode" --json "$OUT/$mode.json"
done
