//! Admissible heuristics: Hamming, Manhattan, Manhattan + linear conflict, walking distance,
//! and additive pattern databases ([`pdb`]: tables, their builder and their on-disk cache);
//! and, for teaching only, one that overestimates ([`TwiceManhattan`]).
//!
//! All are relative to a [`Goal`], count moves, and never count the blank. Each implements
//! [`Heuristic`] (evaluate a whole board) and [`Incremental`] (update `h` after one move), which IDA* uses in its inner
//! loop. [`HeuristicKind`] names the plain heuristics; [`HeuristicSpec`] is a heuristic ready to
//! search with.

mod choice;
pub mod explain;
mod hamming;
mod linear_conflict;
mod manhattan;
mod max;
mod overestimate;
pub mod pdb;
mod walking_distance;

use std::fmt;
use std::str::FromStr;

pub use choice::{
    HeuristicChoice, HeuristicNameError, ResolveError, ResolveOptions, Resolved, catalogue_bytes,
    comparable, is_cached, is_catalogue_cached, resolve, table_bytes,
};
pub use hamming::Hamming;
pub use linear_conflict::LinearConflict;
pub use manhattan::Manhattan;
pub use max::{MaxOf, MaxUndo};
pub use overestimate::TwiceManhattan;
pub use walking_distance::{WalkingDistance, WalkingDistanceError};

use crate::puzzle::Goal;

/// Estimates the number of moves from a board to the goal it was built for.
pub trait Heuristic: Send + Sync {
    /// `h` of a board given as tiles, row-major, `0` = blank, of the size the heuristic was
    /// built for. Admissible: never more than the true distance, in moves.
    fn estimate(&self, tiles: &[u8]) -> u32;

    /// The heuristic's name, e.g. `linear-conflict` or `pdb78`.
    fn name(&self) -> &str;
}

/// A heuristic that can update its value after a single move instead of re-evaluating the
/// board: what IDA* calls in its inner loop.
///
/// A move of `tile` from cell `from` to cell `to` (the blank goes the other way) is made in
/// up to three steps: [`Incremental::prepare`] on the board before the move (so that a node's
/// table reads can all start before the first value is needed), [`Incremental::apply`] on the
/// board after it, and [`Incremental::undo`] on the board after the move is taken back.
pub trait Incremental: Heuristic {
    /// Per-board bookkeeping kept between moves (e.g. linear-conflict line codes).
    type State: Clone + Send;

    /// What [`Incremental::prepare`] computes ahead of a move (nothing by default).
    type Prepared: Copy + Default;

    /// What [`Incremental::undo`] needs to revert one [`Incremental::apply`].
    type Undo: Copy;

    /// Builds the state for a board and returns it with the board's `h`.
    fn init(&self, tiles: &[u8]) -> (Self::State, u32);

    /// Starts evaluating a move of `tile` from `from` to `to`; `tiles` is the board *before*
    /// the move. The state must not change between this and [`Incremental::apply`], except by
    /// moves undone in between. By default, nothing.
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

    /// Accounts for `tile` having slid from `from` to `to`, with what
    /// [`Incremental::prepare`] computed; `tiles` is the board *after* the move. Returns the
    /// change in `h` and what undoing it needs.
    ///
    /// The heuristic may stop early once the new `h` is known to be at least `enough`,
    /// returning a change to a lower bound that is itself at least `enough` (IDA* then prunes
    /// the node without the exact value); the state must then only be passed to
    /// [`Incremental::undo`]. With `enough = u32::MAX` the change is exact.
    #[allow(clippy::too_many_arguments)]
    fn apply(
        &self,
        state: &mut Self::State,
        tiles: &[u8],
        tile: u8,
        from: usize,
        to: usize,
        prepared: Self::Prepared,
        enough: u32,
    ) -> (i32, Self::Undo);

