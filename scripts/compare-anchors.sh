#!/bin/sh
# Whether two builds give byte-identical anchors: on the sample and on every exported face
# sequence of eval-faces (the hard ones included), each through `process` with inline detection.
# A refactoring that says "behaviour unchanged" is checked with this, the old build copied aside
# first:
#
#   cp .build/release/heritage-lens /tmp/hl-before     # before the change
#   swift build -c release                              # after it
#   scripts/compare-anchors.sh /tmp/hl-before .build/release/heritage-lens [SEED]
#
# SEED picks the hard sequences (default 202). Prints one line per input and exits 1 on any
# difference. About 2 minutes a build.
set -eu
[ $# -ge 2 ] || { echo "usage: $0 OLD_BINARY NEW_BINARY [SEED]" >&2; exit 2; }
OLD=$1 NEW=$2 SEED=${3:-202}
for b in "$OLD" "$NEW"; do [ -x "$b" ] || { echo "$b: not an executable" >&2; exit 2; }; done
[ -f Samples/sample.mp4 ] || { echo "Samples/sample.mp4 missing; run scripts/setup.sh" >&2; exit 2; }
WORK=$(mktemp -d /tmp/heritage-compare.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
mkdir -p "$WORK/videos" "$WORK/old" "$WORK/new"
cp Samples/sample.mp4 "$WORK/videos/sample.mp4"
"$OLD" eval-faces --set all --seed "$SEED" --export "$WORK/videos" >/dev/null 2>&1 \
    || { echo "eval-faces --export failed (needs ../shared/data/faces and the Debian images)" >&2; exit 2; }
differ=0 total=0
for v in "$WORK"/videos/*.mp4; do
    name=$(basename "$v" .mp4)
    "$OLD" process "$v" --anchors "$WORK/old/$name.jsonl" >/dev/null 2>&1
    "$NEW" process "$v" --anchors "$WORK/new/$name.jsonl" >/dev/null 2>&1
    total=$((total + 1))
    if cmp -s "$WORK/old/$name.jsonl" "$WORK/new/$name.jsonl"; then
        echo "same       $name ($(wc -l < "$WORK/new/$name.jsonl") frames)"
    else
        echo "DIFFERENT  $name"
        differ=$((differ + 1))
    fi
done
echo "$((total - differ)) of $total inputs give byte-identical anchors"
[ "$differ" -eq 0 ]
