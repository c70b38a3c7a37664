//! A stepped search's history: any step taken so far can be shown again, and the search goes
//! on from there.
//!
//! A [`Stepper`] is deterministic, so a moment is rebuilt by replay rather than stored: the
//! history keeps checkpoints (clones of the stepper) and brings back step N by cloning the
//! last checkpoint at or before N and stepping it on. A checkpoint is taken `every` steps after
//! the last, or later when the state is large: no sooner than one step for each 2,048 of its
//! bytes, so that the clones cost a few bytes' copy a step. Stepping on after going back walks the same path again (it is the same search), so
//! the steps already taken stay reachable.
//!
//! What a step costs is its share of a checkpoint: a checkpoint holds the whole search state
//! at its step (BFS's and A*'s closed set and open list, which grow with every step; IDA*'s
//! path and its iteration's tree, which do not), so a step costs about `bytes / every`. The
//! checkpoints together are kept under a byte budget: past it, every second one is dropped
//! and `every` doubles (replays get longer, memory stays put), and [`HistoryFigures::thinned`]
//! says so. Checkpoint 0 (the start) is never dropped, so every step stays reachable.

use super::*;

/// Bytes of checkpoints a [`History`] keeps before it thins them (64 MiB).
pub const HISTORY_BUDGET: u64 = 64 << 20;

/// Steps between checkpoints until the budget is first reached, at least.
const FIRST_EVERY: u64 = 64;

/// A checkpoint is taken no more often than one of its bytes for this many steps: the clone's
/// copy costs a few bytes a step, however large the search's tables grow.
const BYTES_PER_STEP: u64 = 2048;

/// Where a [`History`] stands, for the timeline and its memory line.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct HistoryFigures {
    /// The step shown: how many steps from the start (0: nothing expanded yet).
    pub at: u64,
    /// The furthest step taken; the timeline runs from 0 to here.
    pub reached: u64,
    /// Whether the search ended at `reached` (solved, or stopped by an error).
    pub ended: bool,
    /// Checkpoints kept (the start's included).
    pub checkpoints: usize,
    /// Their bytes, estimated ([`Stepper::approx_bytes`]).
    pub bytes: u64,
    /// Steps between checkpoints, at least (more where a checkpoint is large, see the module
    /// docs).
    pub every: u64,
    /// Whether the byte budget was reached and the checkpoints thinned out.
    pub thinned: bool,
}

impl HistoryFigures {
    /// Bytes of history per step taken (the checkpoints' share), 0 before the first step.
    pub fn bytes_per_step(&self) -> u64 {
        self.bytes.checked_div(self.reached).unwrap_or(0)
    }
}

/// A checkpoint: the step it was taken at, the stepper then, and its bytes.
struct Checkpoint {
    step: u64,
    stepper: Stepper,
    bytes: u64,
}

/// A stepper with its past (see the module docs).
pub struct History {
    now: Stepper,
    at: u64,
    reached: u64,
    /// The step at which the search ended, when it has.
    end: Option<u64>,
    checkpoints: Vec<Checkpoint>,
    every: u64,
    budget: u64,
    thinned: bool,
}

impl History {
    /// The history of `start` (a stepper nothing has been expanded by), its checkpoints kept
    /// under `budget` bytes ([`HISTORY_BUDGET`] in the app).
    pub fn new(start: Stepper, budget: u64) -> History {
        let bytes = start.approx_bytes();
        History {
            checkpoints: vec![Checkpoint {
                step: 0,
                stepper: start.clone(),
                bytes,
            }],
            now: start,
            at: 0,
            reached: 0,
            end: None,
            every: FIRST_EVERY,
            budget,
            thinned: false,
        }
    }

    /// The search at the step shown.
    pub fn stepper(&self) -> &Stepper {
        &self.now
    }

    /// The step shown (0: nothing expanded yet).
    pub fn at(&self) -> u64 {
        self.at
    }

    /// Where it stands: the step shown, the furthest reached, the checkpoints' cost.
    pub fn figures(&self) -> HistoryFigures {
        HistoryFigures {
            at: self.at,
            reached: self.reached,
            ended: self.end.is_some(),
            checkpoints: self.checkpoints.len(),
            bytes: self.checkpoints.iter().map(|c| c.bytes).sum(),
            every: self.every,
            thinned: self.thinned,
        }
    }

