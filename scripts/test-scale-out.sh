#!/usr/bin/env bash
# The batch scale-out, run for real on this machine (docs/scale-out.md):
#   single    `process DIR --output-dir` over a folder of generated videos: the reference (and the
#             same with --jobs <cores>, for comparison);
#   slurm     a one-node Slurm cluster started here in the foreground (munged, slurmctld, slurmd
#             on localhost, a generated slurm.conf in a temporary folder): first a trivial array
#             job, then deploy/slurm/process-array.sbatch with N shards into one output folder;
#   parallel  deploy/parallel/process-parallel.sh with --sshlogin : (this machine through GNU
#             parallel's ssh path) and N shards;
#   resume    a batch killed with SIGKILL part-way, then run again: only the unfinished inputs are
#             redone, and no half-written file looks like an output.
# Each sharded run must give every input's anchors byte for byte as the single run did, and its
# shards must cover every input exactly once, each where `--shard I/N` says it belongs. It prints
# PASS, FAIL or SKIP (with the reason) per check, the wall times, and exits 1 if a check failed.
# Installs slurm-wlm, munge, parallel and jq with apt-get when missing (root or sudo); a part
# whose tools cannot be had is skipped. The daemons and any batch it started are stopped on exit.
#
#   scripts/test-scale-out.sh [single|slurm|parallel|resume|smoke]...   (default: all but smoke)
#     smoke: only bring up Slurm and GNU parallel with trivial jobs (needs no heritage-lens)
#   BIN=.build/release/heritage-lens  the binary (must have `process --shard`)
#   SHARDS=3        shards for the Slurm and parallel runs
#   VIDEOS="..."    eval-faces sequences to use (plus the sample scene with cards)
#   KEEP=1          keep the work folder (its path is printed)
set -euo pipefail
shopt -s dotglob nullglob   # globs below see temporary files too
cd "$(dirname "$0")/.."
repo=$PWD

