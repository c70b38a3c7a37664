//! GPU IDA*: the iteration loop of IDA* with its subtrees searched on a device
//! ([`IdaDevice`], the GPU's being `eval::gpu_ida::GpuIda`) in resumable rounds.
//!
//! Each iteration (threshold T), the host searches the top of the tree with the CPU form of the
//! heuristic, a level at a time, down to the shallowest depth that gives the device's
//! [`frontier_target`](IdaDevice::frontier_target) nodes (as parallel IDA* does for its
//! threads), counting the nodes it expands and generates there. The nodes at that depth
//! go to the device with their board, g, last move and state in the pruning automaton (and the
//! host keeps their moves from the start). The device then runs rounds: each invocation takes roots from a work counter and
//! advances its own depth-first search by at most `budget` expansions; the host reads a status
//! block after each round. Between rounds the host checks cancel and the time limit, reports
//! progress (counts, the `(g, h)` histogram of the iteration so far, rounds, the busy share) and
//! sizes the next round's budget to about [`ROUND_SECONDS`].
//!
//! Optimality is IDA*'s: an iteration ends only when every subtree is exhausted (the next
//! threshold is then the least f above T that any invocation or the host saw) or a node with
//! h = 0 that is the goal is reached, at cost T; thresholds only grow to the least f that
//! exceeded them, so the first solution is optimal. The device counts as the CPU IDA* does
//! with the same pruning automaton (a node with f ≤ T that is not the goal is expanded once;
//! every successor the automaton allows is generated once), so a finished iteration has the
//! CPU's counts exactly, in another order. The solution (the root's moves, then the device's) is replayed by
//! `search::run` before it is returned.

use super::idastar::{Dfs, IterationEnd, Offload, Reporter, Shared, SplitNodes, Top, split_top};
use super::{Limits, SearchError};
use crate::eval::EvalError;
use crate::eval::ida::{HIST_H, IdaDevice, RoundReport, SubtreeRoot};
use crate::heuristic::Incremental;

/// Target wall-clock seconds of one round: short enough that pause, step, cancel and the time
/// limit answer at once and far below the ~2 s watchdog of desktop drivers, long enough that
/// a dispatch's fixed cost (about a millisecond) is small beside it.
pub const ROUND_SECONDS: f64 = 0.05;

/// Expansions per invocation in the first round (then sized to [`ROUND_SECONDS`]).
const FIRST_BUDGET: u32 = 256;

/// Share of the invocations still searching below which an iteration is in its tail.
const TAIL_BUSY: f64 = 0.75;

/// How many times shorter the rounds of an iteration's tail are. (On lavapipe with 4,096
/// invocations, Korf's first nine 15-puzzles with manhattan: 8.0 s with 1 or 2, 9.3 s with 8,
/// once donation hands out up to 8 work items an invocation.)
const TAIL_DIVISOR: u32 = 2;

/// Most expansions per invocation in one round.
const MAX_BUDGET: u32 = 1 << 20;

/// Fewest expansions per invocation in one round.
const MIN_BUDGET: u32 = 16;

/// GPU IDA*'s rounds on `device`, as IDA*'s [`Offload`]: each iteration's tree below its top
/// is searched there (see the module docs).
pub(super) struct Rounds<'d> {
    device: &'d mut dyn IdaDevice,
    /// Expansions per invocation a round, carried from iteration to iteration.
    budget: u32,
}

impl<'d> Rounds<'d> {
    /// Rounds on `device`, starting at [`FIRST_BUDGET`] expansions an invocation.
    pub(super) fn new(device: &'d mut dyn IdaDevice) -> Self {
        Rounds {
            device,
            budget: FIRST_BUDGET,
        }
    }
}

impl Offload for Rounds<'_> {
    fn set_pruning(&mut self, table: &[[u16; 4]]) -> Result<(), SearchError> {
        self.device
            .set_pruning(table)
            .map_err(SearchError::Evaluator)
    }

    fn iteration<H: Incremental + Sync>(
        &mut self,
        dfs: &mut Dfs<'_, H, Reporter<'_, '_, '_>>,
        h0: u32,
        limits: &Limits,
        helpers: (&Shared, usize),
    ) -> Result<IterationEnd, SearchError>
    where
        H::State: Send + Sync,
    {
        iteration(dfs, h0, self.device, limits, &mut self.budget, helpers)
    }
}

