#!/usr/bin/env bash
# GNU parallel as the scheduler: shards 0..N-1 of `heritage-lens process --shard I/N`, spread
# over the machines parallel reaches by ssh (or this one with --sshlogin :).
#
#   deploy/parallel/process-parallel.sh INPUT OUTDIR N [parallel options...] [-- process options...]
#
#   # two hosts, 4 shards at a time on each, shared storage at the same path everywhere:
#   deploy/parallel/process-parallel.sh /shared/videos /shared/out 16 -S 4/render1,4/render2
#   # hosts from a file (one [jobs/]user@host a line, ':' for this machine):
#   deploy/parallel/process-parallel.sh /shared/videos /shared/out 16 --sshloginfile hosts
#   # this machine only, with metrics as well as anchors:
#   deploy/parallel/process-parallel.sh videos out 3 --sshlogin : -- --write anchors,metrics
#
# Why it is shaped this way:
# - parallel only hands out shard numbers; which inputs a shard takes is decided by
#   `process --shard I/N` from the sorted input list, the same on every host, so no file list is
#   shipped around and the shards cover every input exactly once.
# - INPUT, OUTDIR and the binary must be at the same path on every host (NFS or similar for the
#   folders): parallel runs the command there, it does not copy files (no --transfer/--return).
# - More shards than job slots (e.g. 4x) evens out videos of different lengths: a slot that
#   finishes early takes the next shard.
# - --retries: a shard whose ssh connection dropped runs again; complete outputs are skipped, so
#   only its unfinished inputs are redone. The exit status is the number of failed shards.
set -euo pipefail

if [ $# -lt 3 ]; then
    sed -n '2,13p' "$0" >&2
    exit 2
fi
input=$1 outdir=$2 shards=$3
shift 3
parallel_opts=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do parallel_opts+=("$1"); shift; done
[ $# -gt 0 ] && shift
bin=${HERITAGE_LENS:-heritage-lens}
mkdir -p "$outdir"

# -q quotes the command for the (remote) shell, so paths with spaces survive; {} is the shard.
# --tag prefixes each shard's progress lines with its number; --joblog keeps who ran what where.
seq 0 $((shards - 1)) | parallel --will-cite -q --tag --line-buffer --retries 2 \
    --joblog "$outdir/parallel.joblog" "${parallel_opts[@]}" \
    "$bin" process "$input" --output-dir "$outdir" --shard "{}/$shards" "$@"
