#!/usr/bin/env bash
# Fault injection on the real binary: what is left after each kind of failure. Prints a table
# (docs/reliability.md holds the current figures and what they mean).
#   scripts/fault-injection.sh [TRIALS]     (kill trials per container, default 10; a few minutes)
# FI_BIN runs another binary (default .build/release/heritage-lens, else the debug one).
# Sections: outputs that are an input or each other; a disk that fills (a 400 kB tmpfs when
# mounting works here, else the file size limit); SIGKILL after a random number of frames;
# each stop signal; a second Ctrl-C; the same anchors alone, next to a busy loop on the same CPU
# and with freed memory filled with other bytes. Frames are counted with ffprobe when present.
set -uo pipefail
cd "$(dirname "$0")/.."
trials=${1:-10}
bin=${FI_BIN:-.build/release/heritage-lens}
[ -x "$bin" ] || bin=.build/debug/heritage-lens
[ -x "$bin" ] || { echo "fault-injection: no binary; build first: swift build -c release" >&2; exit 1; }
bin=$(realpath "$bin")
work=$(mktemp -d "${TMPDIR:-/tmp}/heritage-lens-faults-XXXXXX")
mounted=""
cleanup() {
  [ -n "$mounted" ] && umount "$mounted" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT
cd "$work"
"$bin" sample -o in.mp4 --frames 180 >/dev/null 2>&1 || { echo "fault-injection: 'sample' failed" >&2; exit 1; }

frames_in() {  # decodable frames of a video, or "?" without ffprobe
  if command -v ffprobe >/dev/null; then
    n=$(ffprobe -v error -count_frames -select_streams v:0 -show_entries stream=nb_read_frames -of csv=p=0 "$1" 2>/dev/null | head -1)
    echo "${n:-0}" | tr -dc '0-9' | sed 's/^$/0/'
  else echo "?"; fi
}
whole() { [ ! -s "$1" ] || [ "$(tail -c 1 "$1" | od -An -c | tr -d ' ')" = '\n' ] && echo whole || echo TORN; }
lines() { [ -f "$1" ] && wc -l < "$1" || echo 0; }

echo "== outputs that are an input or each other (input must stay byte for byte)"
sum=$(md5sum < in.mp4)
ln -sf in.mp4 link.mp4; ln -f in.mp4 hard.mp4
for args in "-o in.mp4" "--anchors in.mp4" "--metrics ./in.mp4" "-o link.mp4" "--anchors hard.mp4" \
            "-o x.mp4 --anchors x.mp4" "--anchors f.jsonl --metrics f.jsonl" "--anchors - --metrics -"; do
  # stdout to a file: to /dev/null (a device, not a file) two '-' outputs would be harmless.
  "$bin" process in.mp4 $args >stdout.txt 2>err.txt; rc=$?
  same=$([ "$(md5sum < in.mp4)" = "$sum" ] && echo kept || echo DESTROYED)
  printf '  %-40s exit %d, input %s: %s\n' "$args" "$rc" "$same" "$(tail -1 err.txt | cut -c1-90)"
done

echo "== a disk that fills during the run"
mkdir small
if [ "$(id -u)" -eq 0 ] && mount -t tmpfs -o size=400k tmpfs small 2>/dev/null; then
  mounted=$PWD/small; how="400 kB tmpfs"
else how="ulimit -f 400 kB"; fi
for out in out.mp4 out.mkv out.avi; do
  rm -f small/*
  if [ -n "$mounted" ]; then "$bin" process in.mp4 -o "small/$out" --anchors small/a.jsonl >/dev/null 2>err.txt; rc=$?
  else (trap '' XFSZ; ulimit -f 800; exec "$bin" process in.mp4 -o "small/$out" --anchors small/a.jsonl) >/dev/null 2>err.txt; rc=$?; fi
  printf '  %-8s (%s): exit %d, %s processed, %s play, anchors %s: %s\n' "$out" "$how" "$rc" "$(lines small/a.jsonl)" \
    "$(frames_in "small/$out")" "$(whole small/a.jsonl)" "$(tail -1 err.txt | cut -c1-80)"
done
rm -f small/*
# Lines are small: leave them 40 kB.
if [ -n "$mounted" ]; then head -c 360k /dev/zero > small/filler; "$bin" process in.mp4 --anchors small/a.jsonl --metrics small/m.jsonl >/dev/null 2>err.txt; rc=$?
else (trap '' XFSZ; ulimit -f 100; exec "$bin" process in.mp4 --anchors small/a.jsonl --metrics small/m.jsonl) >/dev/null 2>err.txt; rc=$?; fi
printf '  anchors+metrics: exit %d, anchors %s (%s lines), metrics %s: %s\n' "$rc" "$(whole small/a.jsonl)" "$(lines small/a.jsonl)" \
  "$(whole small/m.jsonl)" "$(tail -1 err.txt | cut -c1-80)"

echo "== SIGKILL after a random number of frames (--realtime: frames at 30 fps, as live)"
for ext in mp4 mkv avi; do
  losses=""
  for ((t = 0; t < trials; t++)); do
    rm -f k.$ext k.jsonl
    target=$((20 + RANDOM % 130))
    "$bin" process in.mp4 --realtime -o k.$ext --anchors k.jsonl >/dev/null 2>&1 & pid=$!
    while kill -0 $pid 2>/dev/null && [ "$(lines k.jsonl)" -lt $target ]; do sleep 0.02; done
    kill -9 $pid 2>/dev/null; wait $pid 2>/dev/null
    n=$(lines k.jsonl); f=$(frames_in k.$ext)
    losses="$losses $n:$f"
  done
  echo "  $ext (processed:playable)$losses"
done

echo "== stop signals (exit status, frames in the video = anchors lines)"
for sig in INT TERM HUP QUIT; do
  rm -f s.mp4 s.jsonl
  "$bin" process in.mp4 --realtime -o s.mp4 --anchors s.jsonl >/dev/null 2>&1 & pid=$!
  while kill -0 $pid 2>/dev/null && [ "$(lines s.jsonl)" -lt 30 ]; do sleep 0.02; done
  kill -$sig $pid; wait $pid; rc=$?
  printf '  SIG%-5s exit %d, %s lines, %s frames play\n' "$sig" "$rc" "$(lines s.jsonl)" "$(frames_in s.mp4)"
done
rm -f s.mp4 s.jsonl
"$bin" process in.mp4 --realtime -o s.mkv --anchors s.jsonl >/dev/null 2>&1 & pid=$!
while kill -0 $pid 2>/dev/null && [ "$(lines s.jsonl)" -lt 60 ]; do sleep 0.02; done
kill -INT $pid; sleep 0.05; kill -INT $pid 2>/dev/null; wait $pid; rc=$?
printf '  second Ctrl-C 50 ms after the first: exit %d, %s lines (%s), %s frames play\n' "$rc" "$(lines s.jsonl)" \
  "$(whole s.jsonl)" "$(frames_in s.mkv)"

echo "== the same anchors alone, next to a busy loop on the same CPU, with freed memory filled"
"$bin" process in.mp4 --anchors alone.jsonl >/dev/null 2>&1
taskset -c 0 sh -c 'while :; do :; done' & busy=$!
taskset -c 0 "$bin" process in.mp4 --anchors busy.jsonl >/dev/null 2>&1
kill -9 $busy; wait $busy 2>/dev/null
MALLOC_PERTURB_=85 "$bin" process in.mp4 --anchors perturbed.jsonl >/dev/null 2>&1
for f in busy perturbed; do
  if cmp -s alone.jsonl $f.jsonl; then echo "  $f: identical ($(lines $f.jsonl) lines)"
  else echo "  $f: $(diff alone.jsonl $f.jsonl | grep -c '^>') of $(lines alone.jsonl) lines DIFFER"; fi
done
