//! Iterative-deepening A* (IDA*).
//!
//! R. E. Korf, "Depth-first iterative-deepening: an optimal admissible tree search", Artificial
//! Intelligence 27 (1985) 97–109. Each iteration is a depth-first search that prunes nodes with
//! `f = g + h` above the threshold; the next threshold is the smallest f that was pruned. With
//! an admissible heuristic the first solution found is optimal. Moves are pruned by a
//! [`MoveFsm`] ([`Limits::pruning`]): the move undoing the previous one, or
//! every move that completes a duplicate move string (Taylor & Korf 1993). The heuristic is
//! updated incrementally per move ([`Incremental`]), the board is modified in place, and
//! nothing is allocated in the inner loop. Asked for all optimal solutions, the last
//! iteration goes on past each goal to its end ([`super::all`]).
//!
//! Two roles share one depth-first search (`Dfs`), told apart by its `Watch` (a type
//! parameter, so the inner loop has no role checks): the coordinator's `Reporter` checks the
//! limits, reports progress and keeps the histogram; a worker thread's `Shared` checks the
//! limits and the abort flag. Results are values: a probe returns the smallest f above the
//! threshold (the next threshold) or why it stopped (`Halt`: found, a limit, aborted); an
//! iteration returns a `Round` (found with its moves, or the next threshold); a worker thread
//! returns a `WorkerEnd`.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Instant;

use super::all::Collector;
use super::move_fsm::{DEAD, MoveFsm};
use super::{
    Algorithm, CellSampler, Control, GhHistogram, Iteration, Limits, Problem, Progress, ProgressFn,
    SearchError, SearchStats, Solution,
};
use crate::eval::ida::IdaDevice;
use crate::heuristic::{
    Hamming, HeuristicKind, HeuristicSpec, Incremental, LinearConflict, Manhattan, MaxOf,
    WalkingDistance,
};
use crate::puzzle::{Board, Move, move_target};

/// No neighbour in that direction. Cells are `u8` (at most 256 of them), so a `u16` entry can
/// hold every real cell and this value too: on a 16×16 board cell 255 is real, and a `u8`
/// sentinel of 255 made IDA* treat the bottom-right cell as off the board (it never returned).
const OFF_BOARD: u16 = u16::MAX;

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
    search_on(problem, heuristic, None, ctl, progress)
}

/// IDA* whose subtrees below the split depth are searched by `device` when there is one
/// (GPU IDA*, see [`super::gpu_idastar`]), else by [`Limits::threads`] threads. The host
/// searches the top of the tree with the CPU form of the same heuristic.
///
/// # Errors
/// As [`search`], and [`SearchError::Evaluator`] when the device fails.
pub(crate) fn search_on(
    problem: &Problem,
    heuristic: &HeuristicSpec,
    device: Option<&mut dyn IdaDevice>,
    ctl: &mut Control<'_>,
    progress: &mut ProgressFn<'_>,
) -> Result<Solution, SearchError> {
    let goal = &problem.goal;
    match heuristic {
        HeuristicSpec::Kind(HeuristicKind::Hamming) => {
            run_on(problem, &Hamming::new(goal), device, ctl, progress)
        }
        HeuristicSpec::Kind(HeuristicKind::Manhattan) => {
            run_on(problem, &Manhattan::new(goal), device, ctl, progress)
        }
        HeuristicSpec::Kind(HeuristicKind::LinearConflict) => {
            run_on(problem, &LinearConflict::new(goal), device, ctl, progress)
        }
        HeuristicSpec::Kind(HeuristicKind::WalkingDistance) => {
            let wd =
                WalkingDistance::new(goal).map_err(|e| SearchError::Heuristic(e.to_string()))?;
            run_on(problem, &wd, device, ctl, progress)
        }
        HeuristicSpec::Kind(HeuristicKind::WalkingDistanceLc) => {
            let wd =
                WalkingDistance::new(goal).map_err(|e| SearchError::Heuristic(e.to_string()))?;
            let h = MaxOf::new(
                wd,
                LinearConflict::new(goal),
                HeuristicKind::WalkingDistanceLc,
            );
            run_on(problem, &h, device, ctl, progress)
        }
        HeuristicSpec::Pdb(p) => run_on(problem, p.as_ref(), device, ctl, progress),
    }
}

