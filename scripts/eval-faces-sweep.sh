#!/bin/sh
# Runs eval-faces over many seeds (each seed draws other faces, photos and paths for the hard
# sequences) and sums them up: each seed's whole-set figures, every row that misses a target, the
# totals over all seeds, and each condition (sequence) over all seeds. What holds on seeds nobody
# looked at is what holds on footage nobody tuned for.
#
#   scripts/eval-faces-sweep.sh [FIRST LAST]        seeds FIRST..LAST (default 1 20)
#
# Environment: BIN (default .build/release/heritage-lens), SET (hard, gentle or all; default
# hard), JOBS (seeds at once; default the number of CPUs), OUT (default a temporary folder, kept:
# one eval-faces report per seed), EVAL_ARGS (extra options for eval-faces, e.g.
# --background-detection, which then wants JOBS=1 so runs do not share a core), RECORDED (inline
# or realtime: each seed's sequences exported as MP4s and run through `process` itself, or
# `process --realtime`, by scripts/eval-faces-recorded.sh; PIN is passed on to it, e.g. PIN=""
# with JOBS=1, or two sweeps of half the seeds each into one OUT with PIN="taskset -c 0" and
# "taskset -c 1", so realtime runs do not share a core; FACES, a folder for eval-faces --faces, is
# passed on too). A seed whose report is already in OUT is
# not run again: an interrupted sweep goes on where it stopped, and the sweep of a folder whose
# seeds are all there just sums them up.
set -eu
BIN=${BIN:-.build/release/heritage-lens}
SET=${SET:-hard}
FIRST=${1:-1}
LAST=${2:-20}
JOBS=${JOBS:-$(nproc)}
[ -x "$BIN" ] || { echo "$BIN: not built; run swift build -c release first" >&2; exit 1; }
case "$FIRST$LAST" in *[!0-9]*) echo "eval-faces-sweep.sh: FIRST and LAST are seed numbers" >&2; exit 2 ;; esac
[ "$FIRST" -le "$LAST" ] || { echo "eval-faces-sweep.sh: FIRST ($FIRST) is after LAST ($LAST)" >&2; exit 2; }
case "${RECORDED:-}" in ""|inline|realtime) ;; *) echo "eval-faces-sweep.sh: RECORDED is inline or realtime, not ${RECORDED}" >&2; exit 2 ;; esac
OUT=${OUT:-$(mktemp -d /tmp/heritage-faces-sweep.XXXXXX)}
mkdir -p "$OUT"
echo "eval-faces --set $SET, seeds $FIRST-$LAST, $JOBS at once, reports in $OUT" >&2
RECORDED_SCRIPT="$(dirname "$0")/eval-faces-recorded.sh"
export BIN SET OUT RECORDED_SCRIPT
# shellcheck disable=SC2016
seq "$FIRST" "$LAST" | xargs -P "$JOBS" -I{} sh -c '
    grep -q "^recall" "$OUT/seed-{}.txt" 2>/dev/null && { echo "seed {} already in $OUT" >&2; exit 0; }
    if [ -n "${RECORDED:-}" ]; then
        OUT="$OUT/recorded-{}" "$RECORDED_SCRIPT" --seed {} --set "$SET" --$RECORDED-only >"$OUT/seed-{}.part" 2>"$OUT/seed-{}.log"
    else
        "$BIN" eval-faces --set "$SET" --seed {} ${EVAL_ARGS:-} >"$OUT/seed-{}.part" 2>"$OUT/seed-{}.log"
    fi || { echo "seed {}: eval-faces failed, see $OUT/seed-{}.log" >&2; exit 255; }
    mv "$OUT/seed-{}.part" "$OUT/seed-{}.txt"
    echo "seed {} done" >&2'
rm -f "$OUT/totals"
# Whether a report row (recall $3, false frames $4, continuity $8; error and above 8 % without
# their % signs) misses a target: recall 0.95, no false face, error 3.5 %, 5 % above 8 %, 99 %.
MISSES='function misses(err, above) {
    return $3 < 0.95 || $4 > 0 || (err != "-" && (err + 0 > 3.5 || above + 0 > 5)) || ($8 != "-" && $8 < 99)
}'
echo "seed   recall  false/1000  error  above 8%  continuity   rows that miss (recall / false frames / error / continuity)"
for s in $(seq "$FIRST" "$LAST"); do
    awk -v seed="$s" "$MISSES"'
        /^sequence/ { rows = 1; next }
        rows && NF >= 9 && $2 ~ /^[0-9]+$/ {
            err = $5; sub("%", "", err); above = $6; sub("%", "", above)
            if (misses(err, above))
                miss = miss sprintf(" %s %s/%s/%s/%s", $1, $3, $4, $5, $8)
            frames += $2; fp += $4
        }
        /^recall/ { recall = $2; per1000 = $8 }
        /^landmark error/ { error = $4; above8 = $10 }
        /^still-face/ { continuity = $9 }
        END {
            printf "%-6s %6s  %10s  %5s  %8s  %10s  %s\n", seed, recall, per1000, error, above8, continuity, miss
            printf "%s %s %s %s\n", seed, frames, fp, recall >> totals
        }' totals="$OUT/totals" "$OUT/seed-$s.txt"
done
awk '{ n++; frames += $2; fp += $3; recall += $4 }
     END { printf "%d seeds, %d frames: mean recall %.3f, %d false-face frames (%.2f per 1000 frames)\n",
                  n, frames, recall / n, fp, 1000 * fp / frames }' "$OUT/totals"
rm -f "$OUT/totals"
# Each condition over every seed: the mean of its rows (each seed's row weighs the same), the
# worst row's recall, its false frames per 1000 of its frames, and how many rows miss a target.
echo
echo "condition      seeds  recall (worst)  false/1000   error  above 8%  continuity  rows that miss"
for s in $(seq "$FIRST" "$LAST"); do cat "$OUT/seed-$s.txt"; done | awk "$MISSES"'
    /^sequence/ { rows = 1; next }
    /^$/ { rows = 0 }
    rows && NF >= 9 && $2 ~ /^[0-9]+$/ {
        name = $1
        if (!(name in n)) order[++names] = name
        n[name]++; frames[name] += $2; fp[name] += $4; recall[name] += $3
        if (!(name in worst) || $3 < worst[name]) worst[name] = $3
        err = $5; sub("%", "", err); above = $6; sub("%", "", above)
        if (err != "-") { e[name] += err; a[name] += above; ne[name]++ }
        if ($8 != "-") { c[name] += $8; nc[name]++ }
        if (misses(err, above)) miss[name]++
    }
    END {
        for (k = 1; k <= names; k++) {
            m = order[k]
            printf "%-14s %5d  %6.3f (%5.3f)  %10.2f  %6s  %8s  %10s  %d%s\n", m, n[m], recall[m] / n[m], worst[m],
                   1000 * fp[m] / frames[m], ne[m] ? sprintf("%.2f%%", e[m] / ne[m]) : "-",
                   ne[m] ? sprintf("%.1f%%", a[m] / ne[m]) : "-", nc[m] ? sprintf("%.2f%%", c[m] / nc[m]) : "-", miss[m] + 0,
                   (ne[m] && ne[m] < n[m] ? sprintf("  (error and continuity of the %d seeds where a face was found)", ne[m]) : "")
        }
    }'

