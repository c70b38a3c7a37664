//! A search that a learner steps through node by node: breadth-first search, A* (and its
//! greedy and weighted variants, A*'s steps with their own f: [`super::weight`]) and IDA* as
//! resumable state machines, one expansion per [`Stepper::step`], with everything a teaching
//! view shows kept on the side: the node just expanded and the fate of each of its
//! successors, the open list in pop order, the search tree, IDA*'s iterations.
//!
//! It makes the same choices as the fast searches ([`super::bfs`], [`super::astar`],
//! [`super::idastar`]): the same successor order ([`Move::ALL`]; IDA*'s
//! [`super::idastar::move_order`]), "never undo the last move",
//! A*'s open list (lowest f, then highest g, last in first out; `open_list.rs`) and its
//! closed set's rules (a cheaper path reopens), BFS's goal test when the goal is generated,
//! A*'s and IDA*'s when it is expanded, IDA*'s next threshold as the least f that was pruned.
//! So it expands exactly as many nodes and generates as many (tests compare the counts), only
//! slower: boards are kept whole and every h is computed from the board. A step generates all
//! of a node's successors at once, where the recursive IDA* generates them one by one; when
//! the goal is found the successors the recursive search would not have reached yet are taken
//! off the count, so the totals agree (the inspector still lists them).

use std::collections::VecDeque;
use std::sync::Arc;

mod frontier;
mod history;
mod ida;
mod step;
mod tree;

pub use tree::{KEPT_TREES_BYTES, TREE_LIMIT, TreeNode};

pub use history::{HISTORY_BUDGET, History, HistoryFigures};
pub use step::{Expansion, Fate, OpenEntry, Step, Successor};

use super::key::KeyMap;
use super::open_list::OpenList;
use super::progress::CellSampler;
use super::{
    Algorithm, Frontier, GhHistogram, IdaIteration, Iteration, Problem, Progress, SearchError,
    SearchStats,
};
use crate::heuristic::{Heuristic, HeuristicSpec};
use crate::puzzle::{Board, Move};

/// A resumable BFS, A* or IDA* (see the module docs). A clone is an independent copy of the
/// search at the same moment (the heuristic's tables are shared): [`History`] keeps clones
/// as checkpoints.
#[derive(Clone)]
pub struct Stepper {
    algorithm: Algorithm,
    heuristic: Option<Arc<dyn Heuristic>>,
    start: Board,
    /// h of the start.
    h0: u32,
    goal: Board,
    max_memory: u64,
    state: State,
    expanded: u64,
    generated: u64,
    /// A*: entries on the open list that are not stale; BFS: unused (the queue's length).
    open_live: usize,
    /// BFS and A*: boards closed and not reopened.
    closed: usize,
    /// Largest open list (BFS's queue) after a step.
    peak_open: usize,
    last: Option<Expansion>,
    tree: Vec<TreeNode>,
    tree_complete: bool,
    /// IDA*: the trees of its finished iterations, as many as [`KEPT_TREES_BYTES`] holds.
    kept: tree::KeptTrees,
    iterations: Vec<Iteration>,
    solution: Option<Vec<Move>>,
    hist: GhHistogram,
    /// IDA*: the histogram of the last finished iteration.
    finished_hist: Option<GhHistogram>,
    /// Every board put on the frontier (pushed), for the share of them with each cell's tile
    /// out of place.
    cells: CellSampler,
}

/// What the closed set knows of a board.
#[derive(Clone, Copy)]
struct Info {
    g: u32,
    /// The move that reached it (`None` for the start).
    mv: Option<Move>,
    closed: bool,
    /// Its index in the tree once expanded (`usize::MAX` before, or beyond [`TREE_LIMIT`]).
    tree: usize,
}

/// A depth-first frame of IDA*: a node entered and the children still to search.
#[derive(Clone)]
struct Frame {
    board: Board,
    g: u32,
    tree: usize,
    /// Children within the threshold not yet searched, next last.
    todo: Vec<(Move, Board, u32)>,
    /// The moves of every successor generated, in order (the recursive search generates
    /// them one by one: see `ida_solved`).
    generated: Vec<Move>,
}

#[derive(Clone)]
enum State {
    Bfs {
        queue: VecDeque<(Box<[u8]>, u32)>,
        map: KeyMap<Box<[u8]>, Info>,
    },
    AStar {
        open: OpenList<Box<[u8]>>,
        map: KeyMap<Box<[u8]>, Info>,
    },
    IdaStar {
        threshold: u32,
        /// Least f above the threshold seen in this iteration.
        next: u32,
        stack: Vec<Frame>,
        /// Counts of this iteration.
        expanded: u64,
        generated: u64,
        /// The root is entered at the first step of each iteration.
        started: bool,
        /// Levels left since the last expansion.
        backtracked: u32,
    },
}

