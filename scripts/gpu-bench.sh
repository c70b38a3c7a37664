#!/usr/bin/env bash
# GPU IDA* on a machine with a real GPU, against the CPU IDA* on the same machine, in about
# 7 minutes (GPU_BENCH_SECONDS, default 430, then the table): the adapter, the GPU tests, then nodes/s and wall time for Korf's 100 15-puzzles
# (manhattan, also with work handed on only between rounds; linear-conflict, pdb78) and the ten easiest of Korf & Felner's 24-puzzles
# (pdb6666, then pdbmax24 when its four more tables build in time), then as many of the next ten 24-puzzles as the time left allows. Every run has a time limit, so a slow part costs its limit, never the whole run.
#
#   scripts/gpu-bench.sh [OUT_DIR]     (default: ./gpu-bench-out; JSON summaries and a table)
#
# Uses target/release/npuzzle when it is there (build it first, or carry it to the machine),
# else builds it. The GPU tests run through cargo, or, on a machine without cargo, from the test
# executables in $NPUZZLE_TEST_BINS (built here by `cargo test --release --no-run --test gpu_ida
# --test gpu_lanes --test gpu`; they look for the repository at the path they were built in). Pattern tables are
# built into OUT_DIR/pdb (pdb6666 and pdb78 take a minute or two on many cores) unless
# NPUZZLE_CACHE_DIR points to a cache that has them. The most telling runs come first
# (manhattan on Korf's 100, pdb6666 on the 24-puzzles), so a run cut short still says the most.
set -uo pipefail
cd "$(dirname "$0")/.."
out="${1:-gpu-bench-out}"
mkdir -p "$out"
export NPUZZLE_CACHE_DIR="${NPUZZLE_CACHE_DIR:-$out/pdb}"
export XDG_RUNTIME_DIR="${XDG_RUNTIME_DIR:-/tmp}"
# GPU IDA*'s runs write a line per iteration to OUT_DIR/NAME.err (split, rounds, tail, rate).
export NPUZZLE_GPU_TRACE="${NPUZZLE_GPU_TRACE:-1}"
bin=target/release/npuzzle
if [ ! -x "$bin" ]; then
  cargo build --release --quiet || exit 1
fi
budget=${GPU_BENCH_SECONDS:-430}
began=$(date +%s)
left() { echo $(( budget - ($(date +%s) - began) )); }
say() { printf '\n=== %s (%ss left)\n' "$1" "$(left)"; }

say "adapter"
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv 2>/dev/null || true
nproc
"$bin" solve assets/default.txt --algorithm gpu-idastar --heuristic manhattan --format json \
  2>"$out/adapter.txt" | python3 -c '
import json, sys
j = json.loads(sys.stdin.read())
for k in ("adapter", "moves", "seconds", "nodes_expanded"):
    print(f"  {k}: {j.get(k)}")' || true
cat "$out/adapter.txt"

say "GPU tests (tests/gpu_ida.rs, tests/gpu.rs)"
if command -v cargo >/dev/null; then
  NPUZZLE_REQUIRE_GPU=1 timeout 120 cargo test --release --quiet --test gpu_ida --test gpu_lanes --test gpu \
    2>&1 | grep -E '^test result|FAILED|panicked' | tee "$out/tests.txt"