    /// One step on from the step shown ([`Stepper::step`]); checkpoints the steps not taken
    /// before. At the step where the search ended, nothing changes: `Ok(Step::Solved)` if it
    /// was solved.
    ///
    /// # Errors
    /// As [`Stepper::step`] (the search then ends at this step); at the step where an error
    /// ended it, [`SearchError::Misuse`].
    pub fn step(&mut self) -> Result<Step, SearchError> {
        if self.end == Some(self.at) {
            return match self.now.solution() {
                Some(_) => Ok(Step::Solved),
                None => Err(SearchError::Misuse("the search ended at this step")),
            };
        }
        let r = self.now.step();
        self.at += 1;
        if matches!(r, Ok(Step::Solved) | Err(_)) {
            self.end = Some(self.at);
        }
        if self.at > self.reached {
            self.reached = self.at;
            self.maybe_checkpoint();
        }
        r
    }

    /// Shows step `n` (at most the furthest reached): steps on from the step shown when no
    /// checkpoint lies between, else replays from the last checkpoint at or before `n`.
    /// Returns the step now shown.
    pub fn go_to(&mut self, n: u64) -> u64 {
        let n = n.min(self.reached);
        let from = self
            .checkpoints
            .iter()
            .rev()
            .find(|c| c.step <= n)
            .expect("checkpoint 0 is always kept");
        if n < self.at || from.step > self.at {
            self.now = from.stepper.clone();
            self.at = from.step;
        }
        while self.at < n {
            if self.step().is_err() {
                break;
            }
        }
        self.at
    }

    /// Keeps the stepper shown as a checkpoint when it is due: `every` steps after the last
    /// one, and no sooner than [`BYTES_PER_STEP`] of its bytes a step (so that cloning a
    /// large A* or BFS state costs a few bytes' copy a step); thins the checkpoints past the
    /// budget.
    fn maybe_checkpoint(&mut self) {
        let last = self.checkpoints.last().map_or(0, |c| c.step);
        let since = self.at - last;
        if since < self.every {
            return;
        }
        let bytes = self.now.approx_bytes();
        if since < bytes / BYTES_PER_STEP {
            return;
        }
        self.checkpoints.push(Checkpoint {
            step: self.at,
            stepper: self.now.clone(),
            bytes,
        });
        while self.checkpoints.len() > 2
            && self.checkpoints.iter().map(|c| c.bytes).sum::<u64>() > self.budget
        {
            // Every second one goes (the start stays).
            let mut i = 0;
            self.checkpoints.retain(|_| {
                i += 1;
                i % 2 == 1
            });
            self.every *= 2;
            self.thinned = true;
        }
    }
}

impl Stepper {
    /// A* on this search's board and goal with its heuristic (the tables shared), nothing
    /// expanded yet, its tables capped at `max_memory` bytes: what IDA*'s memory is set
    /// against. `None` in BFS, which has no heuristic.
    pub fn astar_beside(&self, max_memory: u64) -> Option<Stepper> {
        let h = self.heuristic.clone()?;
        Some(Stepper::begin(
            Algorithm::AStar,
            Some(h),
            &self.start,
            &self.goal,
            max_memory,
        ))
    }