/// Runs IDA* with any incremental heuristic, on [`Limits::threads`] threads.
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
///
/// With a `device`, the subtrees below the split depth are searched there instead (GPU IDA*).
fn run_on<H: Incremental + Sync>(
    problem: &Problem,
    h: &H,
    mut device: Option<&mut dyn IdaDevice>,
    ctl: &mut Control<'_>,
    progress: &mut ProgressFn<'_>,
) -> Result<Solution, SearchError>
where
    H::State: Sync,
{
    let (rows, cols) = (problem.start.rows(), problem.start.cols());
    let n = rows * cols;
    let mut nbr = vec![[OFF_BOARD; 4]; n];
    for (cell, row) in nbr.iter_mut().enumerate() {
        for m in Move::ALL {
            if let Some(to) = move_target(rows, cols, cell, m) {
                row[m.index()] = to as u16;
            }
        }
    }
    let limits = ctl.limits().clone();
    // All optimal solutions: the last iteration searched to the end (on the CPU).
    let collect = limits.all_solutions.filter(|_| device.is_none());
    let pruning = limits.ida_pruning();
    let machine = MoveFsm::shared(rows, cols, pruning.depth(n), limits.cache_dir.as_deref());
    let on_board = Moves::masks(&nbr, OFF_BOARD);
    let live = Moves::masks(machine.table(), DEAD);
    let closer = Moves::closer(&nbr, problem.goal.board().tiles(), cols);
    let moves = Moves {
        nbr: &nbr,
        on_board: &on_board,
        fsm: machine.table(),
        live: &live,
        closer: &closer,
        cells: n,
    };
    // The device prunes with the same automaton as its host part.
    if let Some(d) = device.as_deref_mut() {
        d.set_pruning(machine.table())
            .map_err(|e| SearchError::Evaluator(e.to_string()))?;
    }
    let threads = limits.threads.max(1);
    let histogram = limits.histogram && (threads == 1 || device.is_some());
    let tiles = problem.start.tiles().to_vec();
    let (state, h0) = h.init(&tiles);
    let shared = Shared {
        cancel: limits.cancel.clone(),
        deadline: ctl.deadline(),
        abort: AtomicBool::new(false),
    };
    let mut dfs = Dfs {
        h,
        moves,
        goal: problem.goal.board().tiles(),
        tiles,
        blank: problem.start.blank(),
        state,
        path: Vec::new(),
        bound: h0,
        tally: Tally::default(),
        countdown: CHECK_EVERY,
        split_at: u32::MAX,
        split: Vec::new(),
        found: collect.map(Collector::new),
        watch: Reporter {
            ctl,
            progress,
            hist: histogram.then(GhHistogram::new),
            cells: histogram.then(|| CellSampler::new(problem.goal.board().tiles(), 64)),
            done: Tally::default(),
            iteration: 1,
            max_g: 0,
            h0,
            algorithm: if device.is_some() {
                Algorithm::GpuIdaStar
            } else {
                Algorithm::IdaStar
            },
            rounds: 0,
            busy: 0.0,
        },
    };
    let mut budget = super::gpu_idastar::FIRST_BUDGET;
    let mut stats = SearchStats {
        initial_h: h0,
        ..SearchStats::default()
    };
    // Whether the count of all solutions is complete (a time limit may cut it short).
    let mut exact = true;
    let moves = loop {
        dfs.tally = Tally::default();
        if let Some(c) = &mut dfs.found {
            c.clear();
        }
        if let Some(hh) = &mut dfs.watch.hist {
            hh.clear();
            hh.add(0, h0 as usize);
        }
        let round = if let Some(device) = device.as_deref_mut() {
            super::gpu_idastar::iteration(&mut dfs, h0, device, &limits, &mut budget)
        } else if threads == 1 {
            match dfs.dfs(0, h0, MoveFsm::ROOT, u32::MAX) {
                Ok(next) => Ok(Round::Next(next)),
                Err(Halt::Found) => Ok(Round::Found(std::mem::take(&mut dfs.path))),
                Err(halt) => Err(halt.error(&limits)),
            }
        } else {
            parallel_iteration(&mut dfs, h0, threads, &shared, &limits)
        };
        // Looking for all solutions, an iteration that reached the goal is the last; stopped
        // by the time limit there, it gives what it found so far.
        let round = match (round, &dfs.found) {
            (Ok(Round::Next(_)), Some(c)) if c.count() > 0 => Ok(Round::Found(Vec::new())),
            (Err(SearchError::TimeLimit(_)), Some(c)) if c.count() > 0 => {
                exact = false;
                Ok(Round::Found(Vec::new()))
            }
            (r, _) => r,
        };
        let round = match round {
            Ok(r) => r,
            Err(e) => {
                // The counts at the stop, so that a caller's figures are those of this moment.
                dfs.watch.report(dfs.bound, dfs.tally, false, true);
                return Err(e);
            }
        };
        stats.iterations.push(Iteration {
            threshold: dfs.bound,
            expanded: dfs.tally.expanded,
            generated: dfs.tally.generated,
        });
        dfs.watch.done.add(dfs.tally);
        let found = matches!(round, Round::Found(_));
        dfs.watch.report(dfs.bound, Tally::default(), true, found);
        let next = match round {
            Round::Found(moves) => break moves,
            Round::Next(next) => next,
        };
        if let Err(e) = dfs.watch.ctl.check() {
            dfs.watch.report(dfs.bound, Tally::default(), false, true);
            return Err(e);
        }
        if next == u32::MAX {
            return Err(SearchError::Exhausted(dfs.watch.algorithm));
        }
        dfs.bound = next;
        dfs.watch.iteration += 1;
    };
    let (moves, all) = match dfs.found.take() {
        Some(c) => {
            let all = c.finish(exact);
            let first = all.solutions.first().cloned().unwrap_or(moves);
            (first, Some(all))
        }
        None => (moves, None),
    };
    stats.expanded = dfs.watch.done.expanded;
    stats.generated = dfs.watch.done.generated;
    stats.peak_memory = (moves.capacity() + n * 2 + n * 4) as u64;
    stats.rounds = dfs.watch.rounds;
    stats.seconds = dfs.watch.ctl.elapsed();
    Ok(Solution { moves, stats, all })
}

