//! The plain heuristics taken apart tile by tile, for drawing them on a board: which tiles
//! Hamming counts, each tile's Manhattan distance and goal cell, and for linear conflict each
//! line's tiles in conflict and the ones that must leave the line (+2 each).
//!
//! The sums are the heuristics' values ([`Hamming`](super::Hamming),
//! [`Manhattan`](super::Manhattan), [`LinearConflict`](super::LinearConflict)); tests check
//! them against the heuristics over whole state spaces.

use crate::puzzle::{Board, Goal};

/// One tile's part of Manhattan distance.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TileDistance {
    /// The cell it is on (row-major).
    pub cell: usize,
    /// The tile.
    pub tile: u8,
    /// The cell it belongs in on the goal.
    pub goal_cell: usize,
    /// Rows plus columns between them, in moves.
    pub distance: u32,
}

/// A row or a column.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Line {
    /// Row `r` (0 = top).
    Row(usize),
    /// Column `c` (0 = left).
    Col(usize),
}

/// The linear conflicts of one line: tiles that are in the line they belong to but in an
/// order no sliding within the line can fix.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LineConflict {
    /// The line.
    pub line: Line,
    /// Pairs of cells whose tiles are in reversed order (each pair in conflict).
    pub pairs: Vec<(usize, usize)>,
    /// The fewest tiles that must leave the line (`k − LIS`): cells of one such choice.
    pub leave: Vec<usize>,
}

impl LineConflict {
    /// Moves the line adds to Manhattan distance: 2 per tile that must leave.
    pub fn extra(&self) -> u32 {
        2 * self.leave.len() as u32
    }
}

/// A board's plain heuristics, part by part.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Explanation {
    /// Cells whose tile is not where the goal has it (blank not counted): Hamming's count.
    pub misplaced: Vec<usize>,
    /// Every tile (blank not counted) with its distance to its goal cell.
    pub distances: Vec<TileDistance>,
    /// Lines with conflicts.
    pub conflicts: Vec<LineConflict>,
}

impl Explanation {
    /// Takes `board`'s heuristics apart towards `goal` (same size).
    pub fn of(board: &Board, goal: &Goal) -> Explanation {
        let (rows, cols) = (board.rows(), board.cols());
        let pos = goal.positions();
        let tiles = board.tiles();
        let mut misplaced = Vec::new();
        let mut distances = Vec::new();
        for (cell, &t) in tiles.iter().enumerate() {
            if t == 0 {
                continue;
            }
            let g = pos[t as usize] as usize;
            if g != cell {
                misplaced.push(cell);
            }
            let d = (cell / cols).abs_diff(g / cols) + (cell % cols).abs_diff(g % cols);
            distances.push(TileDistance {
                cell,
                tile: t,
                goal_cell: g,
                distance: d as u32,
            });
        }
        let mut conflicts = Vec::new();
        let lines = (0..rows)
            .map(|r| {
                (
                    Line::Row(r),
                    (0..cols).map(|c| r * cols + c).collect::<Vec<_>>(),
                )
            })
            .chain((0..cols).map(|c| (Line::Col(c), (0..rows).map(|r| r * cols + c).collect())));
        for (line, cells) in lines {
            // The tiles of this line that belong in it, in line order, with their goal place
            // along the line.
            let own: Vec<(usize, usize)> = cells
                .iter()
                .filter_map(|&cell| {
                    let t = tiles[cell];
                    let g = pos[t as usize] as usize;
                    let belongs = t != 0
                        && match line {
                            Line::Row(r) => g / cols == r,
                            Line::Col(c) => g % cols == c,
                        };
                    let along = match line {
                        Line::Row(_) => g % cols,
                        Line::Col(_) => g / cols,
                    };
                    belongs.then_some((cell, along))
                })
                .collect();
            let mut pairs = Vec::new();
            for i in 0..own.len() {
                for j in i + 1..own.len() {
                    if own[i].1 > own[j].1 {
                        pairs.push((own[i].0, own[j].0));
                    }
                }
            }
            if pairs.is_empty() {
                continue;
            }
            let keep = longest_increasing(&own.iter().map(|o| o.1).collect::<Vec<_>>());
            let leave = own
                .iter()
                .enumerate()
                .filter(|(i, _)| !keep.contains(i))
                .map(|(_, o)| o.0)
                .collect();
            conflicts.push(LineConflict { line, pairs, leave });
        }
        Explanation {
            misplaced,
            distances,
            conflicts,
        }
    }