    /// Reverts the [`Incremental::apply`] that returned `undo`; `tiles` is the board after
    /// the move was taken back (`tile` back on `from`).
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
    /// Walking distance (Takahashi 2002): the exact distances of a vertical and a horizontal
    /// abstraction of the board, added; boards of at most 5 rows and 5 columns.
    WalkingDistance,
    /// The larger of walking distance and linear conflict ([`MaxOf`]); the shapes walking
    /// distance takes.
    WalkingDistanceLc,
    /// For teaching, **not admissible**: twice the Manhattan distance ([`TwiceManhattan`]),
    /// which overestimates; never picked by `auto`, not in [`HeuristicKind::ALL`].
    OverestimatingManhattan,
}

impl HeuristicKind {
    /// The admissible kinds, weakest first ([`HeuristicKind::OverestimatingManhattan`] is not one).
    pub const ALL: [HeuristicKind; 5] = [
        HeuristicKind::Hamming,
        HeuristicKind::Manhattan,
        HeuristicKind::LinearConflict,
        HeuristicKind::WalkingDistance,
        HeuristicKind::WalkingDistanceLc,
    ];

    /// Name as used on the command line: `hamming`, `manhattan`, `linear-conflict`,
    /// `walking-distance`, `wd-lc`, `overestimating-manhattan`.
    pub fn name(self) -> &'static str {
        match self {
            HeuristicKind::OverestimatingManhattan => "overestimating-manhattan",
            HeuristicKind::Hamming => "hamming",
            HeuristicKind::Manhattan => "manhattan",
            HeuristicKind::LinearConflict => "linear-conflict",
            HeuristicKind::WalkingDistance => "walking-distance",
            HeuristicKind::WalkingDistanceLc => "wd-lc",
        }
    }

    /// Whether h never passes the true distance (all but
    /// [`HeuristicKind::OverestimatingManhattan`]): an optimal search's answers are then optimal.
    pub fn is_admissible(self) -> bool {
        self != HeuristicKind::OverestimatingManhattan
    }

    /// Whether h changes by at most 1 per move (so f = g + h never falls along a path, and A*
    /// never reopens a closed board): all but [`HeuristicKind::OverestimatingManhattan`], which
    /// changes by 2. Hamming, Manhattan and linear conflict: one tile moves one cell; walking
    /// distance: one of its two exact abstract distances changes by at most 1; `wd-lc`: the
    /// larger of two consistent heuristics is consistent (Pearl 1984).
    pub fn is_consistent(self) -> bool {
        self != HeuristicKind::OverestimatingManhattan
    }

    /// What the heuristic counts, in one or two plain sentences for a student (the app's menu,
    /// `npuzzle --help`).
    pub fn about(self) -> &'static str {
        match self {
            HeuristicKind::Hamming => {
                "Misplaced tiles: the number of tiles not on their goal cell. Each of them needs at least one move."
            }
            HeuristicKind::Manhattan => {
                "The sum of each tile's distance to its goal cell, in rows plus columns. A move shifts one tile by one cell."
            }
            HeuristicKind::LinearConflict => {
                "Manhattan, plus 2 for each tile that must step out of its goal row or column to let another tile in that line pass it."
            }
            HeuristicKind::WalkingDistance => {
                "Two simpler puzzles that track only which row, and which column, each tile is in; their exact move counts, added. Boards up to 5 × 5."
            }
            HeuristicKind::WalkingDistanceLc => {
                "The larger of walking distance and linear conflict, board by board."
            }
            HeuristicKind::OverestimatingManhattan => {
                "Twice Manhattan, for teaching: it can count more moves than are needed, so A* and IDA* with it may return a longer path."
            }
        }
    }

    /// Whether this kind takes `rows × cols` boards (all do but walking distance, which takes
    /// at most 5 rows and 5 columns).
    ///
    /// # Errors
    /// The reason, for a shape it does not take.
    pub fn supports(self, rows: usize, cols: usize) -> Result<(), WalkingDistanceError> {
        match self {
            HeuristicKind::WalkingDistance | HeuristicKind::WalkingDistanceLc => {
                WalkingDistance::check_shape(rows, cols)
            }
            _ => Ok(()),
        }
    }

    /// Builds the heuristic for `goal` (its size is the goal board's).
    ///
    /// # Panics
    /// For a shape the kind does not take: check with [`HeuristicKind::supports`] first
    /// ([`crate::search::solve`] and [`resolve`] do).
    pub fn build(self, goal: &Goal) -> Box<dyn Heuristic> {
        match self {
            HeuristicKind::Hamming => Box::new(Hamming::new(goal)),
            HeuristicKind::Manhattan => Box::new(Manhattan::new(goal)),
            HeuristicKind::LinearConflict => Box::new(LinearConflict::new(goal)),
            HeuristicKind::OverestimatingManhattan => Box::new(TwiceManhattan::new(goal)),
            HeuristicKind::WalkingDistance => Box::new(
                WalkingDistance::new(goal).expect("walking distance checked by supports()"),
            ),
            HeuristicKind::WalkingDistanceLc => Box::new(MaxOf::new(
                WalkingDistance::new(goal).expect("walking distance checked by supports()"),
                LinearConflict::new(goal),
                self,
            )),
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
#[error(
    "unknown heuristic {0:?} (expected hamming, manhattan, linear-conflict, walking-distance, wd-lc or overestimating-manhattan)"
)]
pub struct UnknownHeuristic(pub String);

