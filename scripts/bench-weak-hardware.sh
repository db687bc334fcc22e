#!/bin/sh
# The weak-hardware table of README.md and docs/performance.md: `bench --tier low` on the sample at
# 640x480 and the same scene at 1280x720, at full speed and on 0.5 and 0.25 of a core (bench
# --cpu-share: a cgroup CPU quota on the whole process, needs root), then, at full speed, each
# size's end-to-end p99 against 640x480's in alternating rounds (1920x1080 too).
#
#   scripts/bench-weak-hardware.sh [--frames N] [--rounds N] [--shares "1 0.5 0.25"]
#
# Environment: BIN (default .build/release/heritage-lens), OUT (default a temporary folder, kept:
# every run's JSON report and its text).
set -eu
BIN=${BIN:-.build/release/heritage-lens}
FRAMES=600
ROUNDS=3
SHARES="1 0.5 0.25"
while [ $# -gt 0 ]; do
    case "$1" in
        --frames) FRAMES=$2; shift 2 ;;
        --rounds) ROUNDS=$2; shift 2 ;;
        --shares) SHARES=$2; shift 2 ;;
        *) echo "bench-weak-hardware.sh: unknown option $1 (see the script's header)" >&2; exit 2 ;;
    esac
done
[ -x "$BIN" ] || { echo "$BIN: not built; run swift build -c release first" >&2; exit 1; }
OUT=${OUT:-$(mktemp -d /tmp/heritage-weak-hardware.XXXXXX)}
mkdir -p "$OUT"
for size in 640x480 1280x720 1920x1080; do
    [ -s "$OUT/sample-$size.mp4" ] || "$BIN" sample --size "$size" -o "$OUT/sample-$size.mp4" >&2
done

run() { # NAME SIZE SHARE
    share_arg=""
    [ "$3" = 1 ] || share_arg="--cpu-share $3"
    echo "bench $2 at $3 of a core -> $OUT/$1.json" >&2
    # shellcheck disable=SC2086
    "$BIN" bench "$OUT/sample-$2.mp4" --tier low --frames "$FRAMES" $share_arg --json "$OUT/$1.json" \
        >"$OUT/$1.txt" 2>&1 || { echo "bench failed: see $OUT/$1.txt" >&2; exit 1; }
}

for size in 640x480 1280x720; do
    for share in $SHARES; do run "share-$size-$share" "$size" "$share"; done
done
round=1
while [ "$round" -le "$ROUNDS" ]; do
    for size in 640x480 1280x720 1920x1080; do run "size-$size-$round" "$size" 1; done
    round=$((round + 1))
done

python3 - "$OUT" "$SHARES" "$ROUNDS" <<'EOF'
import json, statistics, sys
out, shares, rounds = sys.argv[1], sys.argv[2].split(), int(sys.argv[3])
def load(name):
    return json.load(open(f"{out}/{name}.json"))["runs"][0]
def ms(v):
    return "never" if v is None else f"{v / 1000:.1f} s" if v >= 1000 else f"{v:.0f} ms"
print("| input | share of a core | dropped | end to end p50 / p99 ms | frame thread CPU ms/frame | first face | first card |")
print("| --- | --- | --- | --- | --- | --- | --- |")
for size in ["640x480", "1280x720"]:
    for share in shares:
        r = load(f"share-{size}-{share}")
        dropped = 100 * r["dropped"] / max(1, r["frames"] + r["dropped"])
        t = r["total_ms"]
        print(f"| {size} | {share} | {r['dropped']} ({dropped:.1f} %) | {t['p50']:.1f} / {t['p99']:.1f} | "
              f"{r['cpu_ms_per_frame']['mean']:.2f} | {ms(r.get('face_acquire_ms'))} | {ms(r.get('card_acquire_ms'))} |")
print()
print("| input | end to end p99 ms, each round | median | against 640x480 |")
print("| --- | --- | --- | --- |")
base = None
for size in ["640x480", "1280x720", "1920x1080"]:
    p99 = [load(f"size-{size}-{i}")["total_ms"]["p99"] for i in range(1, rounds + 1)]
    m = statistics.median(p99)
    base = base or m
    print(f"| {size} | {' / '.join(f'{v:.1f}' for v in p99)} | {m:.1f} | {m / base:.2f}x |")
EOF
echo "reports: $OUT" >&2