impl Stepper {
    /// A search of `problem` with `algorithm` (BFS, A*, greedy best-first, weighted A* or
    /// IDA*; `Auto` resolved by size) and
    /// `heuristic` (unused by BFS), nothing expanded yet. A* and BFS stop with
    /// [`SearchError::MemoryLimit`] when their tables would pass `max_memory` bytes.
    ///
    /// The board should be solvable (check [`crate::puzzle::Solvability`] first): on an
    /// unsolvable one, BFS and A* end with [`SearchError::Exhausted`] once every reachable
    /// board is expanded, and IDA* never ends.
    ///
    /// # Errors
    /// [`SearchError::SizeMismatch`] for a goal of another size, [`SearchError::Heuristic`]
    /// for batched A* (step it as A*) or a heuristic that does not take the shape.
    pub fn new(
        problem: &Problem,
        algorithm: Algorithm,
        heuristic: &HeuristicSpec,
        max_memory: u64,
    ) -> Result<Stepper, SearchError> {
        super::same_size(problem)?;
        let (s, g) = (&problem.start, problem.goal.board());
        let algorithm = algorithm.resolve(s.len());
        if algorithm == Algorithm::BatchedAStar {
            return Err(SearchError::Misuse(
                "batched A* is stepped as A* (one node at a time)",
            ));
        }
        if let HeuristicSpec::Kind(k) = heuristic
            && algorithm != Algorithm::Bfs
        {
            k.supports(s.rows(), s.cols())
                .map_err(SearchError::Heuristic)?;
        }
        let h: Option<Arc<dyn Heuristic>> =
            (algorithm != Algorithm::Bfs).then(|| heuristic.build(&problem.goal).into());
        Ok(Stepper::begin(algorithm, h, s, g, max_memory))
    }

    /// A search of `start` to `goal` with `algorithm` (resolved, not batched) and heuristic
    /// `h` (`None` in BFS), nothing expanded yet.
    fn begin(
        algorithm: Algorithm,
        h: Option<Arc<dyn Heuristic>>,
        s: &Board,
        g: &Board,
        max_memory: u64,
    ) -> Stepper {
        let h0 = h.as_ref().map_or(0, |h| h.estimate(s.tiles()));
        let root = Info {
            g: 0,
            mv: None,
            closed: false,
            tree: usize::MAX,
        };
        let key: Box<[u8]> = s.tiles().into();
        let mut hist = GhHistogram::new();
        hist.add(0, h0 as usize);
        let state = match algorithm {
            Algorithm::Bfs => {
                let mut map = KeyMap::default();
                map.insert(key.clone(), root);
                State::Bfs {
                    queue: VecDeque::from([(key, 0)]),
                    map,
                }
            }
            Algorithm::AStar | Algorithm::Greedy | Algorithm::WeightedAStar(_) => {
                let mut map = KeyMap::default();
                map.insert(key.clone(), root);
                let mut open = OpenList::new();
                // One entry on an empty list: a refusal here would refuse every step after.
                let _ = open.push(algorithm.order_f(0, h0), 0, key);
                State::AStar { open, map }
            }
            _ => State::IdaStar {
                threshold: h0,
                next: u32::MAX,
                stack: Vec::new(),
                expanded: 0,
                generated: 0,
                started: false,
                backtracked: 0,
            },
        };
        Stepper {
            algorithm,
            heuristic: h,
            start: s.clone(),
            h0,
            goal: g.clone(),
            max_memory,
            state,
            expanded: 0,
            generated: 0,
            open_live: 1,
            closed: 0,
            peak_open: 1,
            last: None,
            tree: Vec::new(),
            tree_complete: true,
            kept: tree::KeptTrees::default(),
            iterations: Vec::new(),
            solution: (s == g && algorithm == Algorithm::Bfs).then(Vec::new),
            hist,
            finished_hist: None,
            cells: CellSampler::new(g.tiles(), 1),
        }
    }

    /// A*'s state for another search to go on from (batched A*'s rounds with a batch of one are
    /// A*'s expansions): every known board `(tiles, g, move, closed)`, the open list, the
    /// counts. `None` unless this is an A* that has not reached the goal.
    #[allow(clippy::type_complexity)]
    pub(crate) fn into_astar(
        self,
    ) -> Option<(
        Vec<(Box<[u8]>, u32, Option<Move>, bool)>,
        OpenList<Box<[u8]>>,
        SearchStats,
    )> {
        if self.solution.is_some() || self.algorithm != Algorithm::AStar {
            return None;
        }
        let stats = self.stats();
        let State::AStar { open, map } = self.state else {
            return None;
        };
        let known = map
            .into_iter()
            .map(|(k, i)| (k, i.g, i.mv, i.closed))
            .collect();
        Some((known, open, stats))
    }

