use std::fmt;

use super::moves::Move;

/// Smallest allowed side of a board (rows and cols), in cells.
pub const MIN_SIDE: usize = 2;
/// Largest allowed side of a board (rows and cols), in cells.
pub const MAX_SIDE: usize = 16;
/// Largest allowed number of cells (`rows × cols`); tiles must fit in a `u8`.
pub const MAX_CELLS: usize = 256;

/// Why a board could not be built from its size and tiles.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BoardError {
    /// A side is below [`MIN_SIDE`] or above [`MAX_SIDE`], or the cell count is above [`MAX_CELLS`].
    #[error(
        "board size {rows}×{cols} is outside the supported range ({MIN_SIDE}×{MIN_SIDE} up to {MAX_SIDE}×{MAX_SIDE}, at most {MAX_CELLS} cells)"
    )]
    BadSize {
        /// Rows asked for.
        rows: usize,
        /// Columns asked for.
        cols: usize,
    },
    /// The number of tiles is not `rows × cols`.
    #[error("expected {expected} tiles for a {rows}×{cols} board, found {found}")]
    WrongCount {
        /// Rows of the board.
        rows: usize,
        /// Columns of the board.
        cols: usize,
        /// `rows × cols`.
        expected: usize,
        /// Tiles given.
        found: usize,
    },
    /// A goal board of another shape than the puzzle's (a 3×2 goal for a 2×3 board).
    #[error("the goal board is {goal_rows}×{goal_cols} but the puzzle is {rows}×{cols}")]
    GoalShape {
        /// Rows of the puzzle.
        rows: usize,
        /// Columns of the puzzle.
        cols: usize,
        /// Rows of the goal board.
        goal_rows: usize,
        /// Columns of the goal board.
        goal_cols: usize,
    },
    /// A tile number is `≥ rows × cols`.
    #[error(
        "tile {tile} is out of range: a {rows}×{cols} board holds tiles 0 to {max} (0 = blank)"
    )]
    OutOfRange {
        /// The offending tile.
        tile: usize,
        /// Rows of the board.
        rows: usize,
        /// Columns of the board.
        cols: usize,
        /// Largest allowed tile, `rows × cols − 1`.
        max: usize,
    },
    /// A tile number appears more than once (so another one is missing).
    #[error(
        "tile {tile} appears twice (cells {first} and {second}, counted row-major from 0), so tile {missing} is missing"
    )]
    Duplicate {
        /// The smallest tile that does not appear.
        missing: usize,
        /// The repeated tile.
        tile: usize,
        /// First cell holding it.
        first: usize,
        /// Second cell holding it.
        second: usize,
    },
    /// There is no `0` on the board, every tile being in range (`1 … 9` on a 3×3 is told as 9
    /// out of range).
    #[error("no blank: one cell must hold 0")]
    NoBlank,
}

/// A sliding-tile board: `rows × cols` cells, row-major, `0` = blank.
///
/// Invariants (checked by [`Board::new`]): `MIN_SIDE ≤ rows, cols ≤ MAX_SIDE`,
/// `rows × cols ≤ MAX_CELLS`, and the tiles are a permutation of `0 .. rows·cols`.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct Board {
    rows: u8,
    cols: u8,
    blank: u8,
    tiles: Box<[u8]>,
}

impl Board {
    /// Builds a board from its size and its tiles in row-major order (`0` = blank).
    ///
    /// # Errors
    /// [`BoardError`] when the size is out of range, the count is not `rows × cols`, or the
    /// tiles are not a permutation of `0 .. rows·cols`, checked in this order: out of range, no
    /// blank, duplicate (which names the tile missing).
    pub fn new(rows: usize, cols: usize, tiles: &[usize]) -> Result<Self, BoardError> {
        check_size(rows, cols)?;
        let n = rows * cols;
        if tiles.len() != n {
            return Err(BoardError::WrongCount {
                rows,
                cols,
                expected: n,
                found: tiles.len(),
            });
        }
        // A tile out of range first: numbering the tiles from 1 (no 0, one too many) is then
        // told as what it is.
        let mut seen = vec![usize::MAX; n];
        let mut duplicate = None;
        for (cell, &t) in tiles.iter().enumerate() {
            if t >= n {
                return Err(BoardError::OutOfRange {
                    tile: t,
                    rows,
                    cols,
                    max: n - 1,
                });
            }
            if seen[t] != usize::MAX {
                duplicate = duplicate.or(Some((t, seen[t], cell)));
            } else {
                seen[t] = cell;
            }
        }
        if seen[0] == usize::MAX {
            return Err(BoardError::NoBlank);
        }
        if let Some((tile, first, second)) = duplicate {
            let missing = seen.iter().position(|&c| c == usize::MAX).unwrap_or(0);
            return Err(BoardError::Duplicate {
                tile,
                first,
                second,
                missing,
            });
        }
        Ok(Board {
            rows: rows as u8,
            cols: cols as u8,
            blank: seen[0] as u8,
            tiles: tiles.iter().map(|&t| t as u8).collect(),
        })
    }

    /// Builds a board from `u8` tiles; same checks and errors as [`Board::new`].
    ///
    /// # Errors
    /// As [`Board::new`].
    pub fn from_u8(rows: usize, cols: usize, tiles: &[u8]) -> Result<Self, BoardError> {
        let v: Vec<usize> = tiles.iter().map(|&t| t as usize).collect();
        Self::new(rows, cols, &v)
    }

    /// Number of rows.
    pub fn rows(&self) -> usize {
        self.rows as usize
    }

