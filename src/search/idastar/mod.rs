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
//! iteration returns an `IterationEnd` (found with its moves, or the next threshold); a worker thread
//! returns a `WorkerEnd`.

use super::all::Collector;
use super::move_fsm::MoveFsm;
use super::{
    Algorithm, Control, Iteration, Limits, Problem, ProgressFn, SearchError, SearchStats, Solution,
};
use crate::heuristic::{
    Hamming, HeuristicKind, HeuristicSpec, Incremental, LinearConflict, Manhattan, MaxOf,
    WalkingDistance,
};
use crate::puzzle::Move;

mod moves;
mod order;
mod parallel;
mod split;
mod watch;

use moves::{MoveTables, Moves};
pub use moves::{NEARER_FIRST_MAX_CELLS, move_order};
pub use order::{MoveOrder, UnknownMoveOrder};
pub(super) use parallel::Shared;
use parallel::parallel_iteration;
pub(super) use split::{SplitNodes, Top, split_top};
pub(super) use watch::{Reporter, Watch};

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
    search_on::<CpuOnly>(problem, heuristic, None, ctl, progress)
}

/// What searches each iteration's tree below its top instead of the CPU's threads: GPU
/// IDA*'s rounds on a device (`gpu_idastar::Rounds`). IDA* keeps the loop over thresholds,
/// the counts, the reports and the answer; an offload searches one iteration at a time. (It
/// is handed in, so that this module does not depend on the GPU's.)
pub(super) trait Offload {
    /// Prunes below the top with IDA*'s automaton, `table[state][move]`.
    ///
    /// # Errors
    /// [`SearchError::Evaluator`] when the device refuses it.
    fn set_pruning(&mut self, table: &[[u16; 4]]) -> Result<(), SearchError>;

    /// One iteration with threshold `dfs.bound` from the start (`h0` its h); `helpers` are
    /// the host's threads for the top of the tree.
    ///
    /// # Errors
    /// A limit, or [`SearchError::Evaluator`] when the device fails.
    fn iteration<H: Incremental + Sync>(
        &mut self,
        dfs: &mut Dfs<'_, H, Reporter<'_, '_, '_>>,
        h0: u32,
        limits: &Limits,
        helpers: (&Shared, usize),
    ) -> Result<IterationEnd, SearchError>
    where
        H::State: Send + Sync;
}

/// No offload: every iteration is searched on the CPU's threads.
pub(super) enum CpuOnly {}

impl Offload for CpuOnly {
    fn set_pruning(&mut self, _: &[[u16; 4]]) -> Result<(), SearchError> {
        match *self {}
    }

    fn iteration<H: Incremental + Sync>(
        &mut self,
        _: &mut Dfs<'_, H, Reporter<'_, '_, '_>>,
        _: u32,
        _: &Limits,
        _: (&Shared, usize),
    ) -> Result<IterationEnd, SearchError>
    where
        H::State: Send + Sync,
    {
        match *self {}
    }
}

