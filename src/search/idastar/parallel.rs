//! One IDA* iteration on several threads: the coordinator splits the top of the tree
//! ([`super::split_top`]), and worker threads take the subtrees in turn from an atomic cursor,
//! each with its own [`Dfs`], watched by a [`Helper`] (the limits and abort flag of
//! [`Shared`], and the counts it publishes there). While they search, the coordinator reports
//! progress from those counts ([`follow`]), so that a long iteration's nodes and clock move.
//! Also one level of that top on several threads ([`expand_level`]), for the large tops GPU
//! IDA* asks for.

use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender};
use std::time::Instant;

use super::moves::Moves;
use super::watch::{Reporter, Watch};
use super::{
    CHECK_EVERY, Dfs, Halt, IterationEnd, Probe, SPLIT_PER_THREAD, SplitNodes, Tally, Top,
    split_top,
};
use crate::heuristic::Incremental;
use crate::puzzle::Move;
use crate::search::all::Collector;
use crate::search::{Limits, SearchError};

/// Limits as the worker threads see them.
pub(in crate::search) struct Shared {
    pub(super) cancel: Option<std::sync::Arc<AtomicBool>>,
    pub(super) deadline: Option<Instant>,
    /// Set when a thread found the goal or hit a limit: the others stop.
    pub(super) abort: AtomicBool,
    /// Nodes expanded and generated in the iteration's subtrees so far, as the worker threads
    /// publish them (every [`CHECK_EVERY`] expansions of each), for progress reports.
    pub(super) expanded: AtomicU64,
    pub(super) generated: AtomicU64,
}

impl Shared {
    /// The limits of a search for its worker threads (`deadline`: when the time limit passes).
    pub(super) fn new(
        cancel: Option<std::sync::Arc<AtomicBool>>,
        deadline: Option<Instant>,
    ) -> Self {
        Shared {
            cancel,
            deadline,
            abort: AtomicBool::new(false),
            expanded: AtomicU64::new(0),
            generated: AtomicU64::new(0),
        }
    }

    /// The counts the worker threads have published in this iteration.
    fn published(&self) -> Tally {
        Tally {
            expanded: self.expanded.load(Ordering::Relaxed),
            generated: self.generated.load(Ordering::Relaxed),
        }
    }
}

/// A worker thread's watch: the limits and abort flag of [`Shared`]; with `ticks`, at each
/// poll it adds what it counted since the last one to `shared`'s counts and wakes the
/// coordinator ([`follow`]).
pub(super) struct Helper<'a> {
    shared: &'a Shared,
    /// What of the thread's tally is in `shared`'s counts already.
    published: Tally,
    ticks: Option<Sender<()>>,
}

impl<'a> Helper<'a> {
    /// A worker's watch on `shared`; `ticks`: publish its counts and wake the coordinator.
    fn new(shared: &'a Shared, ticks: Option<Sender<()>>) -> Self {
        Helper {
            shared,
            published: Tally::default(),
            ticks,
        }
    }
}

