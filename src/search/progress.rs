use super::{Algorithm, Iteration};

/// A progress callback: called from the search's thread at most every
/// [`Limits::progress_interval`](super::Limits::progress_interval), and at the end of each IDA*
/// iteration. To stop the search, set the cancel flag in [`Limits`](super::Limits).
pub type ProgressFn<'a> = dyn FnMut(&Progress) + 'a;

/// A snapshot of a running search: what every search reports, then the parts that belong to
/// some searches only (zero in the others).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Progress {
    /// The algorithm running.
    pub algorithm: Option<Algorithm>,
    /// Seconds since the search started.
    pub seconds: f64,
    /// Nodes expanded so far.
    pub expanded: u64,
    /// Nodes generated so far.
    pub generated: u64,
    /// Current f bound: the IDA* threshold, the f of the last A* expansion, or the BFS depth.
    pub bound: u32,
    /// g of the node being expanded (A*), or the deepest g reached (IDA*).
    pub g: u32,
    /// h of the node being expanded (A*) or of the start (IDA*).
    pub h: u32,
    /// Per-(g, h) counts: of the open list (A*), or of nodes generated in this iteration (IDA*).
    /// Present when [`Limits::histogram`](super::Limits::histogram) is set.
    pub histogram: Option<GhHistogram>,
    /// For each cell (row-major), the share (0..=1) of recent frontier boards whose tile there
    /// is out of place (blank not counted): boards generated (A*), or one expanded board in 64
    /// (IDA*). Present with the histogram.
    pub misplaced: Option<Vec<f32>>,
    /// Whether this is the search's last report (at its end or at a limit): its answer
    /// follows at once, so a caller that pauses on reports should not hold on this one.
    pub finished: bool,
    /// Estimated memory of the search's tables, in bytes (0 for IDA*).
    pub memory: u64,
    /// BFS and A*: the open list and closed set.
    pub frontier: Frontier,
    /// IDA*: the iteration.
    pub ida: IdaIteration,
    /// Batched A* and GPU IDA*: their rounds.
    pub rounds: Rounds,
}

impl Progress {
    /// The least length the optimal solution can have, as far as the search has proven at
    /// this report: its `bound` (`None` before any report). IDA*: the threshold of the
    /// iteration under way, which the finished ones proved (on an optimal path every f is at
    /// most its length, and none above the last threshold was below this one; the first is h
    /// of the start). A* and batched A*: the least f on the open list, or the f of the node
    /// last taken from it (an admissible h keeps a node of an optimal path there with f at
    /// most the optimum). BFS: the depth it expands (every shorter path has been tried).
    pub fn lower_bound(&self) -> Option<u32> {
        self.algorithm.map(|_| self.bound)
    }
}

/// What a caller keeps of a search from its progress reports alone, for when a limit stops
/// it (the answer's statistics say the rest): the last report, IDA*'s finished iterations and
/// the best lower bound any report proved (also across two searches of one board, as when
/// `auto` switches tables mid-search).
#[derive(Clone, Debug, Default)]
pub struct Followed {
    /// The last report: at a limit, the counts of the last report before it stopped (the
    /// threads publish theirs every 65,536 expansions).
    pub last: Progress,
    /// IDA*: the iterations finished so far.
    finished: Vec<Iteration>,
    /// The largest [`Progress::lower_bound`] seen.
    proved: Option<u32>,
}

impl Followed {
    /// Takes in report `p`.
    pub fn see(&mut self, p: &Progress) {
        if p.ida.done {
            self.finished.push(Iteration {
                threshold: p.bound,
                expanded: p.ida.expanded,
                generated: p.ida.generated,
            });
        }
        self.proved = self.proved.max(p.lower_bound());
        self.last.clone_from(p);
    }

    /// IDA*'s iterations at the stop: the finished ones, then the one the limit cut with its
    /// counts at the stop (when it had expanded a node). Empty for the other searches.
    pub fn iterations(&self) -> Vec<Iteration> {
        let mut all = self.finished.clone();
        let ida = &self.last.ida;
        if !ida.done && ida.expanded > 0 {
            all.push(Iteration {
                threshold: self.last.bound,
                expanded: ida.expanded,
                generated: ida.generated,
            });
        }
        all
    }

    /// The largest [`Progress::lower_bound`] of the reports seen: what the searches proved,
    /// as a later search that starts again from a smaller bound cannot unprove it.
    pub fn lower_bound(&self) -> Option<u32> {
        self.proved
    }
}

/// The open list and closed set of a search that keeps them (BFS, A*, batched A*).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Frontier {
    /// Open-list (frontier) size.
    pub open: u64,
    /// Closed-set size.
    pub closed: u64,
}

/// Where an IDA* search is in its iterations.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct IdaIteration {
    /// The iteration's number (1-based).
    pub number: u32,
    /// Whether this is the iteration's last report.
    pub done: bool,
    /// Nodes expanded in this iteration so far (all of it when `done`).
    pub expanded: u64,
    /// Nodes generated in this iteration so far (all of it when `done`).
    pub generated: u64,
    /// An estimate of the nodes this iteration generates in all, from the growth of the
    /// finished ones ([`crate::search::forecast::next_nodes`]); `None` before two of at least
    /// [`crate::search::forecast::MIN_NODES`] nodes have finished.
    pub estimate: Option<u64>,
}