/// IDA* whose subtrees below the split depth are searched by `offload` when there is one
/// (GPU IDA*), else by [`Limits::threads`] threads. The host searches the top of the tree
/// with the CPU form of the same heuristic.
///
/// # Errors
/// As [`search`], and [`SearchError::Evaluator`] when the device fails.
pub(super) fn search_on<O: Offload>(
    problem: &Problem,
    heuristic: &HeuristicSpec,
    device: Option<&mut O>,
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
        HeuristicSpec::Kind(HeuristicKind::OverestimatingManhattan) => {
            let h = crate::heuristic::TwiceManhattan::new(goal);
            run_on(problem, &h, device, ctl, progress)
        }
        HeuristicSpec::Kind(HeuristicKind::WalkingDistance) => {
            let wd = WalkingDistance::new(goal).map_err(SearchError::Heuristic)?;
            run_on(problem, &wd, device, ctl, progress)
        }
        HeuristicSpec::Kind(HeuristicKind::WalkingDistanceLc) => {
            let wd = WalkingDistance::new(goal).map_err(SearchError::Heuristic)?;
            let h = MaxOf::new(
                wd,
                LinearConflict::new(goal),
                HeuristicKind::WalkingDistanceLc,
            );
            run_on(problem, &h, device, ctl, progress)
        }
        HeuristicSpec::Pdb(p) => run_on(problem, p.as_ref(), device, ctl, progress),
        HeuristicSpec::PdbMax(p) => run_on(problem, p.as_ref(), device, ctl, progress),
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
/// With an offload (`device`), the subtrees below the split depth are searched there instead
/// (GPU IDA*).
fn run_on<H: Incremental + Sync, O: Offload>(
    problem: &Problem,
    h: &H,
    mut device: Option<&mut O>,
    ctl: &mut Control<'_>,
    progress: &mut ProgressFn<'_>,
) -> Result<Solution, SearchError>
where
    H::State: Send + Sync,
{
    let n = problem.start.len();
    let limits = ctl.limits().clone();
    // All optimal solutions: the last iteration searched to the end (on the CPU).
    let collect = limits.all_solutions.filter(|_| device.is_none());
    let tables = move_tables(problem, &limits, collect.is_some());
    let moves = tables.moves();
    // The device prunes with the same automaton as its host part.
    if let Some(d) = device.as_deref_mut() {
        d.set_pruning(moves.fsm)?;
    }
    let threads = limits.threads.max(1);
    let histogram = limits.histogram && (threads == 1 || device.is_some());
    let tiles = problem.start.tiles().to_vec();
    let (state, h0) = h.init(&tiles);
    let shared = Shared::new(limits.cancel.clone(), ctl.deadline());
    let algorithm = if device.is_some() {
        Algorithm::GpuIdaStar
    } else {
        Algorithm::IdaStar
    };
    let goal = problem.goal.board().tiles();
    let watch = Reporter::new(ctl, progress, h0, histogram.then_some(goal), algorithm);
    let mut dfs = Dfs {
        h,
        moves,
        goal,
        tiles,
        blank: problem.start.blank(),
        state,
        path: Vec::new(),
        bound: h0,
        tally: Tally::default(),
        countdown: CHECK_EVERY,
        split_at: u32::MAX,
        split: SplitNodes::new(n),
        found: collect.map(Collector::new),
        watch,
    };
    let mut stats = SearchStats {
        initial_h: h0,
        ..SearchStats::default()
    };
    // Whether the count of all solutions is complete (a time limit may cut it short).
    let mut exact = true;
    let moves = loop {
        dfs.restart_iteration(h0);
        let threads = if device.is_some() {
            threads
        } else {
            threads_for(&stats.iterations, n, threads)
        };
        let end = iteration(
            &mut dfs,
            device.as_deref_mut(),
            h0,
            &limits,
            &shared,
            threads,
        );
        let end = match last_of_all(end, &dfs.found, &mut exact) {
            Ok(end) => end,
            Err(e) => return Err(dfs.stopped(e)),
        };
        dfs.iteration_done(&mut stats, matches!(end, IterationEnd::Found(_)));
        match end {
            IterationEnd::Found(moves) => break moves,
            IterationEnd::Next(next) => dfs.raise(next)?,
        }
    };
    Ok(dfs.answer(moves, exact, stats))
}

/// An iteration after one that expanded fewer nodes than this is searched on one thread.
const PARALLEL_FROM: u64 = 10_000;

/// The threads for the next iteration, after the finished `done`, on a board of `cells`
/// cells with `threads` asked for: one where the tree is small (the first iteration on at
/// most 9 cells; after one of fewer than [`PARALLEL_FROM`] expansions), else `threads`. Threads
/// gain nothing on such trees, and on one thread the last iteration stops at the first goal in
/// move order, so that its count is the stepped search's (the app's), not more (the other
/// threads' subtrees searched while one finds the goal).
fn threads_for(done: &[Iteration], cells: usize, threads: usize) -> usize {
    let small = match done.last() {
        None => cells <= 9,
        Some(last) => last.expanded < PARALLEL_FROM,
    };
    if small { 1 } else { threads }
}

/// The move tables of `problem`'s shape and goal, with the pruning automaton of
/// [`Limits::ida_pruning`] (read from or written to [`Limits::cache_dir`]) and the move
/// order of [`Limits::move_order`]; looking for `all` solutions, [`Move::ALL`] order, so
/// that they are listed in that order whichever search finds them.
fn move_tables(problem: &Problem, limits: &Limits, all: bool) -> MoveTables {
    let (rows, cols) = (problem.start.rows(), problem.start.cols());
    let depth = limits.ida_pruning().depth(rows * cols);
    let machine = MoveFsm::shared(rows, cols, depth, limits.cache_dir.as_deref());
    let order = if all {
        MoveOrder::Fixed(Move::ALL)
    } else {
        limits.move_order
    };
    MoveTables::new(rows, cols, problem.goal.board().tiles(), machine, order)
}

/// One iteration with threshold `dfs.bound` from the start (`h0` its h): on the offload when
/// there is one, else on this thread (`threads` 1) or on `threads` threads (`shared` their
/// limits).
///
/// # Errors
/// A limit, or [`SearchError::Evaluator`] when the device fails.
fn iteration<H: Incremental + Sync, O: Offload>(
    dfs: &mut Dfs<'_, H, Reporter<'_, '_, '_>>,
    device: Option<&mut O>,
    h0: u32,
    limits: &Limits,
    shared: &Shared,
    threads: usize,
) -> Result<IterationEnd, SearchError>
where
    H::State: Send + Sync,
{
    if let Some(device) = device {
        device.iteration(dfs, h0, limits, (shared, threads))
    } else if threads == 1 {
        match dfs.dfs(0, h0, MoveFsm::ROOT, u32::MAX) {
            Ok(next) => Ok(IterationEnd::Next(next)),
            Err(Halt::Found) => Ok(IterationEnd::Found(std::mem::take(&mut dfs.path))),
            Err(halt) => Err(halt.error(limits)),
        }
    } else {
        parallel_iteration(dfs, h0, threads, shared, limits)
    }
}

/// How an iteration ended when looking for all solutions (`found` the goals collected): one
/// that reached the goal is the last; stopped by the time limit there, it gives what it found
/// so far, and the count is no longer `exact`. Without `found`, `end` as it is.
fn last_of_all(
    end: Result<IterationEnd, SearchError>,
    found: &Option<Collector>,
    exact: &mut bool,
) -> Result<IterationEnd, SearchError> {
    match (end, found) {
        (Ok(IterationEnd::Next(_)), Some(c)) if c.count() > 0 => {
            Ok(IterationEnd::Found(Vec::new()))
        }
        (Err(SearchError::TimeLimit(_)), Some(c)) if c.count() > 0 => {
            *exact = false;
            Ok(IterationEnd::Found(Vec::new()))
        }
        (r, _) => r,
    }
}

impl<H: Incremental> Dfs<'_, H, Reporter<'_, '_, '_>> {
    /// Clears what the coordinator counted of the iteration about to start: the tally, the
    /// goals collected and the histogram (the start's h in it).
    fn restart_iteration(&mut self, h0: u32) {
        self.tally = Tally::default();
        if let Some(c) = &mut self.found {
            c.clear();
        }
        self.watch.restart(h0);
    }

    /// The search stopped with `e`: reports the counts at the stop (so that a caller's
    /// figures are those of this moment) and gives `e` back.
    fn stopped(&mut self, e: SearchError) -> SearchError {
        self.watch.report(self.bound, self.tally, false, true);
        e
    }

    /// The iteration ended (`found`: at the goal): adds it to `stats.iterations` and to the
    /// finished counts, and reports it.
    fn iteration_done(&mut self, stats: &mut SearchStats, found: bool) {
        stats.iterations.push(Iteration {
            threshold: self.bound,
            expanded: self.tally.expanded,
            generated: self.tally.generated,
        });
        self.watch.report(self.bound, self.tally, true, found);
        self.watch.done.add(self.tally);
        self.watch.finished.push(self.tally.generated);
    }

    /// Moves the threshold to `next` (the least f above the last one) for the next iteration.
    /// (Every board on a shorter solution would have had an f of at most its length, and
    /// none above the last threshold was below `next`: `next` is a lower bound.)
    ///
    /// # Errors
    /// A limit reached at the iteration's end, or [`SearchError::Exhausted`] when nothing was
    /// pruned (`next` is `u32::MAX`: no board is left to reach).
    fn raise(&mut self, next: u32) -> Result<(), SearchError> {
        if next == u32::MAX {
            return Err(SearchError::Exhausted(self.watch.algorithm));
        }
        self.bound = next;
        self.watch.iteration += 1;
        // A limit here stops the search before the new iteration: its threshold, reported,
        // is the lower bound the finished ones proved.
        if let Err(e) = self.watch.ctl.check() {
            self.watch.report(self.bound, Tally::default(), false, true);
            return Err(e);
        }
        Ok(())
    }

    /// The answer once the goal is reached by `moves`: with all solutions, the first of those
    /// collected (`exact`: the count is complete) and the list; `stats` given the totals, the
    /// memory of the path and the boards, the rounds and the time.
    fn answer(mut self, moves: Vec<Move>, exact: bool, mut stats: SearchStats) -> Solution {
        let (moves, all) = match self.found.take() {
            Some(c) => {
                let all = c.finish(exact);
                let first = all.solutions.first().cloned().unwrap_or(moves);
                (first, Some(all))
            }
            None => (moves, None),
        };
        let n = self.tiles.len();
        stats.expanded = self.watch.done.expanded;
        stats.generated = self.watch.done.generated;
        stats.peak_memory = (moves.capacity() + n * 2 + n * 4) as u64;
        stats.rounds = self.watch.rounds;
        stats.seconds = self.watch.ctl.elapsed();
        Solution { moves, stats, all }
    }
}

/// How an iteration ended.
pub(super) enum IterationEnd {
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

/// One expansion in this many is sampled for the out-of-place shares (a power of two that
/// divides [`CHECK_EVERY`]: the countdown's low bits say when, at no cost per generated node).
const SAMPLE_EVERY: u32 = 64;

/// Subtrees handed to the threads per thread and iteration (load balance).
const SPLIT_PER_THREAD: usize = 64;

/// Nodes expanded and generated.
#[derive(Clone, Copy, Default)]
pub(super) struct Tally {
    pub(super) expanded: u64,
    pub(super) generated: u64,
}

impl Tally {
    pub(super) fn add(&mut self, o: Tally) {
        self.expanded += o.expanded;
        self.generated += o.generated;
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
    split: SplitNodes<H::State>,
    /// Looking for all optimal solutions: the goals reached (the search goes on after each).
    found: Option<Collector>,
    pub(super) watch: W,
}

impl<H: Incremental, W: Watch> Dfs<'_, H, W> {
    /// Makes node `i` of `nodes` (its board, heuristic state and path) the current one.
    fn load(&mut self, nodes: &SplitNodes<H::State>, i: usize) {
        self.tiles.copy_from_slice(nodes.tiles(i));
        self.blank = nodes.blank(i);
        self.state.clone_from(&nodes.states[i]);
        self.path.clear();
        self.path.extend_from_slice(nodes.path(i));
    }

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
            self.split
                .push(&self.tiles, self.blank, &self.state, h, fsm, &self.path);
            return Ok(next);
        }
        self.tally.expanded += 1;
        self.countdown -= 1;
        if self.countdown.is_multiple_of(SAMPLE_EVERY) {
            self.watch.sample(&self.tiles);
        }
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
        // The moves that bring their tile nearer its goal first (slots 0–3), then the others
        // (slots 4–7), each group in the move order's slots: in the last iteration the goal
        // tends to come sooner. A fixed order has no nearer moves (`closer` is all 0).
        let identity = self.moves.identity;
        let (allowed, nearer) = if identity {
            (allowed, nearer)
        } else {
            (
                u32::from(self.moves.slots[allowed as usize]),
                u32::from(self.moves.slots[nearer as usize]),
            )
        };
        let mut left = nearer | (allowed & !nearer) << 4;
        while left != 0 {
            let slot = (left.trailing_zeros() & 3) as u8;
            let mi = if identity {
                slot
            } else {
                self.moves.slot_move[usize::from(slot)]
            };
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
