//! All optimal solutions: how many there are, and the first of them in lexicographic order.
//!
//! A solution is a move sequence, so two sequences that pass through the same boards in
//! another order (transpositions) are two solutions. The searches find them in two ways:
//!
//! - IDA* ([`super::idastar`]) searches its last iteration, the one whose threshold is the
//!   optimal cost C*, to the end instead of stopping at the first goal, with "never undo" as
//!   its only pruning (an optimal path never undoes a move, and every path without an undo is
//!   in the tree exactly once), counting each goal reached (`Collector`).
//! - BFS and A* keep the best g of every board they reach. BFS has every board within C* − 1
//!   moves when it generates the goal; A* goes on after the goal until the lowest f on its open
//!   list passes C*, so it has expanded every board on an optimal path at its optimal g (with
//!   an admissible heuristic: a board first closed at a larger g is reopened when reached
//!   more cheaply). The number of optimal paths is then counted backwards from
//!   the goal over the boards one move apart whose g differ by one (`from_distances`).
//!
//! Both give the solutions in lexicographic order of move index ([`Move::ALL`]: Up, Down,
//! Left, Right), so the same board gives the same list whatever the algorithm.

use std::collections::HashMap;

use crate::puzzle::{Move, move_target};

/// Default number of solutions kept (`--max-solutions`).
pub const DEFAULT_MAX_SOLUTIONS: usize = 1000;

/// All optimal solutions of a board (a [`Solution`](super::Solution)'s `all`, when
/// [`Limits::all_solutions`](super::Limits::all_solutions) asked for them).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct AllSolutions {
    /// Number of optimal solutions (move sequences).
    pub count: u64,
    /// Whether `count` is every optimal solution. False when a limit stopped the count early
    /// (`count` is then how many were found: at least that many exist), or the count passed
    /// `u64::MAX` (then it is that).
    pub count_is_exact: bool,
    /// The first solutions in lexicographic order of the blank's moves (Up < Down < Left <
    /// Right), at most the number asked; each replayed on the start board.
    pub solutions: Vec<Vec<Move>>,
}

impl AllSolutions {
    /// Whether a limit (time, memory) stopped the count early: `count` is then how many were
    /// found, a lower bound. A count past `u64::MAX` is not exact either, but was not cut.
    pub fn cut_by_limit(&self) -> bool {
        !self.count_is_exact && self.count < u64::MAX
    }

    /// The answer for a board that has no solution: none, and that count is exact.
    pub fn none() -> AllSolutions {
        AllSolutions {
            count: 0,
            count_is_exact: true,
            solutions: Vec::new(),
        }
    }
}

/// Goals reached by one depth-first search of IDA*'s last iteration.
#[derive(Clone, Debug, Default)]
pub(crate) struct Collector {
    /// Solutions to keep.
    keep: usize,
    count: u64,
    /// The first `keep` found: in a depth-first search in move order, the smallest.
    solutions: Vec<Vec<Move>>,
}

impl Collector {
    /// A collector that keeps the first `keep` solutions.
    pub(crate) fn new(keep: usize) -> Collector {
        Collector {
            // The first is the search's answer even when no list is asked for.
            keep: keep.max(1),
            ..Collector::default()
        }
    }

    /// Records a goal reached by `path`.
    pub(crate) fn record(&mut self, path: &[Move]) {
        self.count += 1;
        if self.solutions.len() < self.keep {
            self.solutions.push(path.to_vec());
        }
    }

    /// Solutions it keeps.
    pub(crate) fn keep(&self) -> usize {
        self.keep
    }

    /// Goals recorded.
    pub(crate) fn count(&self) -> u64 {
        self.count
    }

    /// Forgets everything recorded (the top of an iteration is searched again).
    pub(crate) fn clear(&mut self) {
        self.count = 0;
        self.solutions.clear();
    }

    /// Adds what another search of the same iteration recorded.
    pub(crate) fn merge(&mut self, other: Collector) {
        self.count += other.count;
        self.solutions.extend(other.solutions);
    }

    /// The result: each search's first `keep` are its smallest, so the smallest `keep` of
    /// their union are the iteration's.
    pub(crate) fn finish(mut self, exact: bool) -> AllSolutions {
        self.solutions.sort_unstable();
        self.solutions.dedup();
        self.solutions.truncate(self.keep);
        AllSolutions {
            count: self.count,
            count_is_exact: exact,
            solutions: self.solutions,
        }
    }
}

/// All optimal solutions from `start` to `goal` (row-major, `0` = blank, `rows × cols`) of
/// cost `cost`, given `g_of`: for a board, the g a BFS or A* recorded for it (`None`: never
/// reached). `g_of` must give the exact distance from the start for every board on an optimal
/// path (see the module docs). Keeps the first `keep` solutions in lexicographic order.
pub(crate) fn from_distances(
    rows: usize,
    cols: usize,
    start: &[u8],
    goal: &[u8],
    cost: u32,
    keep: usize,
    g_of: &dyn Fn(&[u8]) -> Option<u32>,
) -> AllSolutions {
    let mut counter = Counter {
        rows,
        cols,
        start,
        goal,
        g_of,
        memo: HashMap::new(),
        saturated: false,
    };
    let mut tiles = goal.to_vec();
    let count = counter.count(&mut tiles, cost);
    // Forward from the start through the boards on optimal paths, in move order.
    let mut solutions = Vec::new();
    let mut tiles = start.to_vec();
    let mut path = Vec::new();
    if count > 0 {
        // At least the first: the search's answer is it, even when no list is asked for.
        counter.paths(&mut tiles, 0, cost, &mut path, keep.max(1), &mut solutions);
    }
    AllSolutions {
        count,
        count_is_exact: !counter.saturated,
        solutions,
    }
}