/// The rounds of a search that works in them: batched A*'s batches, GPU IDA*'s dispatches.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Rounds {
    /// Rounds so far.
    pub count: u64,
    /// GPU IDA*: the share (0..=1) of the device's invocations that had work in the last
    /// round (expansions made over the most the round allowed).
    pub busy: f64,
    /// Batched A*: boards evaluated in the last round's batch.
    pub batch_boards: u64,
    /// Batched A*: seconds the last batch's evaluation took (GPU upload, dispatch, readback).
    pub eval_seconds: f64,
    /// Batched A*: boards evaluated per second of evaluation time, so far.
    pub boards_per_second: f64,
}

/// Samples generated boards to estimate, per cell, how often its tile is out of place.
#[derive(Clone, Debug)]
pub(crate) struct CellSampler {
    goal: Vec<u8>,
    counts: Vec<u64>,
    samples: u64,
    every: u32,
    tick: u32,
}

impl CellSampler {
    /// Samples one board in `every` offered.
    pub(crate) fn new(goal: &[u8], every: u32) -> Self {
        CellSampler {
            goal: goal.to_vec(),
            counts: vec![0; goal.len()],
            samples: 0,
            every: every.max(1),
            tick: 0,
        }
    }

    #[inline]
    pub(crate) fn offer(&mut self, tiles: &[u8]) {
        self.tick += 1;
        if self.tick >= self.every {
            self.tick = 0;
            self.samples += 1;
            for ((c, &t), &g) in self.counts.iter_mut().zip(tiles).zip(&self.goal) {
                *c += u64::from(t != 0 && t != g);
            }
        }
    }

    /// Shares over every board sampled since the last [`CellSampler::take`], without
    /// starting a new window (`None` before the first sample).
    pub(crate) fn shares(&self) -> Option<Vec<f32>> {
        let s = self.samples as f32;
        (self.samples > 0).then(|| self.counts.iter().map(|&c| c as f32 / s).collect())
    }

    /// Shares since the last call, then starts a new window.
    pub(crate) fn take(&mut self) -> Option<Vec<f32>> {
        if self.samples == 0 {
            return None;
        }
        let s = self.samples as f32;
        let shares = self.counts.iter().map(|&c| c as f32 / s).collect();
        self.counts.iter_mut().for_each(|c| *c = 0);
        self.samples = 0;
        Some(shares)
    }
}

/// Counts of nodes by `(g, h)`, both in moves; grows as needed.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GhHistogram {
    g_len: usize,
    h_len: usize,
    counts: Vec<u64>,
}

impl GhHistogram {
    /// An empty histogram.
    pub fn new() -> Self {
        Self::default()
    }

    /// An empty histogram with room for `g < g_len`, `h < h_len`.
    pub fn with_size(g_len: usize, h_len: usize) -> Self {
        GhHistogram {
            g_len,
            h_len,
            counts: vec![0; g_len * h_len],
        }
    }

    /// Number of g values covered (`0 .. g_len`).
    pub fn g_len(&self) -> usize {
        self.g_len
    }

    /// Number of h values covered (`0 .. h_len`).
    pub fn h_len(&self) -> usize {
        self.h_len
    }

    /// Count at `(g, h)`; 0 outside the covered range.
    pub fn get(&self, g: usize, h: usize) -> u64 {
        if g < self.g_len && h < self.h_len {
            self.counts[g * self.h_len + h]
        } else {
            0
        }
    }

    /// Adds one node at `(g, h)`.
    #[inline]
    pub fn add(&mut self, g: usize, h: usize) {
        if g >= self.g_len || h >= self.h_len {
            self.grow(g + 1, h + 1);
        }
        self.counts[g * self.h_len + h] += 1;
    }

    /// Adds `n` nodes at `(g, h)`.
    pub fn add_n(&mut self, g: usize, h: usize, n: u64) {
        if g >= self.g_len || h >= self.h_len {
            self.grow(g + 1, h + 1);
        }
        self.counts[g * self.h_len + h] += n;
    }

    /// Removes one node at `(g, h)` (saturating at 0).
    #[inline]
    pub fn remove(&mut self, g: usize, h: usize) {
        if g < self.g_len && h < self.h_len {
            let c = &mut self.counts[g * self.h_len + h];
            *c = c.saturating_sub(1);
        }
    }

    /// Sets every count to 0, keeping the size.
    pub fn clear(&mut self) {
        self.counts.iter_mut().for_each(|c| *c = 0);
    }

    /// Sum of all counts.
    pub fn total(&self) -> u64 {
        self.counts.iter().sum()
    }

    /// Non-zero cells as `(g, h, count)`.
    pub fn cells(&self) -> impl Iterator<Item = (usize, usize, u64)> + '_ {
        self.counts
            .iter()
            .enumerate()
            .filter(|(_, c)| **c > 0)
            .map(|(i, &c)| (i / self.h_len, i % self.h_len, c))
    }

    fn grow(&mut self, g_need: usize, h_need: usize) {
        let g_len = g_need.max(self.g_len).next_power_of_two().max(16);
        let h_len = h_need.max(self.h_len).next_power_of_two().max(16);
        let mut counts = vec![0; g_len * h_len];
        for g in 0..self.g_len {
            for h in 0..self.h_len {
                counts[g * h_len + h] = self.counts[g * self.h_len + h];
            }
        }
        *self = GhHistogram {
            g_len,
            h_len,
            counts,
        };
    }
}