/// One iteration of GPU IDA* with threshold `dfs.bound`: see the module docs. `budget` is
/// the expansions per invocation a round, carried from iteration to iteration; `helpers` are
/// the host's threads for the top of the tree (see `split_top`).
fn iteration<H: Incremental + Sync>(
    dfs: &mut Dfs<'_, H, Reporter<'_, '_, '_>>,
    h0: u32,
    device: &mut dyn IdaDevice,
    limits: &Limits,
    budget: &mut u32,
    helpers: (&Shared, usize),
) -> Result<IterationEnd, SearchError>
where
    H::State: Send + Sync,
{
    loop {
        if let Some(round) = attempt(dfs, h0, device, limits, budget, helpers)? {
            return Ok(round);
        }
    }
}

/// [`iteration`] once: `None` when a round was cut short and the iteration must start again
/// (with half the budget; an error once it is at [`MIN_BUDGET`]).
fn attempt<H: Incremental + Sync>(
    dfs: &mut Dfs<'_, H, Reporter<'_, '_, '_>>,
    h0: u32,
    device: &mut dyn IdaDevice,
    limits: &Limits,
    budget: &mut u32,
    helpers: (&Shared, usize),
) -> Result<Option<IterationEnd>, SearchError>
where
    H::State: Send + Sync,
{
    let mut trace = Trace::start();
    let (nodes, mut next) =
        match split_top(dfs, h0, device.frontier_target(), limits, Some(helpers))? {
            Top::Done(round) => {
                trace.host_only(dfs.bound, dfs.tally.expanded);
                return Ok(Some(round));
            }
            Top::Split(nodes, next) => (nodes, next),
        };
    let bound = dfs.bound;
    fits_device(bound, nodes.depth(), device.max_depth())?;
    let roots = subtree_roots(&nodes);
    trace.split_done();
    device
        .begin(bound, &roots, dfs.watch.hist.is_some())
        .map_err(device_error)?;
    trace.begun();
    // From the first round that ends with fewer than TAIL_BUSY of the invocations searching
    // (the iteration's tail) on, rounds are TAIL_DIVISOR times shorter, so that the busy
    // invocations hand work to the idle ones that much more often.
    // An iteration with fewer roots than that starts in its tail.
    let mut tail = (nodes.len() as f64) < TAIL_BUSY * device.invocations() as f64;
    loop {
        let due = dfs.watch.ctl.check()?;
        let round_budget = if tail {
            (*budget / TAIL_DIVISOR).max(MIN_BUDGET)
        } else {
            *budget
        };
        let r = device.round(round_budget).map_err(device_error)?;
        trace.round(bound, r.budget, tail, &r, nodes.len(), *budget);
        if r.cut {
            // The device lost the iteration's state (see `RoundReport::cut`) and lowered its
            // cap: the iteration starts again, its counts from zero (`split_top` resets them).
            *budget = budget_after_cut(round_budget)?;
            return Ok(None);
        }
        add_round(dfs, &r);
        next = next.min(r.min_f);
        *budget = next_budget(*budget, round_budget, tail, &r);
        tail |= (r.busy as f64) < TAIL_BUSY * r.invocations as f64;
        if r.found {
            return found_path(device, &nodes).map(Some);
        }
        if r.exhausted {
            return Ok(Some(IterationEnd::Next(next)));
        }
        if due || limits.histogram {
            dfs.watch.report(bound, dfs.tally, false, false);
        }
    }
}

/// A device's error as the search's.
fn device_error(e: crate::eval::EvalError) -> SearchError {
    SearchError::Evaluator(e)
}

