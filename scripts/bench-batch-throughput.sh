#!/bin/sh
# Whole-video throughput of `process` against issue 18's per-frame dlib script, on one core, in
# alternating rounds (this machine's timings move between identical runs; medians are reported),
# then `process --cores N` and a batch with `--jobs N`.
#
#   scripts/bench-batch-throughput.sh [ROUNDS]       (default 3; about 2 minutes a round)
#
# Needs the release build, the sample (scripts/setup.sh) and, for the baseline, the Python
# packages of scripts/baseline/dlib-per-frame.py (pip install --break-system-packages dlib-bin
# opencv-python-headless); without them the baseline rows are skipped, saying so.
set -eu
BIN=${BIN:-.build/release/heritage-lens}
ROUNDS=${1:-3}
OUT=${OUT:-$(mktemp -d /tmp/heritage-throughput.XXXXXX)}
[ -x "$BIN" ] || { echo "$BIN: not built; run scripts/setup.sh" >&2; exit 1; }
[ -f Samples/sample.mp4 ] || { echo "Samples/sample.mp4 missing; run scripts/setup.sh" >&2; exit 1; }
ONE="$OUT/one-face-360.mp4"
PY=yes
python3 -c 'import cv2, dlib' 2>/dev/null || { PY=no; echo "baseline skipped: python3 cannot import cv2 and dlib (see the header)" >&2; }
if [ "$PY" = yes ]; then
    python3 scripts/baseline/make-one-face-video.py "$ONE" --bin "$BIN" >/dev/null
else
    # The same video without Python: eval-faces' motion sequence as it is (150 frames).
    mkdir -p "$OUT/export" && "$BIN" eval-faces --seed 11 --only motion --export "$OUT/export" >/dev/null 2>&1
    ONE="$OUT/export/motion.mp4"
fi
seconds() { /usr/bin/time -f '%e' "$@" 2>&1 >/dev/null | tail -1; }
median() { sort -n | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }
: >"$OUT/times.tsv"
r=1
while [ "$r" -le "$ROUNDS" ]; do
    for video in "$ONE" Samples/sample.mp4; do
        name=$(basename "$video" .mp4)
        if [ "$PY" = yes ]; then
            printf '%s\tpython\t%s\n' "$name" "$(seconds taskset -c 1 python3 scripts/baseline/dlib-per-frame.py "$video" "$OUT/py.jsonl" --upsample 0)" >>"$OUT/times.tsv"
        fi
        printf '%s\tcores1\t%s\n' "$name" "$(seconds taskset -c 1 "$BIN" process "$video" --anchors "$OUT/a1.jsonl")" >>"$OUT/times.tsv"
        printf '%s\tcores2\t%s\n' "$name" "$(seconds "$BIN" process "$video" --anchors "$OUT/a2.jsonl" --cores 2)" >>"$OUT/times.tsv"
        cmp -s "$OUT/a1.jsonl" "$OUT/a2.jsonl" || { echo "FAIL: --cores 2 gave other anchors than one core on $video" >&2; exit 1; }
    done
    echo "round $r of $ROUNDS done" >&2
    r=$((r + 1))
done
# A batch of eight videos (the exported eval-faces sequences), one and two at a time.
mkdir -p "$OUT/batch/in" "$OUT/batch/j1" "$OUT/batch/j2" "$OUT/batch/export"
"$BIN" eval-faces --seed 11 --set gentle --export "$OUT/batch/export" >/dev/null 2>&1
for f in still motion degraded dark backlit sidelit two-faces enter-leave; do cp "$OUT/batch/export/$f.mp4" "$OUT/batch/in/"; done
frames=$(cat "$OUT"/batch/export/still.truth.jsonl "$OUT"/batch/export/motion.truth.jsonl "$OUT"/batch/export/degraded.truth.jsonl \
    "$OUT"/batch/export/dark.truth.jsonl "$OUT"/batch/export/backlit.truth.jsonl "$OUT"/batch/export/sidelit.truth.jsonl \
    "$OUT"/batch/export/two-faces.truth.jsonl "$OUT"/batch/export/enter-leave.truth.jsonl | wc -l)
j1=$(seconds taskset -c 1 "$BIN" process "$OUT/batch/in" --output-dir "$OUT/batch/j1" --force)
j2=$(seconds "$BIN" process "$OUT/batch/in" --output-dir "$OUT/batch/j2" --jobs 2 --force)
for a in "$OUT"/batch/j1/*.anchors.jsonl; do
    cmp -s "$a" "$OUT/batch/j2/$(basename "$a")" || { echo "FAIL: --jobs 2 changed $(basename "$a")" >&2; exit 1; }
done
echo
echo "whole-video seconds, medians of $ROUNDS alternating rounds (python: dlib HOG upsample 0 + 68 points every frame, one core)"
printf '%-14s %8s %8s %8s %10s\n' video python cores1 cores2 "speed-up"
for name in "$(basename "$ONE" .mp4)" sample; do
    py=$(awk -v n="$name" '$1==n && $2=="python" {print $3}' "$OUT/times.tsv" | median)
    c1=$(awk -v n="$name" '$1==n && $2=="cores1" {print $3}' "$OUT/times.tsv" | median)
    c2=$(awk -v n="$name" '$1==n && $2=="cores2" {print $3}' "$OUT/times.tsv" | median)
    ratio=$(awk -v p="${py:-0}" -v c="$c1" 'BEGIN { if (p > 0) printf "%.2fx", p / c; else print "-" }')
    printf '%-14s %8s %8s %8s %10s\n' "$name" "${py:--}" "$c1" "$c2" "$ratio"
done
echo
echo "batch of 8 videos ($frames frames): --jobs 1 on one core ${j1} s ($(awk -v f="$frames" -v s="$j1" 'BEGIN{printf "%.0f", f/s}') frames/s), --jobs 2 ${j2} s ($(awk -v f="$frames" -v s="$j2" 'BEGIN{printf "%.0f", f/s}') frames/s); anchors identical"
echo "raw times: $OUT/times.tsv"
