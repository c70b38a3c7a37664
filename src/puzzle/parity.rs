//! Solvability relative to any goal, for every board shape.
//!
//! Each move swaps the blank with a neighbouring tile, so it flips the parity of the permutation
//! taking the goal to the board *and* the parity of the blank's Manhattan distance from its goal
//! cell. Hence `parity(permutation) == parity(blank distance)` is invariant, and for boards of at
//! least 2×2 it is also sufficient (Johnson & Story, "Notes on the 15 puzzle", American Journal
//! of Mathematics 2 (1879); Archer, "A modern treatment of the 15 puzzle", Amer. Math. Monthly
//! 106 (1999)). This one rule covers odd and even widths, any height, and any goal; the textbook
//! rules (inversions, plus the blank's row when the width is even) are special cases of it and
//! are what [`Solvability::reason`] reports; `explain.rs` says them in words for students
//! ([`Solvability::paragraphs`], [`Solvability::explain`]).

use super::board::Board;
use super::goal::Goal;

mod explain;

/// How many boards of `rows × cols` can reach a given goal: half of all placements of the
/// tiles and the blank, `(rows·cols)! / 2` (the parity invariant above splits them into two
/// classes of equal size). As `f64`, exact up to 4×4's 10,461,394,944,000; infinite above 170
/// cells (16×16 has about 4·10⁵⁰⁶): [`reachable_boards_log10`] then.
pub fn reachable_boards(rows: usize, cols: usize) -> f64 {
    (2..=rows * cols).fold(1.0f64, |acc, k| acc * k as f64) / 2.0
}

/// The base-10 logarithm of [`reachable_boards`], finite for every board size.
pub fn reachable_boards_log10(rows: usize, cols: usize) -> f64 {
    (2..=rows * cols).map(|k| (k as f64).log10()).sum::<f64>() - 2f64.log10()
}

/// The solvability verdict with the numbers behind it.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Solvability {
    /// Whether the goal can be reached from the start.
    pub solvable: bool,
    /// Inversions among the start's tiles read row-major, blank skipped, counted in goal order
    /// (pairs whose order differs from their order on the goal board).
    pub inversions: u64,
    /// Inversions of the goal board's tiles, row-major, blank skipped, in natural order `1 < 2 < …`.
    pub goal_inversions: u64,
    /// Inversions of the start board's tiles, row-major, blank skipped, in natural order.
    pub start_inversions: u64,
    /// Row of the blank on the start board (0-based from the top; the texts count from 1).
    pub blank_row: usize,
    /// Row of the blank on the goal board (0-based from the top; the texts count from 1).
    pub goal_blank_row: usize,
    /// Manhattan distance of the blank between start and goal, in moves.
    pub blank_distance: usize,
    /// Board width (columns).
    pub cols: usize,
    /// Goal name (`blank-last`, `blank-first`, `custom`).
    pub goal: String,
}

impl Solvability {
    /// Computes the verdict for `start` towards `goal` (same size; otherwise unsolvable).
    pub fn of(start: &Board, goal: &Goal) -> Solvability {
        let g = goal.board();
        let cols = start.cols();
        let same_shape = start.rows() == g.rows() && cols == g.cols();
        let tiles_only = |b: &Board, rank: &dyn Fn(u8) -> usize| -> Vec<usize> {
            b.tiles()
                .iter()
                .filter(|&&t| t != 0)
                .map(|&t| rank(t))
                .collect()
        };
        let pos = goal.positions();
        // Goal order: rank of tile t = its goal cell.
        let in_goal_order = tiles_only(start, &|t| pos[t as usize] as usize);
        let inversions = count_inversions(&in_goal_order);
        let start_inversions = count_inversions(&tiles_only(start, &|t| t as usize));
        let goal_inversions = count_inversions(&tiles_only(g, &|t| t as usize));
        let (br, bc) = (start.blank() / cols, start.blank() % cols);
        let (gr, gc) = (g.blank() / cols, g.blank() % cols);
        let blank_distance = br.abs_diff(gr) + bc.abs_diff(gc);
        // The invariant on the full permutation (blank included): cell -> goal cell of its tile.
        let full: Vec<usize> = start
            .tiles()
            .iter()
            .map(|&t| pos[t as usize] as usize)
            .collect();
        let perm_parity = permutation_parity(&full);
        let solvable = same_shape && perm_parity == blank_distance % 2;
        Solvability {
            solvable,
            inversions,
            goal_inversions,
            start_inversions,
            blank_row: br,
            goal_blank_row: gr,
            blank_distance,
            cols,
            goal: goal.name().to_string(),
        }
    }