/// How an iteration ended.
pub(super) enum Round {
    /// The goal was reached by these moves.
    Found(Vec<Move>),
    /// The goal is not within the threshold; the smallest f above it (`u32::MAX`: none).
    Next(u32),
}

/// Why a depth-first probe stopped before it had searched its whole subtree.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Halt {
    /// The goal was reached: the probe's path leads to it.
    Found,
    /// The cancel flag was set.
    Cancelled,
    /// The time limit passed.
    TimeLimit,
    /// Another thread reached the goal or a limit: this one stops with it.
    Aborted,
}

impl Halt {
    /// The error a halt for a limit stands for (`Found` and `Aborted` are not errors; they
    /// never get here and read as a cancel).
    fn error(self, limits: &Limits) -> SearchError {
        match self {
            Halt::TimeLimit => {
                SearchError::TimeLimit(limits.time_limit.unwrap_or_default().as_secs_f64())
            }
            Halt::Cancelled | Halt::Found | Halt::Aborted => SearchError::Cancelled,
        }
    }
}

/// What a probe returns: `Ok(next)` when it searched its whole subtree, `next` being the
/// smallest f above the threshold seen so far in the iteration (`u32::MAX`: none), or why it
/// stopped.
type Probe = Result<u32, Halt>;

/// Nodes between checks of the cancel flag, the clock and the progress interval.
const CHECK_EVERY: u32 = 1 << 16;

/// Subtrees handed to the threads per thread and iteration (load balance).
const SPLIT_PER_THREAD: usize = 64;

/// Nodes expanded and generated.
#[derive(Clone, Copy, Default)]
pub(super) struct Tally {
    pub(super) expanded: u64,
    pub(super) generated: u64,
}

