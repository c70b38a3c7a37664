//! Admissible heuristics: Hamming, Manhattan, Manhattan + linear conflict, and additive
//! pattern databases ([`pdb`]: tables, their builder and their on-disk cache).
//!
//! All are relative to a [`Goal`], count moves, and never count the blank. Each implements
//! [`Heuristic`] (evaluate a whole board); Manhattan, linear conflict and the pattern databases
//! also implement [`Incremental`] (update `h` after one move), which IDA* uses in its inner
//! loop. [`HeuristicKind`] names the plain heuristics; [`HeuristicSpec`] is a heuristic ready to
//! search with.

mod choice;
mod hamming;
mod linear_conflict;
mod manhattan;
pub mod pdb;

use std::fmt;
use std::str::FromStr;

pub use choice::{
    HeuristicChoice, HeuristicNameError, ResolveError, ResolveOptions, Resolved, is_cached,
    resolve, table_bytes,
};
pub use hamming::Hamming;
pub use linear_conflict::LinearConflict;
pub use manhattan::Manhattan;

use crate::puzzle::Goal;

/// Estimates the number of moves from a board to the goal it was built for.
pub trait Heuristic: Send + Sync {
    /// `h` of a board given as tiles, row-major, `0` = blank, of the size the heuristic was
    /// built for. Admissible: never more than the true distance, in moves.
    fn estimate(&self, tiles: &[u8]) -> u32;

    /// The heuristic's name, e.g. `linear-conflict` or `pdb78`.
    fn name(&self) -> &str;
}

/// A heuristic that can update its value after a single move instead of re-evaluating the board.
pub trait Incremental: Heuristic {
    /// Per-board bookkeeping kept between moves (e.g. linear-conflict line codes).
    type State: Clone + Send;

    /// Builds the state for a board and returns it with the board's `h`.
    fn init(&self, tiles: &[u8]) -> (Self::State, u32);

    /// Accounts for `tile` having slid from cell `from` to cell `to` (the blank went the other
    /// way). `tiles` is the board *after* the move. Returns the change in `h`. Calling it again
    /// with `from` and `to` swapped (on the board after the undo) restores the state.
    fn apply(&self, state: &mut Self::State, tiles: &[u8], tile: u8, from: usize, to: usize)
    -> i32;

    /// What [`Incremental::undo`] needs to revert one [`Incremental::apply_undoable`].
    type Undo: Copy;

    /// Like [`Incremental::apply`], also returning what reverting it needs.
    fn apply_undoable(
        &self,
        state: &mut Self::State,
        tiles: &[u8],
        tile: u8,
        from: usize,
        to: usize,
    ) -> (i32, Self::Undo);

    /// What [`Incremental::prepare`] computes ahead of a move (nothing by default).
    type Prepared: Copy + Default;

    /// Starts evaluating a move of `tile` from `from` to `to` on the board *before* the move,
    /// so that IDA* can start all of a node's table reads before it needs the first value
    /// (they then overlap in memory). The state must not change between this and
    /// [`Incremental::apply_prepared`], except by moves undone in between.
    #[inline(always)]
    fn prepare(
        &self,
        state: &Self::State,
        tiles: &[u8],
        tile: u8,
        from: usize,
        to: usize,
    ) -> Self::Prepared {
        let _ = (state, tiles, tile, from, to);
        Self::Prepared::default()
    }

    /// [`Incremental::apply_undoable_at_least`] with what [`Incremental::prepare`] computed.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn apply_prepared(
        &self,
        state: &mut Self::State,
        tiles: &[u8],
        tile: u8,
        from: usize,
        to: usize,
        prepared: Self::Prepared,
        enough: u32,
    ) -> (i32, Self::Undo) {
        let _ = prepared;
        self.apply_undoable_at_least(state, tiles, tile, from, to, enough)
    }

    /// Like [`Incremental::apply_undoable`], but the heuristic may stop early once the new `h`
    /// is known to be at least `enough`, returning a lower bound that is itself at least
    /// `enough` (IDA* then prunes the node without needing the exact value). The state must
    /// then only be passed to [`Incremental::undo`]. By default, the exact update.
    #[inline(always)]
    fn apply_undoable_at_least(
        &self,
        state: &mut Self::State,
        tiles: &[u8],
        tile: u8,
        from: usize,
        to: usize,
        enough: u32,
    ) -> (i32, Self::Undo) {
        let _ = enough;
        self.apply_undoable(state, tiles, tile, from, to)
    }

    /// Reverts the `apply_undoable` that returned `undo` (`tiles` is the board after the undo).
    fn undo(
        &self,
        state: &mut Self::State,
        tiles: &[u8],
        tile: u8,
        from: usize,
        to: usize,
        undo: Self::Undo,
    );
}

