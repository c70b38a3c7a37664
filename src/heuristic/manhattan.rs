use super::{GoalTables, Heuristic, HeuristicKind, Incremental};
use crate::puzzle::Goal;

/// Manhattan distance: the sum over tiles (blank excluded) of `|Δrow| + |Δcol|` to the goal
/// cell, in moves. Admissible and consistent: a move changes one tile's distance by exactly 1.
#[derive(Clone, Debug)]
pub struct Manhattan {
    t: GoalTables,
}

impl Manhattan {
    /// Builds the heuristic for `goal`.
    pub fn new(goal: &Goal) -> Self {
        Manhattan {
            t: GoalTables::new(goal),
        }
    }
}

impl Heuristic for Manhattan {
    fn estimate(&self, tiles: &[u8]) -> u32 {
        self.t.manhattan(tiles)
    }

    fn name(&self) -> &str {
        HeuristicKind::Manhattan.name()
    }
}

impl Incremental for Manhattan {
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
        (self.t.md_delta(tile, from, to), ())
    }

    #[inline]
    fn undo(&self, _: &mut (), _: &[u8], _: u8, _: usize, _: usize, _: ()) {}
}
