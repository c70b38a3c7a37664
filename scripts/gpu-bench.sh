#!/usr/bin/env bash
# GPU IDA* on a machine with a real GPU, against the CPU IDA* on the same machine, in about
# 8 minutes: the adapter, the GPU tests, then nodes/s and wall time for Korf's 100 15-puzzles
# (manhattan, linear-conflict, pdb78) and the ten easiest of Korf & Felner's 24-puzzles
# (pdb6666). Every run has a time limit, so a slow part costs its limit, never the whole run.
#
#   scripts/gpu-bench.sh [OUT_DIR]     (default: ./gpu-bench-out; JSON summaries and a table)
#
# Uses target/release/npuzzle when it is there (build it first, or carry it to the machine),
# else builds it. Pattern tables are built into OUT_DIR/pdb (pdb78 and pdb6666 take a minute or
# two on many cores) unless NPUZZLE_CACHE_DIR points to a cache that has them.
set -uo pipefail
cd "$(dirname "$0")/.."
out="${1:-gpu-bench-out}"
mkdir -p "$out"
export NPUZZLE_CACHE_DIR="${NPUZZLE_CACHE_DIR:-$out/pdb}"
export XDG_RUNTIME_DIR="${XDG_RUNTIME_DIR:-/tmp}"
bin=target/release/npuzzle
if [ ! -x "$bin" ]; then
  cargo build --release --quiet || exit 1
fi
began=$(date +%s)
left() { echo $(( 470 - ($(date +%s) - began) )); }
say() { printf '\n=== %s (%ss left)\n' "$1" "$(left)"; }

say "adapter"
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv 2>/dev/null || true
"$bin" solve assets/default.txt --algorithm gpu-idastar --heuristic manhattan --format json \
  2>"$out/adapter.txt" | grep -E '"(adapter|moves|seconds|nodes_expanded)"'
cat "$out/adapter.txt"

say "GPU tests (tests/gpu_ida.rs, tests/gpu.rs)"
if command -v cargo >/dev/null; then
  NPUZZLE_REQUIRE_GPU=1 timeout 150 cargo test --release --quiet --test gpu_ida --test gpu \
    2>&1 | grep -E '^test result|FAILED|panicked' | tee "$out/tests.txt"
else
  echo "no cargo here: tests skipped" | tee "$out/tests.txt"
fi

# bench NAME FILE GOAL HEURISTIC ALGORITHM LIMIT_S [ids…]: one JSON summary line.
bench() {
  local name=$1 file=$2 goal=$3 h=$4 algo=$5 limit=$6
  local t=$(( $(left) < limit ? $(left) : limit ))
  if [ "$t" -le 5 ]; then echo "$name: no time left"; return; fi
  # One JSON line per board, then a summary (absent when `timeout` stopped the bench).
  timeout "$t" "$bin" bench "$file" --goal "$goal" --heuristic "$h" --algorithm "$algo" \
    --time-limit 20 --format json 2>"$out/$name.err" >"$out/$name.json"
  echo "$name: $(wc -l <"$out/$name.json") lines"
}

say "pattern tables"
timeout "$(left)" "$bin" pdb build pdb78 --goal blank-first 2>&1 | tail -1
timeout "$(left)" "$bin" pdb build pdb6666 --goal blank-first 2>&1 | tail -1

say "Korf 100 (15-puzzle)"
for h in manhattan linear-conflict pdb78; do
  bench "korf100-$h-gpu" assets/bench/korf100.txt blank-first "$h" gpu-idastar 60
  bench "korf100-$h-cpu" assets/bench/korf100.txt blank-first "$h" idastar 60
done

say "ten easiest of Korf & Felner's 24-puzzles (pdb6666)"
easy="$out/korf24-easy10.txt"
grep -E '^(38|40|25|32|44|37|30|13|1|28) ' assets/bench/korf24.txt >"$easy"
bench korf24-easy10-pdb6666-gpu "$easy" blank-first pdb6666 gpu-idastar 90
bench korf24-easy10-pdb6666-cpu "$easy" blank-first pdb6666 idastar 90

say "table"
for f in "$out"/*.json; do
  python3 - "$f" <<'PY' || echo "$f: unreadable"
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1]) if l.strip().startswith('{')]
rows = [l for l in lines if not l.get('summary')]
summary = next((l for l in lines if l.get('summary')), None)
solved = sum(1 for r in rows if r.get('moves') is not None)
optimal = sum(1 for r in rows if r.get('matches') is True)
nodes = sum(r.get('nodes_expanded', 0) for r in rows)
secs = sum(r.get('seconds', 0) for r in rows)
name = sys.argv[1].rsplit('/', 1)[-1][:-5]
wall = f"{summary['wall_seconds']:.1f} s wall" if summary else "stopped by the time budget"
print(f"{name:34} {solved} solved ({optimal} optimal) of {len(rows)} run, {nodes:.3g} expanded, "
      f"{secs:.1f} s search, {nodes / max(secs, 1e-9) / 1e6:.1f} M expanded/s, {wall}")
PY
done | tee "$out/table.txt"