/// Whether an iteration with threshold `bound` fits the device, its subtree roots at depth
/// `g` and its stacks `depth` moves deep.
///
/// # Errors
/// [`SearchError::Evaluator`] for a threshold over 255 (depths and h travel in bytes) or
/// more moves below the roots than the stacks hold.
fn fits_device(bound: u32, g: u32, depth: u32) -> Result<(), SearchError> {
    if bound > 255 {
        // Depths and h travel in bytes on the device.
        return Err(SearchError::Evaluator(EvalError::Threshold(bound)));
    }
    if bound - g > depth {
        return Err(SearchError::Evaluator(EvalError::TooDeep {
            bound,
            g,
            depth,
        }));
    }
    Ok(())
}

/// The device's subtree roots: each of `nodes` with its board, depth, last move and state in
/// the pruning automaton.
fn subtree_roots<S: Clone>(nodes: &SplitNodes<S>) -> Vec<SubtreeRoot<'_>> {
    let g = nodes.depth();
    (0..nodes.len())
        .map(|i| SubtreeRoot {
            tiles: nodes.tiles(i),
            g,
            prev: nodes.path(i).last().copied(),
            fsm: nodes.fsm(i),
        })
        .collect()
}

/// The budget after a round of `round_budget` expansions an invocation was cut short: half
/// of it, at least [`MIN_BUDGET`].
///
/// # Errors
/// [`SearchError::Evaluator`] when the round was already at [`MIN_BUDGET`].
fn budget_after_cut(round_budget: u32) -> Result<u32, SearchError> {
    if round_budget <= MIN_BUDGET {
        return Err(SearchError::Evaluator(EvalError::RoundsCut(round_budget)));
    }
    Ok((round_budget / 2).max(MIN_BUDGET))
}

/// Adds round `r` to the iteration: its counts to `dfs.tally`, the round and its busy share
/// to the watch, its `(g, h)` histogram (and deepest g) to the watch's when there is one.
fn add_round<H: Incremental>(dfs: &mut Dfs<'_, H, Reporter<'_, '_, '_>>, r: &RoundReport) {
    dfs.tally.expanded += r.expanded;
    dfs.tally.generated += r.generated;
    dfs.watch.rounds += 1;
    dfs.watch.busy = r.busy_share;
    if let Some(hist) = &mut dfs.watch.hist {
        for (i, &c) in r.histogram.iter().enumerate() {
            if c != 0 {
                hist.add_n(i / HIST_H, i % HIST_H, u64::from(c));
                dfs.watch.max_g = dfs.watch.max_g.max((i / HIST_H) as u32);
            }
        }
    }
}

/// The budget of the rounds after `r`, which was asked for `round_budget` expansions an
/// invocation (`budget` before it; `tail`: in the iteration's tail). Only a round in which
/// the device was mostly busy says how long a budget takes: it scales the budget towards
/// [`ROUND_SECONDS`]. A round the device capped makes its cap the budget (so that tail
/// rounds are shorter than it).
fn next_budget(budget: u32, round_budget: u32, tail: bool, r: &RoundReport) -> u32 {
    if r.budget < round_budget {
        r.budget.max(MIN_BUDGET)
    } else if !tail && r.busy_share > 0.5 && r.seconds > 0.0 {
        let scale = (ROUND_SECONDS / r.seconds).clamp(0.5, 4.0);
        ((f64::from(budget) * scale) as u32).clamp(MIN_BUDGET, MAX_BUDGET)
    } else {
        budget
    }
}

/// The moves to the goal the device found: those of its subtree root (one of `nodes`), then
/// the device's below it.
///
/// # Errors
/// [`SearchError::Evaluator`] when the device fails or names no root of `nodes`.
fn found_path<S: Clone>(
    device: &mut dyn IdaDevice,
    nodes: &SplitNodes<S>,
) -> Result<IterationEnd, SearchError> {
    let (root, below) = device.solution().map_err(device_error)?;
    if root >= nodes.len() {
        return Err(SearchError::Evaluator(EvalError::NoSuchRoot {
            root,
            roots: nodes.len(),
        }));
    }
    let mut path = nodes.path(root).to_vec();
    path.extend(below);
    Ok(IterationEnd::Found(path))
}

