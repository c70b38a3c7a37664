//! Batched A*: each round expands up to `B` open nodes with the lowest f, evaluates the
//! heuristic of all their new successors in one [`BatchEvaluator`] call (one GPU dispatch with
//! the GPU evaluator), and pushes them.
//!
//! Optimality. A goal reached in a round is only a candidate: nodes expanded in the same
//! round are not in strict f order, and an open node may still lead to a cheaper goal. The
//! search keeps the cheapest goal cost `C` seen so far and stops only when no open node has
//! `f < C`. With an admissible heuristic, `f(n) = g(n) + h(n)` is a lower bound on every
//! solution through `n`; every unexplored path to the goal passes through some open node; so
//! when all open nodes have `f ≥ C`, no solution cheaper than `C` exists. Because rounds are not
//! in strict f order, a node may be closed with a non-optimal g; when a cheaper path to it is
//! found later it is reopened (its record is updated and it is pushed again), so the costs in
//! the closed set stay correct. (Batch expansion in this style: e.g. Zhou & Zeng, "Massively
//! parallel A* search on a GPU", AAAI 2015.)

use std::collections::BinaryHeap;
use std::time::Instant;

use rustc_hash::FxHashMap;

use super::astar::{Info, Open, ROOT, close, relax, walk_back};
use super::key::{Key, with_key};
use super::{
    Algorithm, Control, GhHistogram, Problem, Progress, ProgressFn, SearchError, SearchStats,
    Solution,
};
use crate::eval::BatchEvaluator;
use crate::puzzle::{Move, move_target};

/// Default number of nodes expanded per round: about 2,000 successor boards per batch on a
/// 15-puzzle. Tuned on Korf's instances 8, 9, 12, 21 and 47 on the 2-core development machine
/// (`npuzzle bench … --algorithm batched-astar --batch-size B`): B = 1024 was fastest both with
/// the CPU evaluator (1.33 s against 1.50 s at 64 and 2.23 s at 8192) and on lavapipe (3.9 s
/// against 5.8 s at 16384). Larger batches expand more nodes out of f order; a real GPU may
/// still prefer them, so `--batch-size` is there to try.
pub const DEFAULT_BATCH_SIZE: usize = 1024;

/// Batched A* with the given evaluator and batch size (nodes expanded per round).
///
/// # Errors
/// [`SearchError`] on cancel, time limit, memory cap, or an evaluator failure.
pub(crate) fn search(
    problem: &Problem,
    evaluator: &mut dyn BatchEvaluator,
    batch: usize,
    ctl: &mut Control<'_>,
    progress: &mut ProgressFn<'_>,
) -> Result<Solution, SearchError> {
    with_key!(problem.start.len(), K => run::<K>(problem, evaluator, batch.max(1), ctl, progress))
}

