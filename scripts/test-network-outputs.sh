#!/usr/bin/env bash
# Network outputs against real clients (docs/network-outputs.md):
#   OSC      python-osc's receiver checks every message against the anchors file of the same run;
#   /anchors python's websockets client compares its messages with the anchors lines, byte for byte;
#   viewer   headless Chromium loads / during `process --realtime --serve`; its screenshot's pixels
#            must show the video and the overlay;
#   load     (with --load) 16 WebSocket + 4 MJPEG clients, a stalled client and hostile requests,
#            against a run without clients: latency table, error statuses, memory.
# Installs what it needs (apt-get: chromium; pip: python-osc, websockets) and skips a check, with a
# message, where that cannot be installed. Exit status 1 when a check fails.
#
#   scripts/test-network-outputs.sh [--release] [--load] [--screenshot docs/images/viewer.png]
set -euo pipefail
cd "$(dirname "$0")/.."

config=debug load=0 screenshot=""
while [ $# -gt 0 ]; do
    case "$1" in
        --release) config=release ;;
        --load) load=1 ;;
        --screenshot) screenshot="$2"; shift ;;
        *) echo "usage: $0 [--release] [--load] [--screenshot FILE]" >&2; exit 2 ;;
    esac
    shift
done

sudo_cmd=""
[ "$(id -u)" -ne 0 ] && command -v sudo >/dev/null && sudo_cmd="sudo"

swift build -c "$config" --product heritage-lens >/dev/null 2>&1 || { echo "network: swift build failed" >&2; exit 1; }
binary=".build/$config/heritage-lens"
sample="Samples/sample.mp4"
[ -f "$sample" ] || "$binary" sample -o "$sample" >/dev/null
work="$(mktemp -d "${TMPDIR:-/tmp}/heritage-network.XXXXXX")"
trap 'rm -rf "$work"' EXIT

python_ok=1
if ! python3 -c "import pythonosc, websockets" 2>/dev/null; then
    python3 -m pip install --quiet python-osc websockets >/dev/null 2>&1 || python_ok=0
fi
if ! command -v chromium >/dev/null; then
    { $sudo_cmd apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq \
        --no-install-recommends chromium; } >/dev/null 2>&1 || true
fi

passed=0 failed=0 skipped=0
run() {
    local name="$1"; shift
    if "$@"; then passed=$((passed + 1)); else echo "network outputs: $name failed"; failed=$((failed + 1)); fi
}
skip() { echo "network outputs: $1 skipped: $2"; skipped=$((skipped + 1)); }

if [ "$python_ok" = 1 ]; then
    run osc python3 scripts/network/check_osc.py "$binary" "$sample" "$work"
    run websocket python3 scripts/network/check_websocket.py "$binary" "$sample" "$work"
    if command -v chromium >/dev/null; then
        run viewer python3 scripts/network/check_viewer.py "$binary" "$sample" "$work" $screenshot
    else
        skip viewer "chromium is not installed and could not be (apt-get install chromium)"
    fi
    if [ "$load" = 1 ]; then run load python3 scripts/network/load.py "$binary" "$sample" "$work"; fi
else
    skip "osc, websocket, viewer" "python-osc and websockets could not be installed from PyPI"
fi
echo "network: $passed passed, $failed failed, $skipped skipped"
[ "$failed" = 0 ]
