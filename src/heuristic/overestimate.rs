//! A heuristic that overestimates, for teaching: twice the Manhattan distance. Doubling an
//! admissible estimate passes the true distance on most boards, so A* with it is no longer
//! optimal: it files nodes as weighted A* with w = 2 does ([`crate::search::weight`]), and
//! returns a longer path than the optimum on many boards (`assets/examples/overestimate.txt`).
//! `auto` never picks it.

use super::{Heuristic, HeuristicKind, Incremental, Manhattan};
use crate::puzzle::Goal;

/// 2 × Manhattan distance, in moves. **Not admissible**: it overestimates (e.g. on
/// `1 2 3/4 5 6/7 0 8`, one move from the goal, it says 2), so searches with it are not
/// optimal.
#[derive(Clone, Debug)]
pub struct TwiceManhattan(Manhattan);

impl TwiceManhattan {
    /// Builds the heuristic for `goal`.
    pub fn new(goal: &Goal) -> Self {
        TwiceManhattan(Manhattan::new(goal))
    }
}

impl Heuristic for TwiceManhattan {
    fn estimate(&self, tiles: &[u8]) -> u32 {
        2 * self.0.estimate(tiles)
    }

    fn name(&self) -> &str {
        HeuristicKind::OverestimatingManhattan.name()
    }
}

impl Incremental for TwiceManhattan {
    type State = ();
    type Prepared = ();
    type Undo = ();

    fn init(&self, tiles: &[u8]) -> ((), u32) {
        ((), self.estimate(tiles))
    }

    #[inline]
    fn apply(
        &self,
        s: &mut (),
        tiles: &[u8],
        tile: u8,
        from: usize,
        to: usize,
        p: (),
        h: u32,
    ) -> (i32, ()) {
        (2 * self.0.apply(s, tiles, tile, from, to, p, h).0, ())
    }

    #[inline]
    fn undo(&self, _: &mut (), _: &[u8], _: u8, _: usize, _: usize, _: ()) {}
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::{Board, GoalSpec};

    #[test]
    fn doubles_manhattan_and_overestimates_one_move_from_the_goal() {
        let goal = GoalSpec::BlankLast.resolve(3, 3).unwrap();
        let h = TwiceManhattan::new(&goal);
        let b: Board = "1 2 3/4 5 6/7 0 8".parse().unwrap();
        assert_eq!(h.estimate(b.tiles()), 2, "one move away");
        assert_eq!(h.estimate(goal.board().tiles()), 0);
        let b: Board = "8 6 7/2 5 4/3 0 1".parse().unwrap();
        assert_eq!(h.estimate(b.tiles()), 2 * 21);
    }
}
