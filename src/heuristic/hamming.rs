use super::{GoalTables, Heuristic, HeuristicKind, Incremental};
use crate::puzzle::Goal;

/// Hamming distance: the number of tiles (blank excluded) not on their goal cell. Admissible
/// because each misplaced tile needs at least one move; consistent because a move changes it by
/// at most 1.
#[derive(Clone, Debug)]
pub struct Hamming {
    t: GoalTables,
}

impl Hamming {
    /// Builds the heuristic for `goal`.
    pub fn new(goal: &Goal) -> Self {
        Hamming {
            t: GoalTables::new(goal),
        }
    }
}

impl Heuristic for Hamming {
    fn estimate(&self, tiles: &[u8]) -> u32 {
        tiles
            .iter()
            .enumerate()
            .filter(|&(cell, &t)| t != 0 && self.t.goal[t as usize] as usize != cell)
            .count() as u32
    }

    fn name(&self) -> &str {
        HeuristicKind::Hamming.name()
    }
}

impl Incremental for Hamming {
    type State = ();
    type Prepared = ();
    type Undo = ();

    fn init(&self, tiles: &[u8]) -> ((), u32) {
        ((), self.estimate(tiles))
    }

    #[inline]
    fn apply(
        &self,
        _: &mut (),
        _: &[u8],
        tile: u8,
        from: usize,
        to: usize,
        _: (),
        _: u32,
    ) -> (i32, ()) {
        let g = self.t.goal[tile as usize] as usize;
        (i32::from(to != g) - i32::from(from != g), ())
    }

    #[inline]
    fn undo(&self, _: &mut (), _: &[u8], _: u8, _: usize, _: usize, _: ()) {}
}