impl FromStr for HeuristicKind {
    type Err = UnknownHeuristic;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.to_ascii_lowercase().replace('_', "-").as_str() {
            "hamming" => Ok(HeuristicKind::Hamming),
            "manhattan" => Ok(HeuristicKind::Manhattan),
            "linear-conflict" | "lc" => Ok(HeuristicKind::LinearConflict),
            "walking-distance" | "wd" => Ok(HeuristicKind::WalkingDistance),
            "wd-lc" => Ok(HeuristicKind::WalkingDistanceLc),
            "overestimating-manhattan" | "twice-manhattan" => {
                Ok(HeuristicKind::OverestimatingManhattan)
            }
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
    /// The maximum over several additive partitions sharing their tables (built or loaded
    /// beforehand).
    PdbMax(std::sync::Arc<pdb::PdbMax>),
}

impl From<HeuristicKind> for HeuristicSpec {
    fn from(k: HeuristicKind) -> Self {
        HeuristicSpec::Kind(k)
    }
}

impl From<std::sync::Arc<pdb::PdbMax>> for HeuristicSpec {
    fn from(p: std::sync::Arc<pdb::PdbMax>) -> Self {
        HeuristicSpec::PdbMax(p)
    }
}

impl From<std::sync::Arc<pdb::AdditivePdb>> for HeuristicSpec {
    fn from(p: std::sync::Arc<pdb::AdditivePdb>) -> Self {
        HeuristicSpec::Pdb(p)
    }
}

impl HeuristicSpec {
    /// Whether h never passes the true distance: every pattern database and every kind but
    /// [`HeuristicKind::OverestimatingManhattan`].
    pub fn is_admissible(&self) -> bool {
        match self {
            HeuristicSpec::Kind(k) => k.is_admissible(),
            HeuristicSpec::Pdb(_) | HeuristicSpec::PdbMax(_) => true,
        }
    }

    /// Name as shown to the user: `linear-conflict`, `pdb78`, …
    pub fn name(&self) -> &str {
        match self {
            HeuristicSpec::Kind(k) => k.name(),
            HeuristicSpec::Pdb(p) => p.name(),
            HeuristicSpec::PdbMax(p) => p.name(),
        }
    }

    /// The heuristic for `goal` (a pattern database must have been built for that goal).
    pub fn build(&self, goal: &Goal) -> Box<dyn Heuristic> {
        match self {
            HeuristicSpec::Kind(k) => k.build(goal),
            HeuristicSpec::Pdb(p) => Box::new(p.as_ref().clone()),
            HeuristicSpec::PdbMax(p) => Box::new(p.as_ref().clone()),
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
