//! Boards at an exact optimal distance from the goal, for benchmarks at a controlled depth
//! (`npuzzle generate --optimal D`).
//!
//! Boards of at most [`MAX_TABLE_CELLS`](super::bfs::MAX_TABLE_CELLS) cells are drawn uniformly
//! among those at that distance from the exact distance table ([`DepthTable`]). On larger
//! boards a small D is enumerated exactly: a breadth-first search from the goal, layer by
//! layer, gives every board at distance D while the layers fit [`EXACT_BYTES`] (D up to 20 on
//! 4×4), and the boards are drawn uniformly among them. Beyond that they are found by solving
//! candidates: random walks from the goal (never undoing the last move),
//! each solved optimally by the caller's search, kept when their length is exactly D. A walk
//! of k moves ends at most k moves away, with the distance's parity that of k, so walks of D
//! moves or more of D's parity are the only candidates that can answer; their length adapts
//! to the lengths found (longer when the boards fall short of D, shorter when they overshoot),
//! so that most candidates land near D. Uniform random boards with rejection would answer only
//! near the shape's mean distance (about 53 moves on 4×4), and never at small D. The boards
//! are therefore not uniform among those at distance D, but each is exactly D moves away.
//! The walks stop after [`STALL`] candidates in a row bring no new board, as when fewer boards
//! than asked exist at D.

use std::collections::HashSet;

use rand::Rng;

use super::SearchError;
use super::key::{Key, KeyMap, with_key};
use super::measure::DepthTable;
use crate::puzzle::random::{MAX_WALK, random_walk};
use crate::puzzle::{Board, Goal, Move};

/// The memory the exact enumeration may hold (three layers of packed boards): 64 MiB, four
/// million boards of up to 16 cells, reached past layer 20 on 4×4 in about a second.
pub const EXACT_BYTES: usize = 64 << 20;

/// The walks stop after this many candidates in a row solved without a new board at D: then
/// the boards at D are few (or rare among the walks' ends), and the search would not end.
pub const STALL: u64 = 20_000;

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

/// How a search for boards at a depth ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ended {
    /// It found the boards asked for.
    Count,
    /// Every board at the depth was enumerated, and fewer exist than asked for: all are given.
    AllFound,
    /// [`STALL`] candidates in a row brought no new board: fewer than asked for are given,
    /// and more may exist.
    Stalled,
}

/// The boards a search found, and how it ended.
#[derive(Debug)]
pub struct Found {
    /// The boards, numbered from 1.
    pub boards: Vec<AtDepth>,
    /// Why it gave these.
    pub ended: Ended,
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
/// with `rng`: from `table` when given, else from an exact enumeration when the layers fit
/// [`EXACT_BYTES`] (both uniformly), else by random walks whose ends `solve` solves optimally
/// (it gives the optimal length, or a search error, which stops the search) until [`STALL`]
/// candidates in a row bring no new board. `progress` hears of every candidate solved.
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
) -> Result<Found, Stopped> {
    let exact = match table {
        Some(t) => Some(t.boards_at(depth, count, rng)),
        None => with_key!(goal.board().len(), K => layer::<K>(goal, depth, EXACT_BYTES)
            .map(|all| draw(goal, all, count, rng))),
    };
    if let Some(boards) = exact {
        let ended = if boards.len() < count {
            Ended::AllFound
        } else {
            Ended::Count
        };
        return Ok(Found {
            boards: number(boards.into_iter().map(|b| (b, depth))),
            ended,
        });
    }
    let mut found: Vec<(Board, u32)> = Vec::new();
    let mut seen = HashSet::new();
    let mut state = Sampling {
        walk: depth as usize,
        ..Sampling::default()
    };
    let mut in_a_row = 0u64;
    while found.len() < count {
        if in_a_row >= STALL {
            return Ok(Found {
                boards: number(found.into_iter()),
                ended: Ended::Stalled,
            });
        }
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
            in_a_row = 0;
        } else {
            in_a_row += 1;
        }
        state.found = found.len();
        // A walk's end has the parity of its length: D − length is even, and the walk stays
        // at D or longer with D's parity.
        let next = state.walk as i64 + i64::from(depth) - i64::from(length);
        let longest = (depth as usize + LONGEST_WALK_ABOVE_D).min(MAX_WALK);
        state.walk = next.clamp(i64::from(depth), longest as i64) as usize;
        progress(&state);
    }
    Ok(Found {
        boards: number(found.into_iter()),
        ended: Ended::Count,
    })
}

/// Every board exactly `depth` moves from `goal`, packed as `K`, in key order; `None` when the
/// breadth-first search's last three layers would hold more than `bytes`. The moves graph is
/// bipartite (a move changes the blank's cell colour), so a layer's neighbours are in the
/// layers before and after it only: the next layer is the current one's neighbours less the
/// previous layer.
fn layer<K: Key + Ord>(goal: &Goal, depth: u32, bytes: usize) -> Option<Vec<K>> {
    let b = goal.board();
    let (rows, cols, n) = (b.rows(), b.cols(), b.len());
    // A packed board in a hash set: the key, its heap bytes, and the table's slack.
    let entry = 2 * (std::mem::size_of::<K>() + K::heap_bytes(n)) + 1;
    let most = bytes / entry;
    let mut prev: KeyMap<K, ()> = KeyMap::default();
    let mut cur: KeyMap<K, ()> = KeyMap::default();
    cur.insert(K::pack(b.tiles()), ());
    let mut tiles = vec![0u8; n];
    for _ in 0..depth {
        let mut next: KeyMap<K, ()> = KeyMap::default();
        for key in cur.keys() {
            key.unpack(&mut tiles);
            let blank = tiles.iter().position(|&t| t == 0).unwrap_or(0);
            for m in Move::ALL {
                let Some(to) = crate::puzzle::move_target(rows, cols, blank, m) else {
                    continue;
                };
                tiles.swap(blank, to);
                let k = K::pack(&tiles);
                tiles.swap(blank, to);
                if !prev.contains_key(&k) {
                    next.insert(k, ());
                }
            }
            if prev.len() + cur.len() + next.len() > most {
                return None;
            }
        }
        prev = std::mem::replace(&mut cur, next);
        if cur.is_empty() {
            break;
        }
    }
    let mut all: Vec<K> = cur.into_keys().collect();
    all.sort_unstable();
    Some(all)
}

/// `count` of `all` (packed boards of `goal`'s shape) drawn uniformly with `rng`, all of them
/// when fewer, as boards in the order drawn.
fn draw<K: Key>(goal: &Goal, all: Vec<K>, count: usize, rng: &mut impl Rng) -> Vec<Board> {
    let b = goal.board();
    let mut tiles = vec![0u8; b.len()];
    rand::seq::index::sample(rng, all.len(), count.min(all.len()))
        .into_iter()
        .filter_map(|i| {
            all[i].unpack(&mut tiles);
            Board::from_u8(b.rows(), b.cols(), &tiles).ok()
        })
        .collect()
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
