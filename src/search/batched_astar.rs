//! Batched A*: each round expands up to `B` open nodes with the lowest f, evaluates the
//! heuristic of all their new successors in one [`BatchEvaluator`] call (one GPU dispatch with
//! the GPU evaluator), and pushes them. The open list, closed set and successor loop are the
//! best-first core in `search/best_first.rs`, shared with A*.
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

use std::time::Instant;

use super::best_first::BestFirst;
use super::key::{Key, with_key};
use super::{Algorithm, Control, Problem, Progress, ProgressFn, Rounds, SearchError, Solution};
use crate::eval::BatchEvaluator;

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

/// Batched A* going on from a stepped A*'s state (`stepper`, not solved): its first rounds
/// were the stepper's single expansions, the rest are batches of `batch`.
///
/// # Errors
/// As [`search`]; [`SearchError::Heuristic`] when `stepper` is not an unsolved A*.
pub(crate) fn resume(
    problem: &Problem,
    stepper: super::stepper::Stepper,
    evaluator: &mut dyn BatchEvaluator,
    batch: usize,
    ctl: &mut Control<'_>,
    progress: &mut ProgressFn<'_>,
) -> Result<Solution, SearchError> {
    let (known, open, stats) = stepper.into_astar().ok_or(SearchError::Misuse(
        "only an unsolved stepped A* can go on as batched A*",
    ))?;
    with_key!(problem.start.len(), K => {
        let bf = BestFirst::<K>::resume(
            problem,
            ctl,
            4,
            known.into_iter().map(|(t, g, mv, c)| (K::pack(&t), g, mv, c)),
            open.map_keys(|t| K::pack(&t)),
            stats,
        );
        finish_rounds::<K>(problem, evaluator, batch.max(1), ctl, progress, bf, false)
    })
}

fn run<K: Key>(
    problem: &Problem,
    evaluator: &mut dyn BatchEvaluator,
    batch: usize,
    ctl: &mut Control<'_>,
    progress: &mut ProgressFn<'_>,
) -> Result<Solution, SearchError> {
    let bf = BestFirst::<K>::new(problem, ctl, 4, Algorithm::BatchedAStar);
    finish_rounds::<K>(problem, evaluator, batch, ctl, progress, bf, true)
}

/// Runs the rounds (`fresh`: from the start board) and makes the solution or the last report.
fn finish_rounds<K: Key>(
    problem: &Problem,
    evaluator: &mut dyn BatchEvaluator,
    batch: usize,
    ctl: &mut Control<'_>,
    progress: &mut ProgressFn<'_>,
    mut bf: BestFirst<K>,
    fresh: bool,
) -> Result<Solution, SearchError> {
    match rounds(problem, evaluator, batch, ctl, progress, &mut bf, fresh) {
        Ok((round, evaluated, eval_seconds)) => {
            // The final counts and open list, so that a view's last frame is the search's end.
            progress(&Progress {
                rounds: Rounds {
                    count: round,
                    ..Rounds::default()
                },
                finished: true,
                ..bf.progress(ctl, Algorithm::BatchedAStar)
            });
            let mut solution = bf.finish(problem, ctl)?;
            solution.stats.rounds = round;
            solution.stats.evaluated = evaluated;
            solution.stats.eval_seconds = eval_seconds;
            Ok(solution)
        }
        Err(e) => {
            // The counts at the stop, so that a caller's figures are those of this moment.
            progress(&Progress {
                finished: true,
                ..bf.progress(ctl, Algorithm::BatchedAStar)
            });
            Err(e)
        }
    }
}

/// Runs rounds until the best goal cost found is at most the open list's lowest f; returns
/// the rounds, the boards evaluated and the seconds of evaluation.
fn rounds<K: Key>(
    problem: &Problem,
    evaluator: &mut dyn BatchEvaluator,
    batch: usize,
    ctl: &mut Control<'_>,
    progress: &mut ProgressFn<'_>,
    bf: &mut BestFirst<K>,
    fresh: bool,
) -> Result<(u64, u64, f64), SearchError> {
    let n = problem.start.len();
    let eval_err = SearchError::Evaluator;
    let goal_key = K::pack(problem.goal.board().tiles());
    let start_key = K::pack(problem.start.tiles());
    let mut hs: Vec<u32> = Vec::new();
    let mut best: Option<u32> = if fresh {
        evaluator
            .evaluate(problem.start.tiles(), &mut hs)
            .map_err(eval_err)?;
        bf.insert_root(start_key.clone(), hs.first().copied().unwrap_or(0));
        (start_key == goal_key).then_some(0)
    } else {
        // Resumed: the goal may have been generated already.
        bf.g_of(&goal_key)
    };
    let mut tiles = vec![0u8; n];
    let mut boards: Vec<u8> = Vec::new();
    let mut pending: Vec<(K, u32)> = Vec::new();
    let mut round = 0u64;
    let mut evaluated = 0u64;
    let mut eval_seconds_total = 0.0f64;
    loop {
        if let Some(c) = best
            && bf.min_f().is_none_or(|f| f >= c)
        {
            break;
        }
        if bf.open_len() == 0 {
            return Err(SearchError::Exhausted(Algorithm::BatchedAStar));
        }
        round += 1;
        boards.clear();
        pending.clear();
        let mut expanded_now = 0;
        let mut round_f = 0;
        let mut round_g = 0;
        while expanded_now < batch {
            let Some(node) = bf.pop(best) else { break };
            let Some(closed) = bf.close(&node) else {
                continue; // stale entry
            };
            expanded_now += 1;
            (round_f, round_g) = (node.f, node.g);
            bf.expand(
                &node,
                closed,
                &mut tiles,
                pending.len(),
                ctl,
                |child, tiles, g| {
                    if *child == goal_key {
                        best = Some(best.map_or(g, |c| c.min(g)));
                    }
                    boards.extend_from_slice(tiles);
                    pending.push((child.clone(), g));
                    None
                },
            )?;
        }
        let t = Instant::now();
        evaluator.evaluate(&boards, &mut hs).map_err(eval_err)?;
        let eval_seconds = t.elapsed().as_secs_f64();
        eval_seconds_total += eval_seconds;
        evaluated += pending.len() as u64;
        if hs.len() != pending.len() {
            return Err(SearchError::Evaluator(crate::eval::EvalError::Count {
                values: hs.len(),
                boards: pending.len(),
            }));
        }
        for ((key, g), &h) in pending.drain(..).zip(&hs) {
            if bf.push(key, g, h).is_err() {
                return Err(ctl.out_of_memory(bf.stats.expanded));
            }
        }
        bf.note_peak();
        if ctl.check()? {
            progress(&Progress {
                bound: bf.min_f().unwrap_or(round_f),
                g: round_g,
                h: round_f - round_g,
                rounds: Rounds {
                    count: round,
                    batch_boards: hs.len() as u64,
                    eval_seconds,
                    boards_per_second: if eval_seconds_total > 0.0 {
                        evaluated as f64 / eval_seconds_total
                    } else {
                        0.0
                    },
                    ..Rounds::default()
                },
                ..bf.progress(ctl, Algorithm::BatchedAStar)
            });
        }
    }
    Ok((round, evaluated, eval_seconds_total))
}