impl Tally {
    fn add(&mut self, o: Tally) {
        self.expanded += o.expanded;
        self.generated += o.generated;
    }
}

/// Limits as the worker threads see them.
struct Shared {
    cancel: Option<std::sync::Arc<AtomicBool>>,
    deadline: Option<Instant>,
    /// Set when a thread found the goal or hit a limit: the others stop.
    abort: AtomicBool,
}

/// A node at the split depth: everything a thread needs to search below it.
pub(super) struct SplitNode<S> {
    pub(super) tiles: Vec<u8>,
    blank: usize,
    state: S,
    pub(super) g: u32,
    h: u32,
    /// Its state in the pruning automaton.
    pub(super) fsm: u16,
    pub(super) path: Vec<Move>,
}

/// What a depth-first search reports to, and asks every [`CHECK_EVERY`] expansions whether
/// to go on: the coordinator's [`Reporter`] (limits, progress, histogram) or a worker's
/// [`Shared`] (limits, the abort flag).
pub(super) trait Watch {
    /// Whether every h must be exact (the histogram needs them; otherwise the heuristic may
    /// stop early on a node that is pruned anyway).
    fn exact(&self) -> bool;

    /// A node at depth `g` with heuristic `h` was generated; `tiles` is its board.
    fn generated(&mut self, g: u32, h: u32, tiles: &[u8]);

    /// Checks the limits at depth `g` (threshold `bound`, `tally` so far in the iteration).
    fn poll(&mut self, g: u32, bound: u32, tally: Tally) -> Result<(), Halt>;

    /// The iteration's search restarts from the start board (`h0` its h): what was counted
    /// of it so far is dropped.
    fn restart(&mut self, h0: u32);
}

/// The coordinator's watch: the limits and progress callback, the histogram, and the counts
/// of the finished iterations.
pub(super) struct Reporter<'c, 'l, 'p> {
    pub(super) ctl: &'c mut Control<'l>,
    progress: &'c mut ProgressFn<'p>,
    pub(super) hist: Option<GhHistogram>,
    cells: Option<CellSampler>,
    /// Counts of the iterations finished so far.
    done: Tally,
    iteration: u32,
    /// Deepest g seen at a poll (GPU IDA*: also in the rounds' histograms).
    pub(super) max_g: u32,
    h0: u32,
    /// IDA*, or GPU IDA* when a device searches the subtrees.
    algorithm: Algorithm,
    /// GPU IDA*: rounds so far, and the last round's busy share.
    pub(super) rounds: u64,
    pub(super) busy: f64,
}

impl Reporter<'_, '_, '_> {
    /// Reports progress: `running` is what the current iteration has counted so far.
    /// `finished`: the search's last report.
    pub(super) fn report(
        &mut self,
        bound: u32,
        running: Tally,
        iteration_done: bool,
        finished: bool,
    ) {
        let p = Progress {
            algorithm: Some(self.algorithm),
            round: self.rounds,
            busy: self.busy,
            seconds: self.ctl.elapsed(),
            expanded: self.done.expanded + running.expanded,
            generated: self.done.generated + running.generated,
            bound,
            iteration: self.iteration,
            g: self.max_g,
            h: self.h0,
            histogram: self.hist.clone(),
            misplaced: self.cells.as_mut().and_then(|c| c.take()),
            iteration_done,
            finished,
            ..Progress::default()
        };
        (self.progress)(&p);
    }
}

impl Watch for Reporter<'_, '_, '_> {
    #[inline(always)]
    fn exact(&self) -> bool {
        self.hist.is_some()
    }

    #[inline(always)]
    fn generated(&mut self, g: u32, h: u32, tiles: &[u8]) {
        if let Some(hh) = &mut self.hist {
            hh.add(g as usize, h as usize);
            if let Some(c) = &mut self.cells {
                c.offer(tiles);
            }
        }
    }

    fn restart(&mut self, h0: u32) {
        if let Some(hh) = &mut self.hist {
            hh.clear();
            hh.add(0, h0 as usize);
        }
    }

    #[cold]
    #[inline(never)]
    fn poll(&mut self, g: u32, bound: u32, tally: Tally) -> Result<(), Halt> {
        self.max_g = self.max_g.max(g);
        match self.ctl.check() {
            Ok(true) => {
                self.report(bound, tally, false, false);
                Ok(())
            }
            Ok(false) => Ok(()),
            Err(SearchError::Cancelled) => Err(Halt::Cancelled),
            Err(_) => Err(Halt::TimeLimit),
        }
    }
}

