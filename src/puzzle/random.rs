//! Random boards: uniform over the solvable ones, or a random walk from the goal.

use rand::Rng;
use rand::seq::SliceRandom;

use super::board::Board;
use super::goal::Goal;
use super::moves::Move;
use super::parity::is_solvable;

/// A board drawn uniformly from those that can reach `goal`.
///
/// Shuffles all cells; if the result is in the other parity class, swaps the first two
/// non-blank tiles. That swap is a bijection between the two classes with the blank fixed, so
/// the result is uniform over the solvable boards.
pub fn random_solvable<R: Rng + ?Sized>(goal: &Goal, rng: &mut R) -> Board {
    let g = goal.board();
    let mut tiles = g.tiles().to_vec();
    tiles.shuffle(rng);
    let mut b = Board::from_u8(g.rows(), g.cols(), &tiles).expect("a shuffle is a permutation");
    if !is_solvable(&b, goal) {
        let mut nz = tiles
            .iter()
            .enumerate()
            .filter(|(_, t)| **t != 0)
            .map(|(i, _)| i);
        let (i, j) = (nz.next().unwrap_or(0), nz.next().unwrap_or(1));
        tiles.swap(i, j);
        b = Board::from_u8(g.rows(), g.cols(), &tiles).expect("a swap keeps a permutation");
    }
    b
}

/// The longest random walk [`random_walk`] is asked for by the command line: 10⁷ moves (about a
/// second). A walk that long is already indistinguishable from a uniform draw on every board
/// size npuzzle solves, which [`random_solvable`] gives directly.
pub const MAX_WALK: usize = 10_000_000;

/// A board `k` random moves from the goal, never undoing the previous move (so it is at most,
/// not exactly, `k` moves from the goal). Returns the board. Takes time linear in `k`.
pub fn random_walk<R: Rng + ?Sized>(goal: &Goal, k: usize, rng: &mut R) -> Board {
    let mut b = goal.board().clone();
    let mut prev: Option<Move> = None;
    for _ in 0..k {
        let options: Vec<Move> = b
            .legal_moves()
            .filter(|&m| Some(m.inverse()) != prev)
            .collect();
        let m = options[rng.random_range(0..options.len())];
        b.apply(m);
        prev = Some(m);
    }
    b
}
