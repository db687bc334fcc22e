#!/usr/bin/env bash
# Sets up a fresh Debian bookworm machine for HeritageLens: system packages, the release build,
# the sample video. Safe to run again; each step skips what is already done.
#
#   scripts/setup.sh            packages + release build + sample
#   scripts/setup.sh --deps     packages only (what .ci/run uses before the tests)
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v swift >/dev/null 2>&1; then
  echo "setup: error: no 'swift' on PATH; install a Swift 6 toolchain for Linux (swift.org) and add its usr/bin to PATH" >&2
  exit 1
fi

# Only what the bridge needs: the OpenCV module -dev packages the bridge links one by one
# (libopencv-dev would add VTK, OpenMPI and tesseract for a pkg-config file we do not use),
# dlib with its 68-point model, libv4l2, the cascades, BLAS/LAPACK link symlinks for dlib,
# FFmpeg's libraries for reading and writing video, libpng and libjpeg for images, and a CJK
# font for the card art. OpenCV's videoio is not linked; its package stays for its header and for
# `run --backend opencv`, which opens the library when asked.
PACKAGES=(
  libopencv-core-dev libopencv-imgproc-dev libopencv-videoio-dev
  libopencv-highgui-dev libopencv-features2d-dev libopencv-calib3d-dev libopencv-objdetect-dev
  libopencv-video-dev opencv-data
  libdlib-dev libdlib-data libblas-dev liblapack-dev
  libv4l-dev
  libavformat-dev libavcodec-dev libavutil-dev libswscale-dev
  libpng-dev libjpeg62-turbo-dev
  fonts-noto-cjk
)

missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${#missing[@]} Debian packages: ${missing[*]}" >&2
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
else
  echo "setup: Debian packages already installed" >&2
fi

scripts/fetch-debian-assets.sh

[ "${1:-}" = "--deps" ] && exit 0

echo "setup: building the release binary (swift build -c release)" >&2
swift build -c release
echo "setup: generating the sample video" >&2
.build/release/heritage-lens sample
# One frame of the sample unpacks dlib's detector and the landmark model into the model cache
# (~/.cache/heritage-lens/models), so the first real run starts as fast as the next ones.
echo "setup: unpacking the face models into the cache" >&2
# One frame of the sample through the pipeline: its summary line would read as a result, so it is kept quiet.
.build/release/heritage-lens process Samples/sample.mp4 --frames 1 --anchors /dev/null 2>/dev/null \
    || .build/release/heritage-lens process Samples/sample.mp4 --frames 1 --anchors /dev/null
echo "setup: done. Try: .build/release/heritage-lens process Samples/sample.mp4 -o out.mp4 --anchors anchors.jsonl --metrics metrics.jsonl" >&2
