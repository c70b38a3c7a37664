//! Iterative-deepening A* (IDA*).
//!
//! R. E. Korf, "Depth-first iterative-deepening: an optimal admissible tree search", Artificial
//! Intelligence 27 (1985) 97–109. Each iteration is a depth-first search that prunes nodes with
//! `f = g + h` above the threshold; the next threshold is the smallest f that was pruned. With
//! an admissible heuristic the first solution found is optimal. Moves that undo the previous
//! move are never generated. The heuristic is updated incrementally per move
//! ([`Incremental`]), the board is modified in place, and nothing is allocated in the inner loop.

use super::{
    Algorithm, Control, GhHistogram, Iteration, Problem, Progress, ProgressFn, SearchError,
    SearchStats, Solution,
};
use crate::heuristic::{
    Hamming, HeuristicKind, HeuristicSpec, Incremental, LinearConflict, Manhattan,
};
use crate::puzzle::{Move, move_target};

/// No neighbour in that direction.
const NONE: u8 = u8::MAX;

/// IDA* from the start to the goal with the given heuristic.
///
/// # Errors
/// [`SearchError`] on cancel or time limit. IDA* stores only the current path, so it never
/// reaches the memory cap.
pub(crate) fn search(
    problem: &Problem,
    heuristic: &HeuristicSpec,
    ctl: &mut Control<'_>,
    progress: &mut ProgressFn<'_>,
) -> Result<Solution, SearchError> {
    let goal = &problem.goal;
    match heuristic {
        HeuristicSpec::Kind(HeuristicKind::Hamming) => {
            run(problem, &Hamming::new(goal), ctl, progress)
        }
        HeuristicSpec::Kind(HeuristicKind::Manhattan) => {
            run(problem, &Manhattan::new(goal), ctl, progress)
        }
        HeuristicSpec::Kind(HeuristicKind::LinearConflict) => {
            run(problem, &LinearConflict::new(goal), ctl, progress)
        }
        HeuristicSpec::Pdb(p) => run(problem, p.as_ref(), ctl, progress),
    }
}

/// Runs IDA* with any incremental heuristic.
///
/// # Errors
/// As [`search`].
pub(crate) fn run<H: Incremental>(
    problem: &Problem,
    h: &H,
    ctl: &mut Control<'_>,
    progress: &mut ProgressFn<'_>,
) -> Result<Solution, SearchError> {
    let (rows, cols) = (problem.start.rows(), problem.start.cols());
    let n = rows * cols;
    let mut nbr = vec![[NONE; 4]; n];
    for (cell, row) in nbr.iter_mut().enumerate() {
        for m in Move::ALL {
            if let Some(to) = move_target(rows, cols, cell, m) {
                row[m.index()] = to as u8;
            }
        }
    }
    let tiles = problem.start.tiles().to_vec();
    let (state, h0) = h.init(&tiles);
    let mut ida = Ida {
        h,
        nbr,
        goal: problem.goal.board().tiles().to_vec(),
        tiles,
        blank: problem.start.blank(),
        state,
        path: Vec::new(),
        bound: h0,
        next_bound: u32::MAX,
        expanded: 0,
        generated: 0,
        countdown: CHECK_EVERY,
        hist: ctl.limits().histogram.then(GhHistogram::new),
        cells: ctl
            .limits()
            .histogram
            .then(|| super::CellSampler::new(problem.goal.board().tiles(), 64)),
        ctl,
        progress,
        total_expanded: 0,
        total_generated: 0,
        iteration: 1,
        max_g: 0,
        h0,
        stop: None,
    };
    let mut stats = SearchStats {
        initial_h: h0,
        ..SearchStats::default()
    };
    loop {
        ida.next_bound = u32::MAX;
        ida.expanded = 0;
        ida.generated = 0;
        if let Some(hh) = &mut ida.hist {
            hh.clear();
            hh.add(0, h0 as usize);
        }
        let found = match ida.dfs(0, h0, NONE) {
            Step::Found => true,
            Step::Continue => false,
            Step::Stop => return Err(ida.stop.take().unwrap_or(SearchError::Cancelled)),
        };
        stats.iterations.push(Iteration {
            threshold: ida.bound,
            expanded: ida.expanded,
            generated: ida.generated,
        });
        ida.total_expanded += ida.expanded;
        ida.total_generated += ida.generated;
        ida.report(true);
        if found {
            break;
        }
        ida.ctl.check()?;
        if ida.next_bound == u32::MAX {
            return Err(SearchError::BadSolution(
                "IDA* exhausted the search space without reaching the goal".into(),
            ));
        }
        ida.bound = ida.next_bound;
        ida.iteration += 1;
    }
    stats.expanded = ida.total_expanded;
    stats.generated = ida.total_generated;
    stats.peak_memory = (ida.path.capacity() + n * 2 + n * 4) as u64;
    stats.seconds = ida.ctl.elapsed();
    Ok(Solution {
        moves: ida.path.clone(),
        stats,
    })
}

