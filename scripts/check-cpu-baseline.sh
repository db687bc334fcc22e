#!/bin/sh
# Runs the binary as CPUs without AVX2 would: user-mode QEMU emulating an Intel Nehalem (SSE4.2,
# no AVX) and a Haswell (AVX2). dlib's search is compiled twice into the bridge, for the x86-64
# baseline and for AVX2, and chosen at run time; this checks that nothing of the AVX2 copy runs
# where the CPU lacks it (an AVX instruction there is SIGILL, exit 132) and that each CPU gets its
# kernel. A whole binary built with -mavx2 dies here on the Nehalem at the first search.
#
#   scripts/check-cpu-baseline.sh [BIN]      (default .build/release/heritage-lens; about 2 minutes)
#
# Installs qemu-user with apt-get when it is missing and we are root; otherwise skips, saying so.
set -eu
BIN=${1:-.build/release/heritage-lens}
FRAMES=${FRAMES:-6}
[ "$(uname -m)" = x86_64 ] || { echo "check-cpu-baseline: skipped: not an x86-64 machine"; exit 0; }
[ -x "$BIN" ] || { echo "$BIN: not built; run scripts/setup.sh" >&2; exit 1; }
[ -f Samples/sample.mp4 ] || { echo "Samples/sample.mp4 missing; run scripts/setup.sh" >&2; exit 1; }
if ! command -v qemu-x86_64 >/dev/null 2>&1; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
        echo "check-cpu-baseline: installing qemu-user"
        (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq qemu-user) >/dev/null 2>&1 ||
            { echo "check-cpu-baseline: skipped: apt-get could not install qemu-user"; exit 0; }
    else
        echo "check-cpu-baseline: skipped: qemu-x86_64 missing (apt-get install qemu-user)"
        exit 0
    fi
fi
OUT=$(mktemp -d /tmp/heritage-cpu-baseline.XXXXXX)
trap 'rm -rf "$OUT"' EXIT
status=0
for cpu in Nehalem:baseline Haswell:avx2; do
    model=${cpu%%:*}
    want=${cpu#*:}
    # `kernels` names the HOG kernel it chose; `process` runs searches, fits, the check and cards.
    got=$(qemu-x86_64 -cpu "$model" "$BIN" kernels --kernel convert --iterations 1 --warmup 0 2>/dev/null |
        sed -n 's/.*dlib HOG \([a-z0-9]*\),.*/\1/p')
    if qemu-x86_64 -cpu "$model" "$BIN" process Samples/sample.mp4 --frames "$FRAMES" \
        --anchors "$OUT/$model.jsonl" 2>"$OUT/$model.err"; then
        lines=$(wc -l <"$OUT/$model.jsonl")
        faces=$(grep -c '"faces":\[{' "$OUT/$model.jsonl" || true)
    else
        rc=$?
        echo "FAIL: $model: process exited $rc: $(tail -1 "$OUT/$model.err")"
        status=1
        continue
    fi
    if [ "$got" != "$want" ] || [ "$lines" -ne "$FRAMES" ] || [ "$faces" -eq 0 ]; then
        echo "FAIL: $model: HOG kernel '$got' (want $want), $lines of $FRAMES anchor lines, $faces with a face"
        status=1
    else
        echo "ok: $model: HOG kernel $got, $lines anchor lines, $faces with a face"
    fi
done
exit $status