    /// One line explaining the verdict in textbook terms: `solvable: …` or `unsolvable: …`.
    pub fn reason(&self) -> String {
        let verdict = if self.solvable {
            "solvable"
        } else {
            "unsolvable"
        };
        format!("{verdict}: {}", self.why())
    }

    /// `No solution possible: …` and the explanation, for an unsolvable board (the app's
    /// message and `compare`'s line).
    pub fn no_solution(&self) -> String {
        format!("No solution possible: {}", self.why())
    }

    /// The explanation of [`Solvability::reason`] without the verdict in front (for a line
    /// that already says it, e.g. "No solution possible: width 3 is odd, …").
    pub fn why(&self) -> String {
        if self.cols % 2 == 1 {
            format!(
                "width {} is odd, so only the inversion parity counts: {} inversion{} on the board, {} on the {} goal ({} parity)",
                self.cols,
                self.start_inversions,
                if self.start_inversions == 1 { "" } else { "s" },
                self.goal_inversions,
                self.goal,
                if self.solvable { "same" } else { "different" }
            )
        } else {
            format!(
                "width {} is even, so inversions + the blank's row (from the top, starting at 1) count: {} + row {} on the board, {} + row {} on the {} goal ({} parity)",
                self.cols,
                self.start_inversions,
                self.blank_row + 1,
                self.goal_inversions,
                self.goal_blank_row + 1,
                self.goal,
                if self.solvable { "same" } else { "different" }
            )
        }
    }
}

/// Whether `start` can reach `goal`; see [`Solvability::of`] for the numbers.
pub fn is_solvable(start: &Board, goal: &Goal) -> bool {
    Solvability::of(start, goal).solvable
}

/// Number of pairs `i < j` with `v[i] > v[j]`; O(n²), n ≤ 256.
pub fn count_inversions(v: &[usize]) -> u64 {
    let mut n = 0u64;
    for i in 0..v.len() {
        for j in i + 1..v.len() {
            n += u64::from(v[i] > v[j]);
        }
    }
    n
}

/// The pairs of tiles in the wrong order on `board` read row by row, the blank skipped:
/// `(a, b)` with `a` read before `b` and `a > b`, ordered by where `a` is read, then `b`.
/// Their number is the board's own count ([`Solvability::start_inversions`]); at most
/// n(n − 1)/2 pairs for n tiles (32 385 on 16×16).
pub fn inverted_pairs(board: &Board) -> Vec<(u8, u8)> {
    let tiles: Vec<u8> = board.tiles().iter().copied().filter(|&t| t != 0).collect();
    let mut out = Vec::new();
    for (i, &a) in tiles.iter().enumerate() {
        out.extend(tiles[i + 1..].iter().filter(|&&b| a > b).map(|&b| (a, b)));
    }
    out
}

/// `pairs` as `(7, 3), (7, 5), (8, 5)`: the first `max` of them, then `… and N more` when
/// there are more; `none` when there are none.
pub fn pairs_text(pairs: &[(u8, u8)], max: usize) -> String {
    if pairs.is_empty() {
        return "none".into();
    }
    let shown: Vec<String> = pairs
        .iter()
        .take(max)
        .map(|(a, b)| format!("({a}, {b})"))
        .collect();
    let mut s = shown.join(", ");
    if pairs.len() > max {
        s.push_str(&format!(", … and {} more", pairs.len() - max));
    }
    s
}

/// Parity (0 even, 1 odd) of a permutation of `0..n`, by counting cycles: `(n − cycles) mod 2`.
pub fn permutation_parity(p: &[usize]) -> usize {
    let mut seen = vec![false; p.len()];
    let mut cycles = 0;
    for i in 0..p.len() {
        if !seen[i] {
            cycles += 1;
            let mut j = i;
            while !seen[j] {
                seen[j] = true;
                j = p[j];
            }
        }
    }
    (p.len() - cycles) % 2
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reachable_boards_are_half_the_placements() {
        assert_eq!(reachable_boards(3, 3), 181_440.0);
        assert_eq!(reachable_boards(2, 3), 360.0);
        assert_eq!(reachable_boards(4, 4), 10_461_394_944_000.0);
        assert!((reachable_boards_log10(3, 3) - 181_440f64.log10()).abs() < 1e-9);
        assert!(reachable_boards(16, 16).is_infinite());
        let l = reachable_boards_log10(16, 16);
        assert!((506.0..507.0).contains(&l), "{l}");
    }
}
