//! The puzzle model: boards, moves, goals, parsing and solvability.
//!
//! A board is `rows × cols` cells in row-major order; each cell holds a tile number,
//! `1 ..= rows·cols − 1`, or `0` for the blank. Only the blank moves: a [`Move`] names the
//! direction the blank goes (the tile next to it slides the opposite way).

mod board;
mod goal;
mod moves;
pub mod parity;
pub mod parse;
pub mod random;

pub use board::{Board, BoardError, MAX_CELLS, MAX_SIDE, MIN_SIDE, check_size, move_target};
pub use goal::{Goal, GoalSpec};
pub use moves::{Move, MoveParseError, Notation, format_moves, parse_moves};
pub use parity::{Solvability, reachable_boards, reachable_boards_log10};
