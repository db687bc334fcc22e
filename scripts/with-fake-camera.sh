#!/usr/bin/env bash
# Runs a command with an emulated USB webcam (docs/camera.md): VIDEO plays in front of it, and
# /dev/video0 (plus its metadata node /dev/video1) answers V4L2 as uvcvideo would.
#
#   scripts/with-fake-camera.sh VIDEO [--device /dev/videoN] [--formats yuyv|mjpeg] [--fault SPEC]...
#                               [--log FILE] [--stamp] -- COMMAND...
#
#   --fault unplug:after=60,for=2   pulled out after 60 frames, back 2 s later
#   --fault stall:after=60,for=4    no frame for 4 s
#   --fault corrupt:every=10        every 10th MJPEG frame unreadable (where=scan: damaged data)
#   --fault truncate:every=10       every 10th MJPEG frame cut short (keep=0.5)
#   --fault lowlight:after=60       30 -> 15 fps (exposure priority), or darker frames
#   --fault busy[:for=T]            EBUSY on open (at=format: S_FMT, S_PARM, REQBUFS, STREAMON)
#   --fault nospace                 STREAMON fails with ENOSPC (USB bandwidth)
#   --formats yuyv                  offer only these formats (a YUYV-only camera)
#   --log FILE                      one line per V4L2 event and frame (sequence, timestamp)
#   --stamp                         draw each frame's sequence number into it (16-bit code, bottom left)
#
# Example:
#   scripts/with-fake-camera.sh Samples/sample.mp4 -- .build/release/heritage-lens run --no-preview --frames 150 --anchors out.jsonl
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"

usage() {
  sed -n '2,20p' "$0" | sed 's/^# \{0,1\}//' >&2
  exit 2
}

[ $# -ge 1 ] || usage
video="$1"
shift
case "$video" in -h|--help) usage ;; esac
if [ ! -r "$video" ]; then
  echo "with-fake-camera: error: $video: no such video file; make the sample with 'heritage-lens sample' or name another video" >&2
  exit 2
fi

device="/dev/video0"
faults=()
log=""
formats=""
stamp=""
while [ $# -gt 0 ]; do
  case "$1" in
    --device) device="${2:?--device needs a path}"; shift 2 ;;
    --fault) faults+=("${2:?--fault needs a spec such as unplug:after=60,for=2}"); shift 2 ;;
    --log) log="${2:?--log needs a file}"; shift 2 ;;
    --formats) formats="${2:?--formats needs yuyv, mjpeg or both}"; shift 2 ;;
    --stamp) stamp=1; shift ;;
    --) shift; break ;;
    *) echo "with-fake-camera: error: unknown option '$1' (options: --device, --formats, --fault, --log, --stamp, then -- COMMAND)" >&2; exit 2 ;;
  esac
done
if [ $# -eq 0 ]; then
  echo "with-fake-camera: error: no command; put it after --" >&2
  exit 2
fi

lib="$("$root/Tools/fake-camera/build.sh")"
joined=""
for f in ${faults[@]+"${faults[@]}"}; do joined="${joined:+$joined;}$f"; done

export FAKECAM_VIDEO="$(cd "$(dirname "$video")" && pwd)/$(basename "$video")"
export FAKECAM_DEVICE="$device"
export FAKECAM_FAULTS="$joined"
export FAKECAM_FORMATS="$formats"
export FAKECAM_STAMP="$stamp"
if [ -n "$log" ]; then export FAKECAM_LOG="$log"; fi
export LD_PRELOAD="$lib${LD_PRELOAD:+:$LD_PRELOAD}"
exec "$@"
