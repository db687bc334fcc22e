#!/usr/bin/env bash
# Instruction counts per call of each hot kernel, under callgrind: figures that do not move with
# machine noise, for comparing a change before and after. One valgrind run measures all kernels:
# only the calls inside cb_bench_section are collected, and a profile is dumped after each kernel.
#   scripts/callgrind-kernels.sh [KERNEL...]     (all kernels: about 15 min; needs valgrind)
# ITERATIONS (default 20) calls per kernel are counted after 2 warm-up calls.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v valgrind >/dev/null || { echo "callgrind-kernels: valgrind not found; sudo apt-get install valgrind" >&2; exit 1; }
bin=${HL_BIN:-.build/release/heritage-lens}
[ -x "$bin" ] || { echo "callgrind-kernels: $bin not found; build first: swift build -c release" >&2; exit 1; }
iterations=${ITERATIONS:-20}
if [ $# -gt 0 ]; then kernels=("$@"); else mapfile -t kernels < <("$bin" kernels --list | awk '{print $1}'); fi
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
# Valgrind 3.19 cannot read the DWARF 5 that Swift's toolchain writes; a copy without debug info
# keeps its symbol table, which is all callgrind needs to find cb_bench_section.
strip --strip-debug -o "$out/heritage-lens" "$bin"
bin="$out/heritage-lens"
valgrind --tool=callgrind --collect-atstart=no --toggle-collect=cb_bench_section --dump-after=cb_bench_section \
  --callgrind-out-file="$out/cg.out" "$bin" kernels --kernel "${kernels[@]}" --iterations "$iterations" --warmup 2 \
  > "$out/stdout" 2> "$out/stderr" || { cat "$out/stderr" >&2; exit 1; }
# Dumps are numbered in the order the kernels ran; each holds its kernel's counted instructions.
printf "%-16s %16s\n" kernel "instructions/call"
i=1
for k in "${kernels[@]}"; do
  f="$out/cg.out.$i"
  ir=$(awk '/^(summary|totals):/ {print $2; exit}' "$f")
  printf "%-16s %16d\n" "$k" $(( ir / iterations ))
  i=$((i + 1))
done
echo "($iterations calls per kernel; $(valgrind --version), $("$bin" --version))"
