#!/usr/bin/env bash
# GPU IDA* against the CPU IDA* on all cores, same boards, same heuristic, same minutes: the
# node rate (nodes expanded per second of wall time) of each, and their ratio. On a machine
# without a GPU this measures lavapipe, where the shader runs on the same cores as the CPU
# search (the issue's target there: a ratio of at least 0.3).
#
#   scripts/gpu-ratio.sh [HEURISTIC...]     (default: manhattan linear-conflict pdb555)
#
# Boards: Korf's 15-puzzles (assets/bench/korf100.txt, blank first), a subset a heuristic
# solves in seconds: manhattan ids 2 5 6 8 9 12 13 16 18 19 20; linear-conflict ids 1-20 but
# 3, 15 and 17; pdb555, pdb663 and pdb78 ids 1-20. Both prune with "never undo" (as the
# ratios in docs/benchmarks.md were first measured), so both search the same trees. Uses target/release/npuzzle (built if
# missing); pattern tables come from the usual cache (built on first use).
set -euo pipefail
cd "$(dirname "$0")/.."
bin=target/release/npuzzle
[ -x "$bin" ] || cargo build --release --quiet
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
subset() { # subset NAME IDS...: those Korf instances
  local name=$1; shift
  grep -v '^#' assets/bench/korf100.txt | awk -v ids=" $* " 'index(ids, " " $1 " ")' >"$tmp/$name"
}
subset manhattan 2 5 6 8 9 12 13 16 18 19 20
subset linear-conflict 1 2 4 5 6 7 8 9 10 11 12 13 14 16 18 19 20
subset pdb $(seq 1 20)
# rate ALGORITHM HEURISTIC FILE [ARGS...]: "expanded wall" of one bench run.
rate() {
  local algo=$1 h=$2 file=$3; shift 3
  "$bin" bench "$file" --goal blank-first --heuristic "$h" --algorithm "$algo" --pruning undo \
    "$@" 2>/dev/null | tail -1 |
    sed -E 's/.*\(([0-9.]+) s wall\), ([0-9]+) nodes expanded.*/\2 \1/'
}
printf '%-16s %22s %22s %7s\n' heuristic "GPU IDA* (M nodes/s)" "CPU IDA* (M nodes/s)" ratio
[ $# -gt 0 ] || set -- manhattan linear-conflict pdb555
for h in "$@"; do
  case $h in manhattan | linear-conflict) file=$tmp/$h ;; *) file=$tmp/pdb ;; esac
  "$bin" pdb build "$h" --goal blank-first >/dev/null 2>&1 || true
  read -r ge gw < <(rate gpu-idastar "$h" "$file")
  read -r ce cw < <(rate idastar "$h" "$file" --jobs "$(nproc)")
  awk -v h="$h" -v ge="$ge" -v gw="$gw" -v ce="$ce" -v cw="$cw" 'BEGIN {
    g = ge / gw / 1e6; c = ce / cw / 1e6
    printf "%-16s %22.1f %22.1f %7.2f\n", h, g, c, g / c }'
done
