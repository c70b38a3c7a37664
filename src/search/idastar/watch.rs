//! What a depth-first search reports to: the [`Watch`] trait, and the coordinator's
//! [`Reporter`] (limits, progress, the `(g, h)` histogram, the finished iterations' counts).

use super::{Halt, Tally};
use crate::search::{
    Algorithm, CellSampler, Control, GhHistogram, Progress, ProgressFn, SearchError,
};
use crate::search::{IdaIteration, Rounds};

/// What a depth-first search reports to, and asks every [`CHECK_EVERY`](super::CHECK_EVERY) expansions whether
/// to go on: the coordinator's [`Reporter`] (limits, progress, histogram) or a worker's
/// [`Shared`](super::parallel::Shared) (limits, the abort flag).
pub(in crate::search) trait Watch {
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
pub(in crate::search) struct Reporter<'c, 'l, 'p> {
    pub(in crate::search) ctl: &'c mut Control<'l>,
    pub(super) progress: &'c mut ProgressFn<'p>,
    pub(in crate::search) hist: Option<GhHistogram>,
    pub(super) cells: Option<CellSampler>,
    /// Counts of the iterations finished so far.
    pub(super) done: Tally,
    pub(super) iteration: u32,
    /// Deepest g seen at a poll (GPU IDA*: also in the rounds' histograms).
    pub(in crate::search) max_g: u32,
    pub(super) h0: u32,
    /// IDA*, or GPU IDA* when a device searches the subtrees.
    pub(super) algorithm: Algorithm,
    /// GPU IDA*: rounds so far, and the last round's busy share.
    pub(in crate::search) rounds: u64,
    pub(in crate::search) busy: f64,
}

impl<'c, 'l, 'p> Reporter<'c, 'l, 'p> {
    /// The coordinator's watch at the start of a search: `h0` the start's h, `algorithm` the
    /// one reported; with `histogram` (the goal's tiles) the `(g, h)` histogram and the
    /// misplaced-cell sampler are kept.
    pub(super) fn new(
        ctl: &'c mut Control<'l>,
        progress: &'c mut ProgressFn<'p>,
        h0: u32,
        histogram: Option<&[u8]>,
        algorithm: Algorithm,
    ) -> Self {
        Reporter {
            ctl,
            progress,
            hist: histogram.map(|_| GhHistogram::new()),
            cells: histogram.map(|goal| CellSampler::new(goal, 64)),
            done: Tally::default(),
            iteration: 1,
            max_g: 0,
            h0,
            algorithm,
            rounds: 0,
            busy: 0.0,
        }
    }

    /// Reports progress: `running` is what the current iteration has counted so far.
    /// `finished`: the search's last report.
    pub(in crate::search) fn report(
        &mut self,
        bound: u32,
        running: Tally,
        iteration_done: bool,
        finished: bool,
    ) {
        let p = Progress {
            algorithm: Some(self.algorithm),
            rounds: Rounds {
                count: self.rounds,
                busy: self.busy,
                ..Rounds::default()
            },
            seconds: self.ctl.elapsed(),
            expanded: self.done.expanded + running.expanded,
            generated: self.done.generated + running.generated,
            bound,
            g: self.max_g,
            h: self.h0,
            histogram: self.hist.clone(),
            misplaced: self.cells.as_mut().and_then(|c| c.take()),
            ida: IdaIteration {
                number: self.iteration,
                done: iteration_done,
            },
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
