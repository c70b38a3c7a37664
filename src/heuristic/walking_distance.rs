//! Walking distance (Takahashi Ken'ichiro, 2002; described in Korf & Felner's and in
//! Takahashi's notes on the 15-puzzle): a vertical and a horizontal abstraction of the board,
//! each solved exactly by a breadth-first search, their distances added.
//!
//! The vertical abstraction forgets which column a tile is in and which tile it is, keeping only
//! its goal row: a state is the `rows × rows` matrix `m[i][j]` = the number of tiles in row `i`
//! whose goal row is `j`, and the blank's row. A vertical move of the blank from row `b` to a
//! neighbouring row `b'` takes one tile of some goal row `j` from `b'` to `b` (any `j` with
//! `m[b'][j] > 0`), for one move. The horizontal abstraction is the same with columns. Every
//! real move is a move in exactly one abstraction and changes nothing in the other, so the sum of
//! the two exact distances is admissible, and it is consistent (one move changes one of them by
//! at most one). It dominates Manhattan distance, which is the same relaxation without the
//! constraint that a tile can only pass the blank.
//!
//! States are numbered in breadth-first order; a table of transitions per state, direction and
//! goal row (or column) makes an incremental update one table read. 4×4 has 24,964 vertical
//! states and as many horizontal ones.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use rustc_hash::FxHashMap;

use super::{Heuristic, HeuristicKind, Incremental};
use crate::puzzle::Goal;

/// Most lines (rows, or columns) an abstraction may have: the matrix packs 4 bits per entry
/// and the blank's line into a `u128`.
const MAX_LINES: usize = 5;
/// Most cells in a line (a count must fit 4 bits).
const MAX_LINE_LEN: usize = 15;
/// Most states one abstraction may have (its tables take about 45 bytes a state).
const MAX_STATES: usize = 4_000_000;

/// Why a walking-distance table cannot be made for a board.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum WalkingDistanceError {
    /// A board of more than 4 rows and columns other than 5×2, 5×3, 2×5 and 3×5.
    #[error(
        "walking distance takes boards whose sides are at most 4, or 5 and at most 3 (4×4, 4×3, 5×3, 3×5, 5×2, …), not {rows}×{cols}"
    )]
    Shape {
        /// Rows of the board.
        rows: usize,
        /// Columns of the board.
        cols: usize,
    },
    /// An abstraction has more states than 4,000,000 (`MAX_STATES`).
    #[error("walking distance for {rows}×{cols} boards has more than {MAX_STATES} states per axis")]
    TooManyStates {
        /// Rows of the board.
        rows: usize,
        /// Columns of the board.
        cols: usize,
    },
}

/// One abstraction solved: every state's distance to the goal and its transitions.
#[derive(Debug)]
struct AxisTable {
    /// Lines (rows for the vertical abstraction); also the number of goal classes.
    lines: usize,
    /// `dist[id]`: moves from state `id` to the goal state, along this axis.
    dist: Vec<u8>,
    /// `next[(id * 2 + dir) * lines + class]`: the state after the blank moves up (`dir` 0)
    /// or down (`dir` 1) past a tile of goal line `class`; `u32::MAX` where there is none
    /// (ids are below 4,000,000 (`MAX_STATES`), so that value is never a state).
    next: Vec<u32>,
    /// State key (4 bits per matrix entry, then the blank's line) → id.
    index: FxHashMap<u128, u32>,
}

fn key(m: &[u8], blank: usize, lines: usize) -> u128 {
    let mut k = 0u128;
    for (i, &c) in m.iter().enumerate() {
        k |= u128::from(c) << (4 * i);
    }
    k | (blank as u128) << (4 * lines * lines)
}