BIN=${BIN:-.build/release/heritage-lens}
case "$BIN" in /*) ;; *) BIN="$repo/$BIN" ;; esac
SHARDS=${SHARDS:-3}
VIDEOS=${VIDEOS:-"still motion two-faces no-face enter-leave speed backlit"}
KEEP=${KEEP:-0}

parts=("$@")
[ ${#parts[@]} -gt 0 ] || parts=(single slurm parallel resume)
for p in "${parts[@]}"; do
    case "$p" in single|slurm|parallel|resume|smoke) ;;
        *) echo "usage: $0 [single|slurm|parallel|resume|smoke]..." >&2; exit 2 ;; esac
done
wants() { local p; for p in "${parts[@]}"; do [ "$p" = "$1" ] && return 0; done; return 1; }

work=$(mktemp -d "${TMPDIR:-/tmp}/heritage-scale-out.XXXXXX")
chmod 755 "$work"    # munged wants every folder above its socket searchable
daemon_pids=()       # munged, slurmctld, slurmd: stopped in this order reversed
batch_pid=""
cleanup() {
    local status=$? i
    if [ -n "$batch_pid" ]; then kill -KILL "$batch_pid" 2>/dev/null || true; fi
    if [ -n "$sampler_pid" ]; then kill "$sampler_pid" 2>/dev/null || true; fi
    if [ ${#daemon_pids[@]} -gt 0 ]; then
        scancel --quiet --full --user "$(id -un)" >/dev/null 2>&1 || true
        for i in $(seq 20); do [ -z "$(squeue --noheader 2>/dev/null)" ] && break; sleep 0.5; done
        for ((i = ${#daemon_pids[@]} - 1; i >= 0; i--)); do
            kill "${daemon_pids[i]}" 2>/dev/null || true
            wait "${daemon_pids[i]}" 2>/dev/null || true
        done
    fi
    if [ "$KEEP" = 1 ]; then echo "scale-out: work folder kept: $work"; else rm -rf "$work"; fi
    exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

passed=0 failed=0 skipped=0
results=()
pass() { echo "PASS  $1${2:+: $2}"; results+=("PASS  $1${2:+: $2}"); passed=$((passed + 1)); }
fail() { echo "FAIL  $1: $2"; results+=("FAIL  $1: $2"); failed=$((failed + 1)); }
skip() { echo "SKIP  $1: $2"; results+=("SKIP  $1: $2"); skipped=$((skipped + 1)); }
note() { echo "      $*"; }
figures=()
now() { date +%s.%N; }
# Other work on the machine spoils the wall times: every 0.5 s, how many processes are running
# that are not this test's heritage-lens (the copy in $work, whoever started it, Slurm included).
sampler_pid=""
start_sampler() {
    ( while :; do
        printf '%s %s\n' "$(now)" "$(ps -e -o stat=,args= | awk -v me="$work/heritage-lens" \
            '$1 ~ /^R/ && index($0, me) == 0 && $2 != "ps" && $2 != "awk" && $2 !~ /^\[/ { n++ } END { print n + 0 }')"
        sleep 0.5
    done ) >"$work/others.log" 2>/dev/null &
    sampler_pid=$!
}
others_since() {   # mean of the samples since $1
    awk -v t="$1" '$1 >= t { s += $2; n++ } END { printf "%.1f", n ? s / n : 0 }' "$work/others.log"
}
# figure LABEL T0 SECONDS: a row of the figures table for a run that started at T0
figure() {
    local secs=$3
    figures+=("$1|$secs|$(awk -v f="$frames_total" -v s="$secs" 'BEGIN { printf "%.1f", f / s }')|$(others_since "$2")")
}
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'; }

# --- tools ------------------------------------------------------------------------------------
sudo_cmd=""
[ "$(id -u)" -ne 0 ] && command -v sudo >/dev/null && sudo_cmd="sudo"
install_missing() {   # install_missing PACKAGE... (when any of their commands is missing)
    echo "scale-out: installing $* (apt-get)" >&2
    { $sudo_cmd apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq \
        --no-install-recommends "$@"; } >"$work/apt.log" 2>&1 || return 1
}
need_slurm=0 need_parallel=0
{ wants slurm || wants smoke; } && need_slurm=1
{ wants parallel || wants smoke; } && need_parallel=1
missing=()
[ "$need_slurm" = 1 ] && ! command -v slurmctld >/dev/null && missing+=(slurm-wlm)
[ "$need_slurm" = 1 ] && ! command -v munged >/dev/null && missing+=(munge)
[ "$need_parallel" = 1 ] && ! command -v parallel >/dev/null && missing+=(parallel)
! command -v jq >/dev/null && missing+=(jq)
if [ ${#missing[@]} -gt 0 ]; then
    install_missing "${missing[@]}" || echo "scale-out: apt-get install ${missing[*]} failed (see below)" >&2
fi
command -v jq >/dev/null || { echo "scale-out: needs jq to read the summaries; apt-get install jq" >&2; exit 1; }
slurm_why="" parallel_why=""
for c in munged slurmctld slurmd sbatch squeue scancel; do
    command -v "$c" >/dev/null || slurm_why="no '$c' (apt-get install slurm-wlm munge did not provide it)"
done
[ "$(id -u)" -eq 0 ] || slurm_why="slurmd must run as root (run this script as root)"
command -v parallel >/dev/null || parallel_why="no 'parallel' (apt-get install parallel did not provide it)"

# --- a one-node Slurm cluster ------------------------------------------------------------------
# Everything lives in $work/slurm: munge's key and socket, slurm.conf, state, spool, logs. Ports
# away from the defaults, so a real cluster's daemons on this machine are not disturbed. No
# cgroup plugins (they need a writable cgroup tree, which containers rarely give): processes are
# tracked by parent id (proctrack/linuxproc) and not confined (task/none).
slurm_up=0
start_slurm() {
    local s="$work/slurm" node cpus mem i
    mkdir -p "$s/state" "$s/logs"
    node=$(hostname -s)
    cpus=$(nproc)
    mem=$(awk '/MemTotal/ { printf "%d", $2 / 1024 / 2 }' /proc/meminfo)   # half of RAM, in MB
    mkdir -p "$s/spool/$node"
    head -c 1024 /dev/urandom >"$s/munge.key"
    chmod 600 "$s/munge.key"
    munged --foreground --force --key-file="$s/munge.key" --socket="$s/munge.socket" \
        --pid-file="$s/munged.pid" --seed-file="$s/munged.seed" --log-file="$s/logs/munged.log" \
        >"$s/logs/munged.out" 2>&1 &
    daemon_pids+=($!)
    for i in $(seq 50); do [ -S "$s/munge.socket" ] && break; sleep 0.1; done
    if ! munge --socket="$s/munge.socket" --no-input | unmunge --socket="$s/munge.socket" >/dev/null 2>&1; then
        slurm_why="munged did not start: $(tail -n 3 "$s/logs/munged.out" 2>&1 | tr '\n' ' ' || true)"
        return 1
    fi
    cat >"$s/slurm.conf" <<CONF
ClusterName=heritage-test
SlurmctldHost=$node(127.0.0.1)
SlurmctldPort=${SLURMCTLD_PORT:-16817}
SlurmdPort=${SLURMD_PORT:-16818}
SlurmUser=$(id -un)
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$s/munge.socket
StateSaveLocation=$s/state
SlurmdSpoolDir=$s/spool/%n
SlurmctldPidFile=$s/slurmctld.pid
SlurmdPidFile=$s/slurmd.pid
SlurmctldLogFile=$s/logs/slurmctld.log
SlurmdLogFile=$s/logs/slurmd.log
MailProg=/bin/true
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
SwitchType=switch/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
NodeName=$node NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$mem State=UNKNOWN
PartitionName=local Nodes=$node Default=YES MaxTime=INFINITE State=UP
CONF
    export SLURM_CONF="$s/slurm.conf"
    slurmctld -D -i -f "$SLURM_CONF" >"$s/logs/slurmctld.out" 2>&1 &
    daemon_pids+=($!)
    slurmd -D -f "$SLURM_CONF" -N "$node" >"$s/logs/slurmd.out" 2>&1 &
    daemon_pids+=($!)
    for i in $(seq 60); do
        [ "$(sinfo --noheader --nodes="$node" --format=%t 2>/dev/null)" = idle ] && { slurm_up=1; return 0; }
        sleep 0.5
    done
    slurm_why="the node did not come up idle in 30 s: $(sinfo --noheader 2>&1 | head -n 1); slurmd: $(grep -i error "$s/logs/slurmd.log" 2>/dev/null | grep -v pmix | tail -n 2 | tr '\n' ' ')"
    return 1
}

slurm_smoke() {
    local d="$work/slurm/smoke" out rc=0
    mkdir -p "$d"
    # shellcheck disable=SC2016  # expanded by the job's shell
    out=$(sbatch --wait --quiet --array=0-2 --cpus-per-task=1 --chdir="$d" --output="$d/task-%a.out" \
        --wrap 'echo "task $SLURM_ARRAY_TASK_ID of $SLURM_ARRAY_TASK_COUNT on $(hostname)"' 2>&1) || rc=$?
    if [ "$rc" != 0 ]; then fail "slurm smoke" "sbatch --wait exited $rc: $out"; return 1; fi
    if [ "$(cat "$d"/task-*.out 2>/dev/null | sort | cut -d' ' -f1-4 | tr '\n' ,)" != "task 0 of 3,task 1 of 3,task 2 of 3," ]; then
        fail "slurm smoke" "array tasks wrote: $(cat "$d"/task-*.out 2>/dev/null | tr '\n' ' ')"; return 1
    fi
    pass "slurm smoke" "a 3-task array job ran on the one-node cluster"
}

parallel_smoke() {
    local out
    out=$(seq 0 2 | parallel --will-cite -k --sshlogin : 'echo shard {}/3' 2>&1) || true
    if [ "$out" = "$(printf 'shard 0/3\nshard 1/3\nshard 2/3')" ]; then
        pass "parallel smoke" "3 jobs through --sshlogin :"
    else
        fail "parallel smoke" "parallel printed: $(echo "$out" | tr '\n' ' ')"; return 1
    fi
}

# --- the inputs and the reference run ----------------------------------------------------------
in="$work/in"
names=()          # input names (file name without extension), in path order
have_batch=0
batch_why=""
if [ ! -x "$BIN" ]; then
    batch_why="no binary at $BIN (set BIN)"
elif ! help_text=$("$BIN" process --help 2>&1) || ! grep -q -- '--shard' <<<"$help_text"; then
    batch_why="$BIN has no batch interface yet (process --help lists no --shard)"
else
    have_batch=1
    # A copy, so a build that replaces BIN halfway cannot make two runs differ; the project's
    # assets (cards, masks) are still found through HERITAGE_LENS_HOME.
    cp "$BIN" "$work/heritage-lens"
    BIN="$work/heritage-lens"
    export HERITAGE_LENS_HOME="${HERITAGE_LENS_HOME:-$repo}"
fi

make_inputs() {
    local v only=()
    mkdir -p "$in" "$work/export"
    for v in $VIDEOS; do only+=(--only "$v"); done
    "$BIN" eval-faces --seed 11 --set all "${only[@]}" --export "$work/export" >"$work/export.log" 2>&1 \
        || { fail inputs "eval-faces --export failed: $(tail -n 2 "$work/export.log")"; return 1; }
    mv "$work"/export/*.mp4 "$in/"
    # The sample scene: the cards, so the card tracker's anchors are compared too.
    "$BIN" sample -o "$in/sample-scene.mp4" --frames 120 >>"$work/export.log" 2>&1 \
        || { fail inputs "sample failed: $(tail -n 2 "$work/export.log")"; return 1; }
    while IFS= read -r v; do names+=("$(basename "${v%.*}")"); done < <(find "$in" -name '*.mp4' | LC_ALL=C sort)
    note "inputs: ${#names[@]} videos in $in: ${names[*]}"
}

# summary_rows FILE... : "name<TAB>status<TAB>frames" per line of the given summaries (process
# names the input "input"; "path" is read as well)
summary_rows() {
    jq -r '[((.input // .path) | split("/") | last | sub("\\.[^.]*$"; "")), .status, (.frames // 0 | tostring)] | @tsv' "$@"
}

# check_outputs LABEL DIR : every input's anchors equal the single run's, and nothing else in
# DIR looks like an output.
check_outputs() {
    local label=$1 dir=$2 n bad=() f base
    for n in "${names[@]}"; do
        if [ ! -f "$dir/$n.anchors.jsonl" ]; then bad+=("$n: missing")
        elif ! cmp -s "$work/single/$n.anchors.jsonl" "$dir/$n.anchors.jsonl"; then bad+=("$n: differs from the single run")
        fi
    done
    for f in "$dir"/*; do
        base=$(basename "$f")
        case "$base" in summary.jsonl|summary.shard-*-of-*.jsonl|parallel.joblog|.*.settings) continue ;; esac
        for n in "${names[@]}"; do [ "$base" = "$n.anchors.jsonl" ] && continue 2; done
        bad+=("unexpected file $base")
    done
    if [ ${#bad[@]} -eq 0 ]; then
        pass "$label anchors" "${#names[@]} files byte-identical to the single run (cmp)"
    else
        fail "$label anchors" "$(IFS=';'; echo "${bad[*]}")"
    fi
}

# check_shards LABEL DIR N : the shard summaries cover every input once, each in shard
# (position in the sorted list) mod N, all done.
check_shards() {
    local label=$1 dir=$2 n=$3 i pos expect got problems=()
    for ((i = 0; i < n; i++)); do
        [ -f "$dir/summary.shard-$i-of-$n.jsonl" ] || problems+=("no summary.shard-$i-of-$n.jsonl")
    done
    if [ ${#problems[@]} -eq 0 ]; then
        for ((pos = 0; pos < ${#names[@]}; pos++)); do
            expect="${names[pos]} done shard-$((pos % n))"
            got=""
            for ((i = 0; i < n; i++)); do
                while IFS=$'\t' read -r name status _; do
                    [ "$name" = "${names[pos]}" ] && got+="${got:+ + }$name $status shard-$i"
                done < <(summary_rows "$dir/summary.shard-$i-of-$n.jsonl")
            done
            [ "$got" = "$expect" ] || problems+=("${names[pos]}: expected '$expect', summaries say '${got:-nothing}'")
        done
        local total
        total=$(cat "$dir"/summary.shard-*-of-"$n".jsonl | wc -l)
        [ "$total" -eq ${#names[@]} ] || problems+=("$total summary lines for ${#names[@]} inputs")
    fi
    if [ ${#problems[@]} -eq 0 ]; then
        pass "$label shards" "$n shards cover the ${#names[@]} inputs exactly once, input k in shard k mod $n"
    else
        fail "$label shards" "$(IFS=';'; echo "${problems[*]}")"
    fi
}

frames_total=0
run_single() {
    local t0 rc=0 secs rows
    mkdir -p "$work/single"
    t0=$(now)
    "$BIN" process "$in" --output-dir "$work/single" >"$work/single.log" 2>&1 || rc=$?
    secs=$(since "$t0")
    if [ "$rc" != 0 ]; then fail single "exit status $rc: $(tail -n 3 "$work/single.log" | tr '\n' ' ')"; return 1; fi
    rows=$(summary_rows "$work/single/summary.jsonl")
    if [ "$(echo "$rows" | cut -f1,2 | sort | tr '\t\n' ' ,')" != "$(for n in "${names[@]}"; do echo "$n done"; done | sort | tr '\n' ,)" ]; then
        fail single "summary.jsonl does not say done once per input: $(echo "$rows" | tr '\t\n' ' ;')"; return 1
    fi
    local n
    for n in "${names[@]}"; do
        [ -s "$work/single/$n.anchors.jsonl" ] || { fail single "no $n.anchors.jsonl"; return 1; }
    done
    frames_total=$(echo "$rows" | awk -F'\t' '{ s += $3 } END { print s }')
    pass single "${#names[@]} inputs, $frames_total frames in ${secs} s, every anchors file written"
    figure "single process (1 core)" "$t0" "$secs"
}

# slurm_wait JOBID: until no task of the array is pending or running. Polled here rather than with
# sbatch --wait, whose checks come 2, 10 and 42 s after submission: the wall time is the job's.
slurm_wait() {
    local i
    for i in $(seq 36000); do
        [ -z "$(squeue --noheader --jobs "$1" 2>/dev/null)" ] && return 0
        sleep 0.2
    done
    return 1
}

# The same batch in one process with a video per core (--jobs), for comparison with the shards.
run_jobs() {
    local out="$work/jobs" t0 rc=0 secs jobs
    jobs=$(nproc)
    mkdir -p "$out"
    t0=$(now)
    "$BIN" process "$in" --output-dir "$out" --jobs "$jobs" >"$work/jobs.log" 2>&1 || rc=$?
    secs=$(since "$t0")
    if [ "$rc" != 0 ]; then fail "jobs" "--jobs $jobs: exit status $rc: $(tail -n 3 "$work/jobs.log" | tr '\n' ' ')"; return 1; fi
    figure "one process, --jobs $jobs" "$t0" "$secs"
    check_outputs "one process --jobs $jobs," "$out"
}

run_slurm() {
    local out="$work/slurm/out" t0 secs jobid states bad
    mkdir -p "$out" "$work/slurm/logs"
    t0=$(now)
    if ! jobid=$(HERITAGE_LENS="$BIN" sbatch --parsable --array=0-$((SHARDS - 1)) --chdir="$repo" \
        --output="$work/slurm/logs/process-%A_%a.out" \
        deploy/slurm/process-array.sbatch "$in" "$out" "$SHARDS" 2>&1); then
        fail "slurm batch" "sbatch refused the job: $jobid"; return 1
    fi
    jobid=${jobid%%;*}
    slurm_wait "$jobid" || { fail "slurm batch" "job $jobid still queued after 2 hours"; return 1; }
    secs=$(since "$t0")
    # One line per array task (kept by slurmctld for MinJobAge, 300 s): all must have ended
    # COMPLETED with exit code 0.
    states=$(scontrol --oneliner show job "$jobid" 2>&1 \
        | sed -n 's/.*ArrayTaskId=\([0-9]*\) .*JobState=\([A-Z_]*\) .*ExitCode=\([0-9:]*\).*/\1 \2 \3/p' | sort -n)
    bad=$(awk '$2 != "COMPLETED" || $3 != "0:0"' <<<"$states")
    if [ "$(wc -l <<<"$states")" -ne "$SHARDS" ] || [ -n "$bad" ]; then
        fail "slurm batch" "job $jobid tasks (id state exit): $(tr '\n' ';' <<<"$states"); task logs: $(tail -n 2 "$work"/slurm/logs/process-*.out 2>/dev/null | tr '\n' ' ')"
        return 1
    fi
    pass "slurm batch" "job $jobid: $SHARDS array tasks COMPLETED with exit 0 in ${secs} s"
    figure "Slurm array, $SHARDS tasks" "$t0" "$secs"
    check_shards slurm "$out" "$SHARDS"
    check_outputs slurm "$out"
}