impl Watch for &Shared {
    #[inline(always)]
    fn exact(&self) -> bool {
        false
    }

    #[inline(always)]
    fn generated(&mut self, _: u32, _: u32, _: &[u8]) {}

    fn restart(&mut self, _: u32) {}

    #[cold]
    #[inline(never)]
    fn poll(&mut self, _: u32, _: u32, _: Tally) -> Result<(), Halt> {
        if self.abort.load(Ordering::Relaxed) {
            return Err(Halt::Aborted);
        }
        if self
            .cancel
            .as_ref()
            .is_some_and(|c| c.load(Ordering::Relaxed))
        {
            return Err(Halt::Cancelled);
        }
        if self.deadline.is_some_and(|d| Instant::now() >= d) {
            return Err(Halt::TimeLimit);
        }
        Ok(())
    }
}

/// The move tables a depth-first search reads at every node.
#[derive(Clone, Copy)]
pub(super) struct Moves<'a> {
    /// `nbr[cell][move]`: the cell the blank goes to, [`OFF_BOARD`] off the board.
    nbr: &'a [[u16; 4]],
    /// `on_board[cell]`: the moves of the blank on `cell` that stay on the board, a bit each
    /// (bit `m` for move index `m`).
    on_board: &'a [u8],
    /// The pruning automaton's transitions, `[state][move]` ([`DEAD`]: pruned).
    fsm: &'a [[u16; 4]],
    /// `live[state]`: the moves the automaton allows in `state`, a bit each.
    live: &'a [u8],
    /// `closer[tile · cells + blank]`: the moves of the blank on `blank` that would bring
    /// `tile`, if it were the tile moved, closer to its goal cell, a bit each.
    closer: &'a [u8],
    cells: usize,
}

impl Moves<'_> {
    /// [`Moves::closer`]'s table for the neighbours `nbr` of a board with `cols` columns whose
    /// goal is `goal` (row-major, `0` = blank).
    fn closer(nbr: &[[u16; 4]], goal: &[u8], cols: usize) -> Vec<u8> {
        let n = nbr.len();
        let mut home = vec![0usize; n];
        for (cell, &t) in goal.iter().enumerate() {
            home[usize::from(t)] = cell;
        }
        let mut out = vec![0u8; n * n];
        if n > NEARER_FIRST_MAX_CELLS {
            return out;
        }
        for (t, &goal_cell) in home.iter().enumerate() {
            for (blank, row) in nbr.iter().enumerate() {
                out[t * n + blank] = (0..4).fold(0u8, |m, mi| {
                    let near = row[mi] != OFF_BOARD
                        && nearer(cols, usize::from(row[mi]), blank, goal_cell);
                    m | u8::from(near) << mi
                });
            }
        }
        out
    }
}

/// Whether the tile on cell `from`, sliding into the blank's cell `to`, comes nearer `home`,
/// its goal cell (in Manhattan distance, on a board of `cols` columns).
fn nearer(cols: usize, from: usize, to: usize, home: usize) -> bool {
    let dist = |a: usize| (a / cols).abs_diff(home / cols) + (a % cols).abs_diff(home % cols);
    dist(to) < dist(from)
}

/// The largest boards (in cells) on which IDA* tries the moves that bring their tile nearer
/// its goal first ([`move_order`]). Measured: on 4×4 the last iterations shrink (Korf's 100
/// with linear conflict 8.87 → 7.62·10⁸ nodes, with `pdb78` 9.67 → 8.76·10⁵; the 80-move
/// positions with `pdb78` 6.32 → 5.38·10⁷); on 5×5 with `pdb6666` the ten easiest of Korf &
/// Felner's 24-puzzles went from 1.85 to 2.61·10⁹ (seven fewer, but #37 six times as many), so
/// larger boards keep [`Move::ALL`] order.
pub const NEARER_FIRST_MAX_CELLS: usize = 16;