impl AxisTable {
    /// Breadth-first search of the abstraction with `lines` lines of `len` cells whose goal
    /// has the blank on line `goal_blank`.
    fn build(lines: usize, len: usize, goal_blank: usize) -> Option<AxisTable> {
        let cells = lines * lines;
        // The states reachable by the blank moving from `k` up (dir 0) or down (dir 1) past a
        // tile of each goal line: (dir, class, key).
        let children = |k: u128, out: &mut Vec<(usize, usize, u128)>| {
            out.clear();
            let b = (k >> (4 * cells)) as usize;
            let m = |i: usize| (k >> (4 * i)) & 15;
            for (dir, nb) in [(0, b.wrapping_sub(1)), (1, b + 1)] {
                if nb >= lines {
                    continue;
                }
                for class in 0..lines {
                    if m(nb * lines + class) == 0 {
                        continue;
                    }
                    let moved =
                        (k - (1 << (4 * (nb * lines + class)))) + (1 << (4 * (b * lines + class)));
                    let moved = moved & !(15u128 << (4 * cells)) | (nb as u128) << (4 * cells);
                    out.push((dir, class, moved));
                }
            }
        };
        let mut start = vec![0u8; cells];
        for i in 0..lines {
            start[i * lines + i] = (len - usize::from(i == goal_blank)) as u8;
        }
        let mut states = vec![key(&start, goal_blank, lines)];
        let mut index = FxHashMap::default();
        index.insert(states[0], 0u32);
        let mut dist = vec![0u8];
        let mut out = Vec::new();
        let mut head = 0;
        while head < states.len() {
            children(states[head], &mut out);
            for &(_, _, c) in &out {
                if let std::collections::hash_map::Entry::Vacant(e) = index.entry(c) {
                    if states.len() >= MAX_STATES {
                        return None;
                    }
                    e.insert(states.len() as u32);
                    states.push(c);
                    dist.push(dist[head] + 1);
                }
            }
            head += 1;
        }
        let mut next = vec![u32::MAX; states.len() * 2 * lines];
        for (id, &k) in states.iter().enumerate() {
            children(k, &mut out);
            for &(dir, class, c) in &out {
                next[(id * 2 + dir) * lines + class] = index[&c];
            }
        }
        Some(AxisTable {
            lines,
            dist,
            next,
            index,
        })
    }

    #[inline(always)]
    fn step(&self, id: u32, dir: usize, class: u8) -> u32 {
        self.next[(id as usize * 2 + dir) * self.lines + class as usize]
    }
}

/// Tables already built, by (lines, line length, blank's goal line): a search builds its
/// heuristic per thread, and the tables are shared.
fn table(lines: usize, len: usize, goal_blank: usize) -> Option<Arc<AxisTable>> {
    type Cache = Mutex<HashMap<(usize, usize, usize), Option<Arc<AxisTable>>>>;
    static CACHE: OnceLock<Cache> = OnceLock::new();
    let cache = CACHE.get_or_init(Default::default);
    let k = (lines, len, goal_blank);
    if let Some(t) = cache.lock().unwrap_or_else(|e| e.into_inner()).get(&k) {
        return t.clone();
    }
    let t = AxisTable::build(lines, len, goal_blank).map(Arc::new);
    cache
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .insert(k, t.clone());
    t
}

/// The walking-distance heuristic for one goal: the vertical and horizontal abstractions'
/// exact distances, added. Built by [`WalkingDistance::new`], for the shapes that
/// [`WalkingDistance::check_shape`] takes (the 8- and 15-puzzles and smaller rectangles).
#[derive(Clone, Debug)]
pub struct WalkingDistance {
    rows: usize,
    cols: usize,
    vertical: Arc<AxisTable>,
    horizontal: Arc<AxisTable>,
    /// `goal_row[t]`, `goal_col[t]`: tile `t`'s goal row and column.
    goal_row: Vec<u8>,
    goal_col: Vec<u8>,
}

impl WalkingDistance {
    /// Whether a `rows × cols` board can have walking distance, without building it: sides up
    /// to 4, or a side of 5 and the other up to 3. (An abstraction with 5 lines of 4 cells has
    /// more than 4,000,000 (`MAX_STATES`) states; 5×5 has 65,650,495, too many to build on demand.)
    ///
    /// # Errors
    /// [`WalkingDistanceError::Shape`] for other shapes.
    pub fn check_shape(rows: usize, cols: usize) -> Result<(), WalkingDistanceError> {
        let (long, short) = (rows.max(cols), rows.min(cols));
        if long > MAX_LINES || (long == MAX_LINES && short > 3) || long > MAX_LINE_LEN {
            return Err(WalkingDistanceError::Shape { rows, cols });
        }
        Ok(())
    }

    /// Builds (or takes from the tables already built in this process) the heuristic for
    /// `goal`: two breadth-first searches, milliseconds for 4×4.
    ///
    /// # Errors
    /// [`WalkingDistanceError`] for a board it does not take.
    pub fn new(goal: &Goal) -> Result<WalkingDistance, WalkingDistanceError> {
        let b = goal.board();
        let (rows, cols) = (b.rows(), b.cols());
        Self::check_shape(rows, cols)?;
        let pos = goal.positions();
        let blank = pos[0] as usize;
        let too_many = WalkingDistanceError::TooManyStates { rows, cols };
        let vertical = table(rows, cols, blank / cols).ok_or(too_many.clone())?;
        let horizontal = table(cols, rows, blank % cols).ok_or(too_many)?;
        Ok(WalkingDistance {
            rows,
            cols,
            vertical,
            horizontal,
            goal_row: pos.iter().map(|&p| (p as usize / cols) as u8).collect(),
            goal_col: pos.iter().map(|&p| (p as usize % cols) as u8).collect(),
        })
    }