/// Result of a depth-first probe.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Step {
    /// Goal not found below this node.
    Continue,
    /// Goal found; the path holds the moves.
    Found,
    /// A limit was reached; the error is in `Ida::stop`.
    Stop,
}

/// Nodes between checks of the cancel flag, the clock and the progress interval.
const CHECK_EVERY: u32 = 1 << 16;

struct Ida<'a, 'c, 'l, 'p, H: Incremental> {
    h: &'a H,
    nbr: Vec<[u8; 4]>,
    goal: Vec<u8>,
    tiles: Vec<u8>,
    blank: usize,
    state: H::State,
    path: Vec<Move>,
    bound: u32,
    next_bound: u32,
    expanded: u64,
    generated: u64,
    countdown: u32,
    hist: Option<GhHistogram>,
    cells: Option<super::CellSampler>,
    ctl: &'c mut Control<'l>,
    progress: &'c mut ProgressFn<'p>,
    total_expanded: u64,
    total_generated: u64,
    iteration: u32,
    max_g: u32,
    h0: u32,
    stop: Option<SearchError>,
}

impl<H: Incremental> Ida<'_, '_, '_, '_, H> {
    /// Depth-first search below the current bound from the current board (`g` moves from the
    /// start, heuristic `h`), having arrived by move index `prev` (`NONE` at the root).
    fn dfs(&mut self, g: u32, h: u32, prev: u8) -> Step {
        if h == 0 && self.tiles == self.goal {
            return Step::Found;
        }
        self.expanded += 1;
        self.countdown -= 1;
        if self.countdown == 0 {
            self.countdown = CHECK_EVERY;
            self.max_g = self.max_g.max(g);
            match self.ctl.check() {
                Ok(true) => self.report(false),
                Ok(false) => {}
                Err(e) => {
                    self.stop = Some(e);
                    return Step::Stop;
                }
            }
        }
        let blank = self.blank;
        let undo = if prev == NONE { NONE } else { prev ^ 1 };
        for mi in 0..4u8 {
            if mi == undo {
                continue;
            }
            let to = self.nbr[blank][mi as usize];
            if to == NONE {
                continue;
            }
            let to = to as usize;
            let tile = self.tiles[to];
            // The tile at `to` slides into the blank's cell.
            self.tiles[blank] = tile;
            self.tiles[to] = 0;
            let (dh, undo) = self
                .h
                .apply_undoable(&mut self.state, &self.tiles, tile, to, blank);
            let h2 = (h as i32 + dh) as u32;
            let f2 = g + 1 + h2;
            self.generated += 1;
            if let Some(hh) = &mut self.hist {
                hh.add(g as usize + 1, h2 as usize);
                if let Some(c) = &mut self.cells {
                    c.offer(&self.tiles);
                }
            }
            if f2 <= self.bound {
                self.blank = to;
                self.path.push(Move::from_index(mi as usize));
                let step = self.dfs(g + 1, h2, mi);
                if step != Step::Continue {
                    return step;
                }
                self.path.pop();
                self.blank = blank;
            } else if f2 < self.next_bound {
                self.next_bound = f2;
            }
            self.tiles[to] = tile;
            self.tiles[blank] = 0;
            self.h
                .undo(&mut self.state, &self.tiles, tile, to, blank, undo);
        }
        Step::Continue
    }

    fn report(&mut self, iteration_done: bool) {
        let p = Progress {
            algorithm: Some(Algorithm::IdaStar),
            seconds: self.ctl.elapsed(),
            expanded: self.total_expanded + if iteration_done { 0 } else { self.expanded },
            generated: self.total_generated + if iteration_done { 0 } else { self.generated },
            bound: self.bound,
            iteration: self.iteration,
            g: self.max_g,
            h: self.h0,
            histogram: self.hist.clone(),
            misplaced: self.cells.as_mut().and_then(|c| c.take()),
            iteration_done,
            ..Progress::default()
        };
        (self.progress)(&p);
    }
}