run_parallel() {
    local out="$work/parallel/out" t0 rc=0 secs
    mkdir -p "$out"
    t0=$(now)
    HERITAGE_LENS="$BIN" deploy/parallel/process-parallel.sh "$in" "$out" "$SHARDS" --sshlogin : \
        >"$work/parallel.log" 2>&1 || rc=$?
    secs=$(since "$t0")
    if [ "$rc" != 0 ]; then
        fail "parallel batch" "exit status $rc: $(tail -n 3 "$work/parallel.log" | tr '\n' ' ')"; return 1
    fi
    pass "parallel batch" "$SHARDS shards through --sshlogin :, exit 0, ${secs} s"
    figure "GNU parallel --sshlogin :, $SHARDS shards" "$t0" "$secs"
    check_shards parallel "$out" "$SHARDS"
    check_outputs parallel "$out"
}

# Kill a batch with SIGKILL in the middle of its third input, run the same command again, and look
# at what the second run did.
run_resume() {
    local out="$work/resume" i rc=0 n c st complete=() stamps=() lines0 rows problems=() f base
    mkdir -p "$out"
    "$BIN" process "$in" --output-dir "$out" >"$work/resume-1.log" 2>&1 &
    batch_pid=$!
    # Two inputs complete and a third one's file being written (any name that is neither an
    # output nor the summary: the batch's temporary name), a moment into it: the kill lands mid-file.
    for i in $(seq 1200); do
        [ "$(find "$out" -maxdepth 1 -name '*.anchors.jsonl' | wc -l)" -ge 2 ] \
            && [ -n "$(find "$out" -maxdepth 1 -type f ! -name '*.anchors.jsonl' ! -name '.*.settings' ! -name 'summary*.jsonl')" ] && break
        kill -0 "$batch_pid" 2>/dev/null || break
        sleep 0.05
    done
    sleep 0.3
    if ! kill -KILL "$batch_pid" 2>/dev/null; then
        batch_pid=""
        fail resume "the first run ended before it could be killed ($(tail -n 1 "$work/resume-1.log"))"; return 1
    fi
    wait "$batch_pid" 2>/dev/null || true
    batch_pid=""
    for n in "${names[@]}"; do
        if [ -e "$out/$n.anchors.jsonl" ]; then
            complete+=("$n")
            stamps+=("$(stat -c '%i %y' "$out/$n.anchors.jsonl")")
            cmp -s "$work/single/$n.anchors.jsonl" "$out/$n.anchors.jsonl" \
                || problems+=("after the kill $n.anchors.jsonl exists but is not complete (an output that is not atomic)")
        fi
    done
    note "killed with SIGKILL after ${#complete[@]} of ${#names[@]} inputs: ${complete[*]}"
    note "left by the kill: $(cd "$out" && find . -maxdepth 1 -type f ! -name '*.anchors.jsonl' ! -name '.*.settings' ! -name 'summary*.jsonl' -printf '%f (%s bytes) ')"
    if [ ${#complete[@]} -ge ${#names[@]} ]; then
        fail resume "every input was complete at the kill; nothing left to resume"; return 1
    fi
    lines0=0
    [ -f "$out/summary.jsonl" ] && lines0=$(wc -l <"$out/summary.jsonl")
    "$BIN" process "$in" --output-dir "$out" >"$work/resume-2.log" 2>&1 || rc=$?
    [ "$rc" = 0 ] || problems+=("the re-run exited $rc: $(tail -n 2 "$work/resume-2.log" | tr '\n' ' ')")
    # The re-run's own summary lines: appended after the killed run's, or a new file.
    local total
    total=$(wc -l <"$out/summary.jsonl")
    if [ "$total" -eq $((lines0 + ${#names[@]})) ]; then rows=$(tail -n "${#names[@]}" "$out/summary.jsonl" | summary_rows /dev/stdin)
    elif [ "$total" -eq ${#names[@]} ]; then rows=$(summary_rows "$out/summary.jsonl")
    else rows=""; problems+=("summary.jsonl has $total lines after the re-run ($lines0 before it) for ${#names[@]} inputs")
    fi
    if [ -n "$rows" ]; then
        local expect="" got
        for n in "${names[@]}"; do
            st="done"
            for c in "${complete[@]}"; do [ "$c" = "$n" ] && st=skipped; done
            expect+="$n $st,"
        done
        got=$(for n in "${names[@]}"; do echo "$rows" | awk -F'\t' -v n="$n" '$1 == n { printf "%s %s,", $1, $2 }'; done)
        [ "$got" = "$expect" ] || problems+=("the re-run's summary says '$got', expected '$expect'")
    fi
    for ((i = 0; i < ${#complete[@]}; i++)); do
        [ "$(stat -c '%i %y' "$out/${complete[i]}.anchors.jsonl")" = "${stamps[i]}" ] \
            || problems+=("${complete[i]}.anchors.jsonl was rewritten by the re-run")
    done
    for n in "${names[@]}"; do
        cmp -s "$work/single/$n.anchors.jsonl" "$out/$n.anchors.jsonl" 2>/dev/null \
            || problems+=("$n.anchors.jsonl after the re-run differs from the single run's or is missing")
    done
    # Leftovers of the killed run may stay (a shared output folder cannot tell them from another
    # shard's work in progress), but none may look like an output.
    local leftovers=()
    for f in "$out"/*; do
        base=$(basename "$f")
        case "$base" in summary.jsonl) continue ;; esac
        for n in "${names[@]}"; do [ "$base" = "$n.anchors.jsonl" ] && continue 2; done
        case "$base" in
            *.anchors.jsonl|*.metrics.jsonl|*.mp4|*.mkv) problems+=("leftover $base looks like an output") ;;
            *) leftovers+=("$base") ;;
        esac
    done
    [ ${#leftovers[@]} -eq 0 ] || note "left in the output folder after the re-run (not output names): ${leftovers[*]}"
    if [ ${#problems[@]} -eq 0 ]; then
        pass resume "killed after ${#complete[@]}/${#names[@]}; the re-run skipped exactly those (untouched) and redid the other $(( ${#names[@]} - ${#complete[@]} )); all anchors equal the single run's"
    else
        fail resume "$(IFS=';'; echo "${problems[*]}")"
    fi
}

# --- run ---------------------------------------------------------------------------------------
if wants smoke || wants slurm; then
    if [ -n "$slurm_why" ]; then skip "slurm" "$slurm_why"
    elif start_slurm; then
        note "one-node Slurm cluster up: $(sinfo --noheader --format='%P %D node(s) %c CPUs %m MB %t' | head -n 1) (SLURM_CONF=$SLURM_CONF)"
        slurm_smoke || true
    else
        skip "slurm" "$slurm_why"
    fi
fi
if wants smoke || wants parallel; then
    if [ -n "$parallel_why" ]; then skip parallel "$parallel_why"; else parallel_smoke || true; fi
fi

if wants single || wants slurm || wants parallel || wants resume; then
    if [ "$have_batch" = 0 ]; then
        skip "batch runs" "$batch_why"
    elif start_sampler && make_inputs; then
        if run_single; then
            if wants single; then run_jobs || true; fi
            if wants slurm; then
                if [ "$slurm_up" = 1 ]; then run_slurm || true; else skip "slurm batch" "${slurm_why:-no cluster}"; fi
            fi
            if wants parallel; then
                if [ -z "$parallel_why" ]; then run_parallel || true; else skip "parallel batch" "$parallel_why"; fi
            fi
            if wants resume; then run_resume || true; fi
        else
            skip "sharded runs" "the single-process reference run failed"
        fi
    fi
fi

echo
if [ ${#figures[@]} -gt 0 ]; then
    echo "wall time for the same ${#names[@]} videos ($frames_total frames) on $(nproc) CPUs:"
    printf '  %-40s %8s %9s %8s\n' run seconds frames/s others
    for f in "${figures[@]}"; do
        IFS='|' read -r what secs fps others <<<"$f"
        printf '  %-40s %8s %9s %8s\n' "$what" "$secs" "$fps" "$others"
    done
    echo "  (others: processes running besides this test's, on average; above 0 the times are not comparable)"
    echo
fi
for r in "${results[@]}"; do echo "$r"; done
echo "scale-out: $passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
