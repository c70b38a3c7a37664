//! Boards at an exact optimal distance from the goal, for benchmarks at a controlled depth
//! (`npuzzle generate --optimal D`).
//!
//! Boards of at most [`MAX_TABLE_CELLS`](super::bfs::MAX_TABLE_CELLS) cells are drawn uniformly
//! among those at that distance from the exact distance table ([`DepthTable`]). Larger boards
//! are found by solving candidates: random walks from the goal (never undoing the last move),
//! each solved optimally by the caller's search, kept when their length is exactly D. A walk
//! of k moves ends at most k moves away, with the distance's parity that of k, so walks of D
//! moves or more of D's parity are the only candidates that can answer; their length adapts
//! to the lengths found (longer when the boards fall short of D, shorter when they overshoot),
//! so that most candidates land near D. Uniform random boards with rejection would answer only
//! near the shape's mean distance (about 53 moves on 4×4), and never at small D. The boards
//! are therefore not uniform among those at distance D, but each is exactly D moves away.

use std::collections::HashSet;

use rand::Rng;

use super::SearchError;
use super::measure::DepthTable;
use crate::puzzle::random::{MAX_WALK, random_walk};
use crate::puzzle::{Board, Goal};

/// Walks are at most this many moves longer than D: a walk of thousands of moves ends as a
/// near-uniform board on every shape solved quickly, so a longer one draws no deeper (a D
/// rare among uniform boards, near the diameter, is then found only by chance).
pub const LONGEST_WALK_ABOVE_D: usize = 4_096;

/// A board found at its optimal distance from the goal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AtDepth {
    /// Its number, 1-based, in the order found.
    pub id: usize,
    /// The board.
    pub board: Board,
    /// Its optimal solution's length, in moves.
    pub length: u32,
}

/// Why no board can be at the asked distance.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DepthError {
    /// Beyond the largest distance of any board of the shape.
    #[error(
        "no {rows}×{cols} board is {depth} moves from the goal: the farthest are {diameter} ({known})"
    )]
    BeyondDiameter {
        /// The distance asked for.
        depth: u32,
        /// The shape's diameter.
        diameter: u32,
        /// Rows.
        rows: usize,
        /// Columns.
        cols: usize,
        /// Where the diameter comes from.
        known: &'static str,
    },
}

/// The largest optimal distance of any board of `goal`'s shape when known, and its source:
/// computed for boards of at most 10 cells (`table`, the exact distances, when given),
/// published for 3×4 (53; Korf 2008, "Linear-time disk-based implicit graph search") and 4×4
/// (80; Brüngger, Marzetta, Fukuda & Nievergelt 1999). `None`: unknown.
pub fn diameter(goal: &Goal, table: Option<&DepthTable>) -> Option<(u32, &'static str)> {
    if let Some(t) = table {
        return Some((t.max_depth(), "a breadth-first search of every board"));
    }
    let b = goal.board();
    match (b.rows().min(b.cols()), b.rows().max(b.cols())) {
        (3, 4) => Some((53, "Korf 2008")),
        (4, 4) => Some((80, "Brüngger et al. 1999")),
        _ => None,
    }
}

/// Checks that some board of `goal`'s shape can be `depth` moves away. Any depth up to the
/// diameter has boards: a board's distance has the parity of its blank's distance from the
/// blank's goal cell, which differs from board to board, so no depth is ruled out by parity.
///
/// # Errors
/// [`DepthError::BeyondDiameter`].
pub fn check_depth(goal: &Goal, depth: u32, table: Option<&DepthTable>) -> Result<(), DepthError> {
    match diameter(goal, table) {
        Some((diameter, source)) if depth > diameter => Err(DepthError::BeyondDiameter {
            depth,
            diameter,
            rows: goal.board().rows(),
            cols: goal.board().cols(),
            known: source,
        }),
        _ => Ok(()),
    }
}

/// How a search for boards at a depth is going, for a progress display.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Sampling {
    /// Candidates solved so far.
    pub solved: u64,
    /// Boards found at the depth so far.
    pub found: usize,
    /// The length of the walks drawn now.
    pub walk: usize,
}

/// What was found before a search stopped (a limit, cancel), and why it stopped.
#[derive(Debug)]
pub struct Stopped {
    /// The boards found until then.
    pub found: Vec<AtDepth>,
    /// Why it stopped.
    pub error: SearchError,
}

/// `count` distinct boards exactly `depth` moves from `goal` (fewer where fewer exist), drawn
/// with `rng`: from `table` when given (uniformly), else by random walks whose ends `solve`
/// solves optimally (it gives the optimal length, or a search error, which stops the search).
/// `progress` hears of every candidate solved.
///
/// # Errors
/// [`Stopped`] with the boards found before `solve` failed.
pub fn boards_at_depth(
    goal: &Goal,
    depth: u32,
    count: usize,
    rng: &mut impl Rng,
    table: Option<&DepthTable>,
    solve: &mut dyn FnMut(&Board) -> Result<u32, SearchError>,
    progress: &mut dyn FnMut(&Sampling),
) -> Result<Vec<AtDepth>, Stopped> {
    if let Some(t) = table {
        return Ok(number(
            t.boards_at(depth, count, rng)
                .into_iter()
                .map(|b| (b, depth)),
        ));
    }
    let mut found: Vec<(Board, u32)> = Vec::new();
    let mut seen = HashSet::new();
    let mut state = Sampling {
        walk: depth as usize,
        ..Sampling::default()
    };
    while found.len() < count {
        let board = random_walk(goal, state.walk, rng);
        let length = match solve(&board) {
            Ok(l) => l,
            Err(error) => {
                return Err(Stopped {
                    found: number(found.into_iter()),
                    error,
                });
            }
        };
        state.solved += 1;
        if length == depth && seen.insert(board.clone()) {
            found.push((board, length));
        }
        state.found = found.len();
        // A walk's end has the parity of its length: D − length is even, and the walk stays
        // at D or longer with D's parity.
        let next = state.walk as i64 + i64::from(depth) - i64::from(length);
        let longest = (depth as usize + LONGEST_WALK_ABOVE_D).min(MAX_WALK);
        state.walk = next.clamp(i64::from(depth), longest as i64) as usize;
        progress(&state);
    }
    Ok(number(found.into_iter()))
}

/// Numbers boards from 1 in order.
fn number(boards: impl Iterator<Item = (Board, u32)>) -> Vec<AtDepth> {
    boards
        .enumerate()
        .map(|(i, (board, length))| AtDepth {
            id: i + 1,
            board,
            length,
        })
        .collect()
}