    /// About how many bytes the search's state holds: its tables (BFS's and A*'s closed set and
    /// open list, IDA*'s path), the tree, the last expansion and the histograms. An estimate
    /// from the entries' sizes and the allocator's rounding, for [`History`]'s budget.
    pub fn approx_bytes(&self) -> u64 {
        use std::mem::size_of;
        let cells = self.goal.len();
        // A boxed board on the heap: rounded to 16 bytes, with 16 of the allocator's.
        let heap = (cells.div_ceil(16) * 16 + 16) as u64;
        let key = size_of::<Box<[u8]>>() as u64 + heap;
        let tables = match &self.state {
            State::Bfs { queue, map } => {
                map.capacity() as u64 * (key + size_of::<Info>() as u64 + 1)
                    + queue.capacity() as u64 * (key + 8)
            }
            State::AStar { open, map } => {
                map.capacity() as u64 * (key + size_of::<Info>() as u64 + 1)
                    + open.len() as u64 * key
            }
            State::IdaStar { stack, .. } => stack
                .iter()
                .map(|f| {
                    (size_of::<Frame>() as u64 + heap)
                        + f.todo.capacity() as u64 * (size_of::<(Move, Board, u32)>() as u64 + heap)
                        + f.generated.capacity() as u64
                })
                .sum(),
        };
        // Each node with its successors ([`TreeNode::bytes`]), and the vector's spare room.
        let tree = self.tree.iter().map(|n| n.bytes() as u64).sum::<u64>()
            + (self.tree.capacity() - self.tree.len()) as u64 * size_of::<TreeNode>() as u64;
        let last = self.last.as_ref().map_or(0, |e| {
            (size_of::<Expansion>() as u64 + heap)
                + e.successors.len() as u64 * (size_of::<Successor>() as u64 + heap)
                + e.path.len() as u64
        });
        let hist = |h: &GhHistogram| (h.g_len() * h.h_len() * 8) as u64;
        let hists = hist(&self.hist) + self.finished_hist.as_ref().map_or(0, hist);
        size_of::<Stepper>() as u64
            + tables
            + tree
            + last
            + hists
            + (self.iterations.len() * size_of::<Iteration>()) as u64
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::heuristic::{HeuristicKind, HeuristicSpec};
    use crate::puzzle::{Board, GoalSpec};
    use crate::search::{Algorithm, Problem};

    fn stepper(board: &str, algorithm: Algorithm) -> Stepper {
        let start: Board = board.parse().unwrap();
        let goal = GoalSpec::default()
            .resolve(start.rows(), start.cols())
            .unwrap();
        let problem = Problem { start, goal };
        let h = HeuristicSpec::Kind(HeuristicKind::Manhattan);
        Stepper::new(&problem, algorithm, &h, 1 << 30).unwrap()
    }

    /// What a moment shows: the counts, the last expansion, the open list, the tree.
    fn moment(s: &Stepper) -> (u64, u64, usize, usize, u32) {
        (
            s.expanded(),
            s.generated(),
            s.open_len(),
            s.tree().len(),
            s.bound(),
        )
    }

    #[test]
    fn any_step_brought_back_is_the_search_stepped_that_far() {
        for algorithm in [Algorithm::Bfs, Algorithm::AStar, Algorithm::IdaStar] {
            let board = "8 6 7/2 5 4/3 0 1";
            // A small budget: the checkpoints are thinned out several times.
            let mut h = History::new(stepper(board, algorithm), 40_000);
            let mut fresh = Vec::new();
            let mut s = stepper(board, algorithm);
            fresh.push((moment(&s), s.last().cloned()));
            for _ in 0..600 {
                if h.step().is_err() || s.step().is_err() {
                    break;
                }
                fresh.push((moment(&s), s.last().cloned()));
            }
            let reached = h.figures().reached;
            assert_eq!(reached as usize + 1, fresh.len(), "{algorithm:?}");
            for n in [0, 1, 599, 63, 64, 65, 300, 2, 599, 0, 128, 127] {
                let n = n.min(reached);
                assert_eq!(h.go_to(n), n);
                let s = h.stepper();
                assert_eq!(
                    (moment(s), s.last().cloned()),
                    fresh[n as usize],
                    "{algorithm:?} at step {n}"
                );
            }
            // Stepping on from a moment brought back resumes from it.
            h.go_to(100);
            h.step().unwrap();
            assert_eq!(moment(h.stepper()), fresh[101].0);
            assert!(h.figures().thinned, "{algorithm:?}: {:?}", h.figures());
        }
    }

    #[test]
    fn a_checkpoints_bytes_count_the_trees_successors() {
        let mut s = stepper("8 6 7/2 5 4/3 0 1", Algorithm::AStar);
        for _ in 0..200 {
            s.step().unwrap();
        }
        let tree: u64 = s.tree().iter().map(|n| n.bytes() as u64).sum();
        assert!(s.tree().iter().all(|n| !n.successors.is_empty()));
        assert!(s.approx_bytes() >= tree, "{} < {tree}", s.approx_bytes());
    }

    #[test]
    fn the_search_ends_where_it_was_solved_and_stays_there() {
        let mut h = History::new(
            stepper("1 2 3/4 5 6/7 0 8", Algorithm::AStar),
            HISTORY_BUDGET,
        );
        let mut n = 0;
        while h.step().unwrap() != Step::Solved {
            n += 1;
        }
        let f = h.figures();
        assert!(f.ended);
        assert_eq!(f.reached, n + 1);
        assert_eq!(h.step().unwrap(), Step::Solved);
        assert_eq!(h.figures().reached, n + 1);
        assert_eq!(h.go_to(0), 0);
        assert_eq!(h.stepper().solution(), None);
        assert_eq!(h.go_to(u64::MAX), n + 1);
        assert_eq!(h.stepper().solution().map(<[_]>::len), Some(1));
    }
}