/// `NPUZZLE_GPU_TRACE=1`: a line on stderr for each iteration (searched by the host alone, or
/// sent to the device: its roots; milliseconds of the host's split, of `begin` and of the
/// rounds, the tail's among them; the node rate of the rounds; the busy share over the
/// iteration's nodes, the share of them expanded in rounds at least [`TAIL_BUSY`] busy, and
/// the work items handed on within rounds); `2`: a line for each round too. For measuring GPU
/// IDA* on a new adapter.
struct Trace {
    level: u8,
    started: std::time::Instant,
    split: f64,
    begin: f64,
    rounds: u32,
    seconds: f64,
    tail_rounds: u32,
    tail_seconds: f64,
    expanded: u64,
    /// Expansions the rounds allowed (invocations × budget, summed).
    allowed: f64,
    /// Nodes expanded in rounds at least `TAIL_BUSY` busy.
    busy_nodes: u64,
    /// Work items handed on within rounds.
    within: u64,
}

impl Trace {
    fn start() -> Trace {
        static LEVEL: std::sync::OnceLock<u8> = std::sync::OnceLock::new();
        let level = *LEVEL.get_or_init(|| {
            std::env::var("NPUZZLE_GPU_TRACE")
                .ok()
                .and_then(|v| v.parse().ok())
                .unwrap_or(0)
        });
        Trace {
            level,
            started: std::time::Instant::now(),
            split: 0.0,
            begin: 0.0,
            rounds: 0,
            seconds: 0.0,
            tail_rounds: 0,
            tail_seconds: 0.0,
            expanded: 0,
            allowed: 0.0,
            busy_nodes: 0,
            within: 0,
        }
    }

    /// The iteration ended in the host's split: its tree was too small for the device, or the
    /// goal was above the split depth.
    fn host_only(&self, bound: u32, expanded: u64) {
        if self.level > 0 {
            eprintln!(
                "gpu-trace iteration: threshold {bound}, searched by the host alone in {:.1} ms, \
                 {expanded} expanded",
                self.started.elapsed().as_secs_f64() * 1e3
            );
        }
    }

    fn split_done(&mut self) {
        self.split = self.started.elapsed().as_secs_f64();
    }

    fn begun(&mut self) {
        self.begin = self.started.elapsed().as_secs_f64() - self.split;
    }

    fn round(
        &mut self,
        bound: u32,
        budget: u32,
        tail: bool,
        r: &RoundReport,
        roots: usize,
        next_budget: u32,
    ) {
        if self.level == 0 {
            return;
        }
        self.rounds += 1;
        self.seconds += r.seconds;
        self.expanded += r.expanded;
        self.allowed += r.invocations as f64 * f64::from(r.budget);
        if r.busy_share >= TAIL_BUSY {
            self.busy_nodes += r.expanded;
        }
        self.within += r.donated_within;
        if tail {
            self.tail_rounds += 1;
            self.tail_seconds += r.seconds;
        }
        if self.level >= 2 {
            eprintln!(
                "gpu-trace round: threshold {bound}, budget {budget}, {:.2} ms, {} expanded, \
                 {} of {} busy, {} handed out ({} within, {} taken within, {} pending){}{}",
                r.seconds * 1e3,
                r.expanded,
                r.busy,
                r.invocations,
                r.donated,
                r.donated_within,
                r.taken_within,
                r.pending,
                if tail { ", tail" } else { "" },
                if r.cut { ", cut" } else { "" }
            );
        }
        if r.found || r.exhausted {
            eprintln!(
                "gpu-trace iteration: threshold {bound}, {roots} roots, split {:.1} ms, begin \
                 {:.1} ms, {} rounds {:.1} ms (tail: {} rounds {:.1} ms), {} expanded, \
                 {:.0} M/s in rounds, budget {next_budget}, busy {:.2} over the iteration, {:.1} % of its nodes \
                 in rounds ≥ {TAIL_BUSY} busy, {} handed on within rounds",
                self.split * 1e3,
                self.begin * 1e3,
                self.rounds,
                self.seconds * 1e3,
                self.tail_rounds,
                self.tail_seconds * 1e3,
                self.expanded,
                self.expanded as f64 / self.seconds.max(1e-9) / 1e6,
                self.expanded as f64 / self.allowed.max(1.0),
                100.0 * self.busy_nodes as f64 / self.expanded.max(1) as f64,
                self.within
            );
        }
    }
}