/// The order in which IDA* tries the moves of the blank on `board` towards `goal` (both
/// row-major, `0` = blank), in the fast search and in the stepper alike: on boards of at most
/// [`NEARER_FIRST_MAX_CELLS`] cells, first the moves whose tile comes nearer its goal cell,
/// then the others, each group in [`Move::ALL`] order; on larger boards [`Move::ALL`] order.
/// Moves off the board are left out. The order changes no complete iteration (every node
/// under the threshold is expanded whatever the order), only where the last one meets the
/// goal. Looking for all solutions IDA* keeps [`Move::ALL`] order.
pub fn move_order(board: &Board, goal: &Board) -> Vec<Move> {
    let blank = board.blank();
    let ordered = board.len() <= NEARER_FIRST_MAX_CELLS;
    let home = |t: u8| goal.tiles().iter().position(|&x| x == t).unwrap_or(0);
    let near = |m: Move| {
        board
            .target(m)
            .is_some_and(|to| ordered && nearer(board.cols(), to, blank, home(board.tiles()[to])))
    };
    let (first, rest): (Vec<Move>, Vec<Move>) = Move::ALL
        .into_iter()
        .filter(|&m| board.target(m).is_some())
        .partition(|&m| near(m));
    first.into_iter().chain(rest).collect()
}

impl Moves<'_> {
    /// For each row of `table`, the bit set of its entries other than `none`.
    fn masks(table: &[[u16; 4]], none: u16) -> Vec<u8> {
        table
            .iter()
            .map(|row| (0..4).fold(0u8, |m, i| m | u8::from(row[i] != none) << i))
            .collect()
    }
}

/// One depth-first search (the coordinator's or a worker thread's): the board, the
/// heuristic's state and the path, all modified in place.
pub(super) struct Dfs<'a, H: Incremental, W> {
    h: &'a H,
    moves: Moves<'a>,
    goal: &'a [u8],
    tiles: Vec<u8>,
    blank: usize,
    state: H::State,
    path: Vec<Move>,
    /// The iteration's threshold.
    pub(super) bound: u32,
    /// Counts of the current iteration.
    pub(super) tally: Tally,
    countdown: u32,
    /// Depth at which nodes are collected into `split` instead of searched.
    split_at: u32,
    split: Vec<SplitNode<H::State>>,
    /// Looking for all optimal solutions: the goals reached (the search goes on after each).
    found: Option<Collector>,
    pub(super) watch: W,
}