    /// The algorithm stepped (never `Auto`).
    pub fn algorithm(&self) -> Algorithm {
        self.algorithm
    }

    /// h of `tiles` (row-major, `0` = blank); 0 in BFS.
    pub fn h(&self, tiles: &[u8]) -> u32 {
        self.heuristic.as_ref().map_or(0, |h| h.estimate(tiles))
    }

    /// Nodes expanded so far (IDA*: over all iterations).
    pub fn expanded(&self) -> u64 {
        self.expanded
    }

    /// Successors generated so far (parents not counted).
    pub fn generated(&self) -> u64 {
        self.generated
    }

    /// The last node expanded, with its successors.
    pub fn last(&self) -> Option<&Expansion> {
        self.last.as_ref()
    }

    /// The optimal solution once the goal is reached.
    pub fn solution(&self) -> Option<&[Move]> {
        self.solution.as_deref()
    }

    /// IDA*'s finished iterations (threshold, nodes expanded and generated in each).
    pub fn iterations(&self) -> &[Iteration] {
        &self.iterations
    }

    /// IDA*: the (g, h) histogram of the nodes generated in the last finished iteration.
    pub fn finished_histogram(&self) -> Option<&GhHistogram> {
        self.finished_hist.as_ref()
    }

    /// IDA*'s current threshold; the f of the open list's first entry in A*; BFS's depth.
    pub fn bound(&self) -> u32 {
        match &self.state {
            State::IdaStar { threshold, .. } => *threshold,
            // The lowest f of a live entry (stale ones are skipped when popped).
            State::AStar { open, map } => open
                .iter()
                .find(|(_, g, k)| map.get(*k).is_some_and(|i| !i.closed && i.g == *g))
                .map_or(0, |(f, _, _)| self.algorithm.f_in_moves(f)),
            State::Bfs { queue, .. } => queue.front().map_or(0, |q| q.1),
        }
    }

    /// Boards on the open list (BFS: the queue), stale A* entries not counted; IDA*: the
    /// boards within the threshold still to search on the current path.
    pub fn open_len(&self) -> usize {
        match &self.state {
            State::Bfs { queue, .. } => queue.len(),
            State::AStar { .. } => self.open_live,
            State::IdaStar { stack, .. } => stack.iter().map(|f| f.todo.len()).sum(),
        }
    }

    /// Boards expanded and not reopened (0 in IDA*, which keeps no closed set).
    pub fn closed_len(&self) -> usize {
        match &self.state {
            State::Bfs { .. } | State::AStar { .. } => self.closed,
            State::IdaStar { .. } => 0,
        }
    }

    /// The first `n` boards the search will expand next, in its order: A*'s open list by
    /// lowest f, then highest g, then last pushed (stale entries skipped); BFS's queue; IDA*'s
    /// depth-first order (the current node's children first, then its ancestors' untried ones).
    pub fn open_top(&self, n: usize) -> Vec<OpenEntry> {
        let board = |t: &[u8]| Board::from_u8(self.goal.rows(), self.goal.cols(), t).ok();
        match &self.state {
            State::Bfs { queue, .. } => queue
                .iter()
                .take(n)
                .filter_map(|(k, g)| {
                    Some(OpenEntry {
                        board: board(k)?,
                        g: *g,
                        h: 0,
                    })
                })
                .collect(),
            State::AStar { open, map } => open
                .iter()
                .filter(|(_, g, k)| map.get(*k).is_some_and(|i| !i.closed && i.g == *g))
                .take(n)
                .filter_map(|(f, g, k)| {
                    Some(OpenEntry {
                        board: board(k)?,
                        g,
                        h: self.algorithm.h_of(f, g),
                    })
                })
                .collect(),
            State::IdaStar { stack, .. } => stack
                .iter()
                .rev()
                .flat_map(|f| {
                    f.todo.iter().rev().map(|(_, b, h)| OpenEntry {
                        board: b.clone(),
                        g: f.g + 1,
                        h: *h,
                    })
                })
                .take(n)
                .collect(),
        }
    }

    /// The expanded nodes in expansion order (IDA*: of the current iteration), up to
    /// [`TREE_LIMIT`].
    pub fn tree(&self) -> &[TreeNode] {
        &self.tree
    }

