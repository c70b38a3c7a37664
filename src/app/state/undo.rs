//! The undo chain of playing by hand: each step a list of blank moves (one move by hand, or a
//! whole optimal solution played at once), taken back and done again as a unit. Unlimited: a
//! step costs a byte a move.

use crate::puzzle::Move;

/// Steps done (oldest first) and steps undone (the next to redo last).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Chain {
    done: Vec<Vec<Move>>,
    undone: Vec<Vec<Move>>,
    /// Moves in `done`, together.
    moves: u32,
}

impl Chain {
    /// Moves on the chain from the puzzle's start to the board shown.
    pub fn moves(&self) -> u32 {
        self.moves
    }

    /// Whether there is a step to undo.
    pub fn can_undo(&self) -> bool {
        !self.done.is_empty()
    }

    /// Whether there is a step to redo.
    pub fn can_redo(&self) -> bool {
        !self.undone.is_empty()
    }

    /// Moves the next undo takes back (0 when none), and the next redo makes again.
    pub fn sizes(&self) -> (usize, usize) {
        (
            self.done.last().map_or(0, Vec::len),
            self.undone.last().map_or(0, Vec::len),
        )
    }

    /// A new step of `moves` (blank moves, first first): what was undone can no longer be
    /// redone.
    pub(super) fn push(&mut self, moves: Vec<Move>) {
        self.undone.clear();
        self.moves += moves.len() as u32;
        self.done.push(moves);
    }

    /// Takes the last step back: the blank moves that undo it, in the order to make them
    /// (each move's inverse, last first); `None` when there is nothing to undo.
    pub(super) fn undo(&mut self) -> Option<Vec<Move>> {
        let step = self.done.pop()?;
        self.moves -= step.len() as u32;
        let back = step.iter().rev().map(|m| m.inverse()).collect();
        self.undone.push(step);
        Some(back)
    }

    /// Makes the last undone step again: its blank moves, first first; `None` when there is
    /// nothing to redo.
    pub(super) fn redo(&mut self) -> Option<Vec<Move>> {
        let step = self.undone.pop()?;
        self.moves += step.len() as u32;
        self.done.push(step.clone());
        Some(step)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn undo_and_redo_walk_the_chain_and_a_new_step_clears_redo() {
        let mut c = Chain::default();
        c.push(vec![Move::Up]);
        c.push(vec![Move::Left, Move::Down]);
        assert_eq!(c.moves(), 3);
        assert_eq!(c.undo(), Some(vec![Move::Up, Move::Right]));
        assert_eq!((c.moves(), c.sizes()), (1, (1, 2)));
        assert_eq!(c.redo(), Some(vec![Move::Left, Move::Down]));
        assert_eq!(c.moves(), 3);
        c.undo();
        c.undo();
        assert_eq!(c.undo(), None);
        assert!(c.can_redo());
        c.push(vec![Move::Right]);
        assert!(!c.can_redo());
        assert_eq!((c.moves(), c.redo()), (1, None));
    }
}
