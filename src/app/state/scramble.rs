//! The "New" box: a board size, a seed and a walk length, and the scrambled boards they give.

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use crate::puzzle::random::{random_solvable, random_walk};
use crate::puzzle::{Board, Goal};

/// Scramble settings (plain values the Puzzle panel edits in place).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Scramble {
    /// Board size: rows, cols.
    pub size: (usize, usize),
    /// Seed of the next scramble; each scramble moves on to the next seed.
    pub seed: u64,
    /// Random-walk length (0 = a uniformly random solvable board).
    pub walk: usize,
}

impl Scramble {
    /// Seed 1, uniform boards of `size`.
    pub fn new(size: (usize, usize)) -> Self {
        Scramble {
            size,
            seed: 1,
            walk: 0,
        }
    }

    /// A scrambled board for `goal` (of [`size`](Self::size)) and its description for the
    /// title (naming the seed used); the seed then moves on, so the next call gives another.
    pub fn next(&mut self, goal: &Goal) -> (Board, String) {
        let mut rng = ChaCha8Rng::seed_from_u64(self.seed);
        let (r, c) = self.size;
        let made = if self.walk > 0 {
            (
                random_walk(goal, self.walk, &mut rng),
                format!("random walk of {} moves, seed {}", self.walk, self.seed),
            )
        } else {
            (
                random_solvable(goal, &mut rng),
                format!("random {r}×{c}, seed {}", self.seed),
            )
        };
        self.seed = self.seed.wrapping_add(1);
        made
    }
}