impl Watch for Helper<'_> {
    #[inline(always)]
    fn exact(&self) -> bool {
        false
    }

    #[inline(always)]
    fn generated(&mut self, _: u32, _: u32, _: &[u8]) {}

    fn restart(&mut self, _: u32) {}

    #[cold]
    #[inline(never)]
    fn poll(&mut self, g: u32, bound: u32, tally: Tally) -> Result<(), Halt> {
        if let Some(ticks) = &self.ticks {
            let s = self.shared;
            s.expanded
                .fetch_add(tally.expanded - self.published.expanded, Ordering::Relaxed);
            s.generated.fetch_add(
                tally.generated - self.published.generated,
                Ordering::Relaxed,
            );
            self.published = tally;
            // The coordinator is gone only once the iteration is over: nothing to tell.
            let _ = ticks.send(());
        }
        let mut shared = self.shared;
        shared.poll(g, bound, tally)
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

/// One iteration on `threads` threads: the coordinator's search collects the nodes at the
/// shallowest depth that gives enough subtrees, and the threads search below them.
pub(super) fn parallel_iteration<H: Incremental + Sync>(
    dfs: &mut Dfs<'_, H, Reporter<'_, '_, '_>>,
    h0: u32,
    threads: usize,
    shared: &Shared,
    limits: &Limits,
) -> Result<IterationEnd, SearchError>
where
    H::State: Send + Sync,
{
    let (nodes, mut next) = match split_top(
        dfs,
        h0,
        SPLIT_PER_THREAD * threads,
        limits,
        Some((shared, threads)),
    )? {
        Top::Done(round) => return Ok(round),
        Top::Split(nodes, next) => (nodes, next),
    };
    let cursor = AtomicUsize::new(0);
    shared.abort.store(false, Ordering::Relaxed);
    shared.expanded.store(0, Ordering::Relaxed);
    shared.generated.store(0, Ordering::Relaxed);
    let (h, moves, goal, bound, top) = (dfs.h, dfs.moves, dfs.goal, dfs.bound, dfs.tally);
    // Looking for all solutions: each thread collects its own, merged below.
    let collect = dfs.found.as_ref().map(Collector::keep);
    let ends: Vec<WorkerEnd> = std::thread::scope(|s| {
        let (nodes, cursor) = (&nodes, &cursor);
        let (ticks, woken) = std::sync::mpsc::channel();
        let handles: Vec<_> = (0..threads)
            .map(|_| {
                let watch = Helper::new(shared, Some(ticks.clone()));
                s.spawn(move || work(h, moves, goal, bound, nodes, cursor, watch, collect))
            })
            .collect();
        // The workers hold the only senders left: the channel closes when the last one ends.
        drop(ticks);
        follow(&mut dfs.watch, &woken, bound, top, shared);
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
        return Ok(IterationEnd::Found(path));
    }
    if let Some(halt) = error {
        return Err(halt.error(limits));
    }
    Ok(IterationEnd::Next(next))
}

/// The coordinator while the worker threads search an iteration with threshold `bound`:
/// reports progress, when the progress interval says one is due, with its own counts `top`
/// (the tree's top) and those the workers have published. It wakes at each publication
/// (`woken`: every [`CHECK_EVERY`] expansions of a thread) and, without one, at the interval,
/// so that the clock moves too; with a zero interval it reports at every publication (the
/// counts drive it, not the clock). Returns when every worker has ended. Limits are the
/// workers' to stop at.
fn follow(
    watch: &mut Reporter<'_, '_, '_>,
    woken: &Receiver<()>,
    bound: u32,
    top: Tally,
    shared: &Shared,
) {
    let interval = watch.ctl.limits().progress_interval;
    loop {
        let woke = if interval.is_zero() {
            woken.recv().map_err(|_| RecvTimeoutError::Disconnected)
        } else {
            woken.recv_timeout(interval)
        };
        if woke == Err(RecvTimeoutError::Disconnected) {
            return;
        }
        if watch.ctl.check() == Ok(true) {
            let mut running = top;
            running.add(shared.published());
            watch.report(bound, running, false, false);
        }
    }
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
    nodes: &SplitNodes<H::State>,
    cursor: &AtomicUsize,
    watch: Helper<'_>,
    collect: Option<usize>,
) -> WorkerEnd {
    let shared = watch.shared;
    let mut w = worker(h, moves, goal, bound, nodes, watch, collect);
    let mut next = u32::MAX;
    let probe = loop {
        let i = cursor.fetch_add(1, Ordering::Relaxed);
        if i >= nodes.len() || shared.abort.load(Ordering::Relaxed) {
            break Ok(next);
        }
        w.load(nodes, i);
        match w.dfs(nodes.depth(), nodes.h(i), nodes.fsm(i), next) {
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

/// A worker thread's depth-first search, its board the first of `nodes`.
fn worker<'a, H: Incremental>(
    h: &'a H,
    moves: Moves<'a>,
    goal: &'a [u8],
    bound: u32,
    nodes: &SplitNodes<H::State>,
    watch: Helper<'a>,
    collect: Option<usize>,
) -> Dfs<'a, H, Helper<'a>> {
    Dfs {
        h,
        moves,
        goal,
        tiles: nodes.tiles(0).to_vec(),
        blank: nodes.blank(0),
        state: nodes.states[0].clone(),
        path: Vec::new(),
        bound,
        tally: Tally::default(),
        countdown: CHECK_EVERY,
        split_at: u32::MAX,
        split: SplitNodes::new(goal.len()),
        found: collect.map(Collector::new),
        watch,
    }
}

/// Nodes of a level a worker thread takes at a time in [`expand_level`].
const LEVEL_CHUNK: usize = 256;

/// One level of the top of the tree (see [`super::split_top`]) on `threads` threads: every
/// node of `level` searched one move deeper, in chunks of [`LEVEL_CHUNK`] taken in turn; the
/// nodes one move deeper come back in `level`'s order, and the counts go to `dfs.tally`. The
/// result is the smallest f above the threshold seen (from `next` on), or why it stopped (on
/// [`Halt::Found`], `dfs.path` is the moves to the goal). Not for a search that collects all
/// solutions or keeps the histogram: the threads do neither.
pub(super) fn expand_level<H: Incremental + Sync, W>(
    dfs: &mut Dfs<'_, H, W>,
    level: &SplitNodes<H::State>,
    threads: usize,
    shared: &Shared,
    next: u32,
) -> (SplitNodes<H::State>, Probe)
where
    H::State: Send + Sync,
{
    let cursor = AtomicUsize::new(0);
    shared.abort.store(false, Ordering::Relaxed);
    let (h, moves, goal, bound) = (dfs.h, dfs.moves, dfs.goal, dfs.bound);
    let depth = level.depth();
    let chunks = level.len().div_ceil(LEVEL_CHUNK);
    type Part<S> = (
        Tally,
        Probe,
        Option<(usize, Vec<Move>)>,
        Vec<(usize, SplitNodes<S>)>,
    );
    let parts: Vec<Part<H::State>> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads.min(chunks))
            .map(|_| {
                s.spawn(|| {
                    let watch = Helper::new(shared, None);
                    let mut w = worker(h, moves, goal, bound, level, watch, None);
                    w.split_at = depth + 1;
                    let mut done = Vec::new();
                    let mut next = next;
                    // The chunk being searched.
                    let mut c;
                    let probe = 'chunks: loop {
                        c = cursor.fetch_add(1, Ordering::Relaxed);
                        if c >= chunks || shared.abort.load(Ordering::Relaxed) {
                            break Ok(next);
                        }
                        w.split.clear(depth + 1);
                        for i in c * LEVEL_CHUNK..((c + 1) * LEVEL_CHUNK).min(level.len()) {
                            w.load(level, i);
                            match w.dfs(depth, level.h(i), level.fsm(i), next) {
                                Ok(n) => next = n,
                                Err(halt) => {
                                    if halt != Halt::Aborted {
                                        shared.abort.store(true, Ordering::Relaxed);
                                    }
                                    break 'chunks Err(halt);
                                }
                            }
                        }
                        let deeper = std::mem::replace(&mut w.split, SplitNodes::new(goal.len()));
                        done.push((c, deeper));
                    };
                    let found = (probe == Err(Halt::Found)).then(|| (c, w.path.clone()));
                    (w.tally, probe, found, done)
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
            .collect()
    });
    let mut pieces = Vec::with_capacity(chunks);
    let (mut next, mut found, mut error) = (next, None, None);
    for (tally, probe, path, done) in parts {
        dfs.tally.add(tally);
        pieces.extend(done);
        match probe {
            Ok(n) => next = next.min(n),
            // The goal of the first chunk that found one (which goal depends on the timing:
            // the other threads stop once one is found).
            Err(Halt::Found) => {
                found = found
                    .into_iter()
                    .chain(path)
                    .min_by_key(|f: &(usize, Vec<Move>)| f.0)
            }
            Err(Halt::Aborted) => {}
            Err(halt) => error = error.or(Some(halt)),
        }
    }
    let mut deeper = SplitNodes::new(goal.len());
    deeper.clear(depth + 1);
    if let Some((_, path)) = found {
        dfs.path = path;
        return (deeper, Err(Halt::Found));
    }
    if let Some(halt) = error {
        return (deeper, Err(halt));
    }
    pieces.sort_unstable_by_key(|&(c, _)| c);
    for (_, piece) in &pieces {
        deeper.append(piece);
    }
    (deeper, Ok(next))
}
