//! A* with a closed set and a memory cap.
//!
//! P. E. Hart, N. J. Nilsson, B. Raphael, "A formal basis for the heuristic determination of
//! minimum cost paths", IEEE Trans. SSC 4 (1968). The open list is a binary heap ordered by
//! lowest f, ties broken by highest g; stale heap entries are skipped when popped (the open
//! list, closed set and successor loop are the best-first core in `search/best_first.rs`,
//! shared with batched A*). The goal test is made when a node is expanded, so with an
//! admissible heuristic the first goal popped is optimal. Asked for all optimal solutions
//! ([`Limits::all_solutions`](super::Limits::all_solutions)), it goes on until the lowest f
//! on the open list passes the optimal cost, then counts them ([`super::all`]).

use super::best_first::BestFirst;
use super::key::{Key, with_key};
use super::{Algorithm, Control, Problem, Progress, ProgressFn, SearchError, Solution};
use crate::heuristic::{Heuristic, HeuristicSpec};

/// A* from the start to the goal with the given heuristic; `algorithm` is A*, greedy
/// best-first or weighted A* (the f that orders the open list, [`Algorithm::order_f`]).
/// All optimal solutions are counted by A* only.
///
/// # Errors
/// [`SearchError`] on cancel, time limit or memory cap.
pub(crate) fn search(
    problem: &Problem,
    algorithm: Algorithm,
    heuristic: &HeuristicSpec,
    ctl: &mut Control<'_>,
    progress: &mut ProgressFn<'_>,
) -> Result<Solution, SearchError> {
    let h = heuristic.build(&problem.goal);
    with_key!(problem.start.len(), K => run::<K>(problem, algorithm, h.as_ref(), ctl, progress))
}

fn run<K: Key>(
    problem: &Problem,
    algorithm: Algorithm,
    h: &dyn Heuristic,
    ctl: &mut Control<'_>,
    progress: &mut ProgressFn<'_>,
) -> Result<Solution, SearchError> {
    let goal_key = K::pack(problem.goal.board().tiles());
    let mut bf = BestFirst::<K>::new(problem, ctl, 8, algorithm);
    bf.insert_root(
        K::pack(problem.start.tiles()),
        h.estimate(problem.start.tiles()),
    );
    let mut tiles = vec![0u8; problem.start.len()];
    let ended = expand_nodes(&mut bf, h, &goal_key, None, &mut tiles, ctl, progress);
    let mut all = None;
    let counts = algorithm == Algorithm::AStar;
    if let (Ok(()), Some(keep), true) = (&ended, ctl.limits().all_solutions, counts) {
        let cost = bf.g_of(&goal_key).unwrap_or(0);
        let ties = expand_nodes(&mut bf, h, &goal_key, Some(cost), &mut tiles, ctl, progress);
        if let Err(e) = ties {
            if !e.is_limit() {
                return Err(e);
            }
            // A limit while counting: the optimal solution found stands, the count is open.
            progress(&Progress {
                finished: true,
                ..bf.progress(ctl, algorithm)
            });
            let mut solution = bf.finish(problem, ctl)?;
            solution.all = Some(super::all::AllSolutions {
                count: 1,
                count_is_exact: false,
                solutions: vec![solution.moves.clone()],
            });
            return Ok(solution);
        } else {
            let (rows, cols) = (problem.start.rows(), problem.start.cols());
            all = Some(super::all::from_distances(
                rows,
                cols,
                problem.start.tiles(),
                problem.goal.board().tiles(),
                cost,
                keep,
                &|t| bf.g_of(&K::pack(t)),
            ));
        }
    }
    match ended {
        Ok(()) => {
            // The final counts and open list, so that a view's last frame is the search's end.
            progress(&Progress {
                finished: true,
                ..bf.progress(ctl, algorithm)
            });
            let mut solution = bf.finish(problem, ctl)?;
            solution.all = all;
            Ok(solution)
        }
        Err(e) => {
            // The counts at the stop, so that a caller's figures are those of this moment.
            progress(&Progress {
                finished: true,
                ..bf.progress(ctl, algorithm)
            });
            Err(e)
        }
    }
}

/// Expands nodes in A*'s order. Looking for the goal (`ties` = `None`), until it is popped
/// (it is then closed, so `finish` walks back from it). After it was popped at cost `c`
/// (`ties` = `Some(c)`): every node left with f ≤ `c` but the goal, so that every board on an
/// optimal path is closed at its optimal g (all optimal solutions).
fn expand_nodes<K: Key>(
    bf: &mut BestFirst<K>,
    h: &dyn Heuristic,
    goal_key: &K,
    ties: Option<u32>,
    tiles: &mut [u8],
    ctl: &mut Control<'_>,
    progress: &mut ProgressFn<'_>,
) -> Result<(), SearchError> {
    loop {
        let Some(node) = bf.pop(ties.map(|c| c + 1)) else {
            return match ties {
                Some(_) => Ok(()),
                None => Err(SearchError::Exhausted(bf.order())),
            };
        };
        let Some(closed) = bf.close(&node) else {
            continue; // stale entry
        };
        if &node.key == goal_key {
            if ties.is_none() {
                return Ok(());
            }
            continue;
        }
        bf.expand(&node, closed, tiles, 0, ctl, |_, tiles, _| {
            Some(h.estimate(tiles))
        })?;
        bf.note_peak();
        if bf.stats.expanded & 0xFFF == 0 && ctl.check()? {
            let order = bf.order();
            progress(&Progress {
                bound: order.bound_of(node.f),
                g: node.g,
                h: order.h_of(node.f, node.g),
                ..bf.progress(ctl, order)
            });
        }
    }
}
