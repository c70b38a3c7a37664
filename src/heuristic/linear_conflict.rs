use super::{GoalTables, Heuristic, HeuristicKind, Incremental};
use crate::puzzle::{Goal, MAX_SIDE};

/// Lines up to this length use a precomputed table indexed by the line's code; longer lines
/// are rescanned after a move. `(L+1)^L` entries: 117,649 bytes for L = 6.
const MAX_TABLE_LINE: usize = 6;

/// Manhattan distance plus linear conflicts, admissible version.
///
/// Two tiles are in linear conflict in a line (row or column) when both belong in that line
/// and their order is reversed with respect to their goal cells. To resolve all conflicts of a
/// line, some tiles must leave it and come back: at least 2 extra moves each beyond Manhattan.
/// The minimum number of tiles that must leave is `k − LIS`, where `k` is the number of tiles
/// in the line that belong to it and `LIS` is the longest increasing subsequence of their goal
/// positions. `h = MD + 2 · Σ_lines (k − LIS)`. Rows and columns add up because a row conflict
/// costs vertical moves and a column conflict horizontal ones.
///
/// Source: O. Hansson, A. Mayer, M. Yung, "Criticizing solutions to relaxed models yields
/// powerful admissible heuristics", Information Sciences 63 (1992) 207–227; R. Korf and
/// L. Taylor, "Finding optimal solutions to the twenty-four puzzle", AAAI 1996. Counting
/// "+2 for every conflicting pair" instead overestimates (e.g. `7 8 0/6 5 4/1 2 3`, optimum 26,
/// pairwise count 28) and is not used.
///
/// Consistent: a move changes Manhattan by ±1 and one line's `k − LIS` by at most 1 in the
/// opposite direction, so `h` changes by exactly ±1.
#[derive(Clone, Debug)]
pub struct LinearConflict {
    t: GoalTables,
    goal_row: Vec<u8>,
    goal_col: Vec<u8>,
    /// Row and column of each cell.
    row_of: Vec<u8>,
    col_of: Vec<u8>,
    /// `row_contrib[t * n + cell]`: tile `t`'s digit in its row's code at `cell` (0 if it does
    /// not belong in that row); likewise for columns.
    row_contrib: Vec<u32>,
    col_contrib: Vec<u32>,
    /// `k − LIS` by line code, for row length `cols` / column length `rows` when ≤ MAX_TABLE_LINE.
    row_table: Option<Vec<u8>>,
    col_table: Option<Vec<u8>>,
}

/// Per-board state: each line's code (table mode) and each line's `k − LIS`, the first
/// `rows` (`cols`) entries used. Fixed arrays, so that copying a state allocates nothing
/// (the top of an IDA* iteration keeps one for each of tens of thousands of nodes).
#[derive(Clone, Copy, Debug)]
pub struct LcState {
    row_code: [u32; MAX_SIDE],
    col_code: [u32; MAX_SIDE],
    row_lc: [u8; MAX_SIDE],
    col_lc: [u8; MAX_SIDE],
}

impl LinearConflict {
    /// Builds the heuristic for `goal`.
    pub fn new(goal: &Goal) -> Self {
        let t = GoalTables::new(goal);
        let (rows, cols, n) = (t.rows, t.cols, t.n());
        let goal_row: Vec<u8> = t.goal.iter().map(|&g| g / cols as u8).collect();
        let goal_col: Vec<u8> = t.goal.iter().map(|&g| g % cols as u8).collect();
        let mut row_contrib = vec![0u32; n * n];
        let mut col_contrib = vec![0u32; n * n];
        for tile in 1..n {
            for cell in 0..n {
                let (r, c) = (cell / cols, cell % cols);
                if goal_row[tile] as usize == r {
                    row_contrib[tile * n + cell] =
                        (u32::from(goal_col[tile]) + 1) * (cols as u32 + 1).pow(c as u32);
                }
                if goal_col[tile] as usize == c {
                    col_contrib[tile * n + cell] =
                        (u32::from(goal_row[tile]) + 1) * (rows as u32 + 1).pow(r as u32);
                }
            }
        }
        LinearConflict {
            t,
            goal_row,
            goal_col,
            row_of: (0..n).map(|c| (c / cols) as u8).collect(),
            col_of: (0..n).map(|c| (c % cols) as u8).collect(),
            row_contrib,
            col_contrib,
            row_table: (cols <= MAX_TABLE_LINE).then(|| line_table(cols)),
            col_table: (rows <= MAX_TABLE_LINE).then(|| line_table(rows)),
        }
    }