impl<H: Incremental, W: Watch> Dfs<'_, H, W> {
    /// Depth-first search below the threshold from the current board (`g` moves from the
    /// start, heuristic `h`), in state `fsm` of the pruning automaton; `next` is the smallest
    /// f above the threshold seen so far in the iteration.
    fn dfs(&mut self, g: u32, h: u32, fsm: u16, mut next: u32) -> Probe {
        if h == 0 && self.tiles == self.goal {
            if let Some(c) = &mut self.found {
                c.record(&self.path);
                return Ok(next);
            }
            return Err(Halt::Found);
        }
        if g == self.split_at {
            self.split.push(SplitNode {
                tiles: self.tiles.clone(),
                blank: self.blank,
                state: self.state.clone(),
                g,
                h,
                fsm,
                path: self.path.clone(),
            });
            return Ok(next);
        }
        self.tally.expanded += 1;
        self.countdown -= 1;
        if self.countdown == 0 {
            self.countdown = CHECK_EVERY;
            self.watch.poll(g, self.bound, self.tally)?;
        }
        let blank = self.blank;
        // Each move's state in the automaton ([`DEAD`]: pruned).
        let after = self.moves.fsm[fsm as usize];
        let nbr = self.moves.nbr[blank];
        // The moves allowed, a bit each.
        let allowed = u32::from(self.moves.live[fsm as usize] & self.moves.on_board[blank]);
        // Evaluate every move first, so that their table reads overlap.
        let mut prepared = [H::Prepared::default(); 4];
        let mut left = allowed;
        let mut nearer = 0u32;
        while left != 0 {
            let mi = left.trailing_zeros() as usize;
            left &= left - 1;
            let to = usize::from(nbr[mi & 3]);
            let tile = self.tiles[to];
            nearer |= u32::from(self.moves.closer[usize::from(tile) * self.moves.cells + blank])
                & 1 << mi;
            prepared[mi & 3] = self.h.prepare(&self.state, &self.tiles, tile, to, blank);
        }
        // The moves that bring their tile nearer its goal first (bits 0–3), then the others
        // (bits 4–7): in the last iteration the goal tends to come sooner. Looking for all
        // solutions, the moves go in index order, so that the solutions are listed in that
        // order whichever search finds them.
        if self.found.is_some() {
            nearer = allowed;
        }
        let mut left = nearer | (allowed & !nearer) << 4;
        while left != 0 {
            let mi = (left.trailing_zeros() & 3) as u8;
            left &= left - 1;
            let to = usize::from(nbr[mi as usize]);
            let tile = self.tiles[to];
            // The tile at `to` slides into the blank's cell.
            self.tiles[blank] = tile;
            self.tiles[to] = 0;
            // Enough h to prune without moving the next threshold: the heuristic may stop
            // there (exact values are needed for the histogram).
            let enough = if self.watch.exact() {
                u32::MAX
            } else {
                (self.bound + 1).max(next).saturating_sub(g + 1)
            };
            let (dh, undo) = self.h.apply(
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
            self.tally.generated += 1;
            self.watch.generated(g + 1, h2, &self.tiles);
            if f2 <= self.bound {
                self.blank = to;
                let m = Move::from_index(mi as usize);
                self.path.push(m);
                next = self.dfs(g + 1, h2, after[mi as usize], next)?;
                self.path.pop();
                self.blank = blank;
            } else if f2 < next {
                next = f2;
            }
            self.tiles[to] = tile;
            self.tiles[blank] = 0;
            self.h
                .undo(&mut self.state, &self.tiles, tile, to, blank, undo);
        }
        Ok(next)
    }
}

/// One iteration on `threads` threads: the coordinator's search collects the nodes at the
/// shallowest depth that gives enough subtrees, and the threads search below them.
fn parallel_iteration<H: Incremental + Sync>(
    dfs: &mut Dfs<'_, H, Reporter<'_, '_, '_>>,
    h0: u32,
    threads: usize,
    shared: &Shared,
    limits: &Limits,
) -> Result<Round, SearchError>
where
    H::State: Sync,
{
    let (nodes, mut next) = match split_top(dfs, h0, SPLIT_PER_THREAD * threads, limits)? {
        Top::Done(round) => return Ok(round),
        Top::Split(nodes, next) => (nodes, next),
    };
    let cursor = AtomicUsize::new(0);
    shared.abort.store(false, Ordering::Relaxed);
    let (h, moves, goal, bound) = (dfs.h, dfs.moves, dfs.goal, dfs.bound);
    // Looking for all solutions: each thread collects its own, merged below.
    let collect = dfs.found.as_ref().map(Collector::keep);
    let ends: Vec<WorkerEnd> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads)
            .map(|_| s.spawn(|| work(h, moves, goal, bound, &nodes, &cursor, shared, collect)))
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
            .collect()
    });
    let (mut found, mut error) = (None, None);
    for end in ends {
        dfs.tally.add(end.tally);
        if let (Some(all), Some(theirs)) = (&mut dfs.found, end.all) {
            all.merge(theirs);
        }
        match end.probe {
            Ok(n) => next = next.min(n),
            Err(Halt::Found) => found = found.or(end.found),
            Err(Halt::Aborted) => {}
            Err(halt) => error = error.or(Some(halt)),
        }
    }
    if let Some(path) = found {
        return Ok(Round::Found(path));
    }
    if let Some(halt) = error {
        return Err(halt.error(limits));
    }
    Ok(Round::Next(next))
}

