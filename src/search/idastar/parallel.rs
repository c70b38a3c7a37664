//! One IDA* iteration on several threads: the coordinator splits the top of the tree
//! ([`super::split_top`]), and worker threads take the subtrees in turn from an atomic cursor,
//! each with its own [`Dfs`], watched by [`Shared`] (limits and an abort flag).

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Instant;

use super::moves::Moves;
use super::watch::{Reporter, Watch};
use super::{
    CHECK_EVERY, Dfs, Halt, Probe, Round, SPLIT_PER_THREAD, SplitNode, Tally, Top, split_top,
};
use crate::heuristic::Incremental;
use crate::puzzle::Move;
use crate::search::all::Collector;
use crate::search::{Limits, SearchError};

/// Limits as the worker threads see them.
pub(super) struct Shared {
    pub(super) cancel: Option<std::sync::Arc<AtomicBool>>,
    pub(super) deadline: Option<Instant>,
    /// Set when a thread found the goal or hit a limit: the others stop.
    pub(super) abort: AtomicBool,
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
