#!/usr/bin/env bash
# Soak test: runs the full pipeline on the sample, looped, for FRAMES frames (default 100000) and
# samples the process's resident memory and open file descriptors every 5 s. Prints the first,
# last and largest values; memory and descriptors should stay flat. Writes soak-<date>.csv.
#   scripts/soak.sh [FRAMES]        (about 1 h for 100000 frames on one core)
# SOAK_BIN runs another binary (a copy, so rebuilding meanwhile does not swap it mid-run);
# SOAK_CPU pins the run to that CPU (default 0) so the figures come from one core. The video is
# Matroska: an MP4 muxer keeps its whole index in memory until the end (about 30 bytes a frame),
# which a soak would show as growth; a long recording should be .mkv for the same reason (and an
# .mkv cut short by a power loss still plays).
set -euo pipefail
cd "$(dirname "$0")/.."
frames=${1:-100000}
bin=${SOAK_BIN:-.build/release/heritage-lens}
cpu=${SOAK_CPU:-0}
[ -x "$bin" ] || { echo "soak: $bin not found; build first: swift build -c release" >&2; exit 1; }
[ -f Samples/sample.mp4 ] || "$bin" sample
out="soak-$(date +%Y%m%d-%H%M%S)"
mkdir -p "$out"
# A copy of the sample: rebuilding the sample meanwhile must not pull the file from under the run.
cp Samples/sample.mp4 "$out/input.mp4"
taskset -c "$cpu" "$bin" process "$out/input.mp4" --loop --frames "$frames" \
  -o "$out/out.mkv" --anchors "$out/anchors.jsonl" --metrics "$out/metrics.jsonl" 2> "$out/stderr.log" &
pid=$!
echo "seconds,rss_kb,fds" > "$out/samples.csv"
start=$(date +%s)
while kill -0 "$pid" 2>/dev/null; do
  rss=$(awk '/VmRSS/ {print $2}' "/proc/$pid/status" 2>/dev/null || true)
  fds=$(ls "/proc/$pid/fd" 2>/dev/null | wc -l)
  [ -n "$rss" ] && echo "$(( $(date +%s) - start )),$rss,$fds" >> "$out/samples.csv"
  sleep 5
done
wait "$pid"; rc=$?
lines=$(wc -l < "$out/anchors.jsonl")
awk -F, -v frames="$frames" -v lines="$lines" -v rc="$rc" 'NR == 2 {r0 = $2; f0 = $3} NR > 1 {r = $2; f = $3; if ($2 > rmax) rmax = $2; if ($3 > fmax) fmax = $3}
  END {printf "exit %d; %d anchors lines for %d frames\nRSS first %d kB, last %d kB, max %d kB\nfds first %d, last %d, max %d\n", rc, lines, frames, r0, r, rmax, f0, f, fmax}' "$out/samples.csv"
echo "samples in $out/samples.csv"