    /// Number of columns.
    pub fn cols(&self) -> usize {
        self.cols as usize
    }

    /// Number of cells, `rows × cols`.
    pub fn len(&self) -> usize {
        self.tiles.len()
    }

    /// Always `false`: a board has at least `MIN_SIDE²` cells.
    pub fn is_empty(&self) -> bool {
        false
    }

    /// The tiles in row-major order, `0` = blank.
    pub fn tiles(&self) -> &[u8] {
        &self.tiles
    }

    /// The tile at `(row, col)` (0-based).
    ///
    /// # Panics
    /// If `row ≥ rows` or `col ≥ cols`.
    pub fn get(&self, row: usize, col: usize) -> u8 {
        assert!(row < self.rows() && col < self.cols(), "cell out of range");
        self.tiles[row * self.cols() + col]
    }

    /// Cell index (row-major, 0-based) of the blank.
    pub fn blank(&self) -> usize {
        self.blank as usize
    }

    /// Cell index (row-major) where the blank would go after `m`, or `None` at an edge
    /// (moves never wrap across a row edge).
    pub fn target(&self, m: Move) -> Option<usize> {
        move_target(self.rows(), self.cols(), self.blank(), m)
    }

    /// Whether the blank can move in direction `m`.
    pub fn can_move(&self, m: Move) -> bool {
        self.target(m).is_some()
    }

    /// Moves the blank in direction `m`; returns the tile that slid, or `None` (board
    /// unchanged) if the move would leave the board.
    pub fn apply(&mut self, m: Move) -> Option<u8> {
        let to = self.target(m)?;
        let tile = self.tiles[to];
        self.tiles.swap(self.blank(), to);
        self.blank = to as u8;
        Some(tile)
    }

    /// The board after move `m`, or `None` at an edge.
    pub fn moved(&self, m: Move) -> Option<Board> {
        let mut b = self.clone();
        b.apply(m).map(|_| b)
    }

    /// Legal moves of the blank, in the order Up, Down, Left, Right.
    pub fn legal_moves(&self) -> impl Iterator<Item = Move> + '_ {
        Move::ALL.into_iter().filter(|&m| self.can_move(m))
    }

    /// The blank's move that slides the tile in `cell` into the blank: `Some` when `cell` is
    /// an orthogonal neighbour of the blank (a click on that tile), else `None`.
    pub fn move_sliding(&self, cell: usize) -> Option<Move> {
        Move::ALL
            .into_iter()
            .find(|&m| self.target(m) == Some(cell))
    }

    /// Writes the board in the Princeton client's layout: a size line (`n` for a square
    /// board, `rows cols` otherwise), then one line per row, tiles right-aligned.
    pub fn to_block_string(&self) -> String {
        let width = (self.len() - 1).to_string().len();
        let mut s = if self.rows == self.cols {
            format!("{}\n", self.rows)
        } else {
            format!("{} {}\n", self.rows, self.cols)
        };
        for r in 0..self.rows() {
            for c in 0..self.cols() {
                s.push_str(&format!(" {:>width$}", self.get(r, c)));
            }
            s.push('\n');
        }
        s
    }
}

/// Checks `MIN_SIDE ≤ rows, cols ≤ MAX_SIDE` and `rows × cols ≤ MAX_CELLS`.
///
/// # Errors
/// [`BoardError::BadSize`] otherwise.
pub fn check_size(rows: usize, cols: usize) -> Result<(), BoardError> {
    if !(MIN_SIDE..=MAX_SIDE).contains(&rows)
        || !(MIN_SIDE..=MAX_SIDE).contains(&cols)
        || rows * cols > MAX_CELLS
    {
        return Err(BoardError::BadSize { rows, cols });
    }
    Ok(())
}

/// Cell (row-major) the blank reaches from cell `blank` by move `m` on a `rows × cols` board,
/// or `None` at an edge: moves never wrap across a row edge.
pub fn move_target(rows: usize, cols: usize, blank: usize, m: Move) -> Option<usize> {
    let (r, c) = (blank / cols, blank % cols);
    match m {
        Move::Up => (r > 0).then(|| blank - cols),
        Move::Down => (r + 1 < rows).then(|| blank + cols),
        Move::Left => (c > 0).then(|| blank - 1),
        Move::Right => (c + 1 < cols).then(|| blank + 1),
    }
}

/// One-line form: rows separated by `/`, tiles by spaces, e.g. `8 6 7/2 5 4/3 0 1`.
impl fmt::Display for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for r in 0..self.rows() {
            if r > 0 {
                f.write_str("/")?;
            }
            for c in 0..self.cols() {
                if c > 0 {
                    f.write_str(" ")?;
                }
                write!(f, "{}", self.get(r, c))?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::{Board, Move};

    /// A click on a tile beside the blank slides it: the blank moves onto its cell; any other
    /// cell (the blank's own, a corner away from it) moves nothing.
    #[test]
    fn the_move_sliding_a_cell_is_the_blanks_move_onto_it() {
        let b: Board = "1 2 3/4 0 5/6 7 8".parse().unwrap();
        assert_eq!(b.move_sliding(1), Some(Move::Up));
        assert_eq!(b.move_sliding(7), Some(Move::Down));
        assert_eq!(b.move_sliding(3), Some(Move::Left));
        assert_eq!(b.move_sliding(5), Some(Move::Right));
        assert_eq!(b.move_sliding(4), None);
        assert_eq!(b.move_sliding(0), None);
        assert_eq!(b.move_sliding(9), None);
    }
}