    fn row_lc(&self, tiles: &[u8], r: usize) -> u8 {
        let cols = self.t.cols;
        let mut seq = [0u8; crate::puzzle::MAX_SIDE];
        let mut k = 0;
        for &tile in &tiles[r * cols..(r + 1) * cols] {
            if tile != 0 && self.goal_row[tile as usize] as usize == r {
                seq[k] = self.goal_col[tile as usize];
                k += 1;
            }
        }
        (k - lis(&seq[..k])) as u8
    }

    fn col_lc(&self, tiles: &[u8], c: usize) -> u8 {
        let cols = self.t.cols;
        let mut seq = [0u8; crate::puzzle::MAX_SIDE];
        let mut k = 0;
        for r in 0..self.t.rows {
            let tile = tiles[r * cols + c];
            if tile != 0 && self.goal_col[tile as usize] as usize == c {
                seq[k] = self.goal_row[tile as usize];
                k += 1;
            }
        }
        (k - lis(&seq[..k])) as u8
    }

    /// Total linear-conflict term `2 · Σ (k − LIS)` of a board, in moves.
    pub fn conflicts(&self, tiles: &[u8]) -> u32 {
        let rows: u32 = (0..self.t.rows)
            .map(|r| u32::from(self.row_lc(tiles, r)))
            .sum();
        let cols: u32 = (0..self.t.cols)
            .map(|c| u32::from(self.col_lc(tiles, c)))
            .sum();
        2 * (rows + cols)
    }
}

impl Heuristic for LinearConflict {
    fn estimate(&self, tiles: &[u8]) -> u32 {
        if let (Some(rt), Some(ct)) = (&self.row_table, &self.col_table) {
            // Table mode: one pass builds every line's code.
            let (rows, cols, n) = (self.t.rows, self.t.cols, self.t.n());
            let mut row_code = [0u32; MAX_SIDE];
            let mut col_code = [0u32; MAX_SIDE];
            let mut md = 0u32;
            for (cell, &tile) in tiles.iter().enumerate() {
                let i = tile as usize * n + cell;
                md += u32::from(self.t.md[i]);
                row_code[self.row_of[cell] as usize] += self.row_contrib[i];
                col_code[self.col_of[cell] as usize] += self.col_contrib[i];
            }
            let lines: u32 = row_code[..rows]
                .iter()
                .map(|&c| u32::from(rt[c as usize]))
                .chain(col_code[..cols].iter().map(|&c| u32::from(ct[c as usize])))
                .sum();
            return md + 2 * lines;
        }
        self.t.manhattan(tiles) + self.conflicts(tiles)
    }

    fn name(&self) -> &str {
        HeuristicKind::LinearConflict.name()
    }
}

impl Incremental for LinearConflict {
    type State = LcState;
    type Prepared = ();
    type Undo = ();

    fn init(&self, tiles: &[u8]) -> (LcState, u32) {
        let (rows, cols, n) = (self.t.rows, self.t.cols, self.t.n());
        let mut row_code = [0u32; MAX_SIDE];
        let mut col_code = [0u32; MAX_SIDE];
        for (cell, &tile) in tiles.iter().enumerate() {
            row_code[cell / cols] += self.row_contrib[tile as usize * n + cell];
            col_code[cell % cols] += self.col_contrib[tile as usize * n + cell];
        }
        let mut row_lc = [0u8; MAX_SIDE];
        let mut col_lc = [0u8; MAX_SIDE];
        for r in 0..rows {
            row_lc[r] = match &self.row_table {
                Some(t) => t[row_code[r] as usize],
                None => self.row_lc(tiles, r),
            };
        }
        for c in 0..cols {
            col_lc[c] = match &self.col_table {
                Some(t) => t[col_code[c] as usize],
                None => self.col_lc(tiles, c),
            };
        }
        let st = LcState {
            row_code,
            col_code,
            row_lc,
            col_lc,
        };
        (st, self.estimate(tiles))
    }