/// Counts shortest paths backwards, memoised by board.
struct Counter<'a> {
    rows: usize,
    cols: usize,
    start: &'a [u8],
    goal: &'a [u8],
    g_of: &'a dyn Fn(&[u8]) -> Option<u32>,
    /// Shortest paths from the start, for every board on an optimal path.
    memo: HashMap<Vec<u8>, u64>,
    saturated: bool,
}

impl Counter<'_> {
    /// Shortest paths from the start to `tiles`, which is `g` moves from it.
    fn count(&mut self, tiles: &mut [u8], g: u32) -> u64 {
        if g == 0 {
            return u64::from(tiles == self.start);
        }
        if let Some(&c) = self.memo.get(tiles) {
            return c;
        }
        let blank = tiles.iter().position(|&t| t == 0).unwrap_or(0);
        let mut total = 0u64;
        for m in Move::ALL {
            let Some(to) = move_target(self.rows, self.cols, blank, m) else {
                continue;
            };
            tiles.swap(blank, to);
            if (self.g_of)(tiles) == Some(g - 1) {
                let c = self.count(tiles, g - 1);
                total = total.checked_add(c).unwrap_or_else(|| {
                    self.saturated = true;
                    u64::MAX
                });
            }
            tiles.swap(blank, to);
        }
        self.memo.insert(tiles.to_vec(), total);
        total
    }

    /// Whether `tiles`, `g` moves from the start, lies on an optimal path.
    fn on_path(&self, tiles: &[u8], g: u32, cost: u32) -> bool {
        if g == cost {
            return tiles == self.goal;
        }
        self.memo.get(tiles).is_some_and(|&c| c > 0) && (self.g_of)(tiles) == Some(g)
    }

    /// Appends the optimal paths through `tiles` (`g` moves from the start by `path`), in
    /// move order, until `out` holds `keep`.
    fn paths(
        &self,
        tiles: &mut [u8],
        g: u32,
        cost: u32,
        path: &mut Vec<Move>,
        keep: usize,
        out: &mut Vec<Vec<Move>>,
    ) {
        if out.len() >= keep {
            return;
        }
        if g == cost {
            out.push(path.clone());
            return;
        }
        let blank = tiles.iter().position(|&t| t == 0).unwrap_or(0);
        for m in Move::ALL {
            let Some(to) = move_target(self.rows, self.cols, blank, m) else {
                continue;
            };
            tiles.swap(blank, to);
            if self.on_path(tiles, g + 1, cost) {
                path.push(m);
                self.paths(tiles, g + 1, cost, path, keep, out);
                path.pop();
            }
            tiles.swap(blank, to);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn collector_keeps_the_smallest_of_each_search() {
        use Move::*;
        let mut a = Collector::new(2);
        a.record(&[Up, Left]);
        a.record(&[Up, Right]);
        a.record(&[Down, Left]);
        let mut b = Collector::new(2);
        b.record(&[Left, Up]);
        b.record(&[Right, Up]);
        a.merge(b);
        let all = a.finish(true);
        assert_eq!(all.count, 5);
        assert_eq!(all.solutions, [vec![Up, Left], vec![Up, Right]]);
    }

    #[test]
    fn two_by_two_corner_has_two_paths() {
        // 2×2: blank at the top left, goal blank at the bottom right: two moves either way
        // round the square, but only one ordering leaves the tiles in place.
        let start = [0u8, 1, 3, 2];
        let goal = [1u8, 2, 3, 0];
        // g by an exhaustive BFS over the 12 boards.
        let mut g: HashMap<Vec<u8>, u32> = HashMap::new();
        g.insert(start.to_vec(), 0);
        let mut layer = vec![start.to_vec()];
        let mut d = 0;
        while !layer.is_empty() {
            d += 1;
            let mut next = Vec::new();
            for b in &layer {
                let blank = b.iter().position(|&t| t == 0).unwrap();
                for m in Move::ALL {
                    if let Some(to) = move_target(2, 2, blank, m) {
                        let mut c = b.clone();
                        c.swap(blank, to);
                        if !g.contains_key(&c) {
                            g.insert(c.clone(), d);
                            next.push(c);
                        }
                    }
                }
            }
            layer = next;
        }
        let cost = g[&goal.to_vec()];
        let all = from_distances(2, 2, &start, &goal, cost, 10, &|t| g.get(t).copied());
        assert!(all.count_is_exact);
        assert_eq!(all.count as usize, all.solutions.len());
        assert!(all.count >= 1);
        for s in &all.solutions {
            assert_eq!(s.len() as u32, cost);
        }
    }
}