    /// The vertical and horizontal states of a board.
    fn states(&self, tiles: &[u8]) -> (u32, u32) {
        let (r, c) = (self.rows, self.cols);
        let mut mv = vec![0u8; r * r];
        let mut mh = vec![0u8; c * c];
        let (mut br, mut bc) = (0, 0);
        for (cell, &t) in tiles.iter().enumerate() {
            let (row, col) = (cell / c, cell % c);
            if t == 0 {
                (br, bc) = (row, col);
            } else {
                mv[row * r + self.goal_row[t as usize] as usize] += 1;
                mh[col * c + self.goal_col[t as usize] as usize] += 1;
            }
        }
        // Every board of the goal's size and tiles is a state of both abstractions: the
        // searches reach every matrix with the goal's line counts (moves are reversible and
        // connect them all).
        (
            self.vertical.index[&key(&mv, br, r)],
            self.horizontal.index[&key(&mh, bc, c)],
        )
    }

    /// The two parts of a board's walking distance: (vertical, horizontal) moves.
    pub fn parts(&self, tiles: &[u8]) -> (u32, u32) {
        let (v, h) = self.states(tiles);
        (
            u32::from(self.vertical.dist[v as usize]),
            u32::from(self.horizontal.dist[h as usize]),
        )
    }
}

impl Heuristic for WalkingDistance {
    fn estimate(&self, tiles: &[u8]) -> u32 {
        let (v, h) = self.parts(tiles);
        v + h
    }

    fn name(&self) -> &str {
        HeuristicKind::WalkingDistance.name()
    }
}

/// What undoing a move restores: both states.
#[derive(Clone, Copy, Debug)]
pub struct WdUndo(u32, u32);

impl Incremental for WalkingDistance {
    /// The vertical and horizontal state ids.
    type State = (u32, u32);
    type Prepared = ();
    type Undo = WdUndo;

    fn init(&self, tiles: &[u8]) -> ((u32, u32), u32) {
        let s = self.states(tiles);
        (
            s,
            u32::from(self.vertical.dist[s.0 as usize] + self.horizontal.dist[s.1 as usize]),
        )
    }

    #[inline(always)]
    fn apply(
        &self,
        st: &mut (u32, u32),
        _: &[u8],
        tile: u8,
        from: usize,
        to: usize,
        _: (),
        _: u32,
    ) -> (i32, WdUndo) {
        let undo = WdUndo(st.0, st.1);
        let c = self.cols;
        // The blank goes from `to` to `from`: up (0) when `from` is above or left of `to`.
        let dir = usize::from(from > to);
        if from / c != to / c {
            let (old, new) = (
                st.0,
                self.vertical.step(st.0, dir, self.goal_row[tile as usize]),
            );
            st.0 = new;
            let d = &self.vertical.dist;
            (
                i32::from(d[new as usize]) - i32::from(d[old as usize]),
                undo,
            )
        } else {
            let (old, new) = (
                st.1,
                self.horizontal
                    .step(st.1, dir, self.goal_col[tile as usize]),
            );
            st.1 = new;
            let d = &self.horizontal.dist;
            (
                i32::from(d[new as usize]) - i32::from(d[old as usize]),
                undo,
            )
        }
    }

    #[inline(always)]
    fn undo(&self, st: &mut (u32, u32), _: &[u8], _: u8, _: usize, _: usize, u: WdUndo) {
        *st = (u.0, u.1);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn state_counts_match_the_published_ones() {
        // 4×4: 24,964 states per axis (Takahashi); 3×3: 105.
        assert_eq!(AxisTable::build(4, 4, 3).unwrap().dist.len(), 24_964);
        assert_eq!(AxisTable::build(3, 3, 2).unwrap().dist.len(), 105);
        // The deepest 4×4 state is 35 moves from the goal along one axis.
        assert_eq!(
            AxisTable::build(4, 4, 3).unwrap().dist.iter().max(),
            Some(&35)
        );
    }

    #[test]
    fn every_shape_it_takes_builds_and_no_other() {
        for rows in 2..=6 {
            for cols in 2..=6 {
                let takes = WalkingDistance::check_shape(rows, cols).is_ok();
                assert_eq!(
                    takes,
                    rows.max(cols) <= 4 || rows.max(cols) == 5 && rows.min(cols) <= 3
                );
                if takes {
                    for blank in [0, rows - 1] {
                        assert!(
                            AxisTable::build(rows, cols, blank).is_some(),
                            "{rows}×{cols}"
                        );
                    }
                }
            }
        }
        // The first shape refused is refused for its size.
        assert!(AxisTable::build(5, 4, 4).is_none());
    }
}
