//! Iterative-deepening A* (IDA*).
//!
//! R. E. Korf, "Depth-first iterative-deepening: an optimal admissible tree search", Artificial
//! Intelligence 27 (1985) 97–109. Each iteration is a depth-first search that prunes nodes with
//! `f = g + h` above the threshold; the next threshold is the smallest f that was pruned. With
//! an admissible heuristic the first solution found is optimal. Moves that undo the previous
//! move are never generated. The heuristic is updated incrementally per move
//! ([`Incremental`]), the board is modified in place, and nothing is allocated in the inner loop.

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Instant;

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

/// Runs IDA* with any incremental heuristic, on [`Limits::threads`](super::Limits::threads)
/// threads.
///
/// Parallel iterations: the coordinator searches the top of the tree down to a split depth,
/// collecting the nodes there, and the threads search their subtrees with the same threshold.
/// Every solution found in the iteration whose threshold first reaches the optimal cost has
/// exactly that cost (all nodes of an optimal path have f ≤ C with an admissible heuristic, so
/// no earlier iteration ended above C), so the first one any thread finds is optimal; the
/// iterations below it have all been completed before it starts.
///
/// # Errors
/// As [`search`].
pub(crate) fn run<H: Incremental + Sync>(
    problem: &Problem,
    h: &H,
    ctl: &mut Control<'_>,
    progress: &mut ProgressFn<'_>,
) -> Result<Solution, SearchError>
where
    H::State: Sync,
{
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
    let threads = ctl.limits().threads.max(1);
    let histogram = ctl.limits().histogram && threads == 1;
    let tiles = problem.start.tiles().to_vec();
    let (state, h0) = h.init(&tiles);
    let shared = Shared {
        cancel: ctl.limits().cancel.clone(),
        deadline: ctl.deadline(),
        time_limit: ctl.limits().time_limit,
        abort: AtomicBool::new(false),
    };
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
        hist: histogram.then(GhHistogram::new),
        cells: histogram.then(|| super::CellSampler::new(problem.goal.board().tiles(), 64)),
        ctl: Some(ctl),
        progress: Some(progress),
        shared: None,
        split_at: u32::MAX,
        split: Vec::new(),
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
        let found = if threads == 1 {
            match ida.dfs(0, h0, NONE) {
                Step::Found => true,
                Step::Continue => false,
                Step::Stop => return Err(ida.stop.take().unwrap_or(SearchError::Cancelled)),
            }
        } else {
            ida.parallel_iteration(h0, threads, &shared)?
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
        if let Some(c) = ida.ctl.as_mut() {
            c.check()?;
        }
        if ida.next_bound == u32::MAX {
            return Err(SearchError::Exhausted(Algorithm::IdaStar));
        }
        ida.bound = ida.next_bound;
        ida.iteration += 1;
    }
    stats.expanded = ida.total_expanded;
    stats.generated = ida.total_generated;
    stats.peak_memory = (ida.path.capacity() + n * 2 + n * 4) as u64;
    stats.seconds = ida.ctl.as_ref().map_or(0.0, |c| c.elapsed());
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
    /// A limit was reached (the error is in `Ida::stop`), or another thread found the goal.
    Stop,
}

/// Nodes between checks of the cancel flag, the clock and the progress interval.
const CHECK_EVERY: u32 = 1 << 16;

/// Subtrees handed to the threads per thread and iteration (load balance).
const SPLIT_PER_THREAD: usize = 64;

/// Limits as the worker threads see them.
struct Shared {
    cancel: Option<std::sync::Arc<AtomicBool>>,
    deadline: Option<Instant>,
    time_limit: Option<std::time::Duration>,
    /// Set when a thread found the goal or hit a limit: the others stop.
    abort: AtomicBool,
}

impl Shared {
    fn check(&self) -> Option<SearchError> {
        if self
            .cancel
            .as_ref()
            .is_some_and(|c| c.load(Ordering::Relaxed))
        {
            return Some(SearchError::Cancelled);
        }
        if self.deadline.is_some_and(|d| Instant::now() >= d) {
            return Some(SearchError::TimeLimit(
                self.time_limit.unwrap_or_default().as_secs_f64(),
            ));
        }
        None
    }
}