fn run<K: Key>(
    problem: &Problem,
    evaluator: &mut dyn BatchEvaluator,
    batch: usize,
    ctl: &mut Control<'_>,
    progress: &mut ProgressFn<'_>,
) -> Result<Solution, SearchError> {
    let (rows, cols) = (problem.start.rows(), problem.start.cols());
    let n = rows * cols;
    let eval_err = |e: crate::eval::EvalError| SearchError::Evaluator(e.to_string());
    let goal_key = K::pack(problem.goal.board().tiles());
    let start_key = K::pack(problem.start.tiles());
    let mut stats = SearchStats::default();
    let mut map: FxHashMap<K, Info> = FxHashMap::default();
    let mut open: BinaryHeap<Open<K>> = BinaryHeap::new();
    let mut hist = ctl.limits().histogram.then(GhHistogram::new);
    let mut cells = ctl
        .limits()
        .histogram
        .then(|| super::CellSampler::new(problem.goal.board().tiles(), 4));
    let entry = std::mem::size_of::<(K, Info)>() + 1 + K::heap_bytes(n);
    let oentry = std::mem::size_of::<Open<K>>() + K::heap_bytes(n);
    let memory = |open: &BinaryHeap<Open<K>>, map_cap: usize, pending: usize| {
        (map_cap * entry * 8 / 7 + open.capacity() * oentry + pending * (n + oentry)) as u64
    };

    let mut hs: Vec<u32> = Vec::new();
    evaluator
        .evaluate(problem.start.tiles(), &mut hs)
        .map_err(eval_err)?;
    let h0 = hs.first().copied().unwrap_or(0);
    stats.initial_h = h0;
    map.insert(
        start_key.clone(),
        Info {
            g: 0,
            mv: ROOT,
            closed: false,
        },
    );
    open.push(Open {
        f: h0,
        g: 0,
        key: start_key.clone(),
    });
    if let Some(hh) = &mut hist {
        hh.add(0, h0 as usize);
    }
    let mut best: Option<u32> = (start_key == goal_key).then_some(0);
    let mut tiles = vec![0u8; n];
    let mut boards: Vec<u8> = Vec::new();
    let mut pending: Vec<(K, u32)> = Vec::new();
    let mut round = 0u64;
    let mut evaluated = 0u64;
    let mut eval_seconds_total = 0.0f64;
    loop {
        if let Some(c) = best
            && open.peek().is_none_or(|o| o.f >= c)
        {
            break;
        }
        if open.is_empty() {
            return Err(SearchError::Exhausted(Algorithm::BatchedAStar));
        }
        round += 1;
        boards.clear();
        pending.clear();
        let mut expanded_now = 0;
        let mut round_f = 0;
        let mut round_g = 0;
        while expanded_now < batch {
            let Some(node) = open.pop() else { break };
            if best.is_some_and(|c| node.f >= c) {
                open.push(node);
                break;
            }
            if let Some(hh) = &mut hist {
                hh.remove(node.g as usize, (node.f - node.g) as usize);
            }
            let Some(last) = close(&mut map, &node) else {
                continue; // stale entry
            };
            stats.closed += 1;
            stats.expanded += 1;
            expanded_now += 1;
            (round_f, round_g) = (node.f, node.g);
            node.key.unpack(&mut tiles);
            let blank = tiles.iter().position(|&t| t == 0).unwrap_or(0);
            let g2 = node.g + 1;
            for m in Move::ALL {
                if last != ROOT && m == Move::from_index(last as usize).inverse() {
                    continue;
                }
                let Some(to) = move_target(rows, cols, blank, m) else {
                    continue;
                };
                tiles.swap(blank, to);
                let child = K::pack(&tiles);
                stats.generated += 1;
                if map.len() == map.capacity() {
                    let projected = memory(&open, 3 * map.capacity().max(16), pending.len());
                    if projected > ctl.limits().max_memory {
                        return Err(ctl.memory_error(stats.expanded));
                    }
                }
                if relax(&mut map, &child, g2, m) {
                    if child == goal_key {
                        best = Some(best.map_or(g2, |c| c.min(g2)));
                    }
                    boards.extend_from_slice(&tiles);
                    pending.push((child, g2));
                    if let Some(c) = &mut cells {
                        c.offer(&tiles);
                    }
                }
                tiles.swap(blank, to);
            }
        }
        let t = Instant::now();
        evaluator.evaluate(&boards, &mut hs).map_err(eval_err)?;
        let eval_seconds = t.elapsed().as_secs_f64();
        eval_seconds_total += eval_seconds;
        evaluated += pending.len() as u64;
        if hs.len() != pending.len() {
            return Err(SearchError::Evaluator(format!(
                "evaluator returned {} values for {} boards",
                hs.len(),
                pending.len()
            )));
        }
        for ((key, g), &h) in pending.drain(..).zip(&hs) {
            if let Some(hh) = &mut hist {
                hh.add(g as usize, h as usize);
            }
            open.push(Open { f: g + h, g, key });
        }
        stats.peak_open = stats.peak_open.max(open.len() as u64);
        if ctl.check()? {
            progress(&Progress {
                algorithm: Some(Algorithm::BatchedAStar),
                seconds: ctl.elapsed(),
                expanded: stats.expanded,
                generated: stats.generated,
                open: open.len() as u64,
                closed: stats.closed,
                bound: open.peek().map_or(round_f, |o| o.f),
                g: round_g,
                h: round_f - round_g,
                histogram: hist.clone(),
                round,
                batch_boards: hs.len() as u64,
                eval_seconds,
                boards_per_second: if eval_seconds_total > 0.0 {
                    evaluated as f64 / eval_seconds_total
                } else {
                    0.0
                },
                misplaced: cells.as_mut().and_then(|c| c.take()),
                memory: memory(&open, map.capacity(), 0),
                ..Progress::default()
            });
        }
    }
    let moves = walk_back(problem, &map)?;
    stats.peak_memory = memory(&open, map.capacity(), 0);
    stats.seconds = ctl.elapsed();
    stats.rounds = round;
    stats.evaluated = evaluated;
    stats.eval_seconds = eval_seconds_total;
    Ok(Solution { moves, stats })
}