/// The top of an iteration's tree, searched by the coordinator.
pub(super) enum Top<S> {
    /// The iteration ended there: the goal was reached above the split depth, or every node
    /// was pruned before it.
    Done(Round),
    /// The nodes at the split depth (to be searched below), and the smallest f above the
    /// threshold seen above them (`u32::MAX`: none).
    Split(Vec<SplitNode<S>>, u32),
}

/// Searches the top of the tree to the shallowest depth that gives at least `target` nodes
/// (or depth 64), collecting them; the counts are those of that last probe (the nodes at the
/// split depth are generated there and expanded by whoever searches below them).
pub(super) fn split_top<H: Incremental, W: Watch>(
    dfs: &mut Dfs<'_, H, W>,
    h0: u32,
    target: usize,
    limits: &Limits,
) -> Result<Top<H::State>, SearchError> {
    let mut depth = 1;
    let next = loop {
        dfs.split.clear();
        dfs.split_at = depth;
        dfs.tally = Tally::default();
        dfs.watch.restart(h0);
        if let Some(c) = &mut dfs.found {
            c.clear();
        }
        let probe = dfs.dfs(0, h0, MoveFsm::ROOT, u32::MAX);
        dfs.split_at = u32::MAX;
        match probe {
            Ok(next) => {
                if dfs.split.len() >= target || dfs.split.is_empty() || depth >= 64 {
                    break next;
                }
            }
            Err(Halt::Found) => return Ok(Top::Done(Round::Found(std::mem::take(&mut dfs.path)))),
            Err(halt) => return Err(halt.error(limits)),
        }
        depth += 1;
    };
    let nodes = std::mem::take(&mut dfs.split);
    if nodes.is_empty() {
        // Everything below the split depth was pruned: the iteration is complete.
        return Ok(Top::Done(Round::Next(next)));
    }
    Ok(Top::Split(nodes, next))
}

/// What a worker thread did in an iteration.
struct WorkerEnd {
    tally: Tally,
    /// The smallest f above the threshold it saw, or why it stopped.
    probe: Probe,
    /// The moves to the goal, when it reached it.
    found: Option<Vec<Move>>,
    /// Looking for all optimal solutions: the goals it reached.
    all: Option<Collector>,
}

/// A worker thread: searches the split nodes it takes in turn from `cursor` until none is
/// left, it reaches the goal or a limit, or another thread ends the iteration.
#[allow(clippy::too_many_arguments)]
fn work<H: Incremental>(
    h: &H,
    moves: Moves<'_>,
    goal: &[u8],
    bound: u32,
    nodes: &[SplitNode<H::State>],
    cursor: &AtomicUsize,
    shared: &Shared,
    collect: Option<usize>,
) -> WorkerEnd {
    let first = &nodes[0];
    let mut w = Dfs {
        h,
        moves,
        goal,
        tiles: first.tiles.clone(),
        blank: first.blank,
        state: first.state.clone(),
        path: Vec::new(),
        bound,
        tally: Tally::default(),
        countdown: CHECK_EVERY,
        split_at: u32::MAX,
        split: Vec::new(),
        found: collect.map(Collector::new),
        watch: shared,
    };
    let mut next = u32::MAX;
    let probe = loop {
        let i = cursor.fetch_add(1, Ordering::Relaxed);
        if i >= nodes.len() || shared.abort.load(Ordering::Relaxed) {
            break Ok(next);
        }
        let node = &nodes[i];
        w.tiles.copy_from_slice(&node.tiles);
        w.blank = node.blank;
        w.state = node.state.clone();
        w.path.clone_from(&node.path);
        match w.dfs(node.g, node.h, node.fsm, next) {
            Ok(n) => next = n,
            Err(halt) => {
                if halt != Halt::Aborted {
                    shared.abort.store(true, Ordering::Relaxed);
                }
                break Err(halt);
            }
        }
    };
    WorkerEnd {
        tally: w.tally,
        found: (probe == Err(Halt::Found)).then(|| w.path.clone()),
        all: w.found.take(),
        probe,
    }
}
