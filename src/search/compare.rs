//! What comparing heuristics needs beyond a search: the effective branching factor, and random
//! boards at an exact depth (for the textbook experiment: nodes against solution depth per
//! heuristic). Used by `npuzzle compare`; no I/O.

use rand::Rng;

use super::bfs::distance_table;
use super::rank::{rank, unrank};
use crate::puzzle::{Board, Goal};

/// The effective branching factor b* of a search that generated `nodes` nodes to find a
/// solution of `depth` moves: the branching factor of a uniform tree of that depth with
/// `nodes + 1` nodes, `nodes + 1 = 1 + b* + b*² + … + b*^depth` (Russell & Norvig,
/// *Artificial Intelligence: A Modern Approach*, §3.6.1). Solved by bisection to 10⁻⁹.
///
/// `None` for a solution of 0 moves (no tree), or fewer nodes than moves.
pub fn effective_branching_factor(nodes: u64, depth: u32) -> Option<f64> {
    if depth == 0 || nodes < u64::from(depth) {
        return None;
    }
    let target = nodes as f64;
    // Nodes of a uniform tree of branching b below its root, to `depth`.
    let tree = |b: f64| -> f64 {
        let (mut sum, mut level) = (0.0, 1.0);
        for _ in 0..depth {
            level *= b;
            sum += level;
            if sum > target {
                break;
            }
        }
        sum
    };
    let (mut lo, mut hi) = (1.0f64, target.max(1.0));
    while hi - lo > 1e-9 {
        let mid = 0.5 * (lo + hi);
        if tree(mid) < target {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    Some(0.5 * (lo + hi))
}

/// Every board's exact distance to one goal, for drawing boards at a chosen depth.
pub struct DepthTable {
    goal: Goal,
    dist: Vec<u8>,
}

impl DepthTable {
    /// The table for `goal` (one breadth-first search of the whole space), or `None` for boards
    /// of more than [`super::bfs::MAX_TABLE_CELLS`] cells.
    pub fn new(goal: &Goal) -> Option<DepthTable> {
        Some(DepthTable {
            goal: goal.clone(),
            dist: distance_table(goal)?,
        })
    }

    /// The largest distance of any board (31 for 3×3).
    pub fn max_depth(&self) -> u32 {
        self.dist
            .iter()
            .filter(|&&d| d != u8::MAX)
            .max()
            .map_or(0, |&d| u32::from(d))
    }

    /// The exact distance of `board` in moves (`None` when it cannot reach the goal).
    pub fn distance(&self, board: &Board) -> Option<u32> {
        let d = *self.dist.get(rank(board.tiles()) as usize)?;
        (d != u8::MAX).then_some(u32::from(d))
    }

    /// Up to `count` distinct boards whose optimal solution is exactly `depth` moves, drawn
    /// uniformly among all such boards (fewer when fewer exist).
    pub fn boards_at(&self, depth: u32, count: usize, rng: &mut impl Rng) -> Vec<Board> {
        // Reservoir sampling over the boards at that depth, in rank order.
        let mut picked: Vec<u64> = Vec::with_capacity(count);
        let mut seen = 0u64;
        for (r, &d) in self.dist.iter().enumerate() {
            if u32::from(d) != depth || d == u8::MAX {
                continue;
            }
            seen += 1;
            if picked.len() < count {
                picked.push(r as u64);
            } else {
                let j = rng.random_range(0..seen);
                if (j as usize) < count {
                    picked[j as usize] = r as u64;
                }
            }
        }
        let b = self.goal.board();
        let mut tiles = vec![0u8; b.len()];
        picked
            .into_iter()
            .filter_map(|r| {
                unrank(r, &mut tiles);
                Board::from_u8(b.rows(), b.cols(), &tiles).ok()
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn branching_factor_of_the_textbook_example() {
        // AIMA: a solution at depth 5 found with 52 nodes has b* = 1.92.
        let b = effective_branching_factor(52, 5).unwrap();
        assert!((b - 1.92).abs() < 0.005, "{b}");
        // A search that generates only the path has b* = 1.
        assert!((effective_branching_factor(7, 7).unwrap() - 1.0).abs() < 1e-6);
        assert_eq!(effective_branching_factor(3, 0), None);
        // A full binary tree of depth 10: 2046 nodes below the root.
        assert!((effective_branching_factor(2046, 10).unwrap() - 2.0).abs() < 1e-6);
    }
}