/// A node at the split depth: everything a thread needs to search below it.
struct SplitNode<S> {
    tiles: Vec<u8>,
    blank: usize,
    state: S,
    g: u32,
    h: u32,
    prev: u8,
    path: Vec<Move>,
}

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
    /// The coordinator's limits and progress callback (`None` in worker threads).
    ctl: Option<&'c mut Control<'l>>,
    progress: Option<&'c mut ProgressFn<'p>>,
    /// Worker threads' view of the limits.
    shared: Option<&'c Shared>,
    /// Depth at which nodes are collected into `split` instead of searched.
    split_at: u32,
    split: Vec<SplitNode<H::State>>,
    total_expanded: u64,
    total_generated: u64,
    iteration: u32,
    max_g: u32,
    h0: u32,
    stop: Option<SearchError>,
}

impl<H: Incremental + Sync> Ida<'_, '_, '_, '_, H>
where
    H::State: Sync,
{
    /// One iteration on `threads` threads; returns whether the goal was found (the path is
    /// then in `self.path`).
    fn parallel_iteration(
        &mut self,
        h0: u32,
        threads: usize,
        shared: &Shared,
    ) -> Result<bool, SearchError> {
        // Collect the nodes at the shallowest depth that gives enough subtrees.
        let mut depth = 1;
        loop {
            self.split.clear();
            self.split_at = depth;
            self.next_bound = u32::MAX;
            self.expanded = 0;
            self.generated = 0;
            match self.dfs(0, h0, NONE) {
                Step::Found => {
                    self.split_at = u32::MAX;
                    return Ok(true);
                }
                Step::Stop => {
                    self.split_at = u32::MAX;
                    return Err(self.stop.take().unwrap_or(SearchError::Cancelled));
                }
                Step::Continue => {}
            }
            if self.split.len() >= SPLIT_PER_THREAD * threads
                || self.split.is_empty()
                || depth >= 64
            {
                break;
            }
            depth += 1;
        }
        self.split_at = u32::MAX;
        let nodes = std::mem::take(&mut self.split);
        if nodes.is_empty() {
            // Everything below the split depth was pruned: the iteration is complete.
            return Ok(false);
        }
        let next = AtomicUsize::new(0);
        let found: Mutex<Option<Vec<Move>>> = Mutex::new(None);
        let error: Mutex<Option<SearchError>> = Mutex::new(None);
        shared.abort.store(false, Ordering::Relaxed);
        let (h, nbr, goal, bound) = (self.h, &self.nbr, &self.goal, self.bound);
        let results: Vec<(u64, u64, u32)> = std::thread::scope(|s| {
            let handles: Vec<_> = (0..threads)
                .map(|_| {
                    s.spawn(|| {
                        let first = &nodes[0];
                        let mut w = Ida {
                            h,
                            nbr: nbr.clone(),
                            goal: goal.clone(),
                            tiles: first.tiles.clone(),
                            blank: first.blank,
                            state: first.state.clone(),
                            path: Vec::new(),
                            bound,
                            next_bound: u32::MAX,
                            expanded: 0,
                            generated: 0,
                            countdown: CHECK_EVERY,
                            hist: None,
                            cells: None,
                            ctl: None,
                            progress: None,
                            shared: Some(shared),
                            split_at: u32::MAX,
                            split: Vec::new(),
                            total_expanded: 0,
                            total_generated: 0,
                            iteration: 0,
                            max_g: 0,
                            h0,
                            stop: None,
                        };
                        loop {
                            let i = next.fetch_add(1, Ordering::Relaxed);
                            if i >= nodes.len() || shared.abort.load(Ordering::Relaxed) {
                                break;
                            }
                            let node = &nodes[i];
                            w.tiles.copy_from_slice(&node.tiles);
                            w.blank = node.blank;
                            w.state = node.state.clone();
                            w.path.clone_from(&node.path);
                            match w.dfs(node.g, node.h, node.prev) {
                                Step::Continue => {}
                                Step::Found => {
                                    let mut f = found.lock().unwrap_or_else(|e| e.into_inner());
                                    if f.is_none() {
                                        *f = Some(w.path.clone());
                                    }
                                    shared.abort.store(true, Ordering::Relaxed);
                                    break;
                                }
                                Step::Stop => {
                                    if let Some(e) = w.stop.take() {
                                        let mut slot =
                                            error.lock().unwrap_or_else(|e| e.into_inner());
                                        slot.get_or_insert(e);
                                        shared.abort.store(true, Ordering::Relaxed);
                                    }
                                    break;
                                }
                            }
                        }
                        (w.expanded, w.generated, w.next_bound)
                    })
                })
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
                .collect()
        });
        for (e, g, nb) in results {
            self.expanded += e;
            self.generated += g;
            self.next_bound = self.next_bound.min(nb);
        }
        if let Some(path) = found.into_inner().unwrap_or_else(|e| e.into_inner()) {
            self.path = path;
            return Ok(true);
        }
        if let Some(e) = error.into_inner().unwrap_or_else(|e| e.into_inner()) {
            return Err(e);
        }
        Ok(false)
    }

    /// Checks limits (coordinator: also reports progress). `Some` means stop: with the error
    /// in `self.stop`, or without one when another thread ended the iteration.
    fn poll(&mut self, g: u32) -> bool {
        if let Some(sh) = self.shared {
            if sh.abort.load(Ordering::Relaxed) {
                return true;
            }
            if let Some(e) = sh.check() {
                self.stop = Some(e);
                return true;
            }
            return false;
        }
        self.max_g = self.max_g.max(g);
        let Some(ctl) = self.ctl.as_mut() else {
            return false;
        };
        match ctl.check() {
            Ok(true) => {
                self.report(false);
                false
            }
            Ok(false) => false,
            Err(e) => {
                self.stop = Some(e);
                true
            }
        }
    }

    /// Depth-first search below the current bound from the current board (`g` moves from the
    /// start, heuristic `h`), having arrived by move index `prev` (`NONE` at the root).
    fn dfs(&mut self, g: u32, h: u32, prev: u8) -> Step {
        if h == 0 && self.tiles == self.goal {
            return Step::Found;
        }
        if g == self.split_at {
            self.split.push(SplitNode {
                tiles: self.tiles.clone(),
                blank: self.blank,
                state: self.state.clone(),
                g,
                h,
                prev,
                path: self.path.clone(),
            });
            return Step::Continue;
        }
        self.expanded += 1;
        self.countdown -= 1;
        if self.countdown == 0 {
            self.countdown = CHECK_EVERY;
            if self.poll(g) {
                return Step::Stop;
            }
        }
        let blank = self.blank;
        let undo = if prev == NONE { NONE } else { prev ^ 1 };
        // Evaluate every move first, so that their table reads overlap.
        let mut prepared = [H::Prepared::default(); 4];
        for mi in 0..4u8 {
            let to = self.nbr[blank][mi as usize];
            if mi != undo && to != NONE {
                let to = to as usize;
                prepared[mi as usize] =
                    self.h
                        .prepare(&self.state, &self.tiles, self.tiles[to], to, blank);
            }
        }
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
            // Enough h to prune without moving the next threshold: the heuristic may stop
            // there (exact values are needed for the histogram).
            let enough = if self.hist.is_some() {
                u32::MAX
            } else {
                (self.bound + 1).max(self.next_bound).saturating_sub(g + 1)
            };
            let (dh, undo) = self.h.apply_prepared(
                &mut self.state,
                &self.tiles,
                tile,
                to,
                blank,
                prepared[mi as usize],
                enough,
            );
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
            seconds: self.ctl.as_ref().map_or(0.0, |c| c.elapsed()),
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
        if let Some(f) = self.progress.as_mut() {
            f(&p);
        }
    }
}
