//! Playing by hand on [`AppState`]: a move (a click, an arrow key), Undo and Redo, and an
//! optimal solution played on the board, each a step on [`Play`](super::Play)'s undo chain.
//!
//! A solution played back in the Solution panel becomes a step of its own when the player
//! goes on from the board it shows (a move, Undo, Solve from here): one Undo takes back a
//! whole played solution, as it does the coach's.

use super::{AppState, EditClick, Slide};
use crate::puzzle::{Board, Move};

impl AppState {
    /// Moves the blank (a player's move on the board shown); clears any solution. Returns
    /// whether the move was legal (and no search runs).
    pub fn move_blank(&mut self, m: Move) -> bool {
        if self.is_running() {
            return false;
        }
        self.keep_played();
        if self.board.moved(m).is_none() {
            return false;
        }
        self.make(vec![m]);
        true
    }

    /// A click on a cell: in edit mode, picks or swaps; otherwise slides the tile there into the
    /// blank if they are neighbours.
    pub fn click_cell(&mut self, cell: usize) {
        if self.is_running() || cell >= self.board.len() || self.view.focus.is_some() {
            return;
        }
        match self.editor.click(cell) {
            EditClick::Picked => return,
            EditClick::Swap(first, second) => {
                let mut t = self.board.tiles().to_vec();
                t.swap(first, second);
                if let Ok(b) = Board::from_u8(self.board.rows(), self.board.cols(), &t) {
                    self.set_board(b, "edited");
                }
                return;
            }
            EditClick::Off => {}
        }
        // The cell is one of the board shown, which a played-back solution may have moved.
        self.keep_played();
        if let Some(m) = self.board.move_sliding(cell) {
            self.move_blank(m);
        }
    }

    /// Whether Undo has a step to take back (no search running).
    pub fn can_undo(&self) -> bool {
        !self.is_running() && (self.play.chain().can_undo() || self.played() > 0)
    }

    /// Whether Redo has a step to make again (no search running).
    pub fn can_redo(&self) -> bool {
        !self.is_running() && self.play.chain().can_redo()
    }

    /// Takes back the last step (a move, or a whole solution played); the move count and the
    /// coach follow the board. Returns whether there was one.
    pub fn undo(&mut self) -> bool {
        if self.is_running() {
            return false;
        }
        self.keep_played();
        match self.play.undo() {
            Some(back) => {
                self.went(&back);
                true
            }
            None => false,
        }
    }

    /// Makes the last undone step again. Returns whether there was one.
    pub fn redo(&mut self) -> bool {
        if self.is_running() {
            return false;
        }
        self.keep_played();
        match self.play.redo() {
            Some(moves) => {
                self.went(&moves);
                true
            }
            None => false,
        }
    }

    /// Plays the coach's optimal solution of the board shown to the goal, as one step (one
    /// Undo takes it all back). Returns whether the coach had one.
    pub fn solve_from_here(&mut self) -> bool {
        if self.is_running() {
            return false;
        }
        self.keep_played();
        let Some(a) = self.play.known(&self.board).cloned() else {
            return false;
        };
        if a.moves.is_empty() {
            return false;
        }
        // Every board on the way, with the rest of the solution: Undo and Redo over them
        // need no search.
        let mut b = self.board.clone();
        let mut on_the_way = Vec::with_capacity(a.moves.len());
        for (i, &m) in a.moves.iter().enumerate() {
            on_the_way.push(crate::app::coach::Answer {
                board: b.clone(),
                moves: a.moves[i..].to_vec(),
                ..a.clone()
            });
            b.apply(m);
        }
        self.play.remember(on_the_way);
        self.make(a.moves);
        true
    }

    /// Solution moves played back from the board (the Solution panel's position; 0 when a
    /// board picked from the search is shown).
    fn played(&self) -> usize {
        if self.view.focus.is_some() || self.run.solution().is_none() {
            return 0;
        }
        self.playback.position()
    }

    /// A solution played back to a position past the start becomes the board's, as one step
    /// on the chain (the player goes on from the board shown).
    fn keep_played(&mut self) {
        let p = self.played();
        if p == 0 {
            return;
        }
        let Some(moves) = self.run.solution().map(|s| s.moves[..p].to_vec()) else {
            return;
        };
        // The coach's answers along it: the rest of the optimal solution from each board.
        let mut b = self.board.clone();
        let known = self.play.known(&b).cloned();
        let all = self
            .run
            .solution()
            .map(|s| s.moves.clone())
            .unwrap_or_default();
        let mut on_the_way = Vec::new();
        for (i, &m) in moves.iter().enumerate() {
            b.apply(m);
            if let Some(a) = &known {
                on_the_way.push(crate::app::coach::Answer {
                    board: b.clone(),
                    moves: all[i + 1..].to_vec(),
                    ..a.clone()
                });
            }
        }
        self.play.remember(on_the_way);
        self.make(moves);
    }

    /// Makes `moves` (legal on the board) as a new step: the board changes (any search result
    /// goes), the chain grows, the coach follows; a single move is animated.
    fn make(&mut self, moves: Vec<Move>) {
        let left = self.board.clone();
        let slide = self.slide_of(&moves);
        self.apply_moves(&moves);
        let (goal, cache) = (self.goal(), self.cache());
        self.play.moved(moves, &left, &self.board, goal, &cache);
        self.playback.set_slide(slide);
    }

    /// Undo or Redo made `moves`: the board changes, the coach follows.
    fn went(&mut self, moves: &[Move]) {
        let slide = self.slide_of(moves);
        self.apply_moves(moves);
        let (goal, cache) = (self.goal(), self.cache());
        self.play.went(&self.board, goal, &cache);
        self.playback.set_slide(slide);
    }

    /// The slide that animates `moves` on the board: one when it is a single move.
    fn slide_of(&self, moves: &[Move]) -> Option<Slide> {
        let [m] = moves else {
            return None;
        };
        let from = self.board.target(*m)?;
        Some(Slide {
            tile: self.board.tiles()[from],
            from,
            to: self.board.blank(),
            start: self.clock.now(),
        })
    }

    /// Applies `moves` to the board (the source kept, the search's results cleared).
    fn apply_moves(&mut self, moves: &[Move]) {
        let mut board = self.board.clone();
        for &m in moves {
            board.apply(m);
        }
        let src = self.source.clone();
        self.replace_board(board, &src);
    }
}