/// The heuristics known by name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum HeuristicKind {
    /// Number of misplaced tiles.
    Hamming,
    /// Sum of the tiles' Manhattan distances to their goal cells.
    Manhattan,
    /// Manhattan plus twice the minimum number of tiles that must leave each row and column to
    /// resolve its linear conflicts (Hansson, Mayer & Yung 1992).
    LinearConflict,
}

impl HeuristicKind {
    /// All kinds, weakest first.
    pub const ALL: [HeuristicKind; 3] = [
        HeuristicKind::Hamming,
        HeuristicKind::Manhattan,
        HeuristicKind::LinearConflict,
    ];

    /// Name as used on the command line: `hamming`, `manhattan`, `linear-conflict`.
    pub fn name(self) -> &'static str {
        match self {
            HeuristicKind::Hamming => "hamming",
            HeuristicKind::Manhattan => "manhattan",
            HeuristicKind::LinearConflict => "linear-conflict",
        }
    }

    /// Builds the heuristic for `goal` (its size is the goal board's).
    pub fn build(self, goal: &Goal) -> Box<dyn Heuristic> {
        match self {
            HeuristicKind::Hamming => Box::new(Hamming::new(goal)),
            HeuristicKind::Manhattan => Box::new(Manhattan::new(goal)),
            HeuristicKind::LinearConflict => Box::new(LinearConflict::new(goal)),
        }
    }
}

impl fmt::Display for HeuristicKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A heuristic name that is not known.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown heuristic {0:?} (expected hamming, manhattan or linear-conflict)")]
pub struct UnknownHeuristic(pub String);

impl FromStr for HeuristicKind {
    type Err = UnknownHeuristic;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.to_ascii_lowercase().replace('_', "-").as_str() {
            "hamming" => Ok(HeuristicKind::Hamming),
            "manhattan" => Ok(HeuristicKind::Manhattan),
            "linear-conflict" | "lc" => Ok(HeuristicKind::LinearConflict),
            _ => Err(UnknownHeuristic(s.to_string())),
        }
    }
}

/// A heuristic to search with: one of the named kinds, or a built pattern database.
#[derive(Clone, Debug)]
pub enum HeuristicSpec {
    /// Hamming, Manhattan or linear conflict.
    Kind(HeuristicKind),
    /// An additive pattern database (built or loaded beforehand).
    Pdb(std::sync::Arc<pdb::AdditivePdb>),
}

impl From<HeuristicKind> for HeuristicSpec {
    fn from(k: HeuristicKind) -> Self {
        HeuristicSpec::Kind(k)
    }
}

impl From<std::sync::Arc<pdb::AdditivePdb>> for HeuristicSpec {
    fn from(p: std::sync::Arc<pdb::AdditivePdb>) -> Self {
        HeuristicSpec::Pdb(p)
    }
}

impl HeuristicSpec {
    /// Name as shown to the user: `linear-conflict`, `pdb78`, …
    pub fn name(&self) -> &str {
        match self {
            HeuristicSpec::Kind(k) => k.name(),
            HeuristicSpec::Pdb(p) => p.name(),
        }
    }

    /// The heuristic for `goal` (a pattern database must have been built for that goal).
    pub fn build(&self, goal: &Goal) -> Box<dyn Heuristic> {
        match self {
            HeuristicSpec::Kind(k) => k.build(goal),
            HeuristicSpec::Pdb(p) => Box::new(p.as_ref().clone()),
        }
    }
}

/// Per-goal tables shared by the heuristics: goal cell of each tile and Manhattan distances.
#[derive(Clone, Debug)]
pub(crate) struct GoalTables {
    pub rows: usize,
    pub cols: usize,
    /// `goal[t]` = goal cell of tile `t`.
    pub goal: Vec<u8>,
    /// `md[t * n + cell]` = Manhattan distance of tile `t` at `cell` from its goal cell; 0 for the blank.
    pub md: Vec<u8>,
}

impl GoalTables {
    pub fn new(goal: &Goal) -> Self {
        let b = goal.board();
        let (rows, cols, n) = (b.rows(), b.cols(), b.len());
        let goal = goal.positions().to_vec();
        let mut md = vec![0u8; n * n];
        for t in 1..n {
            let g = goal[t] as usize;
            for cell in 0..n {
                md[t * n + cell] =
                    ((cell / cols).abs_diff(g / cols) + (cell % cols).abs_diff(g % cols)) as u8;
            }
        }
        GoalTables {
            rows,
            cols,
            goal,
            md,
        }
    }

    pub fn n(&self) -> usize {
        self.rows * self.cols
    }

    pub fn manhattan(&self, tiles: &[u8]) -> u32 {
        let n = self.n();
        tiles
            .iter()
            .enumerate()
            .map(|(cell, &t)| u32::from(self.md[t as usize * n + cell]))
            .sum()
    }

    #[inline]
    pub fn md_delta(&self, tile: u8, from: usize, to: usize) -> i32 {
        let base = tile as usize * self.n();
        i32::from(self.md[base + to]) - i32::from(self.md[base + from])
    }
}