    /// Whether [`Stepper::tree`] holds every node expanded (false once past [`TREE_LIMIT`]).
    pub fn tree_complete(&self) -> bool {
        self.tree_complete
    }

    /// The statistics a finished search returns ([`super::Solution::stats`]): counts, closed
    /// boards, peak open list, IDA*'s iterations (the current one included), initial h.
    /// `seconds` is left 0 for the caller (a stepped search's time is the learner's). The open
    /// list's sizes count live entries only, where the fast A* counts its stale ones too.
    pub fn stats(&self) -> SearchStats {
        let mut iterations = self.iterations.clone();
        if let State::IdaStar {
            threshold,
            expanded,
            generated,
            ..
        } = &self.state
        {
            iterations.push(Iteration {
                threshold: *threshold,
                expanded: *expanded,
                generated: *generated,
            });
        }
        SearchStats {
            expanded: self.expanded,
            generated: self.generated,
            peak_open: self.peak_open as u64,
            closed: self.closed as u64,
            iterations,
            initial_h: self.h0,
            ..SearchStats::default()
        }
    }

    /// A progress snapshot for the views that draw a running search (stats, heatmap): the
    /// counts, `bound`, the last expanded node's g and h, and the (g, h) histogram of the open
    /// list (A*, BFS) or of this iteration's generated nodes (IDA*).
    pub fn progress(&self) -> Progress {
        let (g, h) = self.last.as_ref().map_or((0, 0), |e| (e.g, e.h));
        Progress {
            algorithm: Some(self.algorithm),
            expanded: self.expanded,
            generated: self.generated,
            // IDA* keeps no open list or closed set (its boards left on the path are in
            // `open_len`, for the inspector).
            frontier: Frontier {
                open: if self.algorithm == Algorithm::IdaStar {
                    0
                } else {
                    self.open_len() as u64
                },
                closed: self.closed_len() as u64,
            },
            bound: self.bound(),
            ida: IdaIteration {
                number: if self.algorithm == Algorithm::IdaStar {
                    self.iterations.len() as u32 + 1
                } else {
                    0
                },
                done: false,
                ..IdaIteration::default()
            },
            g,
            h,
            // BFS has no h: its frontier has no (g, h) picture (as the fast BFS).
            histogram: (self.algorithm != Algorithm::Bfs).then(|| self.hist.clone()),
            misplaced: self.cells.shares(),
            ..Progress::default()
        }
    }

    /// Expands one node (IDA*: enters the next node of the depth-first order and expands it,
    /// or ends the iteration).
    ///
    /// # Errors
    /// [`SearchError::MemoryLimit`] when BFS's or A*'s tables would pass the cap;
    /// [`SearchError::Exhausted`] when BFS or A* run out of boards (an unsolvable board).
    pub fn step(&mut self) -> Result<Step, SearchError> {
        if self.solution.is_some() {
            return Ok(Step::Solved);
        }
        let r = match self.state {
            State::Bfs { .. } => self.step_bfs(),
            State::AStar { .. } => self.step_astar(),
            State::IdaStar { .. } => Ok(self.step_idastar()),
        };
        if !matches!(self.state, State::IdaStar { .. }) {
            self.peak_open = self.peak_open.max(self.open_len());
        }
        if let (Ok(Step::Expanded), Some(e)) = (&r, &self.last) {
            for s in &e.successors {
                if matches!(s.fate, Fate::Pushed | Fate::BetterPath { .. }) {
                    self.cells.offer(s.board.tiles());
                }
            }
        }
        r
    }

    /// Steps until the bound changes (A*: the first node of the next f layer; BFS: the next
    /// depth; IDA*: the iteration's end) or the goal is reached, at most `max` steps.
    ///
    /// # Errors
    /// As [`Stepper::step`].
    pub fn step_layer(&mut self, max: u64) -> Result<Step, SearchError> {
        let start = self.bound();
        let mut last = Step::Expanded;
        for _ in 0..max {
            last = self.step()?;
            if last != Step::Expanded || self.bound() != start {
                break;
            }
        }
        Ok(last)
    }

    fn memory_check(&self, entries: usize) -> Result<(), SearchError> {
        // A boxed board, its map entry and allocation overhead, and its queue entry.
        let bytes = entries as u64 * (2 * self.goal.len() as u64 + 96);
        if bytes > self.max_memory {
            return Err(SearchError::MemoryLimit {
                cap: self.max_memory,
                expanded: self.expanded,
                refused: false,
            });
        }
        Ok(())
    }
}
