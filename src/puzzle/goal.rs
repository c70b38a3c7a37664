use super::board::{Board, BoardError, check_size};

/// Which goal board to solve towards.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub enum GoalSpec {
    /// `1 2 … N−1` then the blank in the last cell (Princeton COS 226, most textbooks). Default.
    #[default]
    BlankLast,
    /// The blank first, then `1 2 … N−1` (Korf's convention: tile `t` belongs in cell `t`).
    BlankFirst,
    /// Any board of the same size, e.g. read from a file.
    Board(Board),
}

impl GoalSpec {
    /// Short name: `blank-last`, `blank-first` or `custom`.
    pub fn name(&self) -> &'static str {
        match self {
            GoalSpec::BlankLast => "blank-last",
            GoalSpec::BlankFirst => "blank-first",
            GoalSpec::Board(_) => "custom",
        }
    }

    /// The spec that names `board` as a goal: blank-last or blank-first when it is that
    /// board of its size, else the board itself.
    pub fn of_board(board: &Board) -> GoalSpec {
        [GoalSpec::BlankLast, GoalSpec::BlankFirst]
            .into_iter()
            .find(|g| {
                g.resolve(board.rows(), board.cols())
                    .is_ok_and(|g| g.board() == board)
            })
            .unwrap_or_else(|| GoalSpec::Board(board.clone()))
    }

    /// The goal board for a `rows × cols` puzzle.
    ///
    /// # Errors
    /// [`BoardError::BadSize`] if the size is out of range, [`BoardError::GoalShape`] if a
    /// custom goal has another shape.
    pub fn resolve(&self, rows: usize, cols: usize) -> Result<Goal, BoardError> {
        check_size(rows, cols)?;
        let n = rows * cols;
        let board = match self {
            GoalSpec::BlankLast => {
                let tiles: Vec<usize> = (1..n).chain(std::iter::once(0)).collect();
                Board::new(rows, cols, &tiles)?
            }
            GoalSpec::BlankFirst => Board::new(rows, cols, &(0..n).collect::<Vec<_>>())?,
            GoalSpec::Board(b) => {
                if b.rows() != rows || b.cols() != cols {
                    return Err(BoardError::GoalShape {
                        rows,
                        cols,
                        goal_rows: b.rows(),
                        goal_cols: b.cols(),
                    });
                }
                b.clone()
            }
        };
        Ok(Goal::new(board, self.name()))
    }
}

/// A resolved goal: the goal board plus, for every tile, the cell it belongs in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Goal {
    board: Board,
    name: &'static str,
    /// `position[t]` = goal cell (row-major) of tile `t`; `position[0]` is the blank's.
    position: Vec<u8>,
}

impl Goal {
    /// Wraps a goal board; `name` is shown in reports (`blank-last`, `blank-first`, `custom`).
    pub fn new(board: Board, name: &'static str) -> Self {
        let mut position = vec![0u8; board.len()];
        for (cell, &t) in board.tiles().iter().enumerate() {
            position[t as usize] = cell as u8;
        }
        Goal {
            board,
            name,
            position,
        }
    }

    /// The goal board.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// `blank-last`, `blank-first` or `custom`.
    pub fn name(&self) -> &'static str {
        self.name
    }

    /// Goal cell (row-major) of each tile, indexed by tile number (`[0]` = the blank's cell).
    pub fn positions(&self) -> &[u8] {
        &self.position
    }

    /// Goal cell of tile `t`.
    pub fn position_of(&self, t: u8) -> usize {
        self.position[t as usize] as usize
    }
}
