#!/usr/bin/env bash
# Builds the camera emulator (libfakecam.so) when its sources are newer than it, and prints its path.
#
#   Tools/fake-camera/build.sh [OUTPUT_DIR]     default: .build/fake-camera (git-ignored)
#
# Needs a C compiler (gcc, cc, or the clang of the Swift toolchain) and the development headers of
# FFmpeg and libjpeg, which the project's OpenCV packages already pull in (libavformat-dev,
# libavcodec-dev, libswscale-dev, libjpeg-dev).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
out="${1:-$root/.build/fake-camera}"
lib="$out/libfakecam.so"
sources=("$here"/*.c)

stale=0
if [ ! -f "$lib" ]; then
  stale=1
else
  for f in "${sources[@]}" "$here/fakecam.h" "$here/build.sh"; do
    [ "$f" -nt "$lib" ] && stale=1
  done
fi
if [ "$stale" = 0 ]; then
  echo "$lib"
  exit 0
fi

cc="${CC:-}"
if [ -z "$cc" ]; then
  for c in gcc cc clang; do
    if command -v "$c" >/dev/null 2>&1; then cc="$c"; break; fi
  done
fi
if [ -z "$cc" ]; then
  echo "fake-camera: error: no C compiler (gcc, cc or clang) on PATH; install gcc" >&2
  exit 1
fi
libs=(-lavformat -lavcodec -lswscale -lavutil)
cflags=()
if command -v pkg-config >/dev/null 2>&1 && pkg-config --exists libavformat libavcodec libswscale libavutil; then
  read -r -a cflags <<<"$(pkg-config --cflags libavformat libavcodec libswscale libavutil)"
  read -r -a libs <<<"$(pkg-config --libs libavformat libavcodec libswscale libavutil)"
fi
if [ ! -f /usr/include/x86_64-linux-gnu/libavformat/avformat.h ] && [ ! -f /usr/include/libavformat/avformat.h ] \
   && [ ${#cflags[@]} -eq 0 ]; then
  echo "fake-camera: error: FFmpeg headers missing; run scripts/setup.sh --deps (it installs libavformat-dev with OpenCV)" >&2
  exit 1
fi

mkdir -p "$out"
# Built beside and renamed, so that concurrent builds never leave a half-written library.
tmp="$(mktemp "$out/libfakecam.XXXXXX.so")"
trap 'rm -f "$tmp"' EXIT
"$cc" -std=gnu11 -O2 -g -fPIC -shared -fvisibility=hidden -Wall -Wextra -Wno-unused-parameter \
  "${cflags[@]}" -o "$tmp" "${sources[@]}" "${libs[@]}" -ljpeg -ldl -lpthread -lm
chmod 755 "$tmp"
mv -f "$tmp" "$lib"
trap - EXIT
echo "$lib"