    /// Hamming: tiles out of place.
    pub fn hamming(&self) -> u32 {
        self.misplaced.len() as u32
    }

    /// Manhattan: the sum of the tiles' distances.
    pub fn manhattan(&self) -> u32 {
        self.distances.iter().map(|d| d.distance).sum()
    }

    /// Linear conflict: Manhattan plus 2 per tile that must leave its line.
    pub fn linear_conflict(&self) -> u32 {
        self.manhattan() + self.conflicts.iter().map(LineConflict::extra).sum::<u32>()
    }
}

/// Indices of one longest strictly increasing subsequence of `v` (patience sorting with
/// back-links, O(k log k)).
fn longest_increasing(v: &[usize]) -> Vec<usize> {
    let mut tails: Vec<usize> = Vec::new(); // index into v of the tail of each length
    let mut back = vec![usize::MAX; v.len()];
    for i in 0..v.len() {
        let at = tails.partition_point(|&t| v[t] < v[i]);
        if at > 0 {
            back[i] = tails[at - 1];
        }
        if at == tails.len() {
            tails.push(i);
        } else {
            tails[at] = i;
        }
    }
    let mut out = Vec::new();
    let mut i = tails.last().copied().unwrap_or(usize::MAX);
    while i != usize::MAX {
        out.push(i);
        i = back[i];
    }
    out.reverse();
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::heuristic::{Hamming, Heuristic, LinearConflict, Manhattan};
    use crate::puzzle::GoalSpec;
    use crate::puzzle::random::random_solvable;
    use rand::SeedableRng;

    #[test]
    fn the_parts_add_up_to_the_heuristics() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(4);
        for (rows, cols) in [(3, 3), (4, 4), (2, 5), (5, 5), (3, 7)] {
            for spec in [GoalSpec::BlankLast, GoalSpec::BlankFirst] {
                let goal = spec.resolve(rows, cols).unwrap();
                let (h, m, lc) = (
                    Hamming::new(&goal),
                    Manhattan::new(&goal),
                    LinearConflict::new(&goal),
                );
                for _ in 0..2000 {
                    let b = random_solvable(&goal, &mut rng);
                    let e = Explanation::of(&b, &goal);
                    assert_eq!(e.hamming(), h.estimate(b.tiles()), "{b}");
                    assert_eq!(e.manhattan(), m.estimate(b.tiles()), "{b}");
                    assert_eq!(e.linear_conflict(), lc.estimate(b.tiles()), "{b}");
                }
            }
        }
    }

    #[test]
    fn a_reversed_row_names_its_pairs_and_the_tiles_that_leave() {
        // Row 0 holds 3 2 1: three pairs, two tiles must leave (LIS 1): +4.
        let goal = GoalSpec::BlankLast.resolve(3, 3).unwrap();
        let b: Board = "3 2 1/4 5 6/7 8 0".parse().unwrap();
        let e = Explanation::of(&b, &goal);
        assert_eq!(e.conflicts.len(), 1);
        let c = &e.conflicts[0];
        assert_eq!(c.line, Line::Row(0));
        assert_eq!(c.pairs, [(0, 1), (0, 2), (1, 2)]);
        assert_eq!((c.leave.len(), c.extra()), (2, 4));
        assert_eq!((e.manhattan(), e.linear_conflict()), (4, 8));
        assert_eq!(longest_increasing(&[2, 0, 1, 3]), [1, 2, 3]);
    }
}