    #[inline(always)]
    fn apply(
        &self,
        st: &mut LcState,
        tiles: &[u8],
        tile: u8,
        from: usize,
        to: usize,
        _: (),
        _: u32,
    ) -> (i32, ()) {
        (self.slide(st, tiles, tile, from, to), ())
    }

    #[inline(always)]
    fn undo(&self, st: &mut LcState, tiles: &[u8], tile: u8, from: usize, to: usize, _: ()) {
        self.slide(st, tiles, tile, to, from);
    }
}

impl LinearConflict {
    /// Accounts for `tile` having slid from `from` to `to` (`tiles`: the board after the
    /// slide); returns the change in `h`. Sliding it back restores the state.
    #[inline(always)]
    fn slide(&self, st: &mut LcState, tiles: &[u8], tile: u8, from: usize, to: usize) -> i32 {
        let n = self.t.n();
        let ti = tile as usize;
        let (fidx, tidx) = (ti * n + from, ti * n + to);
        let mut d = i32::from(self.t.md[tidx]) - i32::from(self.t.md[fidx]);
        let (gr, gc) = (self.goal_row[ti] as usize, self.goal_col[ti] as usize);
        let (fr, fc) = (self.row_of[from] as usize, self.col_of[from] as usize);
        let (tr, tc) = (self.row_of[to] as usize, self.col_of[to] as usize);
        if fc == tc {
            // Vertical slide: the tile's order within its column is unchanged (only the code
            // moves); its row changes, which matters only if one of the two is its goal row.
            if gc == fc {
                st.col_code[fc] = st.col_code[fc] + self.col_contrib[tidx] - self.col_contrib[fidx];
            }
            if gr == fr || gr == tr {
                let new = match &self.row_table {
                    Some(table) => {
                        let code =
                            st.row_code[gr] + self.row_contrib[tidx] - self.row_contrib[fidx];
                        st.row_code[gr] = code;
                        table[code as usize]
                    }
                    None => self.row_lc(tiles, gr),
                };
                d += 2 * (i32::from(new) - i32::from(st.row_lc[gr]));
                st.row_lc[gr] = new;
            }
        } else {
            // Horizontal slide: the row order is unchanged; the column changes.
            if gr == fr {
                st.row_code[fr] = st.row_code[fr] + self.row_contrib[tidx] - self.row_contrib[fidx];
            }
            if gc == fc || gc == tc {
                let new = match &self.col_table {
                    Some(table) => {
                        let code =
                            st.col_code[gc] + self.col_contrib[tidx] - self.col_contrib[fidx];
                        st.col_code[gc] = code;
                        table[code as usize]
                    }
                    None => self.col_lc(tiles, gc),
                };
                d += 2 * (i32::from(new) - i32::from(st.col_lc[gc]));
                st.col_lc[gc] = new;
            }
        }
        d
    }
}

/// Length of the longest strictly increasing subsequence (patience sorting; `seq.len() ≤ 16`).
pub(crate) fn lis(seq: &[u8]) -> usize {
    let mut tails = [0u8; crate::puzzle::MAX_SIDE];
    let mut len = 0;
    for &x in seq {
        let i = tails[..len].partition_point(|&t| t < x);
        tails[i] = x;
        if i == len {
            len += 1;
        }
    }
    len
}

/// `k − LIS` for every code of a line of length `len`: digit `i` (base `len+1`) is 0 for a
/// cell whose tile does not belong in the line, else 1 + the tile's goal position in the line.
fn line_table(len: usize) -> Vec<u8> {
    let base = len + 1;
    let size = base.pow(len as u32);
    let mut table = vec![0u8; size];
    let mut seq = Vec::with_capacity(len);
    for (code, entry) in table.iter_mut().enumerate() {
        seq.clear();
        let mut c = code;
        for _ in 0..len {
            let digit = c % base;
            c /= base;
            if digit != 0 {
                seq.push((digit - 1) as u8);
            }
        }
        *entry = (seq.len() - lis(&seq)) as u8;
    }
    table
}
