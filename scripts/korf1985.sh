#!/usr/bin/env bash
# Korf's (1985) IDA* on his 100 15-puzzles: npuzzle with Manhattan distance, "never undo"
# pruning and Korf's move order (the blank up, left, right, down), one thread an instance, and
# each instance's nodes generated against Korf's Table 1 (assets/bench/korf1985.txt), which
# counts the root too (npuzzle's nodes_generated does not: generated_counts_root is false).
#
#   scripts/korf1985.sh [JSONL]     (default: run the bench now, about 25 minutes on 2 cores)
#
# Prints the instances whose count differs, then how many are equal. With JSONL (the output of
# the bench command below, saved earlier), only compares. Uses target/release/npuzzle (built
# if missing).
set -euo pipefail
cd "$(dirname "$0")/.."
table=assets/bench/korf1985.txt
if [[ $# -ge 1 ]]; then
    rows=$1
else
    [[ -x target/release/npuzzle ]] || cargo build --release
    rows=$(mktemp)
    trap 'rm -f "$rows"' EXIT
    target/release/npuzzle bench assets/bench/korf100.txt --algorithm idastar \
        --heuristic manhattan --pruning undo --move-order korf --format json >"$rows"
fi
awk '
NR == FNR { if ($1 !~ /^#/) korf[$1] = $4; next }
match($0, /"id":"[0-9]+"/) {
  id = substr($0, RSTART + 6, RLENGTH - 7)
  match($0, /"nodes_generated":[0-9]+/)
  ours = substr($0, RSTART + 18, RLENGTH - 18)
  n++
  if (ours + 1 == korf[id]) same++
  else print "#" id ": nodes_generated " ours " + 1 root, Korf " korf[id]
}
END { print same + 0 "/" n " equal to Korf (1985)" }
' "$table" "$rows"