elif [ -n "${NPUZZLE_TEST_BINS:-}" ]; then
  for t in "$NPUZZLE_TEST_BINS"/*; do
    echo "$(basename "$t"): $(NPUZZLE_REQUIRE_GPU=1 timeout 60 "$t" --test-threads 4 2>&1 \
      | grep -E '^test result|FAILED|panicked' | tr '\n' ' ')"
  done | tee "$out/tests.txt"
else
  echo "no cargo and no NPUZZLE_TEST_BINS: tests skipped" | tee "$out/tests.txt"
fi

# bench NAME FILE GOAL HEURISTIC ALGORITHM LIMIT_S [more bench arguments…]: one JSON line per
# board, then a summary (absent when `timeout` stopped the bench); the wall time goes to
# NAME.wall, so that a stopped bench still gives a rate.
bench() {
  local name=$1 file=$2 goal=$3 h=$4 algo=$5 limit=$6
  shift 6
  local t=$(( $(left) < limit ? $(left) : limit ))
  if [ "$t" -le 5 ]; then echo "$name: no time left"; return; fi
  local t0=$(date +%s%N)
  timeout "$t" "$bin" bench "$file" --goal "$goal" --heuristic "$h" --algorithm "$algo" \
    --time-limit "${board_limit:-20}" --format json "$@" 2>"$out/$name.err" >"$out/$name.json"
  echo $(( ($(date +%s%N) - t0) / 1000000 )) >"$out/$name.wall"
  echo "$name: $(grep -c '"id"' "$out/$name.json") boards in $(cat "$out/$name.wall") ms"
}

say "pattern tables"
timeout "$(left)" "$bin" pdb build pdb6666 --goal blank-first 2>&1 | tail -1
timeout "$(left)" "$bin" pdb build pdb78 --goal blank-first 2>&1 | tail -1

easy="$out/korf24-easy10.txt"
grep -E '^(38|40|25|32|44|37|30|13|1|28) ' assets/bench/korf24.txt >"$easy"

say "Korf 100 (manhattan) and the ten easiest of Korf & Felner's 24-puzzles (pdb6666)"
bench korf100-manhattan-gpu assets/bench/korf100.txt blank-first manhattan gpu-idastar 60
# Work handed on only between rounds (as before 2026-12-07), against the default above that
# also hands it on within a round in the tails: the trace's busy share and rounds say which.
NPUZZLE_GPU_IDLE_TRIES=0 bench korf100-manhattan-gpu-between-rounds assets/bench/korf100.txt \
  blank-first manhattan gpu-idastar 60
bench korf24-easy10-pdb6666-gpu "$easy" blank-first pdb6666 gpu-idastar 75
bench korf100-manhattan-cpu assets/bench/korf100.txt blank-first manhattan idastar 40
# One board at a time on all cores: the largest of the ten decides a run of one board a core.
bench korf24-easy10-pdb6666-cpu "$easy" blank-first pdb6666 idastar 40 --jobs 1 --threads "$(nproc)"

say "Korf 100 (linear-conflict, pdb78)"
for h in linear-conflict pdb78; do
  bench "korf100-$h-gpu" assets/bench/korf100.txt blank-first "$h" gpu-idastar 25
  bench "korf100-$h-cpu" assets/bench/korf100.txt blank-first "$h" idastar 15
done
# GPU IDA*'s bench runs 4 boards at once, each in a lane of the device (since 2026-12-07):
# against one board at a time, where one board's trees are too small to fill it.
bench korf100-pdb78-gpu-one-board assets/bench/korf100.txt blank-first pdb78 gpu-idastar 25 \
  --jobs 1

say "GPU IDA* with a quarter and four times the default 65,536 invocations, manhattan, Korf 100"
for inv in 16384 262144; do
  bench "korf100-manhattan-gpu-inv$inv" assets/bench/korf100.txt blank-first manhattan \
    gpu-idastar 20 --gpu-invocations "$inv"
done

say "the ten easiest with pdbmax24 (the maximum over three 6-6-6-6 partitions), GPU IDA*"
if [ "$(left)" -gt 90 ]; then
  timeout "$(( $(left) > 150 ? 150 : $(left) - 60 ))" "$bin" pdb build pdbmax24 \
    --goal blank-first 2>&1 | tail -1
fi
bench korf24-easy10-pdbmax24-gpu "$easy" blank-first pdbmax24 gpu-idastar 75

say "the next ten of Korf & Felner's 24-puzzles (pdb6666), GPU IDA*, what time is left"
next10="$out/korf24-next10.txt"
grep -E '^(36|5|22|16|29|4|26|3|31|41) ' assets/bench/korf24.txt >"$next10"
board_limit=120 bench korf24-next10-pdb6666-gpu "$next10" blank-first pdb6666 gpu-idastar 400

say "table"
for f in "$out"/*.json; do
  python3 - "$f" <<'PY' || echo "$f: unreadable"
import json, sys
path = sys.argv[1]
lines = [json.loads(l) for l in open(path) if l.strip().startswith('{')]
rows = [l for l in lines if not l.get('summary')]
summary = next((l for l in lines if l.get('summary')), None)
solved = sum(1 for r in rows if r.get('moves') is not None)
optimal = sum(1 for r in rows if r.get('matches') is True)
nodes = sum(r.get('nodes_expanded', 0) for r in rows)
secs = sum(r.get('seconds', 0) for r in rows)
try:
    wall = float(open(path[:-5] + '.wall').read()) / 1000
except (OSError, ValueError):
    wall = summary['wall_seconds'] if summary else 0
name = path.rsplit('/', 1)[-1][:-5]
ended = "" if summary else " (stopped by its time budget: rows finished so far)"
print(f"{name:34} {solved} solved ({optimal} optimal) of {len(rows)}, {nodes:.3g} expanded, "
      f"{secs:.1f} s search, {wall:.1f} s wall, {nodes / max(wall, 1e-9) / 1e6:.0f} M expanded "
      f"per wall second{ended}")
PY
done | tee "$out/table.txt"
